#!/usr/bin/env bash
# Session 16, run f: this tree as built in (the thin lines' CUDA constants) against 508f7f9 (the tree before this
# session) on a fresh draw through CUDA; the thin lines' OpenCL constants (`tune --calibrate --lines`), then the
# same judge through OpenCL with them. Interleaved, cuBLAS beside.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/f" 560 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
old=/tmp/gk-old && rm -rf $old && mkdir -p $old && tar xzf exp/old.tar.gz -C $old
( cd $old && cmake -S . -B build-o -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-o -j 8 --target gemmkit_cli gemmkit >/dev/null ) > "$gk_out/old-build.log" 2>&1 &
GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
wait
g=$gk_gemmkit
[ -x $old/build-o/gemmkit ] || { gk_log "old build failed"; tail -20 "$gk_out/old-build.log" >&2; }
B="--repeat 3 --no-baseline --max-time 10"
gk_step judge-cuda 200 python3 bench/interleave.py --a "$old/build-o/gemmkit --backend cuda" --b "$g --backend cuda" \
  --out "$gk_out/judge-cuda" --chunk 8 --budget 180 -- --sizes random:48:7177 $B --peers cublas
export GEMMKIT_DEVICE=NVIDIA
gk_step calibrate-opencl 60 "$g" --backend opencl tune --calibrate --lines xgemm-direct/thin-n,xgemm-direct/thin-m --seed 35 --max-time 30 --db "$gk_out/cal-opencl.tsv"
python3 exp/thin_lines.py "$gk_out/cal-opencl.tsv" "$gk_out/thin-opencl.tsv" 2800 > "$gk_out/thin-opencl.log" 2>&1
cat "$gk_out/thin-opencl.log" >&2
gk_step judge-opencl 200 python3 bench/interleave.py --a "$old/build-o/gemmkit --backend opencl" \
  --b "env GEMMKIT_TUNING_DB=$gk_out/thin-opencl.tsv $g --backend opencl" \
  --out "$gk_out/judge-opencl" --chunk 8 --budget 180 -- --sizes random:48:7177 $B --peers cublas
gk_steps_end
gzip -f "$gk_out"/judge-*/*.json
cd "$OUT" && tar czf f.tar.gz f
