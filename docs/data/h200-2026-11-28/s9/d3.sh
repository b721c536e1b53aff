#!/usr/bin/env bash
# Session 9, run 3: the skinny-*-dot main lines (round 2's fastest, exp/dot-lines.tsv) calibrated on both backends,
# then judged through the library's choice: the DOT-oriented memory-bound shapes of the sweeps and a fresh draw (seed
# 2468) through CUDA with this tree and with 778e52f (exp/before) in the same run, and through OpenCL with this tree.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/d3" 570 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
gk_step build-before 120 bash -c "cmake -S exp/before -B build-before -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null && cmake --build build-before -j 16 --target gemmkit_cli >/dev/null"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
db=$gk_out/calibration.tsv
cp exp/dot-lines.tsv "$db"
for b in cuda opencl; do
  gk_step "calibrate-$b" 30 env GEMMKIT_TUNING_DB="$db" "$g" --backend $b tune --calibrate \
    --lines skinny-m-dot,skinny-n-dot --verbose --seed 35 --max-time 20 --db "$db"
done
# The new lines as builtin.tsv will hold them: the kernels' params and cost lines under arch:sm_90, beside the
# built-in device constants (no H200-only line that would move other choices).
awk -F'\t' -v OFS='\t' '$3 ~ /^(cost:)?skinny-[mn]-dot$/ { $2 = "arch:sm_90"; print }' "$db" > "$gk_out/tuning.tsv"
export GEMMKIT_TUNING_DB=$gk_out/tuning.tsv
mb="10x16648x4401,16x11008x8192:TN,3x30000x8000,7x9991x16522,14x5120x32000,4x44327x9124,4x15919x5660:TN,1x32000x8192"
mb="$mb,16648x10x4401:TN,11008x16x8192:TT,30000x3x8000:TN,5522x1x22521:TN,5120x14x32000:TN,44327x4x9124:TT"
mb="$mb,15919x4x5660:TT,32000x1x8192:TN"
gk_step dot-cuda 60 "$g" --backend cuda bench --sizes "$mb" --repeat 5 --no-baseline --peers cublas \
  --json "$gk_out/dot-cuda.json"
gk_step dot-cuda-before 60 env -u GEMMKIT_TUNING_DB GEMMKIT_QUIET=1 build-before/gemmkit --backend cuda bench \
  --sizes "$mb" --repeat 5 --no-baseline --peers cublas --json "$gk_out/dot-cuda-before.json"
gk_step random-cuda 110 "$g" --backend cuda bench --sizes random:64:2468 --repeat 3 --no-baseline --max-time 10 \
  --peers cublas --json "$gk_out/random-cuda.json"
gk_step random-cuda-before 110 env -u GEMMKIT_TUNING_DB GEMMKIT_QUIET=1 build-before/gemmkit --backend cuda bench \
  --sizes random:64:2468 --repeat 3 --no-baseline --max-time 10 --peers cublas --json "$gk_out/random-cuda-before.json"
gk_step random-opencl 100 "$g" --backend opencl bench --sizes random:64:2468 --repeat 3 --no-baseline --max-time 10 \
  --peers cublas --json "$gk_out/random-opencl.json"
gk_steps_end
(cd "$OUT" && tar czf d3.tgz d3 && rm -rf d3)
