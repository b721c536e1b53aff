#!/usr/bin/env bash
# Session 11, run 4: the ring lines (exp/v/ring-lines.tsv: run 3's calibration) within their scope (policy.tsv: under
# 2^26 multiply-adds) judged on the fresh seed 3141, both backends: this tree's built-in database (A) against it
# plus the ring lines (B), interleaved in chunks of 8, cuBLAS beside each.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r4" 560 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
for b in cuda opencl; do
  gk_step interleave-$b 260 python3 bench/interleave.py --a "$g --backend $b" \
    --b "env GEMMKIT_TUNING_DB=$PWD/exp/v/ring-lines.tsv $g --backend $b" --out "$gk_out/seed3141-$b" --chunk 8 \
    --budget 225 -- --sizes random:64:3141 --repeat 3 --no-baseline --max-time 5 --peers cublas
  tail -6 "$gk_out/seed3141-$b/report.txt" 2>/dev/null
done
gk_steps_end
(cd "$OUT" && tar czf r4.tgz r4 && rm -rf r4)
