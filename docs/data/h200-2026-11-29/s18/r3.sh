#!/usr/bin/env bash
# Session 18, run 3: the batched variant rows (thin-n, thin-m, 32x32 beside a short edge, OpenCL /mid, CUDA /mid-m)
# judged against HEAD (exp/old.tar.gz) on a fresh batch draw (seed 5119) and bench/batched.sh's rows, both backends,
# cuBLAS beside; test_batched/test_policy on the GPU; transpose-aligned's lines by name through CUDA (fit shapes).
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r3" 560 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
old=/tmp/gk-old && rm -rf $old && mkdir -p $old && tar xzf exp/old.tar.gz -C $old
( cd $old && cmake -S . -B build-o -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-o -j 6 --target gemmkit_cli gemmkit >/dev/null ) > "$gk_out/old-build.log" 2>&1 &
JOBS=10 GK_TARGETS="gemmkit_cli gemmkit test_batched test_policy" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
export GEMMKIT_DEVICE=NVIDIA
R='^(test_batched|test_policy)$'
gk_step ctest-opencl 60 ctest --test-dir build-r -R "$R" --output-on-failure -j 4
gk_step ctest-cuda 60 env GEMMKIT_BACKEND=cuda ctest --test-dir build-r -R "$R" --output-on-failure -j 4
tshapes=617x81,126x818,8135x982,760x1035,4161x2559,479x357,2878x212,1847x3750,232x9990,114x1852,416x9961,18117x130,7777x3333,100000x100,1999x1999,5001x3007
i=0
for p in TILE=64,BLOCK_ROWS=16,ALIGN=16,TILES=2,GROUPS=2048,ORDER=2,BAND=8 \
    TILE=64,BLOCK_ROWS=8,ALIGN=8,TILES=2,GROUPS=2048,ORDER=2,BAND=8 \
    TILE=64,BLOCK_ROWS=8,ALIGN=8,TILES=2,GROUPS=2048,ORDER=2,BAND=8,MIN_GROUPS=5 \
    TILE=64,BLOCK_ROWS=16,ALIGN=8,TILES=2,GROUPS=2048,ORDER=2,BAND=8 \
    TILE=64,BLOCK_ROWS=8,ALIGN=8,TILES=1,GROUPS=2048,ORDER=2,BAND=8 \
    TILE=64,BLOCK_ROWS=8,ALIGN=8,TILES=2,GROUPS=2048,ORDER=0,BAND=8 \
    TILE=32,BLOCK_ROWS=8,ALIGN=8,TILES=1,GROUPS=2048,ORDER=2,BAND=8 \
    TILE=64,BLOCK_ROWS=8,ALIGN=16,TILES=2,GROUPS=2048,ORDER=2,BAND=8 \
    TILE=64,BLOCK_ROWS=8,ALIGN=32,TILES=2,GROUPS=2048,ORDER=2,BAND=8; do
  i=$((i + 1))
  gk_step ta-$i 30 "$g" --backend cuda bench --transpose --kernel transpose-aligned --params "$p" --sizes $tshapes \
    --repeat 5 --max-time 3 --no-baseline $([ $i = 1 ] && echo --peers cublas || echo --no-peers) --json "$gk_out/ta-$i.json"
done
wait
gk_log "old build: $(tail -3 $gk_out/old-build.log)"
draw="100 19x18x44,68x44x90,13x134x139,85x64x104,101x11x15,229x34x18,15x21x4,8x299x7
1000 285x4x29,31x71x25,5x9x5,120x22x40,115x12x21,27x60x107,280x24x16,150x12x49
10000 50x55x4,36x16x69,226x94x14,88x4x121,182x20x53,10x5x6,106x4x10,11x8x11
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
      GEMMKIT_DEVICE=$dev gk_step $be-$side-$j 40 $bin --backend $be bench --batch $batch --kernel best --peers cublas \
        --sizes $sizes --repeat 5 --max-time 3 --no-baseline --json "$gk_out/$be-$side-$j-$batch.json"
    done
  done <<<"$draw"
done
gk_steps_end
gzip -f "$gk_out"/*.json
cd "$OUT" && tar czf r3.tar.gz r3
