#!/usr/bin/env bash
# Checks gemmkit's CUDA backend on an NVIDIA GPU machine (no network needed):
# builds with CUDA, lists devices, runs the CUDA tests, verifies every kernel
# through CUDA, runs a short benchmark, and (when an NVIDIA OpenCL device is
# present too) the same benchmark through OpenCL for comparison.
#
#   bench/cuda-check.sh OUTDIR          outputs go to OUTDIR/*.txt
#
# Environment: CUDA_HOME (default /usr/local/cuda), GEMMKIT_BUILD_DIR (default
# build-cuda), BENCH_SIZES (default 1024,4096), BENCH_REPEAT (default 5),
# SKIP_CTEST=1 to leave out the test suite, EXTRA_PREFIX=DIR for libraries
# the machine lacks (DIR/include and DIR/lib: cmocka, OpenCL headers/loader).
set -uo pipefail

out=${1:?usage: bench/cuda-check.sh OUTDIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GEMMKIT_BUILD_DIR:-$root/build-cuda}
cuda=${CUDA_HOME:-/usr/local/cuda}
sizes=${BENCH_SIZES:-1024,4096}
repeat=${BENCH_REPEAT:-5}
jobs=$(nproc 2>/dev/null || echo 2)
summary=$out/summary.txt
: >"$summary"
failures=0

note() { echo "$*" | tee -a "$summary"; }

# step NAME COMMAND...: runs COMMAND with its output in OUTDIR/NAME.txt.
step() {
  local name=$1
  shift
  note "== $name: $*"
  local start=$SECONDS
  "$@" >"$out/$name.txt" 2>&1
  local rc=$?
  note "   exit $rc after $((SECONDS - start)) s (output: $name.txt)"
  [ $rc -ne 0 ] && failures=$((failures + 1))
  return $rc
}

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
  uname -a
  nvidia-smi 2>&1 || echo "nvidia-smi not available"
  "$cuda/bin/nvcc" --version 2>&1 || echo "no nvcc in $cuda/bin"
  ls "$cuda"/lib64/libnvrtc* 2>&1
  ldconfig -p | grep -E "libcuda\.so|libnvrtc|libOpenCL" || true
  ls /etc/OpenCL/vendors 2>&1 || true
} >"$out/environment.txt" 2>&1

# gemmkit needs OpenCL headers and the ICD loader to build; CUDA toolkits ship both.
cmake_args=(-DCMAKE_BUILD_TYPE=Release -DGEMMKIT_CUDA=ON -DCUDAToolkit_ROOT="$cuda")
extra=${EXTRA_PREFIX:-}
if [ -n "$extra" ]; then
  extra=$(cd "$extra" && pwd)
  cmake_args+=(-DCMAKE_PREFIX_PATH="$extra")
  export LD_LIBRARY_PATH="$extra/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
if [ ! -e /usr/include/CL/cl.h ] && [ ! -e "$extra/include/CL/cl.h" ] && [ -e "$cuda/include/CL/cl.h" ]; then
  cmake_args+=(-DOpenCL_INCLUDE_DIR="$cuda/include")
fi
if ! ldconfig -p | grep -q "libOpenCL.so" && [ ! -e "$extra/lib/libOpenCL.so" ]; then
  for lib in "$cuda/lib64/libOpenCL.so" "$cuda/lib64/libOpenCL.so.1"; do
    if [ -e "$lib" ]; then
      cmake_args+=(-DOpenCL_LIBRARY="$lib")
      export LD_LIBRARY_PATH="$cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
      break
    fi
  done
fi
# NVRTC is loaded at run time; make the toolkit's copy findable.
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$cuda/lib64"
have_tests=1
if [ ! -e /usr/include/cmocka.h ] && [ ! -e /usr/local/include/cmocka.h ] && [ ! -e "$extra/include/cmocka.h" ]; then
  cmake_args+=(-DBUILD_TESTING=OFF)
  have_tests=0
  note "cmocka not installed: building without the tests"
fi

step configure cmake -S "$root" -B "$build" "${cmake_args[@]}" || { note "configure failed"; exit 1; }
step build cmake --build "$build" -j "$jobs" || { note "build failed"; exit 1; }
gemmkit=$build/gemmkit

step devices "$gemmkit" --backend cuda devices
if [ "$have_tests" = 1 ] && [ "${SKIP_CTEST:-0}" != 1 ]; then
  step test-cuda ctest --test-dir "$build" -R "cuda|backend_semantics" --output-on-failure
  # The whole suite with CUDA as the default backend (tests open GEMMKIT_BACKEND's device).
  step test-all-on-cuda env GEMMKIT_BACKEND=cuda ctest --test-dir "$build" -j 4 --output-on-failure
fi
step verify "$gemmkit" --backend cuda verify --kernel all
step bench "$gemmkit" --backend cuda bench --kernel all --sizes "$sizes" --repeat "$repeat"

# The same kernels through NVIDIA's OpenCL, when it is installed (tutorial kernel 8's comparison).
if "$gemmkit" --backend opencl --device NVIDIA verify --kernel direct >/dev/null 2>&1; then
  step bench-opencl "$gemmkit" --backend opencl --device NVIDIA bench --kernel all --sizes "$sizes" --repeat "$repeat"
else
  note "no NVIDIA OpenCL device: OpenCL comparison skipped"
fi

note "done: $failures step(s) failed; outputs in $out"
[ $failures -eq 0 ]
