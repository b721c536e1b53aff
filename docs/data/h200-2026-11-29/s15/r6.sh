#!/usr/bin/env bash
# Session 15, run 6: the H200's own device constants (copy bandwidth, launch time, scalar factors: r4's `tune
# --calibrate` for CUDA, `--lines small-k` here for OpenCL) over the built-in sm_90 lines, judged on a fresh draw
# (random:40:3319, a seed used in no fit) against the built-in lines alone, both backends, cuBLAS beside.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r6" 390 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
export GEMMKIT_DEVICE=NVIDIA
cp exp/h200-cuda-device.tsv "$gk_out/dev-cuda.tsv"
gk_step calibrate-opencl 60 "$g" --backend opencl tune --calibrate --lines small-k --seed 35 --max-time 20 --db "$gk_out/cal-opencl.tsv"
grep "cost:device" "$gk_out/cal-opencl.tsv" > "$gk_out/dev-opencl.tsv"
B="--sizes random:40:3319 --repeat 3 --no-baseline --max-time 10"
for b in cuda opencl; do
  GEMMKIT_TUNING_DB=$gk_out/dev-$b.tsv gk_step draw-dev-$b 100 "$g" --backend $b bench $B --peers cublas --json "$gk_out/draw-dev-$b.json"
  GEMMKIT_TUNING_DB=/nonexistent/none.tsv gk_step draw-builtin-$b 70 "$g" --backend $b bench $B --no-peers --json "$gk_out/draw-builtin-$b.json"
done
gk_steps_end
gzip -f "$gk_out"/*.json
cd "$OUT" && tar czf r6.tar.gz r6
