#!/usr/bin/env bash
# Times two builds of gemmkit in one run, interleaved, so that a change's effect
# on speed is told apart from run-to-run noise: the tree this script is in
# ("after") and an older tree given as a tarball ("before", e.g. from
# `git archive --format=tar.gz -o .deps/baseline.tar.gz COMMIT`). Each round
# runs the same benchmarks on both; ROUNDS rounds alternate their order.
#
#   bench/before-after.sh BASELINE.tar.gz OUTDIR
#
# Environment: ROUNDS (default 2), BEST_SIZES (default 1024:8192:x2,4097),
# TRANSPOSE_SIZES (default 4096,8192,5001x3007), BUDGET (seconds, default 480).
# The machine's setup (NVIDIA's OpenCL driver, carried packages) is bench/gpu-env.sh's.
set -uo pipefail
baseline=${1:?usage: bench/before-after.sh BASELINE.tar.gz OUTDIR}
out=${2:?usage: bench/before-after.sh BASELINE.tar.gz OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
baseline=$(cd "$(dirname "$baseline")" && pwd)/$(basename "$baseline")

. "$root/bench/gpu-env.sh"
gk_steps_begin "$out" "${BUDGET:-480}" || exit 2
before_src=$(mktemp -d)
tar xzf "$baseline" -C "$before_src" || { gk_log "cannot unpack $baseline"; exit 1; }
for side in before after; do
  src=$root
  [ $side = before ] && src=$before_src
  gk_step "build-$side" 240 bash -c "cmake -S '$src' -B '$src/build-ba' -DCMAKE_BUILD_TYPE=Release \
    ${CMAKE_PREFIX_PATH:+-DCMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH} && cmake --build '$src/build-ba' -j $(nproc)" ||
    exit 1
done
gemmkit_before=$before_src/build-ba/gemmkit gemmkit_after=$root/build-ba/gemmkit

best_sizes=${BEST_SIZES:-1024:8192:x2,4097}
transpose_sizes=${TRANSPOSE_SIZES:-4096,8192,5001x3007}
for round in $(seq 1 "${ROUNDS:-2}"); do
  order="before after"
  [ $((round % 2)) = 0 ] && order="after before"
  for side in $order; do
    bin=gemmkit_$side
    gk_step "best-$side-$round" 120 "${!bin}" bench --kernel best --sizes "$best_sizes" --repeat 10 --no-baseline \
      --no-peers
    gk_step "transpose-$side-$round" 120 "${!bin}" bench --transpose --kernel best --sizes "$transpose_sizes" \
      --repeat 10 --no-peers
  done
done
# One table: GFLOPS (SGEMM) or GB/s (transposes) per size, a column per side and round.
for kind in best transpose; do
  echo "== $kind: run size GFLOPS-or-GB/s (from the median kernel time) call_ms (median call, pack/unpack included)"
  for f in "$gk_out"/$kind-*.log; do
    # The call time follows the kernel time's "[min-max]" (SGEMM rows have error columns before it).
    awk -v run="$(basename "$f" .log)" '$1 ~ /^best/ && $2 ~ /^[0-9]/ {
      for (i = 4; i < NF; i++) if ($i ~ /^\[/) break
      print run, $2, $3, "call_ms=" $(i + 1)
    }' "$f"
  done | sort -k2,2 -k1,1
done | tee "$gk_out/summary.txt"
gk_steps_end
