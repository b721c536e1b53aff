#!/usr/bin/env bash
# Session 16, run d: the thin lines' cost constants (`tune --calibrate --lines`, CUDA), then this tree with them
# against 508f7f9 (the tree before this session) on a fresh random draw, interleaved, cuBLAS beside. CUDA.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/d" 560 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
old=/tmp/gk-old && rm -rf $old && mkdir -p $old && tar xzf exp/old.tar.gz -C $old
( cd $old && cmake -S . -B build-o -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-o -j 8 --target gemmkit_cli gemmkit >/dev/null ) > "$gk_out/old-build.log" 2>&1 &
GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
wait
g=$gk_gemmkit
[ -x $old/build-o/gemmkit ] || { gk_log "old build failed"; tail -20 "$gk_out/old-build.log" >&2; }
NS="16384x16x8192,30000x16x4000,6000x13x20000,16648x10x4401:TN,11008x16x8192:TT,5120x14x32000:TN,14x9361x25807:NT:row,20000x12x3000:TN,10539x12x14408,20000x9x8000"
PN=""
for s in TSM=64,TSN=16,TSK=32,WPTM=4,WPTN=4 TSM=32,TSN=16,TSK=32,WPTM=4,WPTN=4 TSM=64,TSN=16,TSK=16,WPTM=4,WPTN=4 \
  TSM=64,TSN=16,TSK=32,WPTM=4,WPTN=4,ASYNC_STAGES=3 TSM=64,TSN=16,TSK=64,WPTM=4,WPTN=4 TSM=128,TSN=16,TSK=32,WPTM=4,WPTN=4; do PN="$PN --params $s,SPLITS=0"; done
gk_step thin-variants 60 "$g" --backend cuda bench --kernel xgemm-direct-splitk $PN --sizes "$NS" --repeat 3 --no-baseline --max-time 1 --json "$gk_out/thin-variants.json"
gk_step calibrate 70 "$g" --backend cuda tune --calibrate --lines xgemm-direct/thin-n,xgemm-direct/thin-m --seed 35 --max-time 40 --db "$gk_out/cal.tsv"
python3 exp/thin_lines.py "$gk_out/cal.tsv" "$gk_out/thin.tsv" 2800 > "$gk_out/thin.log" 2>&1
cat "$gk_out/thin.log" >&2
B="--repeat 3 --no-baseline --max-time 10"
gk_step judge-cuda 330 python3 bench/interleave.py --a "$old/build-o/gemmkit --backend cuda" \
  --b "env GEMMKIT_TUNING_DB=$gk_out/thin.tsv $g --backend cuda" --out "$gk_out/judge-cuda" --chunk 8 --budget 300 \
  -- --sizes random:48:6029 $B --peers cublas
gk_steps_end
gzip -f "$gk_out"/*.json "$gk_out"/judge-cuda/*.json
cd "$OUT" && tar czf d.tar.gz d
