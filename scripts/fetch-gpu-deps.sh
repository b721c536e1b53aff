#!/usr/bin/env bash
# Runs here (with network): downloads the Debian packages the GPU machine
# lacks into .deps/ (git-ignored), for bench/gpu.sh to unpack there with
# `dpkg -x`. CLBlast is the OpenCL peer of the benchmark; cmocka runs the test
# suite; jansson writes --json. Their own dependencies (libc6, libstdc++6,
# libgcc-s1, the OpenCL ICD loader) are already on the GPU machine (Ubuntu 24.04).
set -euo pipefail
cd "$(dirname "$0")/.."
# The OpenCL headers and the loader's development link, in case the image has
# only the runtime loader (gpu.sh points the link at that loader).
packages=(libclblast1 libclblast-dev libcmocka0 libcmocka-dev libjansson4 libjansson-dev
          opencl-headers opencl-c-headers opencl-clhpp-headers ocl-icd-opencl-dev)
# Open MPI and ScaLAPACK for bench/scalapack.sh (used from .deps/root through
# bench/mpi-env.sh), with the libraries they need that Ubuntu's base lacks or
# may lack: the reference BLAS and LAPACK (ScaLAPACK's libblas.so.3 and
# liblapack.so.3), gfortran's runtime, hwloc, libevent, PMIx. Left out: the
# fabric libraries (UCX, libfabric, verbs, PSM; only shared memory is used) and
# what the machine has (libc6, libgcc-s1, libstdc++6, zlib1g, libudev1).
# About 10 MB of .deb files, 43 MB unpacked there.
packages+=(openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libscalapack-openmpi2.2 libscalapack-openmpi-dev
           libblas3 liblapack3 libgfortran5 libquadmath0 libhwloc15 libevent-2.1-7 libevent-core-2.1-7
           libevent-pthreads-2.1-7 libpmix2 libnuma1 libltdl7 libmunge2)
# OpenBLAS (pthreads), the CPU BLAS that `gemmkit tune --blas-threshold` measures the
# drop-in's device crossover against there (GEMMKIT_CPU_BLAS_LIB names it): 7 MB.
packages+=(libopenblas0-pthread)
# The reference BLAS's test programs (tests/scripts/blas_reference.sh: the drop-in in each math mode): 1 MB.
packages+=(libblas-test)
mkdir -p .deps
cd .deps
rm -f ./*.deb
apt-get download "${packages[@]}"
ls -l ./*.deb
