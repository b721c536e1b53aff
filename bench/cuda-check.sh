#!/usr/bin/env bash
# Checks gemmkit's CUDA backend on an NVIDIA GPU machine (no network needed):
# builds with CUDA required, lists devices, runs the CUDA tests and the whole
# suite on the CUDA backend, verifies every kernel through CUDA, runs a short
# benchmark, and (when NVIDIA's OpenCL is there too) the same benchmark through
# OpenCL for comparison.
#
#   bench/cuda-check.sh OUTDIR          outputs go to OUTDIR/*.log
#
# Environment: CUDA_HOME (default /usr/local/cuda), GEMMKIT_BUILD_DIR (default
# build-cuda), BENCH_SIZES (default 1024,4096), BENCH_REPEAT (default 5),
# SKIP_CTEST=1 to leave out the test suite, BUDGET (seconds, default 560).
# The machine's setup (NVIDIA's OpenCL driver, carried packages) is bench/gpu-env.sh's.
set -uo pipefail

out=${1:?usage: bench/cuda-check.sh OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GEMMKIT_BUILD_DIR:-$root/build-cuda}
cuda=${CUDA_HOME:-/usr/local/cuda}
sizes=${BENCH_SIZES:-1024,4096}
repeat=${BENCH_REPEAT:-5}

. "$root/bench/gpu-env.sh"
gk_steps_begin "$out" "${BUDGET:-560}" || exit 2
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
  uname -a
  nvidia-smi 2>&1 || echo "nvidia-smi not available"
  "$cuda/bin/nvcc" --version 2>&1 || echo "no nvcc in $cuda/bin"
  ldconfig -p | grep -E "libcuda\.so|libnvrtc|libOpenCL" || true
  ls /etc/OpenCL/vendors 2>&1 || true
} >"$gk_out/environment.txt" 2>&1

gk_build "$build" -DGEMMKIT_CUDA=ON -DCUDAToolkit_ROOT="$cuda" || exit 1
gemmkit=$gk_gemmkit

gk_step devices 30 "$gemmkit" --backend cuda devices
if [ "${SKIP_CTEST:-0}" != 1 ] && [ -x "$build/tests/test_cuda_translation" ]; then
  gk_step test-cuda 200 ctest --test-dir "$build" -R "cuda|backend_semantics" --output-on-failure
  # The whole suite with CUDA as the default backend (tests open GEMMKIT_BACKEND's device).
  gk_step test-all-on-cuda 300 env GEMMKIT_BACKEND=cuda ctest --test-dir "$build" -j "$(nproc)" --output-on-failure
fi
gk_step verify 200 "$gemmkit" --backend cuda verify --kernel all
gk_step bench 200 "$gemmkit" --backend cuda bench --kernel all --sizes "$sizes" --repeat "$repeat"

# The same kernels through NVIDIA's OpenCL, when it is installed (tutorial kernel 8's comparison).
if "$gemmkit" --backend opencl --device NVIDIA verify --kernel direct >/dev/null 2>&1; then
  gk_step bench-opencl 200 "$gemmkit" --backend opencl --device NVIDIA bench --kernel all --sizes "$sizes" \
    --repeat "$repeat"
else
  gk_log "no NVIDIA OpenCL device: OpenCL comparison skipped"
fi
gk_steps_end
