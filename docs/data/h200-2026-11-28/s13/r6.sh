#!/usr/bin/env bash
# Session 13, run 6: the SGEMM tests with GEMMKIT_MATH=int8x forced through CUDA on the merged tree (moduli from the
# operands' spread).
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r6" 170 || exit 2
gk_step build 60 make build || { tail -30 "$gk_out/build.log" >&2; exit 1; }
T="^(test_sgemm|test_skinny|test_batched|test_math_modes|test_xgemm_direct|test_splitk|test_direct_splitk|test_threads|test_blas_dropin|test_soak|test_ozaki)$"
gk_step int8x-cuda 105 env GEMMKIT_MATH=int8x GEMMKIT_BACKEND=cuda ctest --test-dir build --output-on-failure -j 12 -R "$T"
grep -E "tests passed|tests failed|Failed|\*\*\*" "$gk_out/int8x-cuda.log" >&2
gk_steps_end
