#!/usr/bin/env bash
# Candidate lines of the wgmma kernels on the GPU machine (or, with
# KERNELS=xgemm, of the mma.sync kernels xgemm-tf32 / xgemm-3xtf32, on BACKEND),
# checked before they are timed: (1) `gemmkit verify` of each line (a native and
# an odd shape); (2) test_math_modes through BACKEND with a tuning database of the
# two lines, so that the policy runs them on every edge, transpose, layout,
# leading dimension and alpha/beta of that suite, and again with POLICY's rows
# appended to the built-in policy (e.g. copies that every call then takes);
# (3) the cases' timings beside cuBLAS (bench/compare-kernels.sh, MATH per
# kernel; the 3xTF32 runs report their error beside cuBLAS fp32's).
#
# usage: bench/wgmma-lines.sh OUTDIR [ARCHIVE.tar.gz]
# Environment: TF32, X3 (the xgemm-wgmma-tf32 and -3xtf32 parameters to check; default PIPE=1 as measured on
#   2026-11-23), CASES (timed cases: CASES-tf32.txt and CASES-3xtf32.txt, default bench/cases/wgmma-pipe),
#   POLICY (policy rows for step 2's second run; none: no second run), BUILD (default build-gpu), BUDGET
#   (seconds, default 540), BACKEND (cuda, the default, or opencl), KERNELS (the kernels' names less -tf32 and
#   -3xtf32: xgemm-wgmma, the default, or xgemm; TF32 and X3 have no default then). The tuning database is left
#   in OUTDIR/lines-tuning.tsv (GEMMKIT_TUNING_DB).
set -uo pipefail

. "$(dirname "$0")/usage.sh"
gk_usage_check 1 2 "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
archive=${2:-}
backend=${BACKEND:-cuda}
kernels=${KERNELS:-xgemm-wgmma}
if [ "$kernels" = xgemm-wgmma ]; then
  tf32=${TF32:-WARPS_M=8,NI=32,TSK=32,STAGES=4,PIPE=1}
  x3=${X3:-WARPS_M=8,NI=16,TSK=32,STAGES=4,PIPE=1,SUM_TILES=2}
else
  tf32=${TF32:?bench/wgmma-lines.sh: TF32 names the $kernels-tf32 line} x3=${X3:?bench/wgmma-lines.sh: X3 names the $kernels-3xtf32 line}
fi
cases=${CASES:-$root/bench/cases/wgmma-pipe}
. "$root/bench/gpu-env.sh"
gk_steps_begin "$1" "${BUDGET:-540}" || exit 2
out=$gk_out
build=${BUILD:-$root/build-gpu}
GK_TARGETS="gemmkit_cli test_math_modes" gk_build "$build" || exit 1
[ "$backend" = opencl ] || gk_has_cuda "$gk_gemmkit" || { gk_log "no CUDA device"; exit 1; }
export GEMMKIT_DEVICE=${GEMMKIT_DEVICE:-NVIDIA}

# (1) each line verified.
gk_step verify-tf32 60 "$gk_gemmkit" --backend "$backend" verify --kernel "$kernels-tf32" --params "$tf32"
gk_step verify-3xtf32 60 "$gk_gemmkit" --backend "$backend" verify --kernel "$kernels-3xtf32" --params "$x3"

# (2) the policy on these lines: the math-mode suite. The device's exact name
# makes the lines as specific as the built-in ones, which they then override.
# (`gemmkit devices`: "  [0] PLATFORM | NAME (GPU)" under the "CUDA:" or "OpenCL:" heading; OpenCL's
# first device of GEMMKIT_DEVICE's platform is the one the suite takes).
heading=CUDA
[ "$backend" = opencl ] && heading=OpenCL
device=$("$gk_gemmkit" --backend "$backend" devices 2>/dev/null |
  awk -v h="$heading:" -v want="$GEMMKIT_DEVICE" '$1 == h {in_b = 1; next} /^[A-Za-z]+:/ {in_b = 0}
    in_b && /^  \[[0-9]+\] / && index($0, want) {sub(/^[^|]*\| /, ""); sub(/ \((GPU|CPU\/other)\)$/, ""); print; exit}')
db=$out/lines-tuning.tsv
{
  printf '%s\t%s\t%s-3xtf32\t%s\t0\t%s\n' "$backend" "$device" "$kernels" "$x3" "$(date +%F)"
  printf '%s\t%s\t%s-tf32\t%s\t0\t%s\n' "$backend" "$device" "$kernels" "$tf32" "$(date +%F)"
} >"$db"
gk_log "tuning lines for \"$device\": $db"
gk_step math-modes-lines 120 env GEMMKIT_BACKEND="$backend" GEMMKIT_TUNING_DB="$db" "$build/tests/test_math_modes"
if [ -n "${POLICY:-}" ]; then
  cat "$root/src/kernels/tuning/policy.tsv" "$POLICY" >"$out/lines-policy.tsv"
  gk_step math-modes-policy 120 env GEMMKIT_BACKEND="$backend" GEMMKIT_TUNING_DB="$db" GEMMKIT_POLICY="$out/lines-policy.tsv" \
    "$build/tests/test_math_modes"
fi

# (3) the timings.
for mode in tf32 3xtf32; do
  gk_budget "compare-$mode" 150 || continue
  KERNELS="$kernels-$mode" MATH=$mode PEERS=cublas BACKENDS="$backend" BUILD=$build BUDGET=$gk_limit \
    bash "$root/bench/compare-kernels.sh" "$cases-$mode.txt" "$out/compare-$mode" \
    >"$out/compare-$mode.log" 2>&1 || gk_failed+=("compare-$mode")
done

[ -n "$archive" ] && tar czf "$archive" -C "$out" . && gk_log "packed $out into $archive"
gk_steps_end
