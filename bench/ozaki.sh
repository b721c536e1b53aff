#!/usr/bin/env bash
# Issue 38's check and timing of math mode int8x (the Ozaki scheme II, docs/MATH.md) on the GPU machine, in
# order of what matters should the budget run out:
#   1. a Release build of the command, the library and (where cmocka is carried) test_ozaki;
#   2. per backend (CUDA when built and it sees a device, then OpenCL): `gemmkit verify --math int8x` (every
#      int8x kernel by name, ozaki-igemm-wgmma (Hopper, CUDA), the tensor-core ozaki-igemm-tc and the portable
#      ozaki-igemm, against float64 with fresh inputs and a NaN-poisoned C) and the call by policy at 4096 and
#      8192 beside cuBLAS fp32
#      (`gemmkit bench --kernel best --math int8x --peers cublas`, OUTDIR/BACKEND-int8x-uniform.json), then
#      3xtf32 the same way for the comparison;
#   3. the accuracy table (bench/ozaki_accuracy.py, OUTDIR/accuracy.md): max / median componentwise relative
#      error, max error of (|A||B|)ij and L2 relative error against float64, phi in {0, 0.5, 1, 2, 4}, int8x at
#      the default, the scheme at auto and 6-14 moduli beside cuBLAS fp32 (PyTorch), gemmkit fp32 and 3xtf32, n = ACC_N
#      (4096: K where the policy runs int8x as the scheme on GPUs, docs/MATH.md);
#   4. ozaki-igemm-tc's other parameter lines at 8192 (CUDA), one traced int8x call at 8192 per backend
#      (GEMMKIT_TRACE: each step's device time: slicing (norms, residues), products, recombination; summed by
#      bench/ozaki_steps.py into OUTDIR/steps-BACKEND.md with each step's least traffic and rate), and
#      test_ozaki on each backend.
# Last it prints bench/math_summary.py's speed table (OUTDIR/speed.md), the accuracy table and the step times.
#
# usage: bench/ozaki.sh OUTDIR [ARCHIVE.tar.gz]
#   ARCHIVE: also pack OUTDIR into one file (for the device tool: "$OUT/ozaki.tar.gz")
# Environment: BUDGET (seconds for the whole script, default 200), JOBS (build jobs), BUILD (default
#   build-gpu), SIZES (default 4096,8192), ACC_N (default 4096), MODULI (the accuracy table's, default
#   6,7,8,9,10,12,14), SEED (default 38), GEMMKIT_DEVICE (OpenCL device, default NVIDIA), QUICK=1: sizes 64,96,
#   ACC_N 128, no trace: a dry run on a CPU (GEMMKIT_DEVICE=pocl), where only the portable kernel runs.
set -uo pipefail

. "$(dirname "$0")/usage.sh"
gk_usage_check 1 2 "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
archive=${2:-}

. "$root/bench/gpu-env.sh"
export GEMMKIT_DEVICE=${GEMMKIT_DEVICE:-NVIDIA}
gk_steps_begin "$1" "${BUDGET:-200}" || exit 2
out=$gk_out
build=${BUILD:-$root/build-gpu}
GK_TARGETS="gemmkit_cli gemmkit" gk_build "$build" || exit 1
gemmkit=$gk_gemmkit

sizes=${SIZES:-4096,8192} acc_n=${ACC_N:-4096} trace_n=8192
if [ "${QUICK:-0}" = 1 ]; then
  sizes=${SIZES:-64,96} acc_n=${ACC_N:-128} trace_n=
fi
export GEMMKIT_SEED=${SEED:-38}
backends=()
if gk_has_cuda "$gemmkit"; then
  backends+=(cuda)
else
  gk_log "cuda: skipped, no CUDA device (or gemmkit built without the CUDA backend)"
fi
backends+=(opencl)
device_of() { [ "$1" = cuda ] && echo "" || echo "$GEMMKIT_DEVICE"; } # GEMMKIT_DEVICE names an OpenCL device

