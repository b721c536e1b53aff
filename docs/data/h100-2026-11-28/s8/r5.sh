#!/usr/bin/env bash
# Session 8, run 5 (H100): the 48/96-wide xgemm-direct lines again, now weighed by the cost model only where their
# policy scope rows hold: the lines verified on both backends, every candidate on four thin training shapes, then a
# fresh draw (seed 6464, CUDA) with this tree and with 04a7e03 in the same run.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r5" 330 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
gk_step build-before 60 bash -c "cmake -S exp/before -B build-before -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null && cmake --build build-before -j 16 --target gemmkit_cli >/dev/null"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
for b in cuda opencl; do
  for v in n48 m48 n96 m96; do
    p=$(grep -P "^$b\tarch:sm_90\txgemm-direct/$v\t" src/kernels/tuning/builtin.tsv | cut -f4)
    gk_step "verify-$b-$v" 20 "$g" --backend $b verify --kernel xgemm-direct --params "$p"
  done
done
T="4461x95x7104,6507x42x2811:TT:row,1524x67x19168:TT:row,1709x121x1499:TN:row"
gk_step candidates-cuda 60 "$g" --backend cuda bench --sizes "$T" --repeat 3 --no-baseline --max-time 10 \
  --candidates --candidates-out "$gk_out/candidates-cuda.tsv"
gk_step random-cuda 85 "$g" --backend cuda bench --sizes random:64:6464 --repeat 3 --no-baseline --max-time 10 \
  --peers cublas --json "$gk_out/random-cuda.json"
gk_step random-cuda-before 85 env GEMMKIT_QUIET=1 build-before/gemmkit --backend cuda bench \
  --sizes random:64:6464 --repeat 3 --no-baseline --max-time 10 --peers cublas --json "$gk_out/random-cuda-before.json"
gk_steps_end
cp "$gk_out/steps.log" "$OUT/steps-r5.log"
(cd "$OUT" && tar czf r5.tgz r5 && rm -rf r5)
