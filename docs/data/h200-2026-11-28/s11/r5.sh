#!/usr/bin/env bash
# Session 11, run 5: this tree (the ring lines built in, policy.tsv's scope) against f9ca6f9 (exp/before) through
# CUDA on the fresh seed 2718, interleaved in chunks of 8 by rising work, as many chunks as the device time left.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r5" 185 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
gk_step build-before 30 bash -c "cmake -S exp/before -B build-before -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null && cmake --build build-before -j 16 --target gemmkit_cli >/dev/null"
gk_step interleave-cuda 150 python3 bench/interleave.py --a "$PWD/build-before/gemmkit --backend cuda" \
  --b "$g --backend cuda" --out "$gk_out/seed2718-cuda" --chunk 8 --budget 95 -- --sizes random:64:2718 --repeat 3 \
  --no-baseline --max-time 3 --peers cublas
cat "$gk_out/seed2718-cuda/report.txt"
gk_steps_end
(cd "$OUT" && tar czf r5.tgz r5 && rm -rf r5)
