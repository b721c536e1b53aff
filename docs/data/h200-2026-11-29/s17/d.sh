#!/usr/bin/env bash
# Session 17, run d: CUDA's xgemm-direct/small-wide line (64 x 64 tiles, 4 x 8 per work-item: OpenCL's small line;
# CUDA's small is 8 x 8): its cost constants (`tune --calibrate --lines`, seed 35), then this tree with the line
# (B) against the same tree without it (A) on a fresh draw, interleaved, cuBLAS beside.
set -uo pipefail
SEED=${SEED:-2207}
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/d" 560 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
JOBS=16 GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
printf 'cuda\tarch:sm_90\txgemm-direct/small-wide\tTSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8\t0\t2026-11-29\n' > "$gk_out/line.tsv"
gk_step calibrate 90 env GEMMKIT_TUNING_DB="$gk_out/line.tsv" "$g" --backend cuda tune --calibrate --lines xgemm-direct/small-wide --seed 35 --max-time 40 --db "$gk_out/cal.tsv" --verbose
cp "$gk_out/line.tsv" "$gk_out/wide.tsv"
python3 exp/wide_lines.py "$gk_out/cal.tsv" "$gk_out/wide.tsv" 2800 cuda xgemm-direct/small-wide > "$gk_out/wide.log" 2>&1
cat "$gk_out/wide.log" >&2
gk_step judge-cuda 400 python3 bench/interleave.py --a "$g --backend cuda" --b "env GEMMKIT_TUNING_DB=$gk_out/wide.tsv $g --backend cuda" \
  --out "$gk_out/judge-cuda" --chunk 10 --budget 370 -- --sizes random:60:$SEED --repeat 3 --no-baseline --max-time 10 --peers cublas
gk_steps_end
gzip -f "$gk_out"/*/*.json
cd "$OUT" && tar czf d.tar.gz d
