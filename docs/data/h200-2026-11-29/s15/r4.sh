#!/usr/bin/env bash
# Session 15, run 4: the cost model's constants calibrated on the H200 itself (`tune --calibrate --seed 35`, CUDA;
# the built-in sm_90 lines were fitted on an H100, COPY 2800 GB/s), then a fresh draw (random:40:2911, a seed used in
# no fit) with those lines and with the built-in ones, cuBLAS beside the first.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r4" 540 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
db=$gk_out/tuning.tsv
gk_step calibrate 190 "$g" --backend cuda tune --calibrate --verbose --seed 35 --max-time 120 --db "$db"
B="--sizes random:40:2911 --repeat 3 --no-baseline --max-time 10"
GEMMKIT_TUNING_DB=$db gk_step draw-cal 170 "$g" --backend cuda bench $B --peers cublas --json "$gk_out/draw-cal.json"
GEMMKIT_TUNING_DB=/nonexistent/none.tsv gk_step draw-builtin 150 "$g" --backend cuda bench $B --no-peers --json "$gk_out/draw-builtin.json"
gk_steps_end
gzip -f "$gk_out"/*.json
cd "$OUT" && tar czf r4.tar.gz r4
