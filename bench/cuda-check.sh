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
# SKIP_CTEST=1 to leave out the test suite, DEBS_DIR (default .deps: .deb
# files of cmocka and the OpenCL headers, for an image without them) or
# EXTRA_PREFIX=DIR (DIR/include, DIR/lib), NO_ICD_SETUP=1 (see below).
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

# gemmkit needs OpenCL headers and loader (and cmocka for the tests) to build.
# A GPU image may lack them: .deb files in DEBS_DIR (default .deps) are
# unpacked into a private prefix, or EXTRA_PREFIX names one (include/, lib/).
cmake_args=(-DCMAKE_BUILD_TYPE=Release -DGEMMKIT_CUDA=ON -DCUDAToolkit_ROOT="$cuda")
prefix=""
debs=${DEBS_DIR:-$root/.deps}
if ls "$debs"/*.deb >/dev/null 2>&1; then
  rm -rf "$build-deps" && mkdir -p "$build-deps"
  for f in "$debs"/*.deb; do dpkg -x "$f" "$build-deps"; done
  prefix=$build-deps/usr
  note "unpacked $(ls "$debs"/*.deb | wc -l) .deb file(s) from $debs into $prefix"
elif [ -n "${EXTRA_PREFIX:-}" ]; then
  prefix=$(cd "$EXTRA_PREFIX" && pwd)
fi
have_cmocka=0
[ -e /usr/include/cmocka.h ] || [ -e /usr/local/include/cmocka.h ] && have_cmocka=1
have_cl_lib=0
if [ -n "$prefix" ]; then
  cmake_args+=(-DCMAKE_PREFIX_PATH="$prefix")
  for dir in "$prefix/lib" "$prefix/lib/x86_64-linux-gnu"; do
    [ -d "$dir" ] && export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    if [ -e "$dir/libcmocka.so" ] && [ -e "$prefix/include/cmocka.h" ]; then
      cmake_args+=(-DCMOCKA_LIBRARY="$dir/libcmocka.so" -DCMOCKA_INCLUDE_DIR="$prefix/include")
      have_cmocka=1
    fi
    if [ -e "$dir/libOpenCL.so" ]; then
      cmake_args+=(-DOpenCL_LIBRARY="$dir/libOpenCL.so")
      have_cl_lib=1
    fi
  done
  [ -e "$prefix/include/CL/cl.h" ] && cmake_args+=(-DOpenCL_INCLUDE_DIR="$prefix/include")
fi
if [ ! -e /usr/include/CL/cl.h ] && [ ! -e "$prefix/include/CL/cl.h" ] && [ -e "$cuda/include/CL/cl.h" ]; then
  cmake_args+=(-DOpenCL_INCLUDE_DIR="$cuda/include")
fi
# A loader without its development link (libOpenCL.so.1 only): link to it directly.
if [ $have_cl_lib = 0 ] && ! ldconfig -p | grep -q "libOpenCL.so "; then
  loader=$(ldconfig -p | awk '/libOpenCL\.so\.1 /{print $NF; exit}')
  [ -z "$loader" ] && [ -e "$cuda/lib64/libOpenCL.so.1" ] && loader=$cuda/lib64/libOpenCL.so.1
  [ -n "$loader" ] && cmake_args+=(-DOpenCL_LIBRARY="$loader")
fi
# NVIDIA's OpenCL driver is installed without its ICD file on some images;
# registering it lets the OpenCL comparison run (NO_ICD_SETUP=1 leaves /etc alone).
if [ "${NO_ICD_SETUP:-0}" != 1 ] && [ ! -e /etc/OpenCL/vendors/nvidia.icd ] &&
  ldconfig -p | grep -q "libnvidia-opencl.so.1" && mkdir -p /etc/OpenCL/vendors 2>/dev/null &&
  echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd 2>/dev/null; then
  note "registered NVIDIA's OpenCL driver in /etc/OpenCL/vendors/nvidia.icd"
fi
# NVRTC is loaded at run time; make the toolkit's copy findable.
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$cuda/lib64"
have_tests=1
if [ $have_cmocka = 0 ]; then
  cmake_args+=(-DBUILD_TESTING=OFF)
  have_tests=0
  note "cmocka not found: building without the tests"
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
