#!/usr/bin/env bash
# Session 12, run 3: the PTX NVIDIA's OpenCL compiler makes of xgemm-direct's ring line (dump patch), and the line's
# rate through both backends in one run, 4096 NT and NN.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r3" 200 || exit 2
git apply exp/dump.patch || exit 3
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
mkdir -p "$gk_out/ptx" "$gk_out/ptx-xgemm"
P=TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=16,ASYNC_STAGES=3
gk_step ocl 40 env GK_DUMP_PTX_DIR="$gk_out/ptx" "$g" --backend opencl bench --kernel xgemm-direct --params $P --sizes 4096:NT,4096:NN --repeat 5 --no-baseline --no-roofline --max-time 2 --no-peers --json "$gk_out/ocl.json"
gk_step cuda 40 "$g" --backend cuda bench --kernel xgemm-direct --params $P --sizes 4096:NT,4096:NN --repeat 5 --no-baseline --no-roofline --max-time 2 --no-peers --json "$gk_out/cuda.json"
gk_step ocl-xgemm 40 env GK_DUMP_PTX_DIR="$gk_out/ptx-xgemm" "$g" --backend opencl bench --kernel xgemm --sizes 4096:NN --repeat 5 --no-baseline --no-roofline --max-time 2 --no-peers --json "$gk_out/ocl-xgemm.json"
ls -la "$gk_out/ptx"
gk_steps_end
(cd "$OUT" && tar czf r3.tgz r3 && rm -rf r3)
