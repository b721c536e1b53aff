#!/usr/bin/env bash
# ScaLAPACK's PSGEMM with gemmkit's drop-in as each rank's sgemm_, one GPU per
# rank, on a GPU machine (docs/SCALE.md, "Many hosts: ScaLAPACK"), beside
# gemmkit's own one-GPU rate at the same n. One call builds, checks and times:
#   1. a Release build of the drop-in, examples/scalapack and bench/call_time.c
#      (Open MPI and ScaLAPACK from .deps, bench/gpu-env.sh);
#   2. gemmkit_sgemm on one GPU at n: host arrays (copies included) and device
#      buffers (call_time, median of 3);
#   3. PSGEMM at n, NB: 1 rank; 2 ranks with KB = n (one sgemm_ per rank); 2
#      ranks with KB = NB (n / NB sgemm_ calls per rank, C copied both ways by
#      each); each checked against float64 on sampled elements;
#   4. at N_STOCK (default 8192) on 2 ranks, ScaLAPACK's stock PILAENV (KB = 32)
#      against KB = N_STOCK: what replacing PILAENV is worth.
# Prints a table last (also OUTDIR/summary.txt); logs in OUTDIR/*.log.
#
#   bench/scalapack.sh OUTDIR
#
# Environment: N (default 32768), NB (default 8192), N_STOCK, BUDGET (seconds for the
# whole script, default 450), BACKEND (cuda when built and seeing a GPU, else
# opencl), DEVICES (the device indices to hand out to ranks, default every GPU
# of the backend), GEMMKIT_BUILD_DIR (default build-scalapack); the drop-in's
# own settings (GEMMKIT_BLAS_THRESHOLD...) reach the ranks.
set -uo pipefail
out=${1:?usage: bench/scalapack.sh OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GEMMKIT_BUILD_DIR:-$root/build-scalapack}
n=${N:-32768} nb=${NB:-8192} n_stock=${N_STOCK:-8192}

. "$root/bench/gpu-env.sh"
gk_steps_begin "$out" "${BUDGET:-450}" || exit 2
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=index,name,pci.bus_id --format=csv 2>&1 || echo "nvidia-smi not available"
  nvidia-smi topo -m 2>&1 || true
  command -v mpirun && mpirun --version 2>&1 | head -1
  nproc
  free -g
} >"$gk_out/environment.txt" 2>&1

# A build of its own leaves the tests out; a build the user named keeps its settings.
testing=()
[ -f "$build/CMakeCache.txt" ] || testing=(-DBUILD_TESTING=OFF)
gk_step configure 120 cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "${testing[@]}"
gk_step build 240 cmake --build "$build" -j "$(nproc)" --target gemmkit_cli gemmkit_blas gemmkit_call_time \
  psgemm_example
example=$build/examples/scalapack/psgemm_example
if [ ! -x "$example" ] || [ ! -x "$build/gemmkit" ]; then
  gk_log "no psgemm_example or gemmkit: is Open MPI/ScaLAPACK in .deps (scripts/fetch-gpu-deps.sh)? See $gk_out/configure.log"
  grep -i "mpi\|scalapack" "$gk_out/configure.log" >&2
  gk_steps_end
  exit 1
fi

# The backend, and its GPUs' indices: the example hands them out by local rank.
backend=${BACKEND:-}
if [ -z "$backend" ]; then
  backend=opencl
  gk_has_cuda "$build/gemmkit" && backend=cuda
fi
"$build/gemmkit" --backend "$backend" devices >"$gk_out/devices.txt" 2>&1
# `gemmkit devices` lists every backend: the indices are those of this backend's section.
section='/^OpenCL:/,/^CUDA:/p'
[ "$backend" = cuda ] && section='/^CUDA:/,$p'
gpus=${DEVICES:-$(sed -n "$section" "$gk_out/devices.txt" | sed -n 's/^ *\[\([0-9]*\)\] .* (GPU)$/\1/p' | paste -sd, -)}
gk_log "backend $backend, GPUs [$gpus]"
if [ -z "$gpus" ]; then
  gk_log "no GPU on the $backend backend: see $gk_out/devices.txt"
  gk_steps_end
  exit 1
fi
export GEMMKIT_BACKEND=$backend

# gemmkit alone on the first GPU: host arrays in and out, and device buffers.
GEMMKIT_DEVICE=${gpus%%,*} gk_step gemmkit-1gpu 150 "$build/call_time" "$n" 3

