#!/usr/bin/env bash
# Issue 18's multi-GPU run on the GPU machine (nvidia-h200-x2): builds gemmkit
# and build/multi_gpu (bench/multi_gpu.c), then times SGEMM on host arrays
#   1. n = 32768: gemmkit on 1 and 2 GPUs, CUDA and OpenCL backends, beside
#      cuBLASXt on 1 and 2 GPUs (block 4096), pinned and pageable host memory,
#      and each library's device-resident rate on one GPU;
#   2. n = 110000 (145 GB of operands: more than one GPU holds): pinned only,
#      gemmkit on 2 GPUs (CUDA, OpenCL), cuBLASXt on 2 GPUs, then gemmkit on
#      1 GPU (CUDA, OpenCL) as far as the time budget goes.
# Every result is checked (WRONG instead of a speed). OUTDIR gets steps.log,
# configure.log, build.log, devices.txt, machine.txt (GPUs, links, host memory),
# nNNNN.log (each run's lines and table) and nNNNN.tsv (its rows); the tables
# are printed last. docs/SCALE.md says what each number means.
#
# usage: bench/multi-gpu.sh OUTDIR
# Budget: sized for 9 minutes on 2 H200s, build included (BUDGET is the hard stop).
# Environment: BUDGET (seconds for the whole script, default 540), BUILD (default
#   build-gpu), REPEAT (timed calls at the first size, default 3), BLOCK (cuBLASXt's
#   block, default 4096), SMALL_N (default 32768), BIG_N (default 110000; 0 skips
#   that part), MEMORY (host memory at the first size: both, pinned or pageable;
#   default both), BIG_DEVICES (the second part's devices instead of every GPU,
#   then one; e.g. opencl:NVIDIA), BIG_PEERS (its peers, default cublasxt; none:
#   gemmkit alone), QUICK=1: sizes 256 and 384 on whatever devices are there (a dry
#   run of the script on a CPU with PoCL).
set -uo pipefail

. "$(dirname "$0")/usage.sh"
gk_usage_check 1 1 "$@"
root=$(cd "$(dirname "$0")/.." && pwd)

. "$root/bench/gpu-env.sh"
gk_steps_begin "$1" "${BUDGET:-540}" || exit 2
out=$gk_out
GK_TARGETS="gemmkit_cli gemmkit_multi_gpu" gk_build "${BUILD:-$root/build-gpu}" || exit 1
bench=$(dirname "$gk_gemmkit")/multi_gpu
if [ ! -x "$bench" ]; then
  gk_log "no $bench: see $out/build.log"
  exit 1
fi

small_n=${SMALL_N:-32768} big_n=${BIG_N:-110000} repeat=${REPEAT:-3} block=${BLOCK:-4096} big_warmup=2048
[ "${QUICK:-0}" = 1 ] && small_n=256 big_n=384 big_warmup=64

# What the machine has: GPUs and their links (they decide the 2-GPU scaling), host memory.
{
  nvidia-smi --query-gpu=index,name,memory.total,pcie.link.gen.current,pcie.link.width.current --format=csv
  nvidia-smi topo -m
  free -g
  nproc
} >"$out/machine.txt" 2>&1

# The selectors: one GPU and every GPU on each backend that sees the GPUs.
gpus=$("$gk_gemmkit" --backend cuda devices 2>/dev/null | sed -n 's/^CUDA: \([0-9]*\) device.*/\1/p')
gpus=${gpus:-0}
one=() every=() xt_one="" xt_every=""
if [ "$gpus" -ge 1 ]; then
  one+=(cuda:0) xt_one=0
  [ "$gpus" -ge 2 ] && every+=(cuda:all) xt_every=0,1
else
  gk_log "cuda: no CUDA device (or gemmkit built without the CUDA backend): CUDA backend and cuBLASXt not run"
fi
if sed -n '/^OpenCL:/,/^CUDA:/p' "$out/devices.txt" | grep -q "NVIDIA.*(GPU)"; then
  one+=(opencl:NVIDIA) # the first NVIDIA GPU: OpenCL lists PoCL's CPU beside it
  [ "$gpus" -ge 2 ] && every+=(opencl:all)
elif [ "${QUICK:-0}" = 1 ]; then
  one+=(opencl:0) # the dry run: the CPU through PoCL
else
  gk_log "opencl: no NVIDIA GPU visible to OpenCL: OpenCL backend not run"
fi
[ "$gpus" -lt 2 ] && gk_log "fewer than 2 GPUs: the 2-GPU runs are left out"
if [ ${#one[@]} -eq 0 ]; then
  gk_log "nothing to run"
  gk_steps_end
  exit 1
fi

# run NAME SECONDS ARGS...: one multi_gpu run as a step, its own budget 20 s under the step's limit
# (it then stops repeating and skips runners that would overrun, and prints its table).
run() {
  local name=$1 seconds=$2
  shift 2
  gk_budget "$name" "$seconds" || return 1
  local limit=$gk_limit
  gk_step "$name" "$limit" "$bench" --block "$block" --tsv "$out/$name.tsv" --budget $((limit > 40 ? limit - 20 : limit / 2)) "$@"
}

# 1. One GPU and two, pinned and pageable, both backends, cuBLASXt, device-resident rates.
xt_small="$xt_one${xt_every:+ $xt_every}"
run "n$small_n" 200 --n "$small_n" --repeat "$repeat" --memory "${MEMORY:-both}" --peers cublasxt,resident \
  --devices "${one[*]} ${every[*]}" ${xt_small:+--xt "$xt_small"}

# 2. Out of core: two GPUs first (the issue's figures), then one GPU while the budget lasts.
#    One timed call each, after a small warm-up (it builds the kernels and cuBLASXt's handles).
if [ "$big_n" -gt 0 ]; then
  xt_big=${xt_every:-$xt_one}
  big_devices=${BIG_DEVICES:-${every[*]} ${one[*]}} big_peers=${BIG_PEERS:-cublasxt}
  [ "$big_peers" = none ] && xt_big=""
  run "n$big_n" 600 --n "$big_n" --repeat 1 --warmup "$big_warmup" --memory pinned --peers "$big_peers" \
    --devices "$big_devices" ${xt_big:+--xt "$xt_big"}
fi

echo
echo "=== issue 18: multi-GPU SGEMM on host arrays; results in $out ==="
for log in "$out"/n*.log; do
  [ -f "$log" ] || continue
  echo "--- $(basename "$log" .log)"
  sed -n '/^n \{2,\}runner /,/^done in/p' "$log"
  grep -q '^n \{2,\}runner ' "$log" || { echo "(no table: the run stopped early; its last lines:)"; tail -20 "$log"; }
done
gk_steps_end
