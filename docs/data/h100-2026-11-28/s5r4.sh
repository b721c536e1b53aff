#!/usr/bin/env bash
# Session 5, run 4 on the H100: r2's CUDA host-array call at 128^3 (219 us, 42 in session 3) again, traced; the
# GPU-side fixes of the tuning tests on both backends; the three large-operand cases r3 left unrun on OpenCL.
mkdir -p .deps && cp .gpu-deps/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r4" 280 || exit 2
gk_step build 150 make build || exit 1
for n in 32 128 256; do
  GEMMKIT_BACKEND=cuda gk_step "call-time-cuda-$n" 30 build/call_time $n 300
done
GEMMKIT_BACKEND=cuda GEMMKIT_TRACE=1 gk_step call-time-cuda-128-traced 30 build/call_time 128 3
gk_step tests-cuda 80 env GEMMKIT_BACKEND=cuda ctest --test-dir build --output-on-failure -j 16 -R "test_tuning|cli_tune_variant"
gk_step tests-opencl 80 ctest --test-dir build --output-on-failure -j 16 -R "test_tuning|cli_tune_variant"
gk_step large-opencl 60 env BACKENDS=opencl ONLY='xgemm-direct-splitk|best' BUDGET=55 bash bench/large-operands.sh "$gk_out/large" build/gemmkit
gk_steps_end
cp "$gk_out/steps.log" "$OUT/steps-r4.log"
(cd "$OUT" && tar czf r4.tgz r4 && rm -rf r4)
