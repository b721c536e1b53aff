#!/usr/bin/env bash
# Session 18, run 6 (judge): transposes by policy through CUDA, this tree (transpose-fast at any alignment up to 2^24
# elements) against 4ca4bfc (exp/old.tar.gz) on a fresh draw (seed 8311, 20 shapes), cuBLAS beside; test_transpose and
# test_policy through CUDA.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r6" 250 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
old=/tmp/gk-old && rm -rf $old && mkdir -p $old && tar xzf exp/old.tar.gz -C $old
( cd $old && cmake -S . -B build-o -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-o -j 6 --target gemmkit_cli gemmkit >/dev/null ) > "$gk_out/old-build.log" 2>&1 &
JOBS=10 GK_TARGETS="gemmkit_cli gemmkit test_policy test_transpose" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
gk_step ctest-cuda 60 env GEMMKIT_BACKEND=cuda ctest --test-dir build-r -R '^(test_transpose|test_policy)$' --output-on-failure -j 2
wait
ts=736x89,4454x190,181x5200,945x64,94x1914,20321x1459,12692x797,153x2161,5143x2069,9925x375,12562x64,20485x241,35882x162,85x121,1756x184,268x8291,3985x2098,2030x370,4953x9189,502x24466
for side in A B A B; do
  bin=$([ $side = A ] && echo $old/build-o/gemmkit || echo $g)
  gk_step tr-$side 40 $bin --backend cuda bench --transpose --kernel best --peers cublas --sizes $ts --repeat 5 \
    --max-time 3 --no-baseline --json "$gk_out/tr-$side-$RANDOM.json"
done
gk_steps_end
gzip -f "$gk_out"/*.json
cd "$OUT" && tar czf r6.tar.gz r6