# bench BACKEND MODE: the call by policy beside cuBLAS fp32, its JSON listed in jsons.
jsons=()
bench() {
  local name="$1-$2-uniform"
  rm -f "$out/$name.json"
  GEMMKIT_DEVICE=$(device_of "$1") gk_step "$name" 60 "$gemmkit" --backend "$1" bench --kernel best --math "$2" \
    --sizes "$sizes" --repeat 3 --max-time 2 --no-baseline --peers cublas --json "$out/$name.json"
  [ -s "$out/$name.json" ] && jsons+=("$out/$name.json")
}
for backend in "${backends[@]}"; do
  GEMMKIT_DEVICE=$(device_of "$backend") gk_step "verify-$backend" 40 "$gemmkit" --backend "$backend" verify \
    --math int8x
  bench "$backend" int8x
done

# The accuracy table on the first backend (the products are exact: the backends give the same results).
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}" GEMMKIT_LIBRARY="$build/libgemmkit.so"
GEMMKIT_DEVICE=$(device_of "${backends[0]}") gk_step accuracy 60 python3 "$root/bench/ozaki_accuracy.py" \
  --backend "${backends[0]}" --n "$acc_n" --moduli "${MODULI:-6,7,8,9,10,12,14}" --seed "$GEMMKIT_SEED"
cp "$out/accuracy.log" "$out/accuracy.md" 2>/dev/null

for backend in "${backends[@]}"; do
  bench "$backend" 3xtf32
done
# The tensor-core kernel's other lines at 8192 (CUDA), for the next tuning step: the 128 x 256 tile (one work-group
# a multiprocessor), 32 x 64 warp tiles, the longest K slots that fit.
if [ -n "$trace_n" ] && [ "${backends[0]}" = cuda ]; then
  for params in WARPS_N=4,TSK=32,STAGES=4 WARPS_M=4,WARPS_N=2,MI=2,NI=8 NI=4,TSK=128,STAGES=2; do
    gk_step "tc-$params" 25 "$gemmkit" --backend cuda bench --kernel ozaki-igemm-tc --params "$params" \
      --sizes "$trace_n" --repeat 3 --max-time 2 --no-baseline
  done
fi
if [ -n "$trace_n" ]; then
  for backend in "${backends[@]}"; do
    GEMMKIT_DEVICE=$(device_of "$backend") GEMMKIT_TRACE=1 gk_step "trace-$backend" 30 "$gemmkit" --backend \
      "$backend" bench --kernel best --math int8x --sizes "$trace_n" --repeat 1 --max-time 1 --no-baseline
    python3 "$root/bench/ozaki_steps.py" "$out/trace-$backend.log" --n "$trace_n" >"$out/steps-$backend.md" 2>&1 ||
      gk_failed+=("steps-$backend")
  done
fi
# test_ozaki where cmocka is carried (its own build step; a failure to build it is logged, nothing else).
if gk_step build-test 120 cmake --build "$build" -j "${JOBS:-$(nproc)}" --target test_ozaki; then
  for backend in "${backends[@]}"; do
    GEMMKIT_BACKEND=$backend GEMMKIT_DEVICE=$(device_of "$backend") gk_step "test_ozaki-$backend" 60 \
      "$build/tests/test_ozaki"
  done
fi

if [ ${#jsons[@]} -gt 0 ]; then
  python3 "$root/bench/math_summary.py" "${jsons[@]}" >"$out/speed.md" 2>&1 || gk_failed+=("summary")
fi
[ -n "$archive" ] && tar czf "$archive" -C "$out" . && gk_log "packed $out into $archive"
echo
echo "=== issue 38, math mode int8x: results in $out ==="
[ -s "$out/speed.md" ] && cat "$out/speed.md"
[ -s "$out/accuracy.md" ] && { echo; cat "$out/accuracy.md"; }
for backend in "${backends[@]}"; do
  echo
  echo "--- verify-$backend ---"
  tail -4 "$out/verify-$backend.log" 2>/dev/null
  [ -s "$out/trace-$backend.log" ] && grep "gemmkit trace" "$out/trace-$backend.log" | tail -6
  [ -s "$out/steps-$backend.md" ] && { echo; echo "--- int8x steps at $trace_n, $backend ---"; cat "$out/steps-$backend.md"; }
done
for log in "$out"/tc-*.log; do
  [ -s "$log" ] && { echo "--- $(basename "$log" .log) ---"; grep -E "ozaki-igemm-tc|TFLOPS|GFLOPS" "$log" | tail -3; }
done
gk_steps_end
