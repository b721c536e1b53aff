#!/usr/bin/env bash
# Session 4, run 2 on the H100: each skinny kernel's configurations in both access modes of the long operand,
# the best written as lines (s4pick.py), then the cost model recalibrated with them (seed 35) on both backends.
set -uo pipefail
mkdir -p .deps && cp .gpu-deps/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r2" 575 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
strip="MR=4,LC=8,LK=32,NB=1,KU=8"
stream_cfgs=("MR=4,LC=32,LK=8,NB=1,KU=8,PF=1" "MR=4,LC=64,LK=4,NB=1,KU=8,PF=1" "MR=8,LC=32,LK=8,NB=1,KU=8,PF=1"
  "MR=4,LC=32,LK=8,NB=2,KU=8,PF=1" "MR=4,LC=32,LK=8,NB=1,KU=8" "MR=16,LC=32,LK=8,NB=1,KU=4,PF=1" "$strip"
  "MR=16,LC=16,LK=16,NB=1,KU=8" "MR=8,LC=64,LK=4,NB=1,KU=8,PF=1")
dot_cfgs=("$strip" "$strip,PF=1" "MR=8,LC=8,LK=32,NB=1,KU=8,PF=1" "MR=16,LC=8,LK=32,NB=1,KU=8,PF=1"
  "MR=4,LC=8,LK=32,NB=1,KU=16,PF=1" "MR=4,LC=4,LK=64,NB=1,KU=8,PF=1" "MR=8,LC=4,LK=64,NB=1,KU=8,PF=1")
declare -A shapes
shapes[skinny-m-stream]="12x10539x14408:NT,5x9329x8072:TT,4x16384x16384:NT,16x4096x4096:NT,1x16384x16384:NT,9x20000x8000:NT"
shapes[skinny-n-stream]="10539x12x14408,9329x5x8072:NT,16384x4x16384,4096x16x4096,16384x1x16384,20000x9x8000"
shapes[skinny-m-dot]="12x10539x14408,5x9329x8072:TN,1x9027x13238,16x4096x4096,9x20000x8000:TN"
shapes[skinny-n-dot]="29741x9x18749:TN,9027x1x13238:TN,880x1x8960:TT,4096x16x4096:TN,20000x11x8000:TN"
for kernel in skinny-m skinny-n; do
  for mode in stream dot; do
    if [ $mode = stream ]; then cfgs=("${stream_cfgs[@]}"); else cfgs=("${dot_cfgs[@]}"); fi
    i=0
    for p in "${cfgs[@]}"; do
      i=$((i + 1))
      name="$kernel-$mode-$i"
      echo "$p" > "$gk_out/$name.params"
      gk_step "$name" 40 "$g" --backend cuda bench --kernel $kernel --params "$p" --sizes "${shapes[$kernel-$mode]}" \
        --repeat 3 --no-baseline --no-peers --no-roofline --json "$gk_out/$name.json"
    done
  done
done
gzip -f "$gk_out"/*.json
db=$gk_out/tuning.tsv
python3 s4pick.py "$gk_out" "$db" > "$gk_out/pick.log" 2>&1
cat "$gk_out/pick.log" >&2
for b in cuda opencl; do
  gk_step "calibrate-$b" 170 "$g" --backend $b tune --calibrate --verbose --seed 35 --max-time 110 --db "$db"
done
GEMMKIT_TUNING_DB=$db gk_step "skinny-after" 40 "$g" --backend cuda bench --sizes "${shapes[skinny-m-stream]},${shapes[skinny-n-dot]}" \
  --repeat 3 --no-baseline --peers cublas
gk_steps_end
cp "$gk_out/steps.log" "$OUT/steps-r2.log"; cp "$db" "$OUT/tuning-r2.tsv"; cp "$gk_out/pick.log" "$OUT/pick-r2.log"
(cd "$OUT" && tar czf r2.tgz r2 && rm -rf r2)
