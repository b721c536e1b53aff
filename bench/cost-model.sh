#!/usr/bin/env bash
# Issue 35's cost model on a GPU machine, in one go: calibrate its constants on one seed, then judge the choice
# on shapes drawn with another, beside cuBLAS, on both backends.
#   1. `gemmkit tune --calibrate --seed FIT_SEED` per backend into OUTDIR/tuning.tsv (the device's cost: lines);
#   2. with those lines (GEMMKIT_TUNING_DB), `gemmkit bench --sizes random:COUNT:EVAL_SEED --peers cublas`
#      per backend; with CANDIDATES=N also `--candidates` over the draw's first N shapes: every candidate timed,
#      the default's ratio to the fastest;
#   3. with FIXED=1, the fixed sweep (issue 13's 34 shapes) as a regression set.
#
#   bench/cost-model.sh OUTDIR [FIT_SEED [EVAL_SEED [COUNT]]]
#
# Environment: BUDGET (seconds for the whole script, default 560), BACKENDS (default "cuda opencl"),
# CAL_TIME (--max-time of each calibration, default 100), CALL_TIME=1 (one call's wall time at 32^3 and 128^3), SKIP_CALIBRATE=1 (use OUTDIR/tuning.tsv as it is,
# or the built-in lines when there is none), SKIP_RANDOM=1 (no step 2 bench beside cuBLAS), VERIFY="K1 K2"
# (`gemmkit verify --kernel K` per backend first: new kernels checked on the device before anything is timed),
# DROPIN=1 (the drop-in's cblas_sgemm on host arrays forced onto the device, n = 8 to 256: examples/dropin's
# dropin_crossover per backend), FIXED_BACKENDS and CANDIDATE_BACKENDS
# (the backends of FIXED=1's sweep and of the candidates runs, default BACKENDS).
set -uo pipefail
out=${1:?usage: bench/cost-model.sh OUTDIR [FIT_SEED [EVAL_SEED [COUNT]]]}
fit_seed=${2:-35} eval_seed=${3:-27112026} count=${4:-64}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/gpu-env.sh"
gk_steps_begin "$out" "${BUDGET:-560}" || exit 2
GK_TARGETS="gemmkit_cli gemmkit_call_time ${DROPIN:+dropin_crossover} ${EXTRA_TARGETS:-}" gk_build "$root/build-cost" || exit 1
db=$gk_out/tuning.tsv
backends=${BACKENDS:-cuda opencl}
for b in $backends; do
  for kernel in ${VERIFY:-}; do
    gk_step "verify-$b-$kernel" 60 "$gk_gemmkit" --backend "$b" verify --kernel "$kernel"
  done
done
if [ -z "${SKIP_CALIBRATE:-}" ]; then
  for b in $backends; do
    gk_step "calibrate-$b" 200 "$gk_gemmkit" --backend "$b" tune --calibrate --verbose --seed "$fit_seed" \
      --max-time "${CAL_TIME:-100}" --db "$db"
  done
fi
[ -f "$db" ] && export GEMMKIT_TUNING_DB=$db
# One call's wall time on device buffers and host arrays (build/call_time: the median of 300) at 32^3, 128^3 and
# 1024^3, and the same sizes timed by the bench beside cuBLAS, both backends.
if [ -n "${CALL_TIME:-}" ]; then
  for b in $backends; do
    for n in 32 128 1024; do
      GEMMKIT_BACKEND=$b gk_step "call-time-$b-$n" 60 "$root/build-cost/call_time" "$n" 300
    done
    # The same sizes on device buffers beside cuBLAS in one run: device time and host wall time of each.
    gk_step "call-sizes-$b" 60 "$gk_gemmkit" --backend "$b" bench --sizes 32,128,1024 --repeat 50 --no-baseline \
      --peers cublas --no-roofline
  done
fi
# A small call through the drop-in: host arrays in and out, the device forced (its threshold 0) beside the CPU BLAS.
if [ -n "${DROPIN:-}" ]; then
  for b in $backends; do
    GEMMKIT_BACKEND=$b gk_step "dropin-small-$b" 60 "$root/build-cost/examples/dropin/dropin_crossover" 256
  done
fi
# The draw beside cuBLAS on every backend first, then the (long) candidates runs.
for b in $backends; do
  [ -z "${SKIP_RANDOM:-}" ] && gk_step "random-$b" 240 "$gk_gemmkit" --backend "$b" bench --sizes "random:$count:$eval_seed" --repeat 3 \
    --no-baseline --max-time 10 --peers cublas --json "$gk_out/random-$b.json"
  if [ -n "${FIXED:-}" ] && [[ " ${FIXED_BACKENDS:-$backends} " == *" $b "* ]]; then
    gk_step "fixed-$b" 200 "$gk_gemmkit" --backend "$b" bench --sizes sweep --repeat 3 --no-baseline \
      --max-time 10 --peers cublas --json "$gk_out/fixed-$b.json"
  fi
done
for b in $backends; do
  if [ -n "${CANDIDATES:-}" ] && [[ " ${CANDIDATE_BACKENDS:-$backends} " == *" $b "* ]]; then
    gk_step "candidates-$b" "${CANDIDATE_TIME:-300}" "$gk_gemmkit" --backend "$b" bench --sizes "random:$CANDIDATES:$eval_seed" --repeat 3 \
      --no-baseline --max-time 10 --candidates --candidates-out "$gk_out/candidates-$b.tsv"
  fi
done
gk_steps_end
