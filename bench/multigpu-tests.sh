#!/usr/bin/env bash
# The tests of several devices and out-of-core (issue 18) on a GPU machine
# (nvidia-h200-x2: two GPUs), on both backends: test_multi_device ("all" =
# every GPU; lists, tiles over the GPUs against the reference, injected
# failures), test_out_of_core (one GPU under a 1 MiB memory limit: K chunks,
# many tiles), test_cuda_driver_mock and the drop-in over every device.
# Cheap: a Release build and a few seconds of tests per backend.
#
#   bench/multigpu-tests.sh [OUTDIR]      logs in OUTDIR (default results/multigpu-tests)
#
# Environment: BUDGET (seconds for the whole script, default 400).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-results/multigpu-tests}
. bench/gpu-env.sh
gk_steps_begin "$out" "${BUDGET:-400}" || exit 2

gk_step build 240 make build || { tail -30 "$gk_out/build.log" >&2; exit 1; }
./build/gemmkit devices | tee "$gk_out/devices.txt" >&2
tests="test_multi_device|test_out_of_core|test_cuda_driver_mock|test_blas_dropin_all_devices"
gk_step ctest-opencl 120 ctest --test-dir build -R "$tests" --output-on-failure -V
if gk_has_cuda ./build/gemmkit; then
  gk_step ctest-cuda 120 env GEMMKIT_BACKEND=cuda ctest --test-dir build -R "$tests" --output-on-failure -V
else
  gk_log "ctest-cuda: skipped, no CUDA device (or gemmkit built without the CUDA backend)"
fi
for log in "$gk_out"/ctest-*.log; do
  [ -f "$log" ] && grep -E "device\(s\) for \"all\"|tests passed|tests failed|Failed|\*\*\*|skipped" "$log" |
    sed "s|^|$(basename "$log"): |" >&2
done
gk_steps_end
