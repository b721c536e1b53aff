#!/usr/bin/env bash
# Session 8, run 3 (H100): main with only the skinny-m / skinny-n main lines and their constants changed (the 48/96-wide
# tiles taken out after r2), checked and judged: the lines verified on both backends, the skinny kernels' operands past
# 4 GiB on their new lines, then a fresh draw (seed 5858, CUDA) with this tree and with 04a7e03 in the same run.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r3" 540 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
gk_step build-before 120 bash -c "cmake -S exp/before -B build-before -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null && cmake --build build-before -j 16 --target gemmkit_cli >/dev/null"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
for b in cuda opencl; do
  for k in skinny-m skinny-n; do
    p=$(grep -P "^$b\tarch:sm_90\t$k\t" src/kernels/tuning/builtin.tsv | cut -f4)
    gk_step "verify-$b-$k" 30 "$g" --backend $b verify --kernel $k --params "$p"
    gk_step "verify-$b-$k-splitk" 30 "$g" --backend $b verify --kernel $k-splitk --params "$p,SPLITS=8"
  done
done
ONLY='^skinny-(m|n)(-splitk)?\.[ABC]\.' BUDGET=150 gk_step large 160 bench/large-operands.sh "$gk_out/large" "$g"
gk_step random-cuda 90 "$g" --backend cuda bench --sizes random:64:5858 --repeat 3 --no-baseline --max-time 10 \
  --peers cublas --json "$gk_out/random-cuda.json"
gk_step random-cuda-before 90 env GEMMKIT_QUIET=1 build-before/gemmkit --backend cuda bench \
  --sizes random:64:5858 --repeat 3 --no-baseline --max-time 10 --peers cublas --json "$gk_out/random-cuda-before.json"
gk_steps_end
cp "$gk_out/steps.log" "$OUT/steps-r3.log"
(cd "$OUT" && tar czf r3.tgz r3 && rm -rf r3)
