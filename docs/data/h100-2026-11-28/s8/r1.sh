#!/usr/bin/env bash
# Session 8, run 1 (H100): skinny-m / skinny-n parameter sets swept on memory-bound shapes read along K (their main
# lines, default parameters until now); the cost model's constants for them and for the new 48/96-wide xgemm-direct
# lines (tune --calibrate --lines, both backends); every candidate on thin and memory-bound training shapes; a fresh
# draw (seed 1717, CUDA) with this tree and, in the same run, with 04a7e03 (main before it) built beside it.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r1" 560 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
gk_step build-before 120 bash -c "cmake -S exp/before -B build-before -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null && cmake --build build-before -j 16 --target gemmkit_cli >/dev/null"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
gk_step skinny-cuda 110 python3 exp/skinny_sweep.py "$g" "$gk_out" cuda
db=$gk_out/tuning.tsv
cp "$gk_out/skinny-cuda.tsv" "$db"
export GEMMKIT_TUNING_DB=$db
L=skinny-m,skinny-n,xgemm-direct/n96,xgemm-direct/m96,xgemm-direct/n48,xgemm-direct/m48
for b in cuda opencl; do
  gk_step "calibrate-$b" 75 "$g" --backend $b tune --calibrate --lines $L --verbose --seed 35 --max-time 50 --db "$db"
done
T="4461x95x7104,6507x42x2811:TT:row,1524x67x19168:TT:row,43x1150x5136,1709x121x1499:TN:row,393x134x3255:NT:row"
T="$T,16648x10x4401:TT:row,16x11008x8192:NT:row,7x9991x16522:TT,5522x1x22521:TT"
gk_step candidates-cuda 70 "$g" --backend cuda bench --sizes "$T" --repeat 3 --no-baseline --max-time 10 \
  --candidates --candidates-out "$gk_out/candidates-cuda.tsv"
gk_step random-cuda 75 "$g" --backend cuda bench --sizes random:64:1717 --repeat 3 --no-baseline --max-time 10 \
  --peers cublas --json "$gk_out/random-cuda.json"
gk_step random-cuda-before 75 env -u GEMMKIT_TUNING_DB GEMMKIT_QUIET=1 build-before/gemmkit --backend cuda bench \
  --sizes random:64:1717 --repeat 3 --no-baseline --max-time 10 --peers cublas --json "$gk_out/random-cuda-before.json"
gk_steps_end
cp "$db" "$OUT/tuning-r1.tsv"; cp "$gk_out/steps.log" "$OUT/steps-r1.log"
(cd "$OUT" && tar czf r1.tgz r1 && rm -rf r1)
