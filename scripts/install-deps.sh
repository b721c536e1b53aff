#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages gemmkit needs to build and test, when
# they are missing. Shared by `make run`, `make test` and CI; offline, it
# unpacks the packages carried in .deps/ instead (scripts/unpack-deps.sh);
# GEMMKIT_OFFLINE=1 goes straight there. Optional, found
# at run time when present: gnuplot-nox (bench --plot), libclblast1 (bench peer).
set -euo pipefail

# libblas-dev/libblas3 (the reference BLAS) and gfortran: the BLAS drop-in
# demos (examples/dropin) compare gemmkit with the reference. The drop-in's
# real clients (tests/dropin.cmake): the reference LAPACK (liblapack3,
# liblapack-dev) and numpy's own tests (python3-numpy, python3-pytest,
# python3-hypothesis for numpy's conftest); OpenBLAS is the optimised CPU BLAS
# that CPU work goes to (libopenblas0-pthread, also the libblas.so.3 alternative).
# python3-numpy, python3-pytest also run the Python package's tests; python3-venv
# and python3-pip (which brings setuptools and wheel): `pip install ./python` in a venv.
# Open MPI (openmpi-bin: mpirun; libopenmpi-dev: mpi.h) and ScaLAPACK for it
# (libscalapack-openmpi-dev): PSGEMM under the drop-in (examples/scalapack). libblas-test: the reference
# BLAS's own test programs (xblat3s, xscblat3), run over the drop-in (tests/scripts/blas_reference.sh).
packages=(cmake make gcc pkg-config ocl-icd-opencl-dev opencl-headers pocl-opencl-icd libcmocka-dev libjansson-dev
          libblas-dev libblas3 gfortran liblapack3 liblapack-dev libopenblas0-pthread python3-numpy python3-pytest
          python3-hypothesis python3-venv python3-pip openmpi-bin libopenmpi-dev libscalapack-openmpi-dev libblas-test)
# Nice to have: clang with libFuzzer runs a short fuzzing of the .npy reader.
optional=(clang libclang-rt-dev)

is_missing() { ! dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=() optional_missing=()
for p in "${packages[@]}"; do is_missing "$p" && missing+=("$p"); done
for p in "${optional[@]}"; do is_missing "$p" && optional_missing+=("$p"); done
[ ${#missing[@]} -eq 0 ] && [ ${#optional_missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
# Without a package registry (the GPU machine has no network), fall back to the
# packages carried in .deps/; what is still missing then shows up in cmake.
offline() {
  echo "gemmkit: cannot install ${missing[*]} with apt-get" >&2
  if compgen -G "$(dirname "$0")/../.deps/*.deb" >/dev/null; then
    "$(dirname "$0")/unpack-deps.sh"
  fi
  exit 0
}
[ "${GEMMKIT_OFFLINE:-0}" = 1 ] && offline
# A machine without network must not hang here: give the registry two minutes.
timeout 120 $sudo apt-get update -qq || offline
if [ ${#missing[@]} -gt 0 ]; then
  echo "gemmkit: installing ${missing[*]}" >&2
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || offline
fi
if [ ${#optional_missing[@]} -gt 0 ]; then
  echo "gemmkit: installing (optional) ${optional_missing[*]}" >&2
  $sudo apt-get install -y -qq --no-install-recommends "${optional_missing[@]}" >/dev/null ||
    echo "gemmkit: could not install ${optional_missing[*]}; the libFuzzer run will be skipped" >&2
fi
