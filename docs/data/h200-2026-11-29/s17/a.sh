#!/usr/bin/env bash
# Session 17, run a: (1) 391cdc1's changed kernels on the GPU (SUM_HERE, the skinny cap of 64, COUNT_IN), both
# backends, and their operands past 4 GiB; (2) xgemm-direct-splitk on the mid-size split shapes that lose most to
# cuBLAS on the draws of sessions 15-16: six lines x 4-32 slices, with the in-kernel sum capped at 4 (this tree:
# past 4 the reduction step) and at 32 (a copy of the tree with GK_SUM_IN_KERNEL_SPLITS 32), cuBLAS beside.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/a" 570 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
cap=/tmp/gk-cap && rm -rf $cap && mkdir -p $cap && tar cf - --exclude=./build-r --exclude=./.deps --exclude=./build-dev --exclude=./docs/data . | tar xf - -C $cap
sed -i 's/^#define GK_SUM_IN_KERNEL_SPLITS 4$/#define GK_SUM_IN_KERNEL_SPLITS 32/' $cap/src/kernels/registry.h
grep -c 'GK_SUM_IN_KERNEL_SPLITS 32' $cap/src/kernels/registry.h > "$gk_out/cap-patched.txt"
( cd $cap && cmake -S . -B build-c -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-c -j 6 --target gemmkit_cli gemmkit >/dev/null ) > "$gk_out/cap-build.log" 2>&1 &
T="test_skinny test_skinny_dot test_skinny_splitk test_xgemm_direct test_direct_splitk test_splitk"
JOBS=10 GK_TARGETS="gemmkit_cli gemmkit $T" gk_build "$PWD/build-r" || exit 1
wait
g=$gk_gemmkit
R='^(test_skinny|test_skinny_dot|test_skinny_splitk|test_xgemm_direct|test_direct_splitk|test_splitk)$'
gk_step ctest-opencl 120 ctest --test-dir build-r -R "$R" --output-on-failure -j 8
gk_step ctest-cuda 120 env GEMMKIT_BACKEND=cuda ctest --test-dir build-r -R "$R" --output-on-failure -j 8
gk_step large 120 env ONLY='^skinny.*splitk|thin' BUDGET=110 bench/large-operands.sh "$gk_out/large" "$g"
S="162x474x3017:TN:row,373x169x2449:TT,2173x383x2435:NT:row,147x393x1459:NT,3176x115x2768:TT,2192x245x1616:NT,607x2091x859:TT:row,187x1181x1641:TN:row"
L1="TSM=64,TSN=32,TSK=16,WPTM=4,WPTN=4 TSM=32,TSN=128,TSK=32,WPTM=4,WPTN=8 TSM=128,TSN=32,TSK=32,WPTM=8,WPTN=4"
L2="TSM=64,TSN=64,TSK=16,WPTM=8,WPTN=8 TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8 TSM=64,TSN=32,TSK=16,WPTM=4,WPTN=4,ASYNC_STAGES=3"
B="--repeat 3 --no-baseline --max-time 1 --no-roofline"
for tree in base cap; do
  exe=$g; [ $tree = cap ] && exe=$cap/build-c/gemmkit
  for part in 1 2; do
    P=""; L=$L1; [ $part = 2 ] && L=$L2
    for l in $L; do for s in 4 8 16 32; do P="$P --params $l,SPLITS=$s"; done; done
    peers="--no-peers"; [ $tree = base ] && [ $part = 1 ] && peers="--peers cublas"
    gk_step $tree-$part 70 "$exe" --backend cuda bench --kernel xgemm-direct-splitk $P --sizes "$S" $B $peers --json "$gk_out/$tree-$part.json"
  done
done
gk_steps_end
gzip -f "$gk_out"/*.json
cd "$OUT" && tar czf a.tar.gz a
