#!/usr/bin/env bash
# The whole test suite on a GPU machine, on both backends (the H200 run in
# docs/RELIABILITY.md):
#   1. `make test`: the Release suite, then the ASan+UBSan suite with the
#      Makefile's own sanitizer settings (tests/sanitizers/), on the default
#      device (the first GPU; GEMMKIT_DEVICE chooses another);
#   2. the Release suite again with GEMMKIT_BACKEND=cuda, when the CUDA backend
#      is built and sees a device (every test then opens a CUDA context);
#   3. bench/large-operands.sh: every kernel family with an operand past 4 GiB,
#      on both backends (issue 34; about 6 minutes on an H100).
#
#   bench/gpu-tests.sh [OUTDIR]            logs in OUTDIR (default results/gpu-tests)
#   bench/gpu-tests.sh --soak 100000       a longer soak (test_soak calls)
#   bench/gpu-tests.sh --no-sanitize       the Release suites only
#   bench/gpu-tests.sh --no-large          steps 1 and 2 only
#   bench/gpu-tests.sh --large-only        the build and step 3 only (e.g. a second 10-minute call)
#
# Environment: BUDGET (seconds for the whole script, default 560, 1000 with step 3), GEMMKIT_DEVICE.
# The machine's setup (NVIDIA's OpenCL driver, carried packages) is bench/gpu-env.sh's.
set -uo pipefail
cd "$(dirname "$0")/.."

sanitize=1
soak=""
suites=1 large=1
out=results/gpu-tests
while [ $# -gt 0 ]; do
  case "$1" in
    --no-sanitize) sanitize=0 ;;
    --no-large) large=0 ;;
    --large-only) suites=0 ;;
    --soak) soak="${2:?--soak needs a number of calls}"; shift ;;
    -h | --help) . bench/usage.sh; gk_usage bench/gpu-tests.sh; exit 0 ;;
    -*) echo "usage: $0 [--no-sanitize] [--no-large | --large-only] [--soak CALLS] [OUTDIR]" >&2; exit 2 ;;
    *) out=$1 ;;
  esac
  shift
done

. bench/gpu-env.sh
gk_steps_begin "$out" "${BUDGET:-$([ $large = 1 ] && [ $suites = 1 ] && echo 1000 || echo 560)}" || exit 2
[ -n "$soak" ] && export GEMMKIT_SOAK_CALLS="$soak"

gk_step build 240 make build || { tail -30 "$gk_out/build.log" >&2; exit 1; }
./build/gemmkit devices | tee "$gk_out/devices.txt" >&2
if [ -z "${GEMMKIT_DEVICE:-}" ] && ! grep -q "(GPU)" "$gk_out/devices.txt"; then
  gk_log "no GPU visible to OpenCL; set GEMMKIT_DEVICE to run on another device"
  exit 1
fi

if [ $suites = 1 ]; then
  if [ "$sanitize" = 1 ]; then
    gk_step make-test 420 make test
  else
    gk_step ctest-opencl 300 ctest --test-dir build --output-on-failure -j "$(nproc)"
  fi
  if gk_has_cuda ./build/gemmkit; then
    gk_step ctest-cuda 300 env GEMMKIT_BACKEND=cuda ctest --test-dir build --output-on-failure -j "$(nproc)"
  else
    gk_log "ctest-cuda: skipped, no CUDA device (or gemmkit built without the CUDA backend)"
  fi
fi
if [ $large = 1 ]; then
  gk_budget large-operands 900 &&
    gk_step large-operands "$gk_limit" env BUDGET=$((gk_limit - 10)) bench/large-operands.sh "$gk_out/large-operands" \
      ./build/gemmkit
  grep -E "FAILED|passed," "$gk_out/large-operands.log" | sed 's|^|large-operands.log: |' >&2
fi
for log in "$gk_out"/make-test.log "$gk_out"/ctest-*.log; do
  [ -f "$log" ] && grep -E "tests passed|tests failed|Failed|\*\*\*" "$log" | sed "s|^|$(basename "$log"): |" >&2
done
gk_steps_end
