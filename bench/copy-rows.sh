#!/usr/bin/env bash
# Candidate policy rows against the built-in table in one run on the GPU
# machine (ROWS, e.g. bench/cases/copy-rows-fp32.tsv: copies of xgemm-direct's
# unaligned operands): bench/math-sweep.sh per math mode on
# the CUDA backend, first with the built-in policy (OUTDIR/MODE-before), then
# with the built-in table and the candidate rows through GEMMKIT_POLICY
# (OUTDIR/MODE-after); last bench/sweep_pair.py's table per mode
# (OUTDIR/MODE-pair.md: call-time TFLOPS before and after, each against its own
# run's cuBLAS fp32). A row goes into policy.tsv only where it gains.
#
# usage: bench/copy-rows.sh OUTDIR [ARCHIVE.tar.gz]
# Environment: ROWS (the candidate rows; required), MODES (default "3xtf32 tf32"), BACKENDS (default cuda),
#   BUDGET (seconds for the whole script, default 540), BUILD (default build-gpu); SQUARES and VARIANTS go to
#   bench/math-sweep.sh (e.g. MODES=fp32 ROWS=bench/cases/copy-rows-fp32.tsv SQUARES=999,1001,2047 VARIANTS=);
#   TUNING: a tuning database (GEMMKIT_TUNING_DB) for the "after" runs only: lines measured with the rows.
set -uo pipefail
. "$(dirname "$0")/usage.sh"
gk_usage_check 1 2 "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1
archive=${2:-}
rows=${ROWS:?bench/copy-rows.sh: ROWS names the candidate rows (e.g. bench/cases/copy-rows-fp32.tsv)}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cat "$root/src/kernels/tuning/policy.tsv" "$rows" >"$out/policy.tsv" || exit 1
start=$(date +%s)
budget=${BUDGET:-540}
modes=(${MODES:-3xtf32 tf32})
runs=$((2 * ${#modes[@]}))
for mode in "${modes[@]}"; do
  for side in before after; do
    left=$((start + budget - $(date +%s)))
    share=$((left / runs))
    runs=$((runs - 1))
    [ $share -lt 30 ] && { echo "copy-rows: $mode-$side skipped, the time budget is spent" >&2; continue; }
    policy= tuning=()
    [ $side = after ] && policy=$out/policy.tsv && tuning=(${TUNING:+GEMMKIT_TUNING_DB="$TUNING"})
    env "${tuning[@]}" GEMMKIT_POLICY="$policy" MODE="$mode" BACKENDS="${BACKENDS:-cuda}" BUDGET="$share" BUILD="${BUILD:-$root/build-gpu}" \
      bash "$root/bench/math-sweep.sh" "$out/$mode-$side" >"$out/$mode-$side.log" 2>&1
  done
  python3 "$root/bench/sweep_pair.py" "$out/$mode-before" "$out/$mode-after" >"$out/$mode-pair.md" 2>&1
  echo "## $mode: built-in policy (before) and with $(basename "$rows") (after)"
  cat "$out/$mode-pair.md"
done
[ -n "$archive" ] && tar czf "$archive" -C "$out" . && echo "copy-rows: packed $out into $archive" >&2
