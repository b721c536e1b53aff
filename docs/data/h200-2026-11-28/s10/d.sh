#!/usr/bin/env bash
# Session 10, run D: split-K summed in the kernel (up to 4 slices) with operands past 4 GiB (bench/large-operands.sh's
# xgemm-direct-splitk cases) and its tests on the GPU, both backends, with the final tree.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/d" 500 || exit 2
GK_TARGETS="gemmkit_cli test_direct_splitk test_calibrate" gk_build "$PWD/build-r" || exit 1
gk_step test_direct_splitk-opencl 60 build-r/tests/test_direct_splitk
gk_step test_direct_splitk-cuda 60 env GEMMKIT_BACKEND=cuda build-r/tests/test_direct_splitk
gk_step large 380 env ONLY='xgemm-direct-splitk' BUDGET=370 bench/large-operands.sh "$gk_out/large" build-r/gemmkit
gk_steps_end
(cd "$OUT" && tar czf d.tgz d && rm -rf d)
