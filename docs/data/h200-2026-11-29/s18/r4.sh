#!/usr/bin/env bash
# Session 18, run 4 (fit shapes only): batched rows under 1.0x (ring lines, one plain plan per matrix), batch shapes
# with an edge of 17-32 beside a long one (seed 6120), CUDA against OpenCL on transpose-aligned's line and
# transpose-fast on unaligned shapes; what tools the machine has.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r4" 560 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
( ls /usr/local/cuda*/bin; which ncu nsys cuobjdump nvdisasm; python3 -c "import nvidia, os; print(nvidia.__path__)"; find / -name "nvdisasm" -o -name "cuobjdump" 2>/dev/null | grep -v proc | head ) > "$gk_out/tools.txt" 2>&1
JOBS=14 GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
export GEMMKIT_DEVICE=NVIDIA
dev() { [ "$1" = cuda ] && echo "" || echo NVIDIA; }
B() { local name=$1 be=$2 lim=$3; shift 3
  GEMMKIT_DEVICE=$(dev $be) gk_step "$name" "$lim" "$g" --backend "$be" bench --repeat 5 --max-time 3 --no-baseline \
    --json "$gk_out/$name.json" "$@"; }
RB=(TSM=64,TSN=128,TSK=16,WPTM=4,WPTN=8
    TSM=64,TSN=128,TSK=16,WPTM=4,WPTN=8,ASYNC_STAGES=3
    TSM=64,TSN=64,TSK=16,WPTM=8,WPTN=8,ASYNC_STAGES=3
    TSM=128,TSN=64,TSK=16,WPTM=4,WPTN=8,ASYNC_STAGES=3
    TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=16,ASYNC_STAGES=3
    TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=8
    TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8,ASYNC_STAGES=3
    TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8
    TSM=64,TSN=64,TSK=16,WPTM=8,WPTN=8)
args=(); for p in "${RB[@]}"; do args+=(--params "$p"); done
for be in cuda opencl; do
  B rb-$be-16 $be 40 --batch 16 --kernel xgemm-direct-batched "${args[@]}" --sizes 2048
  B rb-$be-100 $be 40 --batch 100 --kernel xgemm-direct-batched "${args[@]}" --sizes 512
  B rb-$be-1000 $be 40 --batch 1000 --kernel xgemm-direct-batched "${args[@]}" --sizes 100,200x50x300,128
  B pm-$be $be 30 --kernel best --no-peers --sizes 2048,512
done
EB=(TSM=32,TSN=32,TSK=16,WPTM=4,WPTN=4
    TSM=64,TSN=32,TSK=16,WPTM=4,WPTN=4
    TSM=32,TSN=64,TSK=16,WPTM=4,WPTN=4
    TSM=128,TSN=32,TSK=32,WPTM=8,WPTN=4
    TSM=32,TSN=128,TSK=32,WPTM=4,WPTN=8
    TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8
    TSM=64,TSN=32,TSK=16,WPTM=4,WPTN=4,ASYNC_STAGES=3
    TSM=32,TSN=64,TSK=16,WPTM=4,WPTN=4,ASYNC_STAGES=3
    TSM=64,TSN=16,TSK=32,WPTM=4,WPTN=4
    TSM=16,TSN=64,TSK=32,WPTM=4,WPTN=4)
args=(); for p in "${EB[@]}"; do args+=(--params "$p"); done
for be in cuda opencl; do
  B eb-$be-1000 $be 50 --batch 1000 --kernel xgemm-direct-batched "${args[@]}" --sizes 32x139x8,27x255x10,26x161x56,31x290x48,23x136x174,163x24x32
  B eb-$be-10000 $be 50 --batch 10000 --kernel xgemm-direct-batched "${args[@]}" --sizes 18x309x8,179x21x5,29x191x11,298x21x41,134x21x24,151x18x7
done
ts=8135x982,4161x2559,760x1035,232x9990,1999x1999,5001x3007
for be in cuda opencl; do
  B tal-$be $be 30 --transpose --kernel transpose-aligned --params TILE=64,BLOCK_ROWS=8,ALIGN=8,TILES=2,GROUPS=2048,ORDER=2,BAND=8 --peers cublas --sizes $ts
  B tfa-$be $be 30 --transpose --kernel transpose-fast --params TILE=64,VW=4,BLOCK_ROWS=16,TILES=4,GROUPS=2048,ORDER=0,BAND=8 --no-peers --sizes $ts
done
gk_steps_end
gzip -f "$gk_out"/*.json
cd "$OUT" && tar czf r4.tar.gz r4
