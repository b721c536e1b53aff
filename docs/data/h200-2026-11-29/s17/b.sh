#!/usr/bin/env bash
# Session 17, run b: xgemm-direct-splitk's in-kernel sum with a block of 4 columns' loads issued before their adds
# (this tree) against HEAD's one load at a time (exp/old.tar.gz), at 4 slices (the cap) on both backends; and the sum
# in the kernel up to 32 slices (a copy of this tree, GK_SUM_IN_KERNEL_SPLITS 32) against HEAD's reduction step, CUDA.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/b" 540 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
old=/tmp/gk-old && rm -rf $old && mkdir -p $old && tar xzf exp/old.tar.gz -C $old
cap=/tmp/gk-cap && rm -rf $cap && mkdir -p $cap && tar cf - --exclude=./build-r --exclude=./.deps --exclude=./build-dev --exclude=./docs/data --exclude=./exp . | tar xf - -C $cap
sed -i 's/^#define GK_SUM_IN_KERNEL_SPLITS 4$/#define GK_SUM_IN_KERNEL_SPLITS 32/' $cap/src/kernels/registry.h
grep -c 'GK_SUM_IN_KERNEL_SPLITS 32' $cap/src/kernels/registry.h > "$gk_out/cap-patched.txt"
( cd $old && cmake -S . -B build-o -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-o -j 5 --target gemmkit_cli gemmkit >/dev/null ) > "$gk_out/old-build.log" 2>&1 &
( cd $cap && cmake -S . -B build-c -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-c -j 5 --target gemmkit_cli gemmkit >/dev/null ) > "$gk_out/cap-build.log" 2>&1 &
JOBS=6 GK_TARGETS="gemmkit_cli gemmkit test_direct_splitk" gk_build "$PWD/build-r" || exit 1
wait
g=$gk_gemmkit
gk_step ctest-opencl 90 ctest --test-dir build-r -R '^test_direct_splitk$' --output-on-failure
gk_step ctest-cuda 90 env GEMMKIT_BACKEND=cuda ctest --test-dir build-r -R '^test_direct_splitk$' --output-on-failure
S="162x474x3017:TN:row,373x169x2449:TT,2173x383x2435:NT:row,147x393x1459:NT,3176x115x2768:TT,2192x245x1616:NT,607x2091x859:TT:row,187x1181x1641:TN:row"
S="$S,1237x58x1258:TN,267x249x2411:NT:row,1480x990x1263:TN,837x679x694:TT:row,121x455x579:NT:row,455x699x753,515x426x542:NT:row,2857x237x2265"
LC="TSM=64,TSN=32,TSK=16,WPTM=4,WPTN=4 TSM=32,TSN=128,TSK=32,WPTM=4,WPTN=8 TSM=128,TSN=32,TSK=32,WPTM=8,WPTN=4 TSM=64,TSN=64,TSK=16,WPTM=8,WPTN=8 TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8 TSM=64,TSN=32,TSK=16,WPTM=4,WPTN=4,ASYNC_STAGES=3"
LO="TSM=32,TSN=32,TSK=32,WPTM=4,WPTN=4 TSM=32,TSN=128,TSK=32,WPTM=4,WPTN=8 TSM=128,TSN=32,TSK=32,WPTM=8,WPTN=4 TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8 TSM=64,TSN=64,TSK=16,WPTM=8,WPTN=8"
B="--repeat 3 --no-baseline --max-time 1 --no-roofline"
params() { local P="" l s; for l in $1; do for s in $2; do P="$P --params $l,SPLITS=$s"; done; done; echo "$P"; }
gk_step peers 40 "$g" --backend cuda bench --kernel xgemm-direct-splitk $(params "TSM=64,TSN=32,TSK=16,WPTM=4,WPTN=4" 4) --sizes "$S" $B --peers cublas --json "$gk_out/peers.json"
gk_step old4-cuda 50 "$old/build-o/gemmkit" --backend cuda bench --kernel xgemm-direct-splitk $(params "$LC" 4) --sizes "$S" $B --no-peers --json "$gk_out/old4-cuda.json"
gk_step new4-cuda 50 "$g" --backend cuda bench --kernel xgemm-direct-splitk $(params "$LC" 4) --sizes "$S" $B --no-peers --json "$gk_out/new4-cuda.json"
gk_step old4-opencl 50 env GEMMKIT_DEVICE=NVIDIA "$old/build-o/gemmkit" --backend opencl bench --kernel xgemm-direct-splitk $(params "$LO" 4) --sizes "$S" $B --no-peers --json "$gk_out/old4-opencl.json"
gk_step new4-opencl 50 env GEMMKIT_DEVICE=NVIDIA "$g" --backend opencl bench --kernel xgemm-direct-splitk $(params "$LO" 4) --sizes "$S" $B --no-peers --json "$gk_out/new4-opencl.json"
for part in a b; do
  L=$(echo $LC | cut -d' ' -f1-3); [ $part = b ] && L=$(echo $LC | cut -d' ' -f4-6)
  gk_step reduce-$part 50 "$old/build-o/gemmkit" --backend cuda bench --kernel xgemm-direct-splitk $(params "$L" "8 16 32") --sizes "$S" $B --no-peers --json "$gk_out/reduce-$part.json"
  gk_step sum32-$part 50 "$cap/build-c/gemmkit" --backend cuda bench --kernel xgemm-direct-splitk $(params "$L" "8 16 32") --sizes "$S" $B --no-peers --json "$gk_out/sum32-$part.json"
done
gk_steps_end
gzip -f "$gk_out"/*.json
cd "$OUT" && tar czf b.tar.gz b
