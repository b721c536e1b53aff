#!/usr/bin/env bash
# Session 4, run 3 on the H100: the cost model recalibrated (seed 35) with the skinny kernels' /stream lines and
# the k_loop/SCALAR_C model, then judged on a fresh draw (seed 7373) beside cuBLAS on both backends, with the fixed
# sweep as a regression set and the skinny shapes of run 2.
set -uo pipefail
mkdir -p .deps && cp .gpu-deps/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r3" 585 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
db=$gk_out/tuning.tsv
for b in cuda opencl; do
  gk_step "calibrate-$b" 150 "$g" --backend $b tune --calibrate --verbose --seed 35 --max-time 100 --db "$db"
done
export GEMMKIT_TUNING_DB=$db
gk_step "skinny-after" 40 "$g" --backend cuda bench --sizes "12x10539x14408:NT,5x9329x8072:TT,4x16384x16384:NT,16x4096x4096:NT,1x16384x16384:NT,9x20000x8000:NT,10539x12x14408,29741x9x18749:TN,9027x1x13238:TN,880x1x8960:TT,4096x16x4096:TN,20000x11x8000:TN,3825x31286x1:NN:row,19112x28778x3:NN:row" \
  --repeat 3 --no-baseline --peers cublas
for b in cuda opencl; do
  gk_step "random-$b" 200 "$g" --backend $b bench --sizes random:64:7373 --repeat 3 --no-baseline --max-time 10 --peers cublas --json "$gk_out/random-$b.json"
done
gk_step "fixed-cuda" 60 "$g" --backend cuda bench --sizes sweep --repeat 3 --no-baseline --max-time 10 --peers cublas --json "$gk_out/fixed-cuda.json"
gzip -f "$gk_out"/*.json
gk_steps_end
cp "$gk_out/steps.log" "$OUT/steps-r3.log"; cp "$db" "$OUT/tuning-r3.tsv"
(cd "$OUT" && tar czf r3.tgz r3 && rm -rf r3)
