#!/usr/bin/env bash
# Session 13, run 5: int8x as built (3xTF32 where the policy serves a shape with it, the moduli counted from the
# operands' spread elsewhere): squares, the accuracy table at 4096, the judge draw (random:200:3113's shapes of
# >= 2^33 multiply-adds, used in no fit) on both backends, test_ozaki on both, one traced call.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r5" 470 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
GK_TARGETS="gemmkit_cli gemmkit test_ozaki" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit

B="--repeat 3 --max-time 3 --no-baseline --peers cublas"
gk_step sq-cuda 40 "$g" --backend cuda bench --kernel best --math int8x --sizes 4096,8192,16384 $B --json "$gk_out/sq-cuda.json"
gk_step judge-cuda 110 "$g" --backend cuda bench --kernel best --math int8x --sizes "2205x25394x186:NT:row,2747x2521x1539:TN:col,95x29371x3932:NN:row,14018x121x6993:TN:row,6389x27470x74:TT:row,9315x33012x53:NT:col,8154x14004x145:TT:row,38476x39928x14:TN:col,2647x19528x419:TT:row,2521x3841x2581:TN:row,21411x8874x135:NN:col,3000x3072x3072:TT:col,5029x3072x2048:TT:col,1978x2048x8192:TT:row,3967x11008x768:TT:col,24667x9565x173:TT:row,14631x14859x248:TN:col,142x32000x14336:TN:col,4768x14336x1024:TN:col,605x8192x14336:TT:col,21838x1024x4096:NT:col,2598x8192x5120:TT:col,432x32000x11008:NN:col,4802x8229x5189:TN:row,5323x9163x4594:NN:row,2353x11008x14336:NT:col,19998x2048x11008:TT:row,7248x9966x8976:NT:col" $B --json "$gk_out/judge-cuda.json"
export PYTHONPATH="$PWD/python" GEMMKIT_LIBRARY="$PWD/build-r/libgemmkit.so"
gk_step accuracy 90 python3 bench/ozaki_accuracy.py --backend cuda --n 4096 --moduli 8,12 --seed 38
GEMMKIT_BACKEND=cuda gk_step test_ozaki-cuda 40 build-r/tests/test_ozaki
GEMMKIT_TRACE=1 gk_step trace-8192 20 "$g" --backend cuda bench --kernel best --math int8x --sizes 8192 --repeat 1 --max-time 1 --no-baseline
GEMMKIT_DEVICE=NVIDIA gk_step sq-opencl 40 "$g" --backend opencl bench --kernel best --math int8x --sizes 4096,8192,16384 $B --json "$gk_out/sq-opencl.json"
GEMMKIT_DEVICE=NVIDIA gk_step judge-opencl 80 "$g" --backend opencl bench --kernel best --math int8x --sizes "2205x25394x186:NT:row,95x29371x3932:NN:row,6389x27470x74:TT:row,8154x14004x145:TT:row,2647x19528x419:TT:row,21411x8874x135:NN:col,5029x3072x2048:TT:col,3967x11008x768:TT:col,14631x14859x248:TN:col,4768x14336x1024:TN:col,21838x1024x4096:NT:col,432x32000x11008:NN:col" $B --json "$gk_out/judge-opencl.json"
GEMMKIT_DEVICE=NVIDIA gk_step test_ozaki-opencl 40 build-r/tests/test_ozaki
gk_steps_end
cd "$OUT" && tar czf r5.tar.gz r5
