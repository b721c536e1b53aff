#!/usr/bin/env bash
# Issue 14's sweep target: the fp32-accurate mode (3xtf32, or MODE) beside cuBLAS pure fp32 on every shape of
# issue 13's sweep with M, N and K >= 1024, the squares and rectangles in column-major NN and every transpose and
# layout at 4096 and 4095: `gemmkit bench --kernel best --math MODE --peers cublas` per backend (CUDA when it
# sees a device, then OpenCL), OUTDIR/BACKEND-LAYOUT-OP.json each; last bench/math_sweep.py's table
# (OUTDIR/math-sweep.md: TFLOPS, ratio to cuBLAS fp32, max error beside cuBLAS fp32's, flags under 1.5x).
#
# usage: bench/math-sweep.sh OUTDIR [ARCHIVE.tar.gz]
# Environment: MODE (default 3xtf32), BACKENDS (default "cuda opencl"), REPEAT (default 3), BUDGET (seconds,
#   default 420), BUILD (default build-gpu), GEMMKIT_DEVICE (the OpenCL device, default NVIDIA), SQUARES (the
#   col NN sizes, default the sweep's), VARIANTS (the other transposes' and layouts' sizes, default 4096,4095;
#   empty: none).
set -uo pipefail
. "$(dirname "$0")/usage.sh"
gk_usage_check 1 2 "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
archive=${2:-}
. "$root/bench/gpu-env.sh"
export GEMMKIT_DEVICE=${GEMMKIT_DEVICE:-NVIDIA}
gk_steps_begin "$1" "${BUDGET:-420}" || exit 2
out=$gk_out
gk_build "${BUILD:-$root/build-gpu}" || exit 1
gemmkit=$gk_gemmkit
mode=${MODE:-3xtf32}
squares=${SQUARES:-1024,2048,4096,8192,16384,1500,2049,4095,7001,4096x11008x4096,11008x4096x4096}
variants=${VARIANTS-4096,4095}

jsons=()
run() { # BACKEND LAYOUT OP SIZES
  local device=$GEMMKIT_DEVICE name="$1-$2-$3"
  [ "$1" = cuda ] && device=
  rm -f "$out/$name.json"
  GEMMKIT_DEVICE=$device gk_step "$name" 120 "$gemmkit" --backend "$1" bench --kernel best --math "$mode" \
    --layout "$2" --trans "$3" --sizes "$4" --repeat "${REPEAT:-3}" --max-time 4 --no-baseline --peers cublas \
    --json "$out/$name.json"
  [ -s "$out/$name.json" ] && jsons+=("$out/$name.json")
}
for backend in ${BACKENDS:-cuda opencl}; do
  if [ "$backend" = cuda ] && ! gk_has_cuda "$gemmkit"; then
    gk_log "cuda: skipped, no CUDA device"
    continue
  fi
  run "$backend" col NN "$squares"
  [ -n "$variants" ] || continue
  for layout in col row; do
    for op in NN NT TN TT; do
      [ "$layout/$op" = col/NN ] && continue
      run "$backend" "$layout" "$op" "$variants"
    done
  done
done
if [ ${#jsons[@]} -gt 0 ]; then
  python3 "$root/bench/math_sweep.py" "${jsons[@]}" >"$out/math-sweep.md" 2>&1 || gk_failed+=("summary")
fi
[ -n "$archive" ] && tar czf "$archive" -C "$out" . && gk_log "packed $out into $archive"
[ -s "$out/math-sweep.md" ] && cat "$out/math-sweep.md"
gk_steps_end
