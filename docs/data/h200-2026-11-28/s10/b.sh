#!/usr/bin/env bash
# Session 10, run B: a fresh draw (seed 4711, not used in any fit) through CUDA with this tree (split-K summed in
# the kernel up to 4 slices) and with 22d01e4 (exp/before) in the same run, and through OpenCL with this tree; then
# every candidate of the cost model timed on the worst shapes of run A (--candidates).
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/b" 580 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
gk_step build-before 120 bash -c "cmake -S exp/before -B build-before -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null && cmake --build build-before -j 16 --target gemmkit_cli >/dev/null"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
gk_step verify-cuda 30 "$g" --backend cuda verify --kernel xgemm-direct-splitk
gk_step random-cuda-before 115 env GEMMKIT_QUIET=1 build-before/gemmkit --backend cuda bench --sizes random:64:4711 \
  --repeat 3 --no-baseline --max-time 10 --peers cublas --json "$gk_out/random-cuda-before.json"
gk_step random-cuda 115 "$g" --backend cuda bench --sizes random:64:4711 --repeat 3 --no-baseline --max-time 10 \
  --peers cublas --json "$gk_out/random-cuda.json"
gk_step random-opencl 115 "$g" --backend opencl bench --sizes random:64:4711 --repeat 3 --no-baseline --max-time 10 \
  --peers cublas --json "$gk_out/random-opencl.json"
w="17618x17x5884:TT:row,124x31202x17234:NT:col,338x229x501:TN:row,1889x1697x1279:NT:row,14x29057x2454:NN:row"
w="$w,43x31x991800:TN:row,1436x1791x1234:NT:row,1404x973x1049:NT:row,62x2067x13999:TN:row,654x452x793:TT:col"
gk_step candidates-cuda 150 "$g" --backend cuda bench --sizes "$w" --repeat 3 --no-baseline --max-time 10 \
  --peers cublas --candidates --candidates-out "$gk_out/candidates-cuda.tsv"
gk_steps_end
(cd "$OUT" && tar czf b.tgz b && rm -rf b)
