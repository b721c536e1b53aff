#!/usr/bin/env bash
# Session 18, run 2: candidate lines by name on the fit shapes (seed 4107's transposes and batch draw, batched.sh's
# rows, session 17's mid-size split shapes): transpose-aligned through CUDA, xgemm-direct-batched's tiles on both
# backends, CUDA register caps (MIN_GROUPS) on xgemm-direct-splitk.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r2" 540 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
JOBS=14 GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
export GEMMKIT_DEVICE=NVIDIA
dev() { [ "$1" = cuda ] && echo "" || echo NVIDIA; }
B() { local name=$1 be=$2 lim=$3; shift 3
  GEMMKIT_DEVICE=$(dev $be) gk_step "$name" "$lim" "$g" --backend "$be" bench --repeat 5 --max-time 3 --no-baseline \
    --json "$gk_out/$name.json" "$@"; }
TA=(TILE=64,BLOCK_ROWS=16,ALIGN=16,TILES=2,GROUPS=2048,ORDER=2,BAND=8
    TILE=64,BLOCK_ROWS=8,ALIGN=8,TILES=2,GROUPS=2048,ORDER=2,BAND=8
    TILE=64,BLOCK_ROWS=8,ALIGN=8,TILES=2,GROUPS=2048,ORDER=2,BAND=8,MIN_GROUPS=5
    TILE=64,BLOCK_ROWS=16,ALIGN=8,TILES=2,GROUPS=2048,ORDER=2,BAND=8
    TILE=64,BLOCK_ROWS=16,ALIGN=8,TILES=2,GROUPS=2048,ORDER=2,BAND=8,MIN_GROUPS=4
    TILE=64,BLOCK_ROWS=8,ALIGN=8,TILES=1,GROUPS=2048,ORDER=2,BAND=8,MIN_GROUPS=5
    TILE=64,BLOCK_ROWS=8,ALIGN=8,TILES=2,GROUPS=2048,ORDER=0,BAND=8
    TILE=32,BLOCK_ROWS=8,ALIGN=8,TILES=1,GROUPS=2048,ORDER=2,BAND=8
    TILE=32,BLOCK_ROWS=8,ALIGN=8,TILES=2,GROUPS=2048,ORDER=2,BAND=8,MIN_GROUPS=8)
tshapes=617x81,126x818,8135x982,760x1035,4161x2559,479x357,2878x212,1847x3750,232x9990,114x1852,416x9961,18117x130,7777x3333,100000x100,1999x1999,5001x3007
args=(); for p in "${TA[@]}"; do args+=(--params "$p"); done
B ta-cuda cuda 90 --transpose --kernel transpose-aligned "${args[@]}" --sizes $tshapes
XB=(TSM=64,TSN=64,TSK=16,WPTM=8,WPTN=8
    TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8
    TSM=32,TSN=32,TSK=16,WPTM=4,WPTN=4
    TSM=24,TSN=24,TSK=12,WPTM=4,WPTN=4
    TSM=64,TSN=16,TSK=32,WPTM=4,WPTN=4
    TSM=16,TSN=64,TSK=32,WPTM=4,WPTN=4
    TSM=128,TSN=32,TSK=32,WPTM=8,WPTN=4
    TSM=32,TSN=128,TSK=32,WPTM=4,WPTN=8
    TSM=128,TSN=64,TSK=16,WPTM=4,WPTN=8
    TSM=64,TSN=128,TSK=16,WPTM=4,WPTN=8
    TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=16
    TSM=64,TSN=64,TSK=16,WPTM=8,WPTN=8,MIN_GROUPS=8
    TSM=64,TSN=32,TSK=16,WPTM=4,WPTN=4
    TSM=32,TSN=64,TSK=16,WPTM=4,WPTN=4)
args=(); for p in "${XB[@]}"; do args+=(--params "$p"); done
for be in cuda opencl; do
  B xb-$be-16 $be 40 --batch 16 --kernel xgemm-direct-batched "${args[@]}" --sizes 2048
  B xb-$be-100 $be 40 --batch 100 --kernel xgemm-direct-batched "${args[@]}" --sizes 512,74x194x143,64x8x175
  B xb-$be-1000 $be 60 --batch 1000 --kernel xgemm-direct-batched "${args[@]}" --sizes 100,128,200x50x300,72x26x55,7x129x52,6x4x130,38x27x5
  B xb-$be-10000 $be 40 --batch 10000 --kernel xgemm-direct-batched "${args[@]}" --sizes 54x205x21
  B xb-$be-20000 $be 30 --batch 20000 --kernel xgemm-direct-batched "${args[@]}" --sizes 24
done
SK=(TSM=64,TSN=64,TSK=16,WPTM=8,WPTN=8,SPLITS=4
    TSM=64,TSN=64,TSK=16,WPTM=8,WPTN=8,SPLITS=4,MIN_GROUPS=8
    TSM=64,TSN=64,TSK=16,WPTM=8,WPTN=8,SPLITS=8
    TSM=64,TSN=64,TSK=16,WPTM=8,WPTN=8,SPLITS=8,MIN_GROUPS=8
    TSM=32,TSN=128,TSK=32,WPTM=4,WPTN=8,SPLITS=4
    TSM=32,TSN=128,TSK=32,WPTM=4,WPTN=8,SPLITS=4,MIN_GROUPS=4
    TSM=128,TSN=32,TSK=32,WPTM=8,WPTN=4,SPLITS=4
    TSM=128,TSN=32,TSK=32,WPTM=8,WPTN=4,SPLITS=4,MIN_GROUPS=4
    TSM=128,TSN=64,TSK=16,WPTM=4,WPTN=8,SPLITS=4
    TSM=128,TSN=64,TSK=16,WPTM=4,WPTN=8,SPLITS=4,MIN_GROUPS=3)
args=(); for p in "${SK[@]}"; do args+=(--params "$p"); done
B sk-cuda cuda 120 --kernel xgemm-direct-splitk "${args[@]}" --sizes 162x474x3017:TN:row,373x169x2449:TT:col,2173x383x2435:NT:row,147x393x1459:NT:col,3176x115x2768:TT:col,2192x245x1616:NT:col,607x2091x859:TT:row,187x1181x1641:TN:row
gk_steps_end
gzip -f "$gk_out"/*.json
cd "$OUT" && tar czf r2.tar.gz r2
