#!/usr/bin/env bash
# The GPU machine in one go (see /work/shared/gpu/NOTES.md): registers
# NVIDIA's OpenCL driver, unpacks the packages carried in .deps/ (CLBlast,
# cmocka, jansson: scripts/fetch-gpu-deps.sh fetches them elsewhere), builds,
# runs the test suite on the GPU, then benchmarks gemmkit beside cuBLAS and
# CLBlast: the kernel ladder, the best kernel over a size sweep, the
# transposes, and (when built) the CUDA backend. Writes every result (json,
# csv, png, logs) to OUTDIR and prints a short summary table last.
#
# usage: bench/gpu.sh OUTDIR [ARCHIVE.tar.gz]
#   ARCHIVE: also pack OUTDIR into one file (handy where only a few files come back):
#   bench/gpu.sh /tmp/gpu-results "$OUT/gpu-results.tar.gz"
# Budget: about 8 minutes on an H200 (sizes and repeats below are chosen for it;
# BUDGET below is the hard stop).
# Environment: GEMMKIT_DEVICE (default NVIDIA), JOBS (build jobs, default nproc),
#   BUDGET: seconds for the whole script (default 540; each step stops in time),
#   SKIP_TESTS=1: leave out the test suite (when `make test` runs separately),
#   QUICK=1: tiny sizes, a dry run of the script itself (e.g. GEMMKIT_DEVICE=portable on a CPU).
set -uo pipefail

. "$(dirname "$0")/usage.sh"
gk_usage_check 1 2 "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1
archive=${2:-}

# 1. NVIDIA's OpenCL driver, the carried packages, library paths, the step runner.
. "$root/bench/gpu-env.sh"
export GEMMKIT_DEVICE=${GEMMKIT_DEVICE:-NVIDIA}
gk_steps_begin "$out" "${BUDGET:-540}" || exit 2
out=$gk_out

# 2. Build.
build=$root/build-gpu
gk_build "$build" || exit 1
gemmkit=$gk_gemmkit
cat "$out/devices.txt" >&2

# 3. The test suite on the GPU (cmocka tests are skipped by CMake if cmocka is missing).
[ "${SKIP_TESTS:-0}" = 1 ] || gk_step tests 180 ctest --test-dir "$build" --output-on-failure -j 4 --timeout 200

# 4. Benchmarks. gnuplot draws with --plot; without it bench/plot.py (matplotlib) does.
have_gnuplot=0
command -v gnuplot >/dev/null && have_gnuplot=1
bench() { # bench NAME SECONDS ARGS...
  local name=$1 limit
  gk_budget "bench-$name" "$2" || return 1
  limit=$gk_limit
  shift 2
  local plot=()
  [ $have_gnuplot -eq 1 ] && plot=(--plot "$out/$name.png")
  gk_log "bench $name: gemmkit $*"
  timeout --kill-after=10 "$limit" "$gemmkit" "$@" --json "$out/$name.json" --csv "$out/$name.csv" "${plot[@]}" \
    >"$out/$name.txt" 2>"$out/$name.log"
  local rc=$?
  [ $rc -ne 0 ] && { gk_log "bench $name: exit status $rc (see $name.txt, $name.log)"; gk_failed+=("bench-$name"); }
  if [ $have_gnuplot -eq 0 ] && [ -s "$out/$name.json" ]; then
    python3 "$root/bench/plot.py" "$out/$name.json" -o "$out/$name.png" 2>>"$out/$name.log" ||
      gk_log "bench $name: no plot (neither gnuplot nor matplotlib)"
  fi
  return $rc
}
ladder_sizes=1024,2048,4096 best_sizes=1024:16384:x2,4097 transpose_sizes=1024:16384:x2 cuda_sizes=1024:8192:x2
sweep_sizes=1000:16384:+509,8184:8200:+1
if [ "${QUICK:-0}" = 1 ]; then
  ladder_sizes=64,96 best_sizes=64:256:x2,97 transpose_sizes=64:256:x2 cuda_sizes=64,128 sweep_sizes=64:72:+1
fi
# The ladder at the sizes of the tutorial; --max-time skips what a naive kernel would drag out.
bench ladder 200 bench --kernel all --sizes $ladder_sizes --repeat 5 --max-time 5
# What the public SGEMM runs, over the sweep, and odd sizes through the padding path.
bench best 150 bench --kernel best --sizes $best_sizes --repeat 10 --no-baseline --max-time 30
# The transposes (GB/s) beside cuBLAS geam and CLBlast omatcopy.
bench transpose 240 bench --transpose --sizes $transpose_sizes,5001x3007 --repeat 10
# What gemmkit_somatcopy runs, over a sweep that visits every alignment (cliffs show here).
bench transpose-sweep 200 bench --transpose --kernel best --sizes $sweep_sizes --repeat 5 --no-peers
# The CUDA backend, when built with it.
if gk_has_cuda "$gemmkit"; then
  GEMMKIT_DEVICE= bench cuda 60 --backend cuda bench --kernel best --sizes $cuda_sizes --repeat 10 --no-baseline
fi

# 5. The summary, last.
jsons=()
for name in ladder best transpose cuda; do [ -s "$out/$name.json" ] && jsons+=("$out/$name.json"); done
if [ ${#jsons[@]} -gt 0 ]; then
  python3 "$root/bench/summary.py" "${jsons[@]}" >"$out/summary.txt" 2>&1 || gk_failed+=("summary")
fi
if [ -n "$archive" ]; then
  tar czf "$archive" -C "$out" . && gk_log "packed $out into $archive"
fi
echo
echo "=== gemmkit on the GPU: results in $out ==="
[ -s "$out/summary.txt" ] && cat "$out/summary.txt"
gk_steps_end
