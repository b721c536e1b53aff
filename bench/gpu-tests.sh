#!/usr/bin/env bash
# The whole test suite on a GPU machine (the H200 run in docs/RELIABILITY.md).
# The tests open their device through GEMMKIT_DEVICE: unset means the first GPU,
# else the first device; set it to an index or a name ("H200", "NVIDIA") to choose.
#
#   bench/gpu-tests.sh                 # Release build in build-gpu/, full ctest
#   bench/gpu-tests.sh --soak 100000   # a longer soak (test_soak calls)
#   bench/gpu-tests.sh --sanitize      # also the ASan+UBSan build (build-gpu-asan/)
#   GEMMKIT_DEVICE=1 bench/gpu-tests.sh
#
# Needs cmake, a C compiler, the OpenCL ICD loader and headers, cmocka, and the
# vendor's OpenCL driver (for NVIDIA: libnvidia-opencl.so.1 from the driver).
set -euo pipefail
cd "$(dirname "$0")/.."

sanitize=0
soak=""
while [ $# -gt 0 ]; do
  case "$1" in
    --sanitize) sanitize=1 ;;
    --soak) soak="$2"; shift ;;
    *) echo "usage: $0 [--sanitize] [--soak CALLS]" >&2; exit 2 ;;
  esac
  shift
done
jobs=$(nproc 2>/dev/null || echo 4)

# Containers often ship NVIDIA's OpenCL library without its ICD file: register
# it for the ICD loader through OCL_ICD_VENDORS.
if ! grep -qsl nvidia /etc/OpenCL/vendors/*.icd && ldconfig -p | grep -q libnvidia-opencl.so.1; then
  vendors=$(mktemp -d)
  echo libnvidia-opencl.so.1 >"$vendors/nvidia.icd"
  export OCL_ICD_VENDORS="$vendors"
  echo "gpu-tests: registered libnvidia-opencl.so.1 via OCL_ICD_VENDORS=$vendors"
fi

[ -n "$soak" ] && export GEMMKIT_SOAK_CALLS="$soak"

cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-gpu -j "$jobs"
./build-gpu/gemmkit devices
if [ -z "${GEMMKIT_DEVICE:-}" ] && ! ./build-gpu/gemmkit devices | grep -q "(GPU)"; then
  echo "gpu-tests: no GPU visible to OpenCL; set GEMMKIT_DEVICE to run on another device" >&2
  exit 1
fi
(cd build-gpu && ctest --output-on-failure -j 2)

if [ "$sanitize" = 1 ]; then
  # NVIDIA's driver maps memory inside ASan's protected shadow gap:
  # without protect_shadow_gap=0 its allocations fail (google/sanitizers#629).
  cmake -S . -B build-gpu-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGEMMKIT_SANITIZE=ON \
    "-DGEMMKIT_ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:protect_shadow_gap=0" \
    ${soak:+-DGEMMKIT_SANITIZE_SOAK_CALLS=$soak} >/dev/null
  cmake --build build-gpu-asan -j "$jobs"
  (cd build-gpu-asan && ctest --output-on-failure -j 2)
fi
