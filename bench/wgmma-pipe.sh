#!/usr/bin/env bash
# xgemm-wgmma's PIPE=1 (a group of wgmmas in flight across tiles) on the GPU
# machine, checked before it is timed: (1) `gemmkit verify` of the PIPE
# parameter sets of bench/cases/wgmma-pipe-*.txt (a native and an odd shape
# each); (2) test_math_modes through the CUDA backend with a tuning database
# whose lines give both wgmma kernels PIPE=1, so that the policy runs them on
# every edge, transpose, layout, leading dimension and alpha/beta of that
# suite; (3) the cases' timings beside the lines now in use and cuBLAS
# (bench/compare-kernels.sh, MATH per kernel; the 3xTF32 runs report their
# error beside cuBLAS fp32's).
#
# usage: bench/wgmma-pipe.sh OUTDIR [ARCHIVE.tar.gz]
# Environment: BUILD (default build-gpu), BUDGET (seconds, default 540).
set -uo pipefail

if [ $# -lt 1 ] || [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
archive=${2:-}
. "$root/bench/gpu-env.sh"
gk_steps_begin "$1" "${BUDGET:-540}" || exit 2
out=$gk_out
build=${BUILD:-$root/build-gpu}
GK_TARGETS="gemmkit_cli test_math_modes" gk_build "$build" || exit 1
gk_has_cuda "$gk_gemmkit" || { gk_log "no CUDA device"; exit 1; }

# (1) every PIPE line of the cases, verified.
for mode in tf32 3xtf32; do
  for params in $(grep -v '^#' "$root/bench/cases/wgmma-pipe-$mode.txt" | awk '$3 ~ /PIPE=1/ {print $3}' | sort -u); do
    gk_step "verify-$mode-$params" 60 "$gk_gemmkit" --backend cuda verify --kernel "xgemm-wgmma-$mode" \
      --params "$params"
  done
done

# (2) the policy on PIPE lines: the math-mode suite. The device's exact name
# makes the lines as specific as the built-in ones, which they then override.
# (`gemmkit devices`: "  [0] PLATFORM | NAME (GPU)" under the "CUDA:" heading).
device=$("$gk_gemmkit" --backend cuda devices 2>/dev/null |
  awk '/^CUDA:/ {cuda = 1} cuda && /^  \[0\] / {sub(/^[^|]*\| /, ""); sub(/ \((GPU|CPU\/other)\)$/, ""); print; exit}')
db=$out/pipe-tuning.tsv
{
  printf 'cuda\t%s\txgemm-wgmma-3xtf32\tWARPS_M=8,NI=16,TSK=32,STAGES=4,PIPE=1,SUM_TILES=2\t0\t%s\n' "$device" "$(date +%F)"
  printf 'cuda\t%s\txgemm-wgmma-tf32\tWARPS_M=8,NI=32,TSK=32,STAGES=4,PIPE=1\t0\t%s\n' "$device" "$(date +%F)"
} >"$db"
gk_log "tuning lines for \"$device\": $db"
gk_step math-modes-pipe 120 env GEMMKIT_BACKEND=cuda GEMMKIT_TUNING_DB="$db" "$build/tests/test_math_modes"

# (3) the timings.
for mode in tf32 3xtf32; do
  gk_budget "compare-$mode" 150 || continue
  KERNELS="xgemm-wgmma-$mode" MATH=$mode PEERS=cublas BACKENDS=cuda BUILD=$build BUDGET=$gk_limit \
    bash "$root/bench/compare-kernels.sh" "$root/bench/cases/wgmma-pipe-$mode.txt" "$out/compare-$mode" \
    >"$out/compare-$mode.log" 2>&1 || gk_failed+=("compare-$mode")
done

[ -n "$archive" ] && tar czf "$archive" -C "$out" . && gk_log "packed $out into $archive"
gk_steps_end
