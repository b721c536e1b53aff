#!/usr/bin/env bash
# Session 12, run 4: xgemm-direct's ring line through CUDA with launch bounds for 3 work-groups an SM (MIN_GROUPS=3:
# 168 registers) against 2 (254 registers), 4096 in each orientation and large fit shapes; then that line as CUDA's
# main xgemm-direct line, calibrated (seed 35), judged on the fresh seed 7007 against the built-in lines (interleaved).
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r4" 560 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
P=TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=16,ASYNC_STAGES=3
O="--repeat 5 --no-baseline --no-roofline --max-time 2 --no-peers"
gk_step mg2 30 "$g" --backend cuda bench --kernel xgemm-direct --params $P --sizes 4096:NN,4096:NT,4096:TN,4096:TT $O --json "$gk_out/mg2.json"
gk_step mg3 30 "$g" --backend cuda bench --kernel xgemm-direct --params $P,MIN_GROUPS=3 --sizes 4096:NN,4096:NT,4096:TN,4096:TT $O --json "$gk_out/mg3.json"
L="2047x2047x2047:NN,2047x2047x2047:TN,3402x13240x456:TN,16683x7551x257:NT:row,2959x1677x649:TT:row,1431x2137x1251:TT:row,1983x901x1091:TN,1592x1575x2073:NT:row,5000x3000x1000:NN,8192x1024x2048:TT,13700x19987x205:TN:row,880x816x846:NT:row,978x814x1148:TN:row"
gk_step mg3-large 60 "$g" --backend cuda bench --kernel xgemm-direct --params $P,MIN_GROUPS=3 --sizes "$L" $O --json "$gk_out/mg3-large.json"
printf 'cuda\tarch:sm_90\txgemm-direct\t%s,MIN_GROUPS=3\t1.0\t2026-11-28\n' "$P" > "$gk_out/main-mg3.tsv"
gk_step calibrate 60 env GEMMKIT_TUNING_DB="$gk_out/main-mg3.tsv" "$g" --backend cuda tune --calibrate --lines xgemm-direct \
  --db "$gk_out/main-mg3.tsv" --max-time 50
cat "$gk_out/main-mg3.tsv"
gk_step interleave-cuda 290 python3 bench/interleave.py --a "$g --backend cuda" \
  --b "env GEMMKIT_TUNING_DB=$gk_out/main-mg3.tsv $g --backend cuda" --out "$gk_out/seed7007-cuda" --chunk 8 \
  --budget 250 -- --sizes random:64:7007 --repeat 3 --no-baseline --max-time 5 --peers cublas
tail -8 "$gk_out/seed7007-cuda/report.txt" 2>/dev/null
gk_steps_end
(cd "$OUT" && tar czf r4.tgz r4 && rm -rf r4)
