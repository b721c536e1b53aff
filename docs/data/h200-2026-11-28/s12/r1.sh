#!/usr/bin/env bash
# Session 12, run 1: CUDA xgemm-direct tiles (register path against the cp.async ring, 8x16 per work-item as
# OpenCL's main line) on large and mid fit shapes (losers of seeds 3141, 2604, 2718), then the calibration of
# the candidate main and mid lines.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r1" 560 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
L="2047x2047x2047:NN,2047x2047x2047:TN,2047x2047x2047:NT,2047x2047x2047:TT,4096x4096x4096:NN,3402x13240x456:TN,16683x7551x257:NT:row,13700x19987x205:TN:row,2959x1677x649:TT:row,1431x2137x1251:TT:row,1983x901x1091:TN,1592x1575x2073:NT:row,2145x401x2083:NN:row,28236x25745x34:TT:row"
M="880x816x846:NT:row,1293x413x635:NN:row,978x814x1148:TN:row,678x736x749:TT:row,639x928x1038:TN:row,714x705x924:NN,1134x940x1294:TN,575x753x1667:TN"
gk_step best 90 "$g" --backend cuda bench --sizes "$L,$M" --repeat 5 --no-baseline --max-time 2 --peers cublas --json "$gk_out/best.json"
declare -A P=(
 [r0]="TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=8"
 [r1]="TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=16,ASYNC_STAGES=3"
 [r2]="TSM=128,TSN=128,TSK=16,WPTM=8,WPTN=16,ASYNC_STAGES=2"
 [r3]="TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=16"
 [r4]="TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=16,ASYNC_STAGES=4"
 [r5]="TSM=128,TSN=64,TSK=16,WPTM=8,WPTN=8,ASYNC_STAGES=3"
 [r6]="TSM=64,TSN=128,TSK=16,WPTM=8,WPTN=8,ASYNC_STAGES=3"
 [r7]="TSM=128,TSN=64,TSK=16,WPTM=4,WPTN=8"
)
for p in r1 r0 r5 r6 r3 r4 r2 r7; do
  gk_step direct-$p 60 "$g" --backend cuda bench --kernel xgemm-direct --params "${P[$p]}" --sizes "$L,$M" --repeat 5 --no-baseline --no-roofline --max-time 2 --no-peers --json "$gk_out/direct-$p.json"
done
for p in r1 r5 r6 r7; do
  gk_step split2-$p 30 "$g" --backend cuda bench --kernel xgemm-direct-splitk --params "${P[$p]},SPLITS=2" --sizes "$M" --repeat 5 --no-baseline --no-roofline --max-time 2 --no-peers --json "$gk_out/split2-$p.json"
done
# the candidate lines, calibrated (kept only if the sweep says so)
cat > "$gk_out/cal.tsv" <<EOT
cuda	arch:sm_90	xgemm-direct	${P[r1]}	1.0	2026-11-28
cuda	arch:sm_90	xgemm-direct/mid-n	${P[r5]}	1.0	2026-11-28
cuda	arch:sm_90	xgemm-direct/mid-m	${P[r6]}	1.0	2026-11-28
EOT
gk_step calibrate 100 env GEMMKIT_TUNING_DB="$gk_out/cal.tsv" "$g" --backend cuda tune --calibrate \
  --lines xgemm-direct,xgemm-direct/mid-n,xgemm-direct/mid-m --db "$gk_out/cal.tsv" --max-time 90
gk_steps_end
(cd "$OUT" && tar czf r1.tgz r1 && rm -rf r1)
