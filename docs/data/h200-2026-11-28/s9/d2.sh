#!/usr/bin/env bash
# Session 9, run 2: round 2 of the skinny-m-dot / skinny-n-dot parameter sets (exp/sets2.txt: round 1's fastest, 8 and
# 16 rows with 8 or 4 lanes along K, which share each staged float4 of the small operand), kernel only, CUDA.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/d2" 330 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
gk_step sweep-cuda 300 python3 exp/dot_sweep.py "$g" "$gk_out" cuda exp/sets2.txt
gk_steps_end
(cd "$OUT" && tar czf d2.tgz d2 && rm -rf d2)
