#!/usr/bin/env bash
# Session 7, run 3 (H100): the new lines checked (verify, operands past 4 GiB for mid-n/mid-m, small-k at K = 64 and
# the model's choice at a short K), every candidate on a fresh draw (seed 9191, CUDA) with the built-in lines as now
# committed, and the draw of r2 (seed 2727) through OpenCL with main's lines and policy before the change.
set -uo pipefail
mkdir -p .deps && cp .gpu-deps/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r3" 500 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
for b in cuda opencl; do
  for k in xgemm-direct xgemm-direct-splitk; do
    gk_step "verify-$b-$k-mid-n" 30 "$g" --backend $b verify --kernel $k --params TSM=128,TSN=64,TSK=16,WPTM=4,WPTN=8
    gk_step "verify-$b-$k-mid-m" 30 "$g" --backend $b verify --kernel $k --params TSM=64,TSN=128,TSK=16,WPTM=4,WPTN=8
  done
done
gk_step large 170 env BACKENDS="cuda opencl" ONLY='mid-|K64|shortk' BUDGET=165 bash bench/large-operands.sh "$gk_out/large" "$g"
gk_step candidates-cuda 150 "$g" --backend cuda bench --sizes random:16:9191 --repeat 3 --no-baseline --max-time 10 \
  --candidates --candidates-out "$gk_out/candidates-cuda.tsv"
GEMMKIT_POLICY=$PWD/exp/policy-old.tsv GEMMKIT_QUIET=1 gk_step random-opencl-before 100 "$g" --backend opencl bench \
  --sizes random:64:2727 --repeat 3 --no-baseline --max-time 10 --peers cublas --json "$gk_out/random-opencl-before.json"
gk_steps_end
cp "$gk_out/steps.log" "$OUT/steps-r3.log"
(cd "$OUT" && tar czf r3.tgz r3 && rm -rf r3)
