#!/usr/bin/env bash
# Session 15, run 5: every candidate of the cost model timed (built-in lines) on the draw's worst shapes (r4,
# random:40:2911) and on 16384^2 x 2, x 4: a choice the model misses, or no kernel close to cuBLAS?
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r5" 360 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
S="84x11008x14336:NT:row,2251x651x767:TN:row,759x2673x1337:NN:row,24111x768x8192:NT:col,22902x13x5093:NT:row,16384x16384x2,16384x16384x4,207x125x1837:NN:row"
gk_step cand-cuda 330 "$g" --backend cuda bench --kernel best --candidates --candidates-out "$gk_out/cand-cuda.tsv" --sizes "$S" --repeat 3 --max-time 2 --no-baseline --peers cublas --json "$gk_out/cand-cuda.json"
gk_steps_end
cd "$OUT" && tar czf r5.tar.gz r5
