#!/usr/bin/env bash
# pip NumPy's float32 `A @ B` on the GPU through the preloaded BLAS drop-in
# (docs/DROPIN.md, "pip NumPy"): numpy >= 2.0 from PyPI calls
# scipy_cblas_sgemm64_ (scipy-openblas64), which the drop-in intercepts. For
# each square n, one run after the other:
#   1. numpy alone (its scipy-openblas on the CPU): the best of REPEAT (default 10) after a warm-up;
#   2. the same with libgemmkit_blas.so preloaded, per backend (GEMMKIT_BACKEND=
#      cuda, opencl), with GEMMKIT_BLAS_VERBOSE=1: the path each call took, as
#      the drop-in logged it (device / cpu, and why);
#   3. the host <-> device copy bandwidth of that backend in the same run
#      (build/copy_bw: gemmkit_buffer_write/read from pageable memory, as a
#      numpy array is; COPY_MIB MiB, best of 3);
#   4. gemmkit's device-resident time at n (build/call_time's "buffers" line:
#      gemmkit_sgemm_buffers, median of 3);
#   5. the bound for a host-array call: A and B in, C out at the measured
#      bandwidths, plus the device-resident time (no overlap), and
#      preload / bound (1.0: the drop-in costs nothing beyond the copies).
# Each result is checked against float64 on sampled rows. Prints a table last
# (also OUTDIR/summary.txt); logs in OUTDIR/*.log.
#
#   bench/dropin-gpu.sh OUTDIR
#
# Environment: SIZES (default "1024 2048 4096 8192"), REPEAT (timed calls, default 10), BACKENDS (default "cuda
# opencl"; cuda is dropped when the build has no CUDA device), PYTHON (default
# python3: the machine's pip numpy), COPY_MIB (default 1024), BUDGET (seconds
# for the whole script, default 540), GEMMKIT_BUILD_DIR (default
# build-dropin-gpu). QUICK=1: a check on a machine without a GPU: SIZES
# "128 256 512", BACKENDS opencl (PoCL), COPY_MIB 64, and
# GEMMKIT_BLAS_THRESHOLD=0 unless set (the drop-in uses a CPU device only when
# told to). The drop-in's own settings (GEMMKIT_DEVICE, GEMMKIT_BLAS_THRESHOLD)
# reach the preloaded runs.
set -uo pipefail
out=${1:?usage: bench/dropin-gpu.sh OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GEMMKIT_BUILD_DIR:-$root/build-dropin-gpu}
python=${PYTHON:-python3}
if [ "${QUICK:-0}" = 1 ]; then
  sizes=${SIZES:-128 256 512} backends=${BACKENDS:-opencl} copy_mib=${COPY_MIB:-64}
  export GEMMKIT_BLAS_THRESHOLD=${GEMMKIT_BLAS_THRESHOLD:-0}
else
  sizes=${SIZES:-1024 2048 4096 8192} backends=${BACKENDS:-cuda opencl} copy_mib=${COPY_MIB:-1024}
fi

. "$root/bench/gpu-env.sh"
gk_steps_begin "$out" "${BUDGET:-540}" || exit 2
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=index,name,pci.bus_id,pcie.link.gen.current,pcie.link.width.current --format=csv 2>&1 ||
    echo "nvidia-smi not available"
  echo "cpu: $(nproc) x $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  "$python" -c 'import numpy, sys; blas = numpy.__config__.CONFIG["Build Dependencies"]["blas"]
print("python", sys.version.split()[0], "numpy", numpy.__version__, "blas", blas.get("name"), blas.get("version"))' 2>&1
  echo "GEMMKIT_BLAS_THRESHOLD=${GEMMKIT_BLAS_THRESHOLD:-} GEMMKIT_DEVICE=${GEMMKIT_DEVICE:-}"
} >"$gk_out/environment.txt" 2>&1
cat "$gk_out/environment.txt" >&2

# A build of its own leaves the tests out; a build the user named keeps its settings.
testing=()
[ -f "$build/CMakeCache.txt" ] || testing=(-DBUILD_TESTING=OFF)
gk_step configure 150 cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "${testing[@]}"
gk_step build 300 cmake --build "$build" -j "${JOBS:-$(nproc)}" --target gemmkit_cli gemmkit_blas gemmkit_call_time \
  gemmkit_copy_bw
dropin=$build/libgemmkit_blas.so
for f in "$dropin" "$build/copy_bw" "$build/call_time" "$build/gemmkit"; do
  [ -e "$f" ] || { gk_log "no $f: see $gk_out/build.log"; gk_steps_end; exit 1; }
done
"$build/gemmkit" devices >"$gk_out/devices.txt" 2>&1
if [[ " $backends " == *" cuda "* ]] && ! gk_has_cuda "$build/gemmkit"; then
  gk_log "no CUDA device in this build: cuda dropped from BACKENDS"
  backends=$(tr ' ' '\n' <<<"$backends" | grep -vx cuda | tr '\n' ' ')
fi

