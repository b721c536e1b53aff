#!/usr/bin/env bash
# Session 13, run 2: 3xTF32 on the short-K and thin shapes that now serve int8x (traced steps, lines by name,
# fp32 beside), and both modes through OpenCL on 12 of the fit shapes (int8x pinned to the scheme).
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r2" 420 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
S3="36346x9024x50:TT:row,33245x20324x83:NT:col,38909x5478x298:TT:col,15304x2341x258:TN:row,230x14336x3072:TT:col,357x5120x32000:TN:row"
B="--repeat 3 --max-time 3 --no-baseline"
GEMMKIT_TRACE=1 gk_step trace-3x 60 "$g" --backend cuda bench --kernel best --math 3xtf32 --sizes "$S3" $B --peers cublas --json "$gk_out/trace-3x.json"
gk_step fp32 40 "$g" --backend cuda bench --kernel best --sizes "$S3" $B --no-peers --json "$gk_out/fp32.json"
gk_step wg-main 40 "$g" --backend cuda bench --kernel xgemm-wgmma-3xtf32 --sizes "$S3" $B --no-peers --json "$gk_out/wg-main.json"
gk_step wg-small 40 "$g" --backend cuda bench --kernel xgemm-wgmma-3xtf32 --params WARPS_M=4,NI=16,TSK=32,STAGES=4,SPLIT=1 --sizes "$S3" $B --no-peers --json "$gk_out/wg-small.json"
gk_step wg-n8 40 "$g" --backend cuda bench --kernel xgemm-wgmma-3xtf32 --params WARPS_M=8,NI=8,TSK=32,STAGES=3,SPLIT=1,SWIZZLE=8 --sizes "$S3" $B --no-peers --json "$gk_out/wg-n8.json"
gk_step tma 40 "$g" --backend cuda bench --kernel xgemm-wgmma-3xtf32-split-tma --sizes "$S3" $B --no-peers --json "$gk_out/tma.json"
F="15304x2341x258:TN:row,2008x1994x2453:NN:row,230x14336x3072:TT:col,3486x1024x3072:TT:col,753x5120x4096:NT:row,36346x9024x50:TT:row,2199x2048x4096:NT:col,1326x2048x14336:NN:row,3099x4096x3072:TN:row,7136x2048x8192:NN:row,609x32000x8192:NT:row,8192"
GEMMKIT_OZAKI_MODULI=8 gk_step ocl-int8x 90 "$g" --backend opencl bench --kernel best --math int8x --sizes "$F" $B --peers cublas --json "$gk_out/ocl-int8x.json"
gk_step ocl-3x 90 "$g" --backend opencl bench --kernel best --math 3xtf32 --sizes "$F" $B --peers cublas --json "$gk_out/ocl-3x.json"
gk_steps_end
cd "$OUT" && tar czf r2.tar.gz r2
