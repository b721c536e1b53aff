#!/usr/bin/env bash
# Session 7, run 1 (H100): xgemm-direct tiles between the narrow and the 128 x 128 ones (128x64, 64x128, 256x64,
# 64x256), swept unsplit; then every candidate, the new lines and small-k up to K = 64 among them, on thin-edge,
# ragged and short-K shapes of earlier draws (training shapes), beside cuBLAS with the built-in lines.
set -uo pipefail
mkdir -p .deps && cp .gpu-deps/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r1" 585 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
gk_step sweep-cuda 170 python3 exp/sweep.py "$g" "$gk_out" cuda
T="4461x95x7104,6507x42x2811:TT:row,1524x67x19168:TT:row,393x134x3255:NT:row,1709x121x1499:TN:row,989x113x551,1050x1927x1124:NT:row,243x1111x527,832x741x764:NT,1509x117x5268,43x1150x5136,100000x64x64,1349x337x686,489x536x431:TT,23545x7398x18,6368x9575x26:NT:row"
TO="4461x95x7104,6507x42x2811:TT:row,393x134x3255:NT:row,1050x1927x1124:NT:row,1509x117x5268,100000x64x64,23545x7398x18,6368x9575x26:NT:row"
for b in cuda opencl; do
  gk_step "builtin-$b" 40 "$g" --backend $b bench --sizes "$T" --repeat 5 --no-baseline --peers cublas --json "$gk_out/builtin-$b.json"
done
export GEMMKIT_TUNING_DB=$gk_out/tiles-cuda.tsv GEMMKIT_POLICY=$PWD/exp/policy.tsv
gk_step candidates-cuda 230 "$g" --backend cuda bench --sizes "$T" --repeat 3 --no-baseline --max-time 10 \
  --candidates --candidates-out "$gk_out/candidates-cuda.tsv"
gk_step candidates-opencl 120 "$g" --backend opencl bench --sizes "$TO" --repeat 3 --no-baseline --max-time 10 \
  --candidates --candidates-out "$gk_out/candidates-opencl.tsv"
gk_steps_end
cp "$gk_out/steps.log" "$OUT/steps-r1.log"
(cd "$OUT" && tar czf r1.tgz r1 && rm -rf r1)
