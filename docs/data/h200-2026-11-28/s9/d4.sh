#!/usr/bin/env bash
# Session 9, run 4: main as it will be committed (skinny_dot.cl's lines built in; skinny.cl's rows kept to the
# orientation it reads well) against 778e52f (exp/before) in the same run: the DOT-oriented memory-bound shapes and a
# fresh draw (seed 1357) through CUDA and OpenCL. First both skinny-*-dot lines are calibrated again with the
# orientation fix (their own orientation's factor left at 1), for builtin.tsv; the draws use them.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/d4" 575 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
gk_step build-before 120 bash -c "cmake -S exp/before -B build-before -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null && cmake --build build-before -j 16 --target gemmkit_cli >/dev/null"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
db=$gk_out/calibration.tsv
: > "$db"
for b in cuda opencl; do
  gk_step "calibrate-$b" 25 env GEMMKIT_TUNING_DB="$db" "$g" --backend $b tune --calibrate \
    --lines skinny-m-dot,skinny-n-dot --verbose --seed 35 --max-time 15 --db "$db"
done
awk -F'\t' -v OFS='\t' '$3 ~ /^cost:skinny-[mn]-dot$/ { $2 = "arch:sm_90"; $5 = "0"; print }' "$db" > "$gk_out/tuning.tsv"
export GEMMKIT_TUNING_DB=$gk_out/tuning.tsv
ONLY='^skinny-n-dot-splitk' BACKENDS=cuda BUDGET=25 gk_step large 30 bench/large-operands.sh "$gk_out/large" "$g"
mb="10x16648x4401,16x11008x8192:TN,3x30000x8000,7x9991x16522,14x5120x32000,4x44327x9124,4x15919x5660:TN,1x32000x8192"
mb="$mb,16648x10x4401:TN,11008x16x8192:TT,30000x3x8000:TN,5522x1x22521:TN,5120x14x32000:TN,44327x4x9124:TT"
mb="$mb,15919x4x5660:TT,32000x1x8192:TN"
gk_step dot-cuda 30 "$g" --backend cuda bench --sizes "$mb" --repeat 5 --no-baseline --peers cublas \
  --json "$gk_out/dot-cuda.json"
gk_step dot-cuda-before 30 env -u GEMMKIT_TUNING_DB GEMMKIT_QUIET=1 build-before/gemmkit --backend cuda bench \
  --sizes "$mb" --repeat 5 --no-baseline --peers cublas --json "$gk_out/dot-cuda-before.json"
for b in cuda opencl; do
  gk_step random-$b 100 "$g" --backend $b bench --sizes random:64:1357 --repeat 3 --no-baseline --max-time 10 \
    --peers cublas --json "$gk_out/random-$b.json"
  gk_step random-$b-before 100 env -u GEMMKIT_TUNING_DB GEMMKIT_QUIET=1 build-before/gemmkit --backend $b bench \
    --sizes random:64:1357 --repeat 3 --no-baseline --max-time 10 --peers cublas --json "$gk_out/random-$b-before.json"
done
gk_steps_end
(cd "$OUT" && tar czf d4.tgz d4 && rm -rf d4)
