#!/usr/bin/env bash
# Where the GPU's time goes, for gemmkit's kernels beside cuBLAS's: Nsight
# Compute (ncu) profiles of `gemmkit --backend cuda bench` runs on the GPU
# machine, one report per case (OUTDIR/NAME.ncu-rep, .txt, .csv), each listing
# every SGEMM launch of the run (gemmkit's kernel and the cuBLAS peer's) with
# the sections that say what limits a kernel: speed of light, pipe
# utilization, warp stall reasons, scheduler issue rate, occupancy,
# shared-memory bank conflicts; bench/ncu_summary.py puts them side by side
# (OUTDIR/ncu.md, printed last). And, for
# each "KERNEL PARAMS" line of SASS_CASES, bench/sass-report.sh's summary of
# its machine code (OUTDIR/sass-KERNEL-PARAMS.log; the disassembly in .sass).
#
# usage: bench/ncu-profile.sh OUTDIR [ARCHIVE.tar.gz]
# Cases: CASES (default bench/cases/ncu.txt): one per line, "NAME ARGS...",
#   ARGS given to `gemmkit --backend cuda bench` after --no-baseline --repeat 1.
# Environment: BUILD (default build-gpu), BUDGET (seconds, default 500),
#   KERNELS (ncu's --kernel-name regex, default "gemm"), LAUNCHES (profiled
#   launches per case, default 6), SASS_CASES (a file of "KERNEL [PARAMS]" lines).
# ncu runs with --clock-control none (the device tool's METHOD.md: leave the
# clocks alone); its replay makes each profiled launch many times slower.
set -uo pipefail

. "$(dirname "$0")/usage.sh"
gk_usage_check 1 2 "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
archive=${2:-}
. "$root/bench/gpu-env.sh"
gk_steps_begin "$1" "${BUDGET:-500}" || exit 2
out=$gk_out
cases=${CASES:-$root/bench/cases/ncu.txt}

GK_TARGETS="gemmkit_cli gemmkit_cuda_build" gk_build "${BUILD:-$root/build-gpu}" || exit 1
ncu_bin=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$ncu_bin" ] || gk_log "no ncu on this machine"

sections=(SpeedOfLight ComputeWorkloadAnalysis MemoryWorkloadAnalysis MemoryWorkloadAnalysis_Tables
  SchedulerStats WarpStateStats Occupancy LaunchStats InstructionStats)
section_args=()
for s in "${sections[@]}"; do section_args+=(--section "$s"); done

# Beyond the sections: every warp stall reason per issued instruction, and the
# FMA and tensor pipes' utilization (a case whose ncu refuses one is profiled
# again without them). The tensor pipes by pattern: on the H200 (driver 580) the
# names sm__pipe_tensor_op_{gmma,hmma}_cycles_active were accepted but read
# "n/a" for every kernel, wgmma's included; ncu_summary.py takes the first
# tensor metric with a value.
metrics='regex:^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$'
metrics+=,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active
metrics+=,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
metrics+=,'regex:^sm__(inst_executed_)?pipe_tensor.*\.avg\.pct_of_peak_sustained_active$'
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum

# profile NAME EXTRA_NCU_OPTIONS... -- BENCH_OPTIONS...: one report, OUTDIR/NAME.ncu-rep.
profile() {
  local name=$1 ncu_args=()
  shift
  while [ "$1" != -- ]; do ncu_args+=("$1"); shift; done
  shift
  rm -f "$out/$name.ncu-rep"
  gk_step "ncu-$name" 150 "$ncu_bin" --clock-control none --target-processes all \
    --kernel-name "regex:${KERNELS:-gemm}" --launch-count "${LAUNCHES:-6}" "${section_args[@]}" "${ncu_args[@]}" \
    -o "$out/$name" "$gk_gemmkit" --backend cuda bench --no-baseline --repeat 1 --sets 1 "$@"
}

csvs=()
if [ -n "$ncu_bin" ]; then
  while read -r name args; do
    case "$name" in '' | '#'*) continue ;; esac
    # shellcheck disable=SC2086 # args is a list of bench options
    profile "$name" --metrics "$metrics" -- $args || profile "$name" -- $args || continue
    "$ncu_bin" --import "$out/$name.ncu-rep" --page details --print-units base >"$out/$name.txt" 2>&1
    "$ncu_bin" --import "$out/$name.ncu-rep" --page details --print-units base --csv >"$out/$name.csv" 2>&1 &&
      csvs+=("$out/$name.csv")
  done <"$cases"
fi
if [ ${#csvs[@]} -gt 0 ]; then
  python3 "$root/bench/ncu_summary.py" "${csvs[@]}" >"$out/ncu.md" 2>&1 || gk_failed+=("summary")
  cat "$out/ncu.md"
fi

# Machine code of the named kernels (the toolkit's nvdisasm).
if [ -n "${SASS_CASES:-}" ] && [ -f "$SASS_CASES" ]; then
  nvdisasm_bin=$(command -v nvdisasm || ls "${CUDA_HOME:-/usr/local/cuda}/bin/nvdisasm" 2>/dev/null)
  while read -r kernel params; do
    case "$kernel" in '' | '#'*) continue ;; esac
    name="sass-$kernel-${params:-defaults}"
    gk_step "$name" 60 env BUILD="$(dirname "$gk_gemmkit")" NVDISASM="$nvdisasm_bin" SASS="$out/$name.sass" \
      bash "$root/bench/sass-report.sh" "$kernel" $params
  done <"$SASS_CASES"
fi

# The .ncu-rep files stay in OUTDIR: with them the archive passed the device tool's size limit (its files_left_out).
[ -n "$archive" ] && tar czf "$archive" -C "$out" --exclude='*.ncu-rep' . && gk_log "packed $out (less the .ncu-rep files) into $archive"
gk_steps_end
