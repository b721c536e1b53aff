#!/usr/bin/env bash
# Session 9, run 5: main (94f1cd9: skinny_dot.cl built in) against 778e52f (exp/before) on a fresh draw, seed 1357,
# through CUDA in the same run; --json is now written after each shape, so a step cut short keeps what it timed.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/d5" 350 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
gk_step build-before 60 bash -c "cmake -S exp/before -B build-before -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null && cmake --build build-before -j 16 --target gemmkit_cli >/dev/null"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
gk_step random-cuda-before 165 env GEMMKIT_QUIET=1 build-before/gemmkit --backend cuda bench \
  --sizes random:64:1357 --repeat 3 --no-baseline --max-time 10 --peers cublas --json "$gk_out/random-cuda-before.json"
gk_step random-cuda 165 "$g" --backend cuda bench --sizes random:64:1357 --repeat 3 --no-baseline --max-time 10 \
  --peers cublas --json "$gk_out/random-cuda.json"
gk_steps_end
