#!/usr/bin/env bash
# Where the library's calls spend their device time: for each case line, on
# each backend, `gemmkit bench --kernel best` beside the peers with
# GEMMKIT_TRACE=1 (every launched step of a call timed, src/core/plan.c), then
# bench/trace_summary.py's table of each step's median time (steps.md).
#
#   bench/trace.sh CASES OUTDIR
#
# CASES: lines "SIZES TRANS [LAYOUT]" ('#' starts a comment). Environment:
# BACKENDS (default "opencl cuda"), PEERS (default cublas), REPEAT (default 5),
# BUDGET (seconds, default 300), BUILD (default build-gpu). The machine's setup
# is bench/gpu-env.sh's.
set -uo pipefail
cases=${1:?usage: bench/trace.sh CASES OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)

. "$root/bench/gpu-env.sh"
export GEMMKIT_DEVICE=${GEMMKIT_DEVICE:-NVIDIA}
gk_steps_begin "${2:?usage: bench/trace.sh CASES OUTDIR}" "${BUDGET:-300}" || exit 2
out=$gk_out
GK_TARGETS=${GK_TARGETS:-gemmkit_cli} gk_build "${BUILD:-$root/build-gpu}" || exit 1
gemmkit=$gk_gemmkit

i=0
while read -r sizes trans layout; do
  case "$sizes" in '' | '#'*) continue ;; esac
  i=$((i + 1))
  for backend in ${BACKENDS:-opencl cuda}; do
    if [ "$backend" = cuda ] && ! gk_has_cuda "$gemmkit"; then continue; fi
    device=$GEMMKIT_DEVICE
    [ "$backend" = cuda ] && device= # GEMMKIT_DEVICE names an OpenCL device
    name=$i-$backend
    GEMMKIT_TRACE=1 GEMMKIT_DEVICE=$device gk_step "$name" 60 "$gemmkit" --backend "$backend" bench --kernel best \
      --sizes "$sizes" --trans "${trans:-NN}" --layout "${layout:-col}" --repeat "${REPEAT:-5}" --max-time 10 \
      --peers "${PEERS:-cublas}" --no-baseline --json "$out/$name.json"
  done
done <"$cases"
python3 "$root/bench/trace_summary.py" "$out"/[0-9]*-*.log >"$out/steps.md" 2>>"$out/steps.log"
gk_steps_end
