#!/usr/bin/env bash
# Session 4, run 7 on the H100: the Release suite through CUDA after the tests' fixes for the cost model on GPUs,
# and the fixed tests through OpenCL.
mkdir -p .deps && cp .gpu-deps/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r7" 400 || exit 2
gk_step build 240 make build || exit 1
gk_step ctest-cuda 250 env GEMMKIT_BACKEND=cuda ctest --test-dir build --output-on-failure -j 16
gk_step ctest-opencl-fixed 120 ctest --test-dir build --output-on-failure -j 16 -R "test_tuning|cli_tune|cli_bench_candidates|python_tests|test_tune_shapes"
gk_steps_end
(cd "$OUT" && tar czf r7.tgz r7 && cp r7/steps.log steps-r7.log && rm -rf r7)
