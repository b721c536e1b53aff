#!/usr/bin/env bash
# Session 16, run b: skinny.cl reading its staged rows four at a time (float4), lines with more rows per
# work-group (split-K builds, slices as gk_sgemm_splits counts them), and the library before/after interleaved
# with cuBLAS beside, on thin shapes (fit set). CUDA.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/b" 560 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
# The tree before: this one with the two files of HEAD.
old=/tmp/gk-old && rm -rf $old && mkdir -p $old && tar cf - --exclude=./build-r --exclude=./.deps --exclude=./build-dev . | tar xf - -C $old
cp exp/old/skinny.cl $old/src/kernels/library/skinny.cl && cp exp/old/registry_library.c $old/src/kernels/registry_library.c
( cd $old && cmake -S . -B build-o -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-o -j 8 --target gemmkit_cli gemmkit >/dev/null ) > "$gk_out/old-build.log" 2>&1 &
GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
wait
g=$gk_gemmkit
[ -x $old/build-o/gemmkit ] || { gk_log "old build failed"; tail -20 "$gk_out/old-build.log"; }
MS="11x2880x2737:NT,8565x14x707:TN:row,12x10539x14408:NT,9x20000x8000:NT,16x30000x4000:NT,5x40000x6000:NT,13x6000x20000:NT,16x16384x8192:NT,10x50000x3000:NT"
NS="2880x11x2737,10539x12x14408,20000x9x8000,30000x16x4000,40000x5x6000,6000x13x20000,16384x16x8192,50000x10x3000"
MD="12x800x40000,16x500x60000,9x1000x30000,14x300x100000"
ND="800x12x40000:TN,500x16x60000:TN,1000x9x30000:TN,300x14x100000:TN"
R=""
for s in MR=4,LC=32,LK=8,NB=2,KU=8,PF=1 MR=8,LC=32,LK=8,NB=2,KU=8,PF=1 MR=16,LC=32,LK=8,NB=2,KU=8,PF=1 \
  MR=16,LC=32,LK=8,NB=4,KU=4,PF=1 MR=8,LC=32,LK=8,NB=4,KU=4,PF=1 MR=16,LC=32,LK=4,NB=4,KU=8,PF=1 \
  MR=16,LC=64,LK=4,NB=2,KU=8,PF=1 MR=12,LC=32,LK=8,NB=2,KU=8,PF=1; do R="$R --params $s,SPLITS=0"; done
D=""
for s in MR=16,LC=16,LK=16,NB=1,KU=8 MR=4,LC=8,LK=32,NB=1,KU=8 MR=16,LC=8,LK=32,NB=2,KU=8 MR=8,LC=8,LK=32,NB=2,KU=8 \
  MR=16,LC=4,LK=32,NB=4,KU=8 MR=16,LC=8,LK=32,NB=1,KU=8; do D="$D --params $s,SPLITS=0"; done
B="--repeat 3 --no-baseline --max-time 1"
gk_step mstream 90 "$g" --backend cuda bench --kernel skinny-m-splitk $R --sizes "$MS" $B --json "$gk_out/mstream.json"
gk_step nstream 90 "$g" --backend cuda bench --kernel skinny-n-splitk $R --sizes "$NS" $B --json "$gk_out/nstream.json"
gk_step mdot 60 "$g" --backend cuda bench --kernel skinny-m-splitk $D --sizes "$MD" $B --json "$gk_out/mdot.json"
gk_step ndot 60 "$g" --backend cuda bench --kernel skinny-n-splitk $D --sizes "$ND" $B --json "$gk_out/ndot.json"
gk_step interleave 180 python3 bench/interleave.py --a "$old/build-o/gemmkit --backend cuda" --b "$g --backend cuda" \
  --out "$gk_out/il" --chunk 9 --budget 150 -- --sizes "$MS,$NS,$MD,$ND" $B --peers cublas
gk_steps_end
gzip -f "$gk_out"/*.json "$gk_out"/il/*.json
cd "$OUT" && tar czf b.tar.gz b
