#!/usr/bin/env bash
# Session 16, run h: the skinny split sum not inlined and capped at 64 slices, on run f/g's long-K shapes that had
# lost and the split shapes that had gained, against 508f7f9, interleaved, both backends; then random:48:7177 again
# through CUDA (the built-in lines), interleaved, cuBLAS beside.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/h" 420 || exit 2
old=/tmp/gk-old && rm -rf $old && mkdir -p $old && tar xzf exp/old.tar.gz -C $old
( cd $old && cmake -S . -B build-o -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-o -j 8 --target gemmkit_cli gemmkit >/dev/null ) > "$gk_out/old-build.log" 2>&1 &
GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
wait
g=$gk_gemmkit
S="15x12x877430:NN:row,7x166x343337:NT:row,126x2x324854:TN:row,252x1x133138:TN,1x110x881893:TN:row,16x3x11238:TT,588x5x4993:TT:row,400x2x7320:TT:row,5x2x18486:TT:row,2897x1x2351:TT,2x386x3324:NT,1x548x6076:TN:row,2x13x23908:NN:row"
B="--repeat 5 --no-baseline --max-time 8 --no-peers"
export GEMMKIT_DEVICE=NVIDIA
for be in cuda opencl; do
  gk_step long-k-$be 70 python3 bench/interleave.py --a "$old/build-o/gemmkit --backend $be" --b "$g --backend $be" \
    --out "$gk_out/long-k-$be" --chunk 7 -- --sizes "$S" $B
done
gk_step judge-cuda 170 python3 bench/interleave.py --a "$old/build-o/gemmkit --backend cuda" --b "$g --backend cuda" \
  --out "$gk_out/judge-cuda" --chunk 8 --budget 150 -- --sizes random:48:7177 --repeat 3 --no-baseline --max-time 10 --peers cublas
gk_steps_end
gzip -f "$gk_out"/*/*.json
cd "$OUT" && tar czf h.tar.gz h
