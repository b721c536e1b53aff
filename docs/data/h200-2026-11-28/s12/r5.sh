#!/usr/bin/env bash
# Session 12, run 5: judged on fresh seeds, interleaved. CUDA (seed 4848): A the built-in lines and policy; B the
# main xgemm-direct line as xgemm-direct's ring with MIN_GROUPS=3 and its run-4 constants (exp/v/main-mg3.tsv), and
# "outer" copy rows for 128x128 in-place tiles from 2^30 multiply-adds (exp/v/outer30-policy.tsv), which the model
# now costs. OpenCL (seed 5353, 32 shapes): A built-in, B the copy rows alone.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r5" 470 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
gk_step interleave-cuda 280 python3 bench/interleave.py --a "$g --backend cuda" \
  --b "env GEMMKIT_POLICY=exp/v/outer30-policy.tsv GEMMKIT_TUNING_DB=exp/v/main-mg3.tsv $g --backend cuda" \
  --out "$gk_out/seed4848-cuda" --chunk 8 --budget 240 -- --sizes random:64:4848 --repeat 3 --no-baseline --max-time 5 --peers cublas
gk_step interleave-opencl 165 python3 bench/interleave.py --a "$g --backend opencl" \
  --b "env GEMMKIT_POLICY=exp/v/outer30-policy.tsv $g --backend opencl" \
  --out "$gk_out/seed5353-opencl" --chunk 8 --budget 130 -- --sizes random:32:5353 --repeat 3 --no-baseline --max-time 5 --peers cublas
tail -7 "$gk_out"/seed*/report.txt 2>/dev/null
gk_steps_end
(cd "$OUT" && tar czf r5.tgz r5 && rm -rf r5)
