#!/usr/bin/env bash
# Session 18, run 5 (judge): this tree against 4ca4bfc (exp/old.tar.gz, the start of the session) on fresh draws (seed
# 7219: 16 transposes through CUDA, 24 batch shapes through both backends) and bench/batched.sh's rows, cuBLAS beside;
# the GPU suites of the changed choices and test_ozaki (the moduli rule of session 17) on both backends.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r5" 470 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
old=/tmp/gk-old && rm -rf $old && mkdir -p $old && tar xzf exp/old.tar.gz -C $old
( cd $old && cmake -S . -B build-o -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-o -j 6 --target gemmkit_cli gemmkit >/dev/null ) > "$gk_out/old-build.log" 2>&1 &
JOBS=10 GK_TARGETS="gemmkit_cli gemmkit test_batched test_policy test_transpose test_ozaki" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
export GEMMKIT_DEVICE=NVIDIA
R='^(test_batched|test_policy|test_transpose|test_ozaki)$'
gk_step ctest-opencl 80 ctest --test-dir build-r -R "$R" --output-on-failure -j 4
gk_step ctest-cuda 80 env GEMMKIT_BACKEND=cuda ctest --test-dir build-r -R "$R" --output-on-failure -j 4
wait
ts=225x655,947x6863,732x366,285x11061,4623x25614,184x3067,32321x89,65x95,303x824,33225x8775,1207x1193,5225x359,169x94,1284x26798,4319x1985,110x910,1999,5001x3007,7777x3333,100000x100,4097
for side in A B; do
  bin=$([ $side = A ] && echo $old/build-o/gemmkit || echo $g)
  gk_step tr-$side 40 $bin --backend cuda bench --transpose --kernel best --peers cublas --sizes $ts --repeat 5 \
    --max-time 3 --no-baseline --json "$gk_out/tr-$side.json"
done
draw="100 123x8x279,43x71x14,41x6x6,19x39x16,213x173x37,46x11x8,16x98x46,36x179x14
1000 16x104x104,8x319x13,78x13x60,12x39x43,41x33x167,184x11x18,14x43x19,20x15x21
10000 16x65x85,6x314x54,16x12x96,12x49x37,16x5x124,14x32x106,122x5x19,31x301x24
100000 8,16
10000 32,64
1000 128,100,200x50x300
100 512
16 2048
20000 24"
for be in cuda opencl; do
  dev=$([ $be = cuda ] && echo "" || echo NVIDIA)
  j=0
  while read -r batch sizes; do
    j=$((j + 1))
    for side in A B; do
      bin=$([ $side = A ] && echo $old/build-o/gemmkit || echo $g)
      GEMMKIT_DEVICE=$dev gk_step $be-$side-$j 30 $bin --backend $be bench --batch $batch --kernel best --peers cublas \
        --sizes $sizes --repeat 5 --max-time 2 --no-baseline --json "$gk_out/$be-$side-$j-$batch.json"
    done
  done <<<"$draw"
done
gk_steps_end
gzip -f "$gk_out"/*.json
cd "$OUT" && tar czf r5.tar.gz r5
