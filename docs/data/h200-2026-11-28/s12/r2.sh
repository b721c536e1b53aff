#!/usr/bin/env bash
# Session 12, run 2: xgemm-direct's ring line (128x128, 8x16, 3 stages) in each orientation at 4096 against the packed
# xgemm (CUDA); then K-major or unaligned operands copied to M/N-contiguous ("outer" copy rows) before the 128x128
# direct line, the CUDA main line set to the ring line (exp/v/outer-*.tsv), against the built-in choice, interleaved,
# CUDA and OpenCL, on large fit shapes.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r2" 300 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
gk_step orient-cuda 45 "$g" --backend cuda bench --kernel xgemm-direct --params TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=16,ASYNC_STAGES=3 --sizes 4096:NN,4096:NT,4096:TN,4096:TT --repeat 5 --no-baseline --no-roofline --max-time 2 --no-peers --json "$gk_out/orient-cuda.json"
gk_step packed-cuda 20 "$g" --backend cuda bench --kernel xgemm --sizes 4096:NN --repeat 5 --no-baseline --no-roofline --max-time 2 --no-peers --json "$gk_out/packed-cuda.json"
L="2047x2047x2047:NN,2047x2047x2047:TN,3402x13240x456:TN,16683x7551x257:NT:row,2959x1677x649:TT:row,1431x2137x1251:TT:row,1983x901x1091:TN,1592x1575x2073:NT:row,5000x3000x1000:NN,4096x4096x4096:TN,8192x1024x2048:TT,13700x19987x205:TN:row"
gk_step outer-cuda 110 python3 bench/interleave.py --a "$g --backend cuda" \
  --b "env GEMMKIT_POLICY=exp/v/outer-policy.tsv GEMMKIT_TUNING_DB=exp/v/outer-lines.tsv $g --backend cuda" --out "$gk_out/outer-cuda" --chunk 6 \
  --budget 100 -- --sizes "$L" --repeat 3 --no-baseline --max-time 2 --peers cublas
gk_step outer-opencl 90 python3 bench/interleave.py --a "$g --backend opencl" \
  --b "env GEMMKIT_POLICY=exp/v/outer-policy.tsv $g --backend opencl" --out "$gk_out/outer-opencl" --chunk 6 \
  --budget 80 -- --sizes "$L" --repeat 3 --no-baseline --max-time 2 --peers cublas
GEMMKIT_TRACE=1 GEMMKIT_POLICY=exp/v/outer-policy.tsv GEMMKIT_TUNING_DB=exp/v/outer-lines.tsv "$g" --backend cuda bench --sizes 3402x13240x456:TN --repeat 1 --no-peers --no-baseline --no-roofline > "$gk_out/trace-outer.log" 2>&1
gk_steps_end
(cd "$OUT" && tar czf r2.tgz r2 && rm -rf r2)
