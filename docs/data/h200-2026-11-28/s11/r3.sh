#!/usr/bin/env bash
# Session 11, run 3: xgemm-direct's small and mid tiles with the cp.async ring as lines of their own (policy.tsv's
# "-ring" variants), calibrated through CUDA and OpenCL (seed 35), then judged through CUDA on the fresh seed 2604:
# the built-in database (A) against it plus the ring lines and their constants (B), interleaved in chunks.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r3" 570 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
L=xgemm-direct/tiny-ring,xgemm-direct/small-ring,xgemm-direct/mid-n-ring,xgemm-direct/mid-m-ring,xgemm-direct/long-k-ring
for b in cuda opencl; do
  cp exp/v/ring-$b.tsv "$gk_out/cal-$b.tsv"
  gk_step calibrate-$b 120 env GEMMKIT_TUNING_DB="$gk_out/cal-$b.tsv" "$g" --backend $b tune --calibrate --lines $L \
    --db "$gk_out/cal-$b.tsv" --max-time 100
  grep -v "cost:device" "$gk_out/cal-$b.tsv" >> "$gk_out/ring-lines.tsv"
done
cat "$gk_out/ring-lines.tsv"
gk_step interleave-cuda 300 python3 bench/interleave.py --a "$g --backend cuda" \
  --b "env GEMMKIT_TUNING_DB=$gk_out/ring-lines.tsv $g --backend cuda" --out "$gk_out/seed2604-cuda" --chunk 8 \
  --budget 250 -- --sizes random:64:2604 --repeat 3 --no-baseline --max-time 5 --peers cublas
tail -8 "$gk_out/seed2604-cuda/report.txt" 2>/dev/null
gk_steps_end
(cd "$OUT" && tar czf r3.tgz r3 && rm -rf r3)
