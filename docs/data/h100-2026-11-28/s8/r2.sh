#!/usr/bin/env bash
# Session 8, run 2 (H100): skinny-m / skinny-n parameter sets, round 2 (exp/skinny2.txt: round 1's fastest of each,
# then MR = 8 and 4 with more columns per work-item), their constants (tune --calibrate --lines, both backends), then
# a fresh draw (seed 1717) through CUDA with this tree (the 48/96-wide lines built in) and with 04a7e03 built beside
# it, and through OpenCL with this tree.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r2" 560 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
gk_step build-before 120 bash -c "cmake -S exp/before -B build-before -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null && cmake --build build-before -j 16 --target gemmkit_cli >/dev/null"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
gk_step skinny-cuda 100 python3 exp/skinny_sweep.py "$g" "$gk_out" cuda exp/skinny2.txt
db=$gk_out/tuning.tsv
cp "$gk_out/skinny-cuda.tsv" "$db"
export GEMMKIT_TUNING_DB=$db
for b in cuda opencl; do
  gk_step "calibrate-$b" 40 "$g" --backend $b tune --calibrate --lines skinny-m,skinny-n --verbose --seed 35 \
    --max-time 25 --db "$db"
done
gk_step random-cuda 100 "$g" --backend cuda bench --sizes random:64:1717 --repeat 3 --no-baseline --max-time 10 \
  --peers cublas --json "$gk_out/random-cuda.json"
gk_step random-cuda-before 85 env -u GEMMKIT_TUNING_DB GEMMKIT_QUIET=1 build-before/gemmkit --backend cuda bench \
  --sizes random:64:1717 --repeat 3 --no-baseline --max-time 10 --peers cublas --json "$gk_out/random-cuda-before.json"
gk_step random-opencl 100 "$g" --backend opencl bench --sizes random:64:1717 --repeat 3 --no-baseline --max-time 10 \
  --peers cublas --json "$gk_out/random-opencl.json"
gk_steps_end
cp "$db" "$OUT/tuning-r2.tsv"; cp "$gk_out/steps.log" "$OUT/steps-r2.log"
(cd "$OUT" && tar czf r2.tgz r2 && rm -rf r2)
