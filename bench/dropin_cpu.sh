#!/usr/bin/env bash
# The drop-in's CPU tables of docs/DROPIN.md: cblas_sgemm column-major NN,
# n = 16 .. MAX_N, through the system BLAS (libblas.so.3), the preloaded
# drop-in (CPU path: the program's BLAS), its own loop
# (GEMMKIT_CPU_BLAS_LIB=builtin), and gemmkit_sgemm's default choice; then
# numpy float32 A @ B with and without the preload. One configuration at a
# time (the machine's cores are shared by all of them).
# Usage: bench/dropin_cpu.sh BUILD_DIR [MAX_N]
set -euo pipefail
build=$1 max_n=${2:-4096}
bench=$build/examples/dropin/dropin_cpu_bench
dropin=$build/libgemmkit_blas.so
echo "# $(date -u +%Y-%m-%d), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "# system BLAS: $(readlink -f /usr/lib/*/libblas.so.3 | head -1)"
col() { "$@" | tail -n +2 | cut -f2; }
sizes=$("$bench" cblas 16 | tail -n +2 | cut -f1; n=32; while [ $n -le "$max_n" ]; do echo $n; n=$((n * 2)); done)
sizes=$(printf '%s\n' $sizes | sort -n | uniq)
system=$(col "$bench" cblas "$max_n")
preload=$(col env LD_PRELOAD="$dropin" "$bench" cblas "$max_n")
own=$(col env LD_PRELOAD="$dropin" GEMMKIT_CPU_BLAS_LIB=builtin "$bench" cblas "$max_n")
native=$(col "$bench" native "$max_n")
echo
echo "| n | system BLAS | drop-in | drop-in / system | gemmkit's own loop | gemmkit_sgemm (default context) | native / system |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
paste <(echo "$sizes") <(echo "$system") <(echo "$preload") <(echo "$own") <(echo "$native") |
    awk -F'\t' '{printf "| %s | %s | %s | %.2f | %s | %s | %.2f |\n", $1, $2, $3, $3 / $2, $4, $5, $5 / $2}'

numpy_rate() {
    "$@" /usr/bin/python3 - "$max_n" <<'PY'
import sys, time, numpy as np
n = 64
while n <= int(sys.argv[1]):
    a = np.random.rand(n, n).astype(np.float32); b = np.random.rand(n, n).astype(np.float32)
    a @ b
    best, start, calls = 1e30, time.perf_counter(), 0
    while calls < 3 or time.perf_counter() - start < 0.3:
        t = time.perf_counter(); c = a @ b; best = min(best, time.perf_counter() - t); calls += 1
    assert np.allclose(c[:4, :4], a[:4].astype(np.float64) @ b[:, :4].astype(np.float64), rtol=1e-4, atol=1e-3)
    print(f"{n}\t{2 * n**3 / best * 1e-9:.1f}")
    n *= 2
PY
}
plain=$(numpy_rate env)
with=$(numpy_rate env LD_PRELOAD="$dropin")
echo
echo "| n | numpy | numpy + drop-in | ratio |"
echo "|---:|---:|---:|---:|"
paste <(echo "$plain") <(echo "$with" | cut -f2) | awk -F'\t' '{printf "| %s | %s | %s | %.2f |\n", $1, $2, $3, $3 / $2}'
