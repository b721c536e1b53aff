#!/usr/bin/env bash
# Session 7, run 4 (H100): xgemm-direct tiles 96 and 48 wide (edges of 65-96 and 33-48 fill them where 128 or 64
# leave a quarter to a half idle): two parameter sets each swept unsplit, the cost model recalibrated with the
# fastest, every candidate on thin training shapes, then a fresh draw (seed 4343, CUDA) with them and, in the same
# run, with main's lines and policy (1ab40e0).
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r4" 385 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
gk_step sweep-cuda 60 python3 exp/sweep2.py "$g" "$gk_out" cuda
db=$gk_out/tuning.tsv
cp "$gk_out/tiles2-cuda.tsv" "$db"
export GEMMKIT_TUNING_DB=$db
for b in cuda opencl; do
  gk_step "calibrate-$b" 80 "$g" --backend $b tune --calibrate --seed 35 --max-time 70 --db "$db"
done
T="4461x95x7104,6507x42x2811:TT:row,1524x67x19168:TT:row,43x1150x5136,1709x121x1499:TN:row,393x134x3255:NT:row"
gk_step candidates-cuda 60 "$g" --backend cuda bench --sizes "$T" --repeat 3 --no-baseline --max-time 10 \
  --candidates --candidates-out "$gk_out/candidates-cuda.tsv"
gk_step random-cuda 75 "$g" --backend cuda bench --sizes random:64:4343 --repeat 3 --no-baseline --max-time 10 \
  --peers cublas --json "$gk_out/random-cuda.json"
gk_step random-cuda-before 75 env -u GEMMKIT_TUNING_DB GEMMKIT_POLICY=$PWD/exp/policy-s7.tsv GEMMKIT_QUIET=1 \
  "$g" --backend cuda bench --sizes random:64:4343 --repeat 3 --no-baseline --max-time 10 --peers cublas \
  --json "$gk_out/random-cuda-before.json"
gk_steps_end
cp "$db" "$OUT/tuning-r4.tsv"; cp "$gk_out/steps.log" "$OUT/steps-r4.log"
(cd "$OUT" && tar czf r4.tgz r4 && rm -rf r4)
