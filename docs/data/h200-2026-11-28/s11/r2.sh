#!/usr/bin/env bash
# Session 11, run 2: xgemm-direct's small and mid lines with a cp.async ring beside them as their own lines
# (exp/v/ring-cuda.tsv), calibrated through CUDA (seed 35), then judged on the fresh seed 2604: the built-in
# database (A) against it plus the ring lines (B), interleaved in chunks, cuBLAS beside each.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r2" 560 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
cp exp/v/ring-cuda.tsv "$gk_out/cal-cuda.tsv"
gk_step calibrate-cuda 150 env GEMMKIT_TUNING_DB="$gk_out/cal-cuda.tsv" "$g" --backend cuda tune --calibrate \
  --lines xgemm-direct/tiny-ring,xgemm-direct/small-ring,xgemm-direct/mid-n-ring,xgemm-direct/mid-m-ring,xgemm-direct/long-k-ring \
  --db "$gk_out/cal-cuda.tsv" --max-time 130
grep -v "cost:device" "$gk_out/cal-cuda.tsv" > "$gk_out/ring-lines-cuda.tsv"
gk_step interleave-cuda 330 python3 bench/interleave.py --a "$g --backend cuda" \
  --b "env GEMMKIT_TUNING_DB=$gk_out/ring-lines-cuda.tsv $g --backend cuda" --out "$gk_out/seed2604-cuda" --chunk 8 \
  --budget 300 -- --sizes random:64:2604 --repeat 3 --no-baseline --max-time 5 --peers cublas
cat "$gk_out/seed2604-cuda/report.txt" 2>/dev/null | tail -30
gk_steps_end
(cd "$OUT" && tar czf r2.tgz r2 && rm -rf r2)
