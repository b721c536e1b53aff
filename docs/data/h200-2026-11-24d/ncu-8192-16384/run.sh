#!/usr/bin/env bash
# one-off device driver (untracked): clocks and power while our xgemm and cuBLAS run 16384^3; ncu launch configs and issue rates
set -u
. bench/gpu-env.sh
gk_steps_begin /tmp/prof-steps 480 || exit 2
GK_TARGETS="gemmkit_cli" gk_build build-gpu >/dev/null 2>&1 || { echo build failed; exit 1; }
o=/tmp/prof; mkdir -p $o
g=build-gpu/gemmkit
nvidia-smi dmon -s pc -d 1 > $o/dmon.txt 2>&1 &
dm=$!
sleep 2; echo "ours-start $(date +%T)" >> $o/phases.txt
$g --backend cuda bench --sizes 16384 --repeat 40 --max-time 60 --no-peers --no-baseline --json $o/ours.json > $o/ours.txt 2>&1
echo "ours-end $(date +%T)" >> $o/phases.txt; sleep 3; echo "cublas-start $(date +%T)" >> $o/phases.txt
$g --backend cuda bench --sizes 16384 --repeat 40 --max-time 6 --peers cublas --no-baseline --json $o/cublas.json > $o/cublas.txt 2>&1
echo "cublas-end $(date +%T)" >> $o/phases.txt
kill $dm
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
m=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,launch__block_size,launch__grid_size,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__warps_eligible.avg.per_cycle_active,smsp__inst_executed.sum,sm__inst_executed_pipe_fma.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,lts__t_bytes.sum,dram__bytes.sum,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem
for n in 8192 16384; do
  timeout 200 $ncu --clock-control none --target-processes all --kernel-name regex:gemm --launch-count 4 --metrics "$m,regex:^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$" --csv \
    $g --backend cuda bench --sizes $n --repeat 1 --sets 1 --peers cublas --no-baseline > $o/ncu-$n.csv 2> $o/ncu-$n.log
done
cd $o && tar czf $OUT/prof.tar.gz . && cp phases.txt dmon.txt $OUT/
