#!/usr/bin/env bash
# Times several SGEMM kernels on the same shapes with the same parameters, in
# one run, so that one kernel can be judged against another (e.g. xgemm-direct,
# which reads the operands as stored, against xgemm with its packing): for each
# case line, `gemmkit bench --kernel K --params P` for every K in KERNELS, on
# each backend; then a table of kernel and call times (ms) side by side.
#
#   bench/compare-kernels.sh CASES OUTDIR [ARCHIVE.tar.gz]
#
# CASES: a file of lines "SIZES TRANS PARAMS" (PARAMS "-" for the defaults;
# '#' starts a comment). Environment: KERNELS (default "xgemm xgemm-direct"),
# BACKENDS (default "opencl cuda", those without a device skipped), REPEAT
# (default 5), BUDGET (seconds, default 300), BUILD (default build-gpu), PEERS (e.g.
# "cublas": those peers timed beside every case, a column each; default none), BATCH (a
# strided batch of that many matrices per case: batched kernels, `bench --batch`), MATH
# (`bench --math`: tensor-core kernels; PEERS=cublas puts cuBLAS fp32 and TF32 beside).
# Call times are also given as GFLOPS (gflops.md), so that parameter sets of one
# kernel on several case lines of the same shape compare with the peers at a glance.
# The machine's setup (NVIDIA's OpenCL driver, carried packages) is bench/gpu-env.sh's.
set -uo pipefail
cases=${1:?usage: bench/compare-kernels.sh CASES OUTDIR [ARCHIVE.tar.gz]}
root=$(cd "$(dirname "$0")/.." && pwd)
archive=${3:-}

. "$root/bench/gpu-env.sh"
export GEMMKIT_DEVICE=${GEMMKIT_DEVICE:-NVIDIA}
gk_steps_begin "${2:?usage: bench/compare-kernels.sh CASES OUTDIR [ARCHIVE.tar.gz]}" "${BUDGET:-300}" || exit 2
out=$gk_out
gk_build "${BUILD:-$root/build-gpu}" || exit 1
gemmkit=$gk_gemmkit

backends=()
for backend in ${BACKENDS:-opencl cuda}; do
  if [ "$backend" = cuda ] && ! gk_has_cuda "$gemmkit"; then
    gk_log "cuda: skipped, no CUDA device"
    continue
  fi
  backends+=("$backend")
done

peer_args=(--no-peers)
[ -n "${PEERS:-}" ] && peer_args=(--peers "$PEERS")

i=0
while read -r sizes trans params; do
  case "$sizes" in '' | '#'*) continue ;; esac
  i=$((i + 1))
  for backend in "${backends[@]}"; do
    device=$GEMMKIT_DEVICE
    [ "$backend" = cuda ] && device= # GEMMKIT_DEVICE names an OpenCL device
    for kernel in ${KERNELS:-xgemm xgemm-direct}; do
      args=(--kernel "$kernel" --sizes "$sizes" --trans "$trans")
      [ "$params" != - ] && args+=(--params "$params")
      [ -n "${BATCH:-}" ] && args+=(--batch "$BATCH")
      [ -n "${MATH:-}" ] && args+=(--math "$MATH")
      GEMMKIT_DEVICE=$device gk_step "$i-$backend-$kernel" 60 "$gemmkit" --backend "$backend" bench "${args[@]}" \
        --repeat "${REPEAT:-5}" --max-time 10 "${peer_args[@]}" --no-baseline --json "$out/$i-$backend-$kernel.json"
    done
  done
done <"$cases"

python3 "$root/bench/compare_tables.py" "$out" "$cases"
[ -n "$archive" ] && tar czf "$archive" -C "$out" . && gk_log "packed $out into $archive"
cat "$out/compare.md" "$out/gflops.md"
gk_steps_end
