#!/usr/bin/env bash
# Session 13, run 4: GEMMul8 (built here from its public source, carried in .deps-anchor) beside cuBLAS fp32; the
# SGEMM tests with GEMMKIT_MATH=int8x forced on both backends (int8x's small and short-K shapes now served by 3xTF32).
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r4" 480 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
gk_step anchor 150 .deps-anchor/gemmul8_anchor 4096,8192,16384 8 4096 5
gk_step build 200 make build || { tail -30 "$gk_out/build.log" >&2; exit 1; }
T="^(test_sgemm|test_skinny|test_batched|test_math_modes|test_xgemm_direct|test_splitk|test_direct_splitk|test_threads|test_blas_dropin|dropin_blas_reference|test_soak|test_peel_strips)$"
gk_step int8x-opencl 150 env GEMMKIT_MATH=int8x GEMMKIT_DEVICE=NVIDIA ctest --test-dir build --output-on-failure -j 8 -R "$T"
gk_step int8x-cuda 150 env GEMMKIT_MATH=int8x GEMMKIT_BACKEND=cuda ctest --test-dir build --output-on-failure -j 8 -R "$T"
for log in "$gk_out"/int8x-*.log; do grep -E "tests passed|tests failed|Failed|\*\*\*" "$log" | sed "s|^|$(basename "$log"): |" >&2; done
gk_steps_end
cd "$OUT" && tar czf r4.tar.gz r4
