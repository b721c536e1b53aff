#!/usr/bin/env bash
# Session 16, run g: run f's long-K skinny shapes that ran slower than 508f7f9 with the same predicted plan: the
# library (best) and the strip line over 512 slices by name, before/after interleaved, both backends.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/g" 300 || exit 2
old=/tmp/gk-old && rm -rf $old && mkdir -p $old && tar xzf exp/old.tar.gz -C $old
( cd $old && cmake -S . -B build-o -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-o -j 8 --target gemmkit_cli gemmkit >/dev/null ) > "$gk_out/old-build.log" 2>&1 &
GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
wait
g=$gk_gemmkit
S="15x12x877430:NN:row,7x166x343337:NT:row,126x2x324854:TN:row,252x1x133138:TN,1x110x881893:TN:row,16x3x11238:TT"
B="--repeat 5 --no-baseline --max-time 5 --no-peers"
export GEMMKIT_DEVICE=NVIDIA
for be in cuda opencl; do
  gk_step best-$be 60 python3 bench/interleave.py --a "$old/build-o/gemmkit --backend $be" --b "$g --backend $be" \
    --out "$gk_out/best-$be" --chunk 6 -- --sizes "$S" $B
  gk_step named-$be 40 python3 bench/interleave.py --a "$old/build-o/gemmkit --backend $be" --b "$g --backend $be" \
    --out "$gk_out/named-$be" --chunk 6 --runner skinny-m-splitk -- --sizes "15x12x877430:NN:row,126x2x324854:TN:row" \
    --kernel skinny-m-splitk --params MR=4,LC=8,LK=32,NB=1,KU=8,SPLITS=512 $B
done
gk_steps_end
gzip -f "$gk_out"/*/*.json
cd "$OUT" && tar czf g.tar.gz g
