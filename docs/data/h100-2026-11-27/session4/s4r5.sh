#!/usr/bin/env bash
# Session 4, run 5 on the H100: the Release suite through CUDA with GEMMKIT_MATH=int8x forced on (issue 38).
mkdir -p .deps && cp .gpu-deps/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r5" 570 || exit 2
gk_step build 240 make build || exit 1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
git log -1 --format=%H > "$gk_out/commit.txt" 2>/dev/null
gk_step ctest-cuda-int8x 500 env GEMMKIT_BACKEND=cuda GEMMKIT_MATH=int8x ctest --test-dir build --output-on-failure -j 16
gk_steps_end
(cd "$OUT" && tar czf r5.tgz r5 && cp r5/steps.log steps-r5.log && rm -rf r5)