# psgemm RUN RANKS N [KB]: the example under the drop-in (preloaded into the
# ranks only), every rank on its GPU; the ranks inherit mpirun's environment.
# No binding: each rank's host-side work (staging, packing) may use any core.
psgemm() {
  local name=$1 ranks=$2 size=$3 kb=${4:-}
  GEMMKIT_DEVICE=$gpus GEMMKIT_BLAS_VERBOSE=1 gk_step "$name" 150 mpirun -np "$ranks" --bind-to none \
    -x LD_PRELOAD="$build/libgemmkit_blas.so" "$example" "$size" "$nb" $kb
}
psgemm psgemm-1rank 1 "$n"
psgemm psgemm-2ranks 2 "$n"
psgemm psgemm-2ranks-kb"$nb" 2 "$n" "$nb"
psgemm psgemm-stock-2ranks 2 "$n_stock"
psgemm psgemm-stock-2ranks-kb32 2 "$n_stock" 32

# ---- the table
tflops_us() { awk -v n="$1" -v us="$2" 'BEGIN { if (us > 0) printf "%.4g", 2 * n * n * n / (us * 1e-6) / 1e12 }'; }
rate() { sed -n 's/.*psgemm_: [0-9.]* s, \([0-9.e+]*\) TFLOPS.*/\1/p' "$gk_out/$1.log" 2>/dev/null | head -1; }
seconds() { sed -n 's/.*psgemm_: \([0-9.]*\) s,.*/\1/p' "$gk_out/$1.log" 2>/dev/null | head -1; }
checked() {
  local log=$gk_out/$1.log
  grep -q "check: .*: ok$" "$log" 2>/dev/null || { echo "FAILED"; return; }
  local calls device
  calls=$(grep -c "gemmkit-blas: sgemm_(" "$log")
  device=$(grep -c "gemmkit-blas: sgemm_(.*): device " "$log")
  echo "ok, $device/$calls sgemm_ on GPUs, err $(sed -n 's/.*max relative error \([^ ]*\) .*/\1/p' "$log")"
}
host_us=$(awk '$1 == "host" { print $3 }' "$gk_out/gemmkit-1gpu.log" 2>/dev/null)
buffers_us=$(awk '$1 == "buffers" { print $3 }' "$gk_out/gemmkit-1gpu.log" 2>/dev/null)
host=$(tflops_us "$n" "${host_us:-0}") buffers=$(tflops_us "$n" "${buffers_us:-0}")
one=$(rate psgemm-1rank) two=$(rate psgemm-2ranks) two_nb=$(rate psgemm-2ranks-kb"$nb")
ratio() { awk -v a="$1" -v b="$2" -v f="${3:-1}" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / (b * f) }'; }
{
  echo "ScaLAPACK PSGEMM under gemmkit's drop-in, backend $backend, GPUs [$gpus], n = $n, NB = $nb ($(date -u +%Y-%m-%dT%H:%MZ))"
  echo "| run | s | TFLOPS | vs gemmkit 1 GPU host arrays | check |"
  echo "| --- | ---: | ---: | ---: | --- |"
  echo "| gemmkit_sgemm, 1 GPU, device buffers | $(awk -v u="${buffers_us:-0}" 'BEGIN{printf "%.3f", u/1e6}') | ${buffers:-} | | |"
  echo "| gemmkit_sgemm, 1 GPU, host arrays | $(awk -v u="${host_us:-0}" 'BEGIN{printf "%.3f", u/1e6}') | ${host:-} | 1.00 | |"
  echo "| PSGEMM 1 rank (1 x 1 grid) | $(seconds psgemm-1rank) | ${one:-} | $(ratio "$one" "$host") | $(checked psgemm-1rank) |"
  echo "| PSGEMM 2 ranks (1 x 2), KB = n | $(seconds psgemm-2ranks) | ${two:-} | $(ratio "$two" "$host" 2) per GPU | $(checked psgemm-2ranks) |"
  echo "| PSGEMM 2 ranks (1 x 2), KB = NB | $(seconds psgemm-2ranks-kb"$nb") | ${two_nb:-} | $(ratio "$two_nb" "$host" 2) per GPU | $(checked psgemm-2ranks-kb"$nb") |"
  echo "| PSGEMM 2 ranks, n = $n_stock, KB = n | $(seconds psgemm-stock-2ranks) | $(rate psgemm-stock-2ranks) | | $(checked psgemm-stock-2ranks) |"
  echo "| PSGEMM 2 ranks, n = $n_stock, KB = 32 (stock PILAENV) | $(seconds psgemm-stock-2ranks-kb32) | $(rate psgemm-stock-2ranks-kb32) | | $(checked psgemm-stock-2ranks-kb32) |"
  echo
  echo "scaling, 2 ranks over 1 (KB = n): $(ratio "$two" "$one")x; efficiency against 2 x gemmkit's 1-GPU host-array rate: $(ratio "$two" "$host" 2)"
} | tee "$gk_out/summary.txt"
gk_steps_end
