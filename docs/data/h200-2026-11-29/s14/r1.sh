#!/usr/bin/env bash
# Session 14, run 1: small-k rewritten (float4 rows, unrolled chunk, float4 stores) against the kernel of 4df6526
# (exp/base) on memory-bound shapes (K <= 32, a large C), beside cuBLAS; parameter lines of the new kernel.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r1" 520 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
gk_step configure-old 60 cmake -S exp/base -B build-old -DCMAKE_BUILD_TYPE=Release
gk_step build-old 120 cmake --build build-old -j 16 --target gemmkit_cli gemmkit
o=build-old/gemmkit
S="16384x16384x1,16384x16384x2,16384x16384x4,16384x16384x6,16384x16384x8,16384x16384x10,16384x16384x12,16384x16384x16,16384x16384x24,16384x16384x32,24125x20145x10:TN:col,29437x5915x13:TN:col,2134x24221x11:TN:row,8265x18409x11:NT:col,2967x6002x6:TN:row,4878x17396x4:TT:col,9020x5062x5:NN:col,38476x39928x14:TN:col"
B="--repeat 3 --max-time 2 --no-baseline"
gk_step old-cuda 60 "$o" --backend cuda bench --kernel small-k --sizes "$S" $B --peers cublas --json "$gk_out/old-cuda.json"
gk_step new-cuda 60 "$g" --backend cuda bench --kernel small-k --sizes "$S" $B --peers cublas --json "$gk_out/new-cuda.json"
i=0
for p in "WM=8" "WM=8,WN=4,LY=16" "LX=64,LY=4" "KCH=8" "WN=4,LY=16" "LX=16,LY=16,WM=8"; do
  i=$((i+1))
  gk_step line$i-cuda 45 "$g" --backend cuda bench --kernel small-k --params "$p" --sizes "$S" $B --json "$gk_out/line$i-cuda.json"
done
gk_step best-cuda 60 "$g" --backend cuda bench --kernel best --sizes "$S" $B --json "$gk_out/best-cuda.json"
GEMMKIT_DEVICE=NVIDIA gk_step old-opencl 60 "$o" --backend opencl bench --kernel small-k --sizes "$S" $B --peers cublas --json "$gk_out/old-opencl.json"
GEMMKIT_DEVICE=NVIDIA gk_step new-opencl 60 "$g" --backend opencl bench --kernel small-k --sizes "$S" $B --json "$gk_out/new-opencl.json"
GEMMKIT_DEVICE=NVIDIA gk_step line1-opencl 45 "$g" --backend opencl bench --kernel small-k --params "WM=8" --sizes "$S" $B --json "$gk_out/line1-opencl.json"
gk_steps_end
cd "$OUT" && tar czf r1.tar.gz r1
