#!/usr/bin/env bash
# Issue 14's math table on the GPU machine: `gemmkit bench --kernel best --math
# MODE --inputs INPUTS` for the modes fp32, 3xtf32 and tf32, on the CUDA backend
# (when built and it sees a device) and on OpenCL, for inputs uniform in [-1, 1)
# and wide (rows and columns of A and B scaled by 2^-20..2^20), at n = 1024,
# 4096, 8192 and 16384, each run beside cuBLAS pure fp32 and cuBLAS TF32 on the
# same inputs (one GEMMKIT_SEED for every run: the inputs and the sampled
# elements depend on the seed and the size alone). Every run writes
# OUTDIR/BACKEND-MODE-INPUTS.json (.log: its table and progress). Last it prints
# bench/math_summary.py's markdown table (kept in OUTDIR/math.md): per mode,
# backend, n and inputs, TFLOPS, the ratios to cuBLAS fp32 and TF32 of the same
# run, max and RMS error (per element, relative to (|A||B|)ij, against a float64
# reference) beside cuBLAS fp32's, and the issue's targets met or not.
#
# usage: bench/math-modes.sh OUTDIR [ARCHIVE.tar.gz]
#   ARCHIVE: also pack OUTDIR into one file (for the device tool: "$OUT/math.tar.gz")
# Budget: 12 runs sized for 8 minutes on an H200, build included (BUDGET is the hard stop).
# Environment: GEMMKIT_DEVICE (OpenCL device, default NVIDIA), JOBS (build jobs),
#   BUDGET (seconds for the whole script, default 480), REPEAT (timed runs, default 5),
#   MAX_TIME (--max-time per measurement, default 4), SIZES (default 1024,4096,8192,16384),
#   MODES (default "3xtf32 fp32 tf32"), SEED (GEMMKIT_SEED of every run, default 14),
#   BUILD (default build-gpu, bench/gpu.sh's), QUICK=1: sizes 64,96, one timed run and
#   MODES=fp32: a dry run on a CPU (GEMMKIT_DEVICE=pocl), where no tensor-core mode runs.
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

sizes=${SIZES:-1024,4096,8192,16384} repeat=${REPEAT:-5} max_time=${MAX_TIME:-4} modes=${MODES:-3xtf32 fp32 tf32}
if [ "${QUICK:-0}" = 1 ]; then
  sizes=${SIZES:-64,96} repeat=1 max_time=2 modes=${MODES:-fp32}
fi
export GEMMKIT_SEED=${SEED:-14}
backends=()
if gk_has_cuda "$gemmkit"; then
  backends+=(cuda)
else
  gk_log "cuda: skipped, no CUDA device (or gemmkit built without the CUDA backend)"
fi
backends+=(opencl)

# run BACKEND MODE INPUTS: one bench run, its JSON in OUTDIR/BACKEND-MODE-INPUTS.json (listed in jsons).
jsons=()
run() {
  local backend=$1 mode=$2 inputs=$3 device=$GEMMKIT_DEVICE name="$1-$2-$3"
  [ "$backend" = cuda ] && device= # GEMMKIT_DEVICE names an OpenCL device
  rm -f "$out/$name.json"          # never a previous run's
  GEMMKIT_DEVICE=$device gk_step "$name" 90 "$gemmkit" --backend "$backend" bench --kernel best --math "$mode" \
    --inputs "$inputs" --sizes "$sizes" --repeat "$repeat" --max-time "$max_time" --no-baseline --peers cublas \
    --json "$out/$name.json"
  [ -s "$out/$name.json" ] && jsons+=("$out/$name.json")
}
# The issue's first questions first (the accurate mode, uniform inputs), should the budget run out.
for inputs in uniform wide; do
  for mode in $modes; do
    for backend in "${backends[@]}"; do
      run "$backend" "$mode" "$inputs"
    done
  done
done

# The table, last.
if [ ${#jsons[@]} -gt 0 ]; then
  python3 "$root/bench/math_summary.py" "${jsons[@]}" >"$out/math.md" 2>&1 || gk_failed+=("summary")
else
  gk_log "no results to summarize"
fi
[ -n "$archive" ] && tar czf "$archive" -C "$out" . && gk_log "packed $out into $archive"
echo
echo "=== issue 14's math modes: results in $out ==="
[ -s "$out/math.md" ] && cat "$out/math.md"
gk_steps_end
