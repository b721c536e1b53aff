#!/usr/bin/env bash
# ctest: ScaLAPACK's PSGEMM on RANKS MPI ranks with gemmkit's drop-in
# preloaded, every sgemm_ forced onto a device (GEMMKIT_BLAS_THRESHOLD=0: on a
# CPU-only machine PoCL, which the drop-in otherwise leaves to the CPU BLAS).
# Passes when the example's float64 check passes and the drop-in's log shows
# that each rank's sgemm_ calls all ran on gemmkit's device path, each rank on
# the device of its local rank, KB wide (the example's pilaenv_ took effect).
# Exit 77 (skipped) when mpirun or the example (MPI, ScaLAPACK) is missing.
# usage: run_test.sh MPIEXEC EXAMPLE DROPIN RANKS N NB [KB]
set -uo pipefail
mpiexec=$1 example=$2 dropin=$3 ranks=$4 n=$5 nb=$6 kb=${7:-}
if [ -z "$mpiexec" ] || ! command -v "$mpiexec" >/dev/null; then
  echo "skipped: no mpirun (Debian: openmpi-bin)"
  exit 77
fi
if [ -z "$example" ] || [ ! -x "$example" ]; then
  echo "skipped: psgemm_example was not built (Debian: libopenmpi-dev, libscalapack-openmpi-dev)"
  exit 77
fi

# Open MPI in a container or CI runner: as root only when told, more ranks
# than cores, no cross-memory attach (ptrace is often denied), no binding
# (PoCL's threads need every core), no warnings about absent fabrics.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_hwloc_base_binding_policy=none OMPI_MCA_btl_base_warn_component_unused=0
# PoCL as one device per rank, so that local rank r finds device r. The CUDA
# backend has as many devices as the machine: there every rank shares GPU 0.
export POCL_DEVICES=$(printf 'pthread %.0s' $(seq "$ranks"))
case "${GEMMKIT_BACKEND:-}" in [cC][uU][dD][aA]) export GEMMKIT_DEVICE=0 ;; esac
export OPENBLAS_NUM_THREADS=1

log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$mpiexec" -np "$ranks" --tag-output -x LD_PRELOAD="$dropin" -x GEMMKIT_BLAS_THRESHOLD=0 -x GEMMKIT_BLAS_VERBOSE=1 \
  "$example" "$n" "$nb" $kb >"$log" 2>&1
status=$?
cat "$log"
fail() { echo "FAILED: $*"; exit 1; }
[ $status -eq 0 ] || fail "mpirun exited with $status"
grep -q "check: .*: ok$" "$log" || fail "no passing check line"
! grep -q "device failed\|every call runs on the CPU" "$log" || fail "the device failed or was not found"
for ((r = 0; r < ranks; r++)); do
  # --tag-output prefixes each line with [job,rank]<stream>:
  calls=$(grep -c "^\[[0-9]*,$r\]<stderr>:.*gemmkit-blas: sgemm_(" "$log")
  device=$(grep -c "^\[[0-9]*,$r\]<stderr>:.*gemmkit-blas: sgemm_(.*): device " "$log")
  [ "$calls" -gt 0 ] || fail "rank $r: no sgemm_ call reached gemmkit"
  [ "$calls" -eq "$device" ] || fail "rank $r: $((calls - device)) of $calls sgemm_ calls did not run on the device"
  if [ -z "${GEMMKIT_DEVICE:-}" ]; then
    grep -q "rank $r (.*local rank $r).*GEMMKIT_DEVICE=$r$" "$log" || fail "rank $r did not take device $r"
  fi
  echo "rank $r: $calls sgemm_ calls, all on the device"
done
if [ -n "$kb" ]; then
  grep -q "sgemm_(.*k=$kb," "$log" || fail "no sgemm_ call with k=$kb: the example's pilaenv_ was not used"
fi
echo "passed"
