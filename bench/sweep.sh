#!/usr/bin/env bash
# Issue 13's sweep ("no cliffs") on the GPU machine: `gemmkit bench --kernel
# best --sizes sweep` beside cuBLAS (pure fp32) and CLBlast on OpenCL, the same
# on the CUDA backend (when built and it sees a device), and the transpose and
# layout variants at 4096 and 4095 (NN, NT, TN, TT x col, row; col NN is the
# sweep's own) on both; every run writes OUTDIR/BACKEND-NAME.json (.log: its
# table and progress). Then bench/sweep_summary.py's markdown table, printed last
# and kept in OUTDIR/sweep.md: call-time TFLOPS, ratios to cuBLAS, their
# geometric mean, shapes below 0.90x flagged, the issue's targets met or not;
# OUTDIR/sweep.png draws the ratios (bench/sweep_plot.py, with matplotlib).
#
# usage: bench/sweep.sh OUTDIR [ARCHIVE.tar.gz]
#   ARCHIVE: also pack OUTDIR into one file (for the device tool: "$OUT/sweep.tar.gz")
# Budget: sized for 8 minutes on an H200, build included (BUDGET is the hard stop).
# Environment: GEMMKIT_DEVICE (OpenCL device, default NVIDIA), JOBS (build jobs),
#   BUDGET (seconds for the whole script, default 480), REPEAT (default 5),
#   MAX_TIME (--max-time per measurement, default 10), BUILD (default build-gpu,
#   bench/gpu.sh's), QUICK=1: --sizes sweep-cpu, variants at 64 and 63, one
#   timed run: a dry run of the script on a CPU (GEMMKIT_DEVICE=pocl).
set -uo pipefail

. "$(dirname "$0")/usage.sh"
gk_usage_check 1 2 "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
archive=${2:-}

. "$root/bench/gpu-env.sh"
export GEMMKIT_DEVICE=${GEMMKIT_DEVICE:-NVIDIA}
gk_steps_begin "$1" "${BUDGET:-480}" || exit 2
out=$gk_out
gk_build "${BUILD:-$root/build-gpu}" || exit 1
gemmkit=$gk_gemmkit

sizes=sweep variant_sizes=4096,4095 repeat=${REPEAT:-5} max_time=${MAX_TIME:-10}
if [ "${QUICK:-0}" = 1 ]; then
  sizes=sweep-cpu variant_sizes=64,63 repeat=1 max_time=2
fi
backends=(opencl)
if gk_has_cuda "$gemmkit"; then
  backends+=(cuda)
else
  gk_log "cuda: skipped, no CUDA device (or gemmkit built without the CUDA backend)"
fi

# sweep BACKEND NAME SECONDS BENCH-OPTIONS...: one run, its JSON in OUTDIR/BACKEND-NAME.json (listed in jsons).
jsons=()
sweep() {
  local backend=$1 name=$2 limit=$3 device=$GEMMKIT_DEVICE
  shift 3
  [ "$backend" = cuda ] && device= # GEMMKIT_DEVICE names an OpenCL device
  rm -f "$out/$backend-$name.json"  # never a previous run's
  GEMMKIT_DEVICE=$device gk_step "$backend-$name" "$limit" "$gemmkit" --backend "$backend" bench --kernel best \
    --repeat "$repeat" --max-time "$max_time" --no-baseline --json "$out/$backend-$name.json" "$@"
  [ -s "$out/$backend-$name.json" ] && jsons+=("$out/$backend-$name.json")
}
for backend in "${backends[@]}"; do
  sweep "$backend" sweep 200 --sizes "$sizes"
done
for backend in "${backends[@]}"; do
  for layout in col row; do
    for trans in NN NT TN TT; do
      [ "$layout$trans" = colNN ] && continue # measured by the sweep itself
      sweep "$backend" "$trans-$layout" 60 --sizes "$variant_sizes" --trans "$trans" --layout "$layout"
    done
  done
done

# The table, last.
if [ ${#jsons[@]} -gt 0 ]; then
  python3 "$root/bench/sweep_summary.py" "${jsons[@]}" >"$out/sweep.md" 2>&1 || gk_failed+=("summary")
  python3 "$root/bench/sweep_plot.py" "$out/sweep.png" "${jsons[@]}" >"$out/plot.log" 2>&1 ||
    gk_log "no plot (bench/sweep_plot.py needs matplotlib): $out/plot.log"
else
  gk_log "no results to summarize"
fi
[ -n "$archive" ] && tar czf "$archive" -C "$out" . && gk_log "packed $out into $archive"
echo
echo "=== issue 13's sweep: results in $out ==="
[ -s "$out/sweep.md" ] && cat "$out/sweep.md"
gk_steps_end
