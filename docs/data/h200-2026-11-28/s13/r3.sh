#!/usr/bin/env bash
# Session 13, run 3: the 3xTF32 TMA kernel's lines on short-K shapes (two work-groups an SM, fewer stages).
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r3" 300 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
S="36346x9024x50:TT:row,33245x20324x83:NT:col,15304x2341x258:TN:row,38909x5478x298:TT:col,17376x5120x768:TT:row,24255x10788x23:NT:row"
B="--repeat 3 --max-time 3 --no-baseline --no-peers"
gk_step best 40 "$g" --backend cuda bench --kernel best --math 3xtf32 --sizes "$S" --repeat 3 --max-time 3 --no-baseline --peers cublas --json "$gk_out/best.json"
declare -A P=([v1]="WARPS_M=4,NI=16,TSK=32,STAGES=2,SPLIT=1" [v2]="WARPS_M=8,NI=16,TSK=32,STAGES=2,SPLIT=1" [v3]="WARPS_M=4,NI=8,TSK=32,STAGES=3,SPLIT=1" [v4]="WARPS_M=8,NI=8,TSK=32,STAGES=2,SPLIT=1" [v5]="WARPS_M=4,NI=16,TSK=32,STAGES=3,SPLIT=1")
for v in v1 v4 v3 v2 v5; do
  gk_step tma-$v 40 "$g" --backend cuda bench --kernel xgemm-wgmma-3xtf32-split-tma --params "${P[$v]},SWIZZLE=8" --sizes "$S" $B --json "$gk_out/tma-$v.json"
done
gk_steps_end
cd "$OUT" && tar czf r3.tar.gz r3
