#!/usr/bin/env bash
# Session 16, run c: (1) xgemm-direct's split-K build with tiles 16 wide (the small edge) beside its narrow line
# (32 wide, half padding at 16) on shapes of a 9-16 edge (fit set); (2) skinny.cl's float4 reads of staged rows
# through OpenCL, before/after interleaved with cuBLAS beside, on run b's thin shapes.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/c" 400 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
old=/tmp/gk-old && rm -rf $old && mkdir -p $old && tar cf - --exclude=./build-r --exclude=./.deps --exclude=./build-dev . | tar xf - -C $old
cp exp/old/skinny.cl $old/src/kernels/library/skinny.cl && cp exp/old/registry_library.c $old/src/kernels/registry_library.c
( cd $old && cmake -S . -B build-o -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-o -j 8 --target gemmkit_cli gemmkit >/dev/null ) > "$gk_out/old-build.log" 2>&1 &
GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
wait
g=$gk_gemmkit
NS="16384x16x8192,30000x16x4000,6000x13x20000,16648x10x4401:TN,11008x16x8192:TT,5120x14x32000:TN,14x9361x25807:NT:row,20000x12x3000:TN,10539x12x14408,20000x9x8000"
MS="16x16384x8192:NT,16x30000x4000:NT,13x6000x20000:NT,14x5120x32000,16x11008x8192:TN,22902x13x5093:NT:row,12x20000x3000,12x10539x14408:NT,9x20000x8000:NT"
PN="" PM=""
for s in TSM=128,TSN=32,TSK=32,WPTM=8,WPTN=4 TSM=128,TSN=16,TSK=16,WPTM=8,WPTN=4 TSM=128,TSN=16,TSK=32,WPTM=8,WPTN=4 \
  TSM=256,TSN=16,TSK=32,WPTM=8,WPTN=4 TSM=256,TSN=16,TSK=16,WPTM=16,WPTN=4 TSM=64,TSN=16,TSK=32,WPTM=4,WPTN=4; do PN="$PN --params $s,SPLITS=0"; done
for s in TSM=32,TSN=128,TSK=32,WPTM=4,WPTN=8 TSM=16,TSN=128,TSK=16,WPTM=4,WPTN=8 TSM=16,TSN=128,TSK=32,WPTM=4,WPTN=8 \
  TSM=16,TSN=256,TSK=32,WPTM=4,WPTN=8 TSM=16,TSN=256,TSK=16,WPTM=4,WPTN=16 TSM=16,TSN=64,TSK=32,WPTM=4,WPTN=4; do PM="$PM --params $s,SPLITS=0"; done
B="--repeat 3 --no-baseline --max-time 1"
gk_step n16 80 "$g" --backend cuda bench --kernel xgemm-direct-splitk $PN --sizes "$NS" $B --json "$gk_out/n16.json"
gk_step m16 80 "$g" --backend cuda bench --kernel xgemm-direct-splitk $PM --sizes "$MS" $B --json "$gk_out/m16.json"
T="11x2880x2737:NT,8565x14x707:TN:row,12x10539x14408:NT,9x20000x8000:NT,5x40000x6000:NT,10x50000x3000:NT,2880x11x2737,10539x12x14408,20000x9x8000,40000x5x6000,50000x10x3000,800x12x40000:TN,1000x9x30000:TN"
GEMMKIT_DEVICE=NVIDIA gk_step interleave-opencl 150 python3 bench/interleave.py --a "$old/build-o/gemmkit --backend opencl" --b "$g --backend opencl" \
  --out "$gk_out/il-opencl" --chunk 7 --budget 120 -- --sizes "$T" $B --peers cublas
gk_steps_end
gzip -f "$gk_out"/*.json "$gk_out"/il-opencl/*.json
cd "$OUT" && tar czf c.tar.gz c
