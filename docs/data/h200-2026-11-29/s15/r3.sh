#!/usr/bin/env bash
# Session 15, run 3: xgemm-direct's TPG as cost-model candidates (exp/tpg.tsv's lines, named by exp/tpg-policy3.tsv's
# scope rows, which also leave out the narrow, tiny, long-k and small lines), CUDA, short-K fit shapes, cuBLAS beside.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r3" 420 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
S="16384x16384x16,16384x16384x32,16384x16384x64,39473x9135x28:TN:col,26744x10547x59:NN:col,24828x30312x73:NT:col,17595x28894x44:TT:row"
B="--repeat 3 --max-time 2 --no-baseline"
export GEMMKIT_TUNING_DB=$PWD/exp/tpg.tsv GEMMKIT_POLICY=$PWD/exp/tpg-policy3.tsv
gk_step cand-cuda 380 "$g" --backend cuda bench --kernel best --candidates --candidates-out "$gk_out/cand-cuda.tsv" --sizes "$S" $B --peers cublas --json "$gk_out/cand-cuda.json"
gk_steps_end
cd "$OUT" && tar czf r3.tar.gz r3
