#!/usr/bin/env bash
# Session 16, run e: the changed kernels' suites on the GPU, both backends (skinny.cl's float4 reads, the skinny
# split builds' sum in the kernel, xgemm-direct's thin tiles), and their operands past 4 GiB.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/e" 540 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
T="test_skinny test_skinny_dot test_skinny_splitk test_xgemm_direct test_direct_splitk"
GK_TARGETS="gemmkit_cli gemmkit $T" gk_build "$PWD/build-r" || exit 1
R='^(test_skinny|test_skinny_dot|test_skinny_splitk|test_xgemm_direct|test_direct_splitk)$'
gk_step ctest-opencl 150 ctest --test-dir build-r -R "$R" --output-on-failure -j 8
gk_step ctest-cuda 150 env GEMMKIT_BACKEND=cuda ctest --test-dir build-r -R "$R" --output-on-failure -j 8
gk_step large 200 env ONLY='^skinny.*splitk|thin' BUDGET=190 bench/large-operands.sh "$gk_out/large" "$gk_gemmkit"
gk_steps_end
cd "$OUT" && tar czf e.tar.gz e
