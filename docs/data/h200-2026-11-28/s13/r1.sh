#!/usr/bin/env bash
# Session 13, run 1: int8x on the H200 (bench/ozaki.sh at 4096-16384), then int8x and 3xtf32 beside cuBLAS fp32
# on the shapes of >= 2^33 multiply-adds of random:200:1960 (a fit draw for int8x's routing).
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$OUT/gpu.txt" 2>&1
SIZES=4096,8192,16384 BUDGET=300 BUILD=$PWD/build-r bench/ozaki.sh "$OUT/oz" > "$OUT/oz.txt" 2>&1
. bench/gpu-env.sh
gk_steps_begin "$OUT/r1" 200 || exit 2
g=$PWD/build-r/gemmkit
S="15304x2341x258:TN:row,2008x1994x2453:NN:row,230x14336x3072:TT:col,3486x1024x3072:TT:col,753x5120x4096:NT:row,2509x2446x2633:TN:col,36346x9024x50:TT:row,2199x2048x4096:NT:col,579x14336x3072:TN:row,4362x3014x2014:TT:col,3550x11008x768:TT:col,1326x2048x14336:NN:row,3099x4096x3072:TN:row,33245x20324x83:NT:col,357x5120x32000:TN:row,14359x2048x2048:TT:col,38909x5478x298:TT:col,17376x5120x768:TT:row,3662x5977x3471:NN:col,2548x11008x3072:NN:row,865x4096x32000:TN:col,7136x2048x8192:NN:row,16041x8192x1024:NN:row,609x32000x8192:NT:row"
for m in int8x 3xtf32; do
  gk_step fit-$m 90 "$g" --backend cuda bench --kernel best --math $m --sizes "$S" --repeat 3 --max-time 3 --no-baseline --peers cublas --json "$gk_out/fit-$m.json"
done
gk_steps_end
cd "$OUT" && tar czf r1.tar.gz oz r1 oz.txt gpu.txt
