#!/usr/bin/env bash
# Session 7, run 2 (H100): the cost model recalibrated with the new xgemm-direct/mid-n and /mid-m lines and small-k up
# to K = 64 (seed 35, both backends), then a fresh draw (seed 2727, 64 shapes) beside cuBLAS with those lines, and the
# same draw with main's lines and policy before this change (CUDA), and the fixed sweep.
set -uo pipefail
mkdir -p .deps && cp .gpu-deps/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r2" 570 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
db=$gk_out/tuning.tsv
for b in cuda opencl; do
  gk_step "calibrate-$b" 110 "$g" --backend $b tune --calibrate --verbose --seed 35 --max-time 90 --db "$db"
done
for b in cuda opencl; do
  GEMMKIT_TUNING_DB=$db gk_step "random-$b" 130 "$g" --backend $b bench --sizes random:64:2727 --repeat 3 --no-baseline \
    --max-time 10 --peers cublas --json "$gk_out/random-$b.json"
done
GEMMKIT_POLICY=$PWD/exp/policy-old.tsv GEMMKIT_QUIET=1 gk_step random-cuda-before 120 "$g" --backend cuda bench \
  --sizes random:64:2727 --repeat 3 --no-baseline --max-time 10 --peers cublas --json "$gk_out/random-cuda-before.json"
GEMMKIT_TUNING_DB=$db gk_step fixed-cuda 40 "$g" --backend cuda bench --sizes sweep --repeat 3 --no-baseline \
  --max-time 10 --peers cublas --json "$gk_out/fixed-cuda.json"
gk_steps_end
cp "$db" "$OUT/tuning-r2.tsv"; cp "$gk_out/steps.log" "$OUT/steps-r2.log"
(cd "$OUT" && tar czf r2.tgz r2 && rm -rf r2)
