#!/usr/bin/env bash
# Session 5, run 3 on the H100: the OpenCL floor's waits, operands past 4 GiB for the kernels changed since the
# last such run (skinny incl. the /stream lines, xgemm-direct, the model's choice) on both backends, and the
# Release suite through CUDA (the ozaki-crt and cost-model changes, the fixed GPU tests).
mkdir -p .deps && cp .gpu-deps/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r3" 565 || exit 2
gk_step build 200 make build || exit 1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
gk_step cl-floor 30 build/cl_floor 500 4096
gk_step large 230 env BACKENDS="cuda opencl" ONLY='skinny|best|xgemm-direct' BUDGET=225 bash bench/large-operands.sh "$gk_out/large" build/gemmkit
gk_step ctest-cuda 250 env GEMMKIT_BACKEND=cuda ctest --test-dir build --output-on-failure -j 16
gk_steps_end
cp "$gk_out/steps.log" "$OUT/steps-r3.log"
(cd "$OUT" && tar czf r3.tgz r3 && rm -rf r3)
