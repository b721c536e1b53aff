#!/usr/bin/env bash
# Session 5, run 5 on the H100: split-K's reduction after the reduce-deep change, on the draw's shapes it touches,
# beside cuBLAS on both backends; one small call's wall time through gemmkit (both backends) and through PyTorch
# (cuBLAS, host tensors copied in and out as gemmkit_sgemm does); every candidate timed on a fresh draw (seed 6262,
# its first 20 shapes, CUDA).
mkdir -p .deps && cp .gpu-deps/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r5" 400 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
shapes="4461x95x7104,1524x67x19168:TT:row,1050x1927x1124:NT:row,6507x42x2811:TT:row,393x134x3255:NT:row"
for b in cuda opencl; do
  gk_step "reduce-$b" 40 "$g" --backend $b bench --sizes "$shapes" --repeat 5 --no-baseline --peers cublas
done
gk_step overhead 90 env SIZES=8,32,128 REPEAT=300 ROUNDS=1 BUDGET=85 bash bench/call-overhead.sh "$gk_out/overhead"
gk_step candidates-cuda 200 "$g" --backend cuda bench --sizes random:20:6262 --repeat 3 --no-baseline --max-time 10 \
  --candidates --candidates-out "$gk_out/candidates-cuda.tsv"
gk_steps_end
cp "$gk_out/steps.log" "$OUT/steps-r5.log"
(cd "$OUT" && tar czf r5.tgz r5 && rm -rf r5)