# One process per configuration: every n, a warm-up call, then the best of REPEAT.
cat >"$gk_out/matmul.py" <<'PY'
import os, sys, time
import numpy as np
rng = np.random.default_rng(1)
for n in map(int, sys.argv[1:]):
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    c = a @ b
    best = 1e30
    for _ in range(int(os.environ.get("REPEAT", "10"))):
        t = time.perf_counter()
        c = a @ b
        best = min(best, time.perf_counter() - t)
    rows = rng.choice(n, 8, replace=False)
    want = a[rows].astype(np.float64) @ b.astype(np.float64)
    bound = 2 * (n + 2) * np.finfo(np.float32).eps * (np.abs(a[rows]).astype(np.float64) @ np.abs(b).astype(np.float64))
    ok = bool((np.abs(c[rows] - want) <= bound).all())
    print(f"time {n} {best:.6f} {'ok' if ok else 'WRONG'}", flush=True)
PY
# shellcheck disable=SC2086 # sizes is a list
gk_step numpy 900 "$python" "$gk_out/matmul.py" $sizes
for backend in $backends; do
  # shellcheck disable=SC2086
  GEMMKIT_BACKEND=$backend GEMMKIT_BLAS_VERBOSE=1 LD_PRELOAD=$dropin \
    gk_step "preload-$backend" 900 "$python" "$gk_out/matmul.py" $sizes
  GEMMKIT_BACKEND=$backend gk_step "copy-$backend" 120 "$build/copy_bw" "$copy_mib" 3
  for n in $sizes; do
    GEMMKIT_BACKEND=$backend gk_step "device-$backend-$n" 180 "$build/call_time" "$n" 3
  done
done

# The table.
field() { awk -v key="$2" -v n="$3" '$1 == key && $2 == n { print $'"$4"'; exit }' "$1" 2>/dev/null; }
# path N LOG: how the drop-in served the calls at n (every line with m=n, n=n, k=n).
path() {
  grep -E "^gemmkit-blas: .*m=$1, n=$1, k=$1," "$2" 2>/dev/null |
    sed -E 's/^gemmkit-blas: ([a-z_0-9]+)\(.*\): (device|cpu( \([^)]*\))?).*/\1: \2/' | sort | uniq -c |
    awk '{ c = $1; $1 = ""; printf "%s%dx%s", sep, c, $0; sep = "; " } END { if (!NR) printf "not intercepted" }'
}
{
  echo "# pip numpy float32 A @ B, through libgemmkit_blas.so preloaded ($(grep -m1 '^python' "$gk_out/environment.txt"))"
  echo "# times in ms: numpy alone (scipy-openblas, CPU) and preloaded, best of ${REPEAT:-10} after a warm-up;"
  echo "# bound = 3 n^2 x 4 B of copies (A, B in at h2d, C out at d2h) + gemmkit's device-resident time (median of 3)"
  echo
  echo "| n | backend | numpy ms | preload ms | speedup | h2d GB/s | d2h GB/s | copies ms | device ms | bound ms | preload / bound | path (drop-in log) |"
  echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
  for backend in $backends; do
    h2d=$(field "$gk_out/copy-$backend.log" h2d "$copy_mib" 3)
    d2h=$(field "$gk_out/copy-$backend.log" d2h "$copy_mib" 3)
    for n in $sizes; do
      np_s=$(field "$gk_out/numpy.log" time "$n" 3)
      pre_s=$(field "$gk_out/preload-$backend.log" time "$n" 3)
      pre_ok=$(field "$gk_out/preload-$backend.log" time "$n" 4)
      dev_us=$(field "$gk_out/device-$backend-$n.log" buffers "$n" 3)
      p=$(path "$n" "$gk_out/preload-$backend.log")
      [ "$pre_ok" = WRONG ] && p="WRONG RESULT; $p"
      awk -v n="$n" -v b="$backend" -v np="$np_s" -v pre="$pre_s" -v h2d="$h2d" -v d2h="$d2h" -v dev="$dev_us" \
        -v path="$p" 'function f(x, d) { return x == "" ? "-" : sprintf("%." d "f", x) }
        BEGIN {
          bytes = n * n * 4
          copies = (h2d > 0 && d2h > 0) ? (2 * bytes / (h2d * 1e9) + bytes / (d2h * 1e9)) * 1e3 : ""
          devms = dev == "" ? "" : dev / 1e3
          bound = (copies == "" || devms == "") ? "" : copies + devms
          printf "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", n, b,
            f(np == "" ? "" : np * 1e3, 2), f(pre == "" ? "" : pre * 1e3, 2),
            (np == "" || pre == "" || pre == 0) ? "-" : sprintf("%.2fx", np / pre),
            f(h2d, 2), f(d2h, 2), f(copies, 2), f(devms, 2), f(bound, 2),
            (bound == "" || pre == "" || bound == 0) ? "-" : sprintf("%.2f", pre * 1e3 / bound), path
        }'
    done
  done
  for backend in $backends; do
    echo "# $backend: $(grep -m1 '^device' "$gk_out/copy-$backend.log" 2>/dev/null | cut -d' ' -f2-)"
  done
} >"$gk_out/summary.txt"
cat "$gk_out/summary.txt"
gk_steps_end
