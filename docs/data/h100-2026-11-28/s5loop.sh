#!/usr/bin/env bash
# test_cl_enqueue 16 times one after another, then 16 at once; each run's launches traced, failing runs kept.
# usage: s5loop.sh TEST OUTDIR
t=$1 out=$2 fails=0
for i in $(seq 16); do
  GEMMKIT_TRACE=1 "$t" >"$out/cl-enqueue-seq-$i.txt" 2>&1 && rm "$out/cl-enqueue-seq-$i.txt" || fails=$((fails + 1))
done
echo "sequential: $fails of 16 failed"
for i in $(seq 16); do
  (GEMMKIT_TRACE=1 "$t" >"$out/cl-enqueue-par-$i.txt" 2>&1 && rm "$out/cl-enqueue-par-$i.txt") &
done
wait
echo "parallel: $(ls "$out"/cl-enqueue-par-*.txt 2>/dev/null | wc -l) of 16 failed"
GEMMKIT_TRACE=1 "$t" >"$out/cl-enqueue-trace.txt" 2>&1
echo "traced run: exit $?"
