#!/usr/bin/env bash
# Session 11, run 1: unaligned operands read a float at a time, coalesced (xgemm-direct's register path), against
# f9ca6f9 (exp/before) on aligned and unaligned 2048-class shapes; then CUDA's direct lines with the cp.async ring
# (tuning databases in exp/v) on the 62 split and mid shapes of seeds 2468 and 1357 (fit shapes).
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r1" 540 || exit 2
GK_TARGETS="gemmkit_cli test_xgemm_direct" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
gk_step build-before 70 bash -c "cmake -S exp/before -B build-before -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null && cmake --build build-before -j 16 --target gemmkit_cli >/dev/null"
gk_step test_xgemm_direct-cuda 40 env GEMMKIT_BACKEND=cuda build-r/tests/test_xgemm_direct
u="2048x2048x2048:NN,2047x2048x2048:NN,2048x2048x2047:NN,2047x2047x2047:NN,2047x2047x2047:TN,2047x2047x2047:NT,2047x2047x2047:TT,2048x2048x2048:TT"
for b in cuda opencl; do
  for k in xgemm-direct; do
    gk_step unal-$b-before 30 env GEMMKIT_QUIET=1 build-before/gemmkit --backend $b bench --kernel $k --sizes "$u" --repeat 5 --no-baseline --no-roofline --max-time 3 --no-peers --json "$gk_out/unal-$b-before.json"
    gk_step unal-$b 30 "$g" --backend $b bench --kernel $k --sizes "$u" --repeat 5 --no-baseline --no-roofline --max-time 3 --no-peers --json "$gk_out/unal-$b.json"
  done
done
# small lines (OpenCL /small 64x64x16 4x8) through the register path, unaligned
gk_step unal-small-cuda-before 20 env GEMMKIT_QUIET=1 build-before/gemmkit --backend cuda bench --kernel xgemm-direct --params TSM=64,TSN=64,TSK=16,WPTM=8,WPTN=8 --sizes "$u" --repeat 5 --no-baseline --no-roofline --max-time 2 --no-peers --json "$gk_out/unal-small-cuda-before.json"
gk_step unal-small-cuda 20 "$g" --backend cuda bench --kernel xgemm-direct --params TSM=64,TSN=64,TSK=16,WPTM=8,WPTN=8 --sizes "$u" --repeat 5 --no-baseline --no-roofline --max-time 2 --no-peers --json "$gk_out/unal-small-cuda.json"
s=$(cat exp/split-shapes.txt)
GEMMKIT_TRACE=1 "$g" --backend cuda bench --sizes 131x183x1727,273x265x577:TN:row --repeat 1 --no-peers --no-baseline --no-roofline > "$gk_out/trace-builtin.log" 2>&1
GEMMKIT_TRACE=1 GEMMKIT_TUNING_DB=exp/v/ring4.tsv "$g" --backend cuda bench --sizes 131x183x1727,273x265x577:TN:row --repeat 1 --no-peers --no-baseline --no-roofline > "$gk_out/trace-ring4.log" 2>&1
for v in builtin ring3 ring4 tiny32 builtin2; do
  db=exp/v/$v.tsv; [ -f "$db" ] || db=/nonexistent.tsv
  gk_step split-$v 45 env GEMMKIT_TUNING_DB=$db "$g" --backend cuda bench --sizes "$s" --repeat 5 --no-baseline --no-roofline --max-time 3 --peers cublas --json "$gk_out/split-$v.json"
done
gk_steps_end
(cd "$OUT" && tar czf r1.tgz r1 && rm -rf r1)
