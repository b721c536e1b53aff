#!/usr/bin/env bash
# Session 9, run 1: skinny-m-dot / skinny-n-dot verified on both backends, their parameter sets swept kernel-only beside
# skinny-m / skinny-n (CUDA), the fastest set's constants calibrated (tune --calibrate --lines, both backends), their
# operands past 4 GiB, and the copy bandwidth of the run.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/d1" 560 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
for b in cuda opencl; do
  for k in skinny-m-dot skinny-n-dot; do
    gk_step "verify-$b-$k" 20 "$g" --backend $b verify --kernel $k
    gk_step "verify-$b-$k-splitk" 20 "$g" --backend $b verify --kernel $k-splitk --params SPLITS=8
  done
done
gk_step sweep-cuda 150 python3 exp/dot_sweep.py "$g" "$gk_out" cuda
db=$gk_out/tuning.tsv
cp "$gk_out/dot-cuda.tsv" "$db"
export GEMMKIT_TUNING_DB=$db
for b in cuda opencl; do
  gk_step "calibrate-$b" 45 "$g" --backend $b tune --calibrate --lines skinny-m-dot,skinny-n-dot --verbose --seed 35 \
    --max-time 30 --db "$db"
done
gk_step bandwidth 30 "$g" --backend cuda bench --sizes 4x44327x9124,14x5120x32000 --repeat 5 --no-baseline --peers cublas \
  --json "$gk_out/bandwidth.json"
ONLY='^skinny-(m|n)-dot' BUDGET=100 gk_step large 110 bench/large-operands.sh "$gk_out/large" "$g"
gk_steps_end
cp "$db" "$OUT/tuning-d1.tsv"
(cd "$OUT" && tar czf d1.tgz d1 && rm -rf d1)
