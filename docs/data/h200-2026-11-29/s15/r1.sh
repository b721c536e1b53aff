#!/usr/bin/env bash
# Session 15, run 1: xgemm-direct's TPG (tiles per work-group, the cp.async ring across them) timed as cost-model
# candidates beside the library's lines (exp/tpg.tsv: the ring lines with TPG 1, 2, 4, unscoped), fit shapes of
# short K; then operands past 4 GiB through xgemm-direct (its source changed in session 14) on both backends.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r1" 540 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
S="16384x16384x16,16384x16384x32,16384x16384x64,16384x16384x128,39473x9135x28:TN:col,26744x10547x59:NN:col,17595x28894x44:TT:row,15618x14101x43:TN:row,9571x12889x77:NT:col,24828x30312x73:NT:col"
B="--repeat 3 --max-time 2 --no-baseline"
GEMMKIT_TUNING_DB=$PWD/exp/tpg.tsv gk_step cand-cuda 230 "$g" --backend cuda bench --kernel best --candidates --candidates-out "$gk_out/cand-cuda.tsv" --sizes "$S" $B --peers cublas --json "$gk_out/cand-cuda.json"
GEMMKIT_DEVICE=NVIDIA BACKENDS="cuda opencl" ONLY='^xgemm-direct' BUDGET=200 gk_step large 210 bench/large-operands.sh "$gk_out/large" "$g"
gk_steps_end
cd "$OUT" && tar czf r1.tar.gz r1
