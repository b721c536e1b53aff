#!/usr/bin/env bash
# Session 14, run 3: the whole Release suite with GEMMKIT_MATH=int8x forced, through OpenCL and through CUDA at once
# (two build trees, 8 jobs each), on the tree of 9c4bcb8 (int8x served by fp32 at K <= 48, by 3xTF32 below K = 4096
# or an edge of 768, the scheme elsewhere).
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r3" 540 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
gk_step build 90 make build || { tail -30 "$gk_out/build.log" >&2; exit 1; }
gk_step build2 90 bash -c "cmake -S . -B build2 -DCMAKE_BUILD_TYPE=Release && cmake --build build2 -j 16"
./build/gemmkit devices > "$gk_out/devices.txt" 2>&1
gk_log "suites: start"
( timeout -k 10 400 env GEMMKIT_MATH=int8x GEMMKIT_DEVICE=NVIDIA ctest --test-dir build --output-on-failure -j 8 > "$gk_out/int8x-opencl.log" 2>&1; echo "rc $?" >> "$gk_out/int8x-opencl.log" ) &
( timeout -k 10 400 env GEMMKIT_MATH=int8x GEMMKIT_BACKEND=cuda ctest --test-dir build2 --output-on-failure -j 8 > "$gk_out/int8x-cuda.log" 2>&1; echo "rc $?" >> "$gk_out/int8x-cuda.log" ) &
wait
gk_log "suites: done"
for f in int8x-opencl int8x-cuda; do echo "== $f"; grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)|Not Run|^rc " "$gk_out/$f.log"; done >&2
gk_steps_end
cd "$OUT" && tar czf r3.tar.gz r3
