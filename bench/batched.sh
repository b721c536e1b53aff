#!/usr/bin/env bash
# Issue 16's table: strided batched SGEMM (beta = 0, column-major NN, tight strides) against
# cublasSgemmStridedBatched and CLBlastSgemmStridedBatched in the same run, plus the copy bandwidth
# that the memory-bound rows are judged by (bench --transpose, copy-fast).
#
#   bench/batched.sh OUTDIR [GEMMKIT]      (GEMMKIT: the tool, default build-gpu/gemmkit, else build/gemmkit)
#
# Environment: BACKEND (opencl or cuda, default opencl), REPEAT (default 20).
# Writes OUTDIR/batched-BATCHxN.json and .txt per row and OUTDIR/copy.json; docs/BENCHMARK.md, "Batched".
set -uo pipefail
out=${1:?usage: bench/batched.sh OUTDIR [GEMMKIT]}
root=$(cd "$(dirname "$0")/.." && pwd)
gemmkit=${2:-$root/build-gpu/gemmkit}
[ -x "$gemmkit" ] || gemmkit=$root/build/gemmkit
backend=${BACKEND:-opencl}
repeat=${REPEAT:-20}
mkdir -p "$out" || exit 1
status=0
for row in 100000x8 100000x16 10000x32 10000x64 1000x128 100x512 16x2048; do
  batch=${row%x*} n=${row#*x}
  "$gemmkit" --backend "$backend" bench --batch "$batch" --sizes "$n" --repeat "$repeat" --no-baseline \
    --json "$out/batched-$row.json" | tee "$out/batched-$row.txt" || status=1
done
"$gemmkit" --backend "$backend" bench --transpose --kernel copy-fast --sizes 8192 --repeat "$repeat" \
  --json "$out/copy.json" | tee "$out/copy.txt" || status=1
exit $status
