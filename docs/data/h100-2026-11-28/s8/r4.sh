#!/usr/bin/env bash
# Session 8, run 4 (H100): main as committed (784883d) through OpenCL and CUDA on the draw of seed 5858, cuBLAS beside.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r4" 300 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
for b in opencl cuda; do
  gk_step random-$b 100 "$g" --backend $b bench --sizes random:64:5858 --repeat 3 --no-baseline --max-time 10 \
    --peers cublas --json "$gk_out/random-$b.json"
done
gk_steps_end
cp "$gk_out/steps.log" "$OUT/steps-r4.log"
(cd "$OUT" && tar czf r4.tgz r4 && rm -rf r4)
