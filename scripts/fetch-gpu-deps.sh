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
mkdir -p .deps
cd .deps
rm -f ./*.deb
apt-get download "${packages[@]}"
ls -l ./*.deb
