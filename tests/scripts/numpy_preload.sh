#!/usr/bin/env bash
# numpy as a real client of the BLAS drop-in: Debian's numpy (linked with the
# system BLAS) runs its own matmul and dot tests with libgemmkit_blas
# preloaded, on the CPU path (the default) or on the device (THRESHOLD=0),
# and must pass them all while the log shows gemmkit serving its float32
# products; and its LAPACK error handler must still be the one called
# (test_xerbla_override passes, not skipped: the drop-in defines no xerbla_).
# Usage: numpy_preload.sh PRELOAD cpu|device|xerbla. Exit 77 (skipped)
# without Debian's python3-numpy and python3-pytest.
set -euo pipefail
preload=$1 mode=$2
python=/usr/bin/python3
if ! "$python" -c 'import numpy, pytest' 2>/dev/null; then
    echo "skipped: $python lacks numpy or pytest (apt-get install python3-numpy python3-pytest)"
    exit 77
fi
tests=$("$python" -c 'import numpy, os; print(os.path.dirname(numpy.__file__))')
log=$(mktemp)
trap 'rm -f "$log"' EXIT
run() { LD_PRELOAD=$preload "$python" -m pytest -q -p no:cacheprovider -s -rs "$@" 2>"$log"; }
case $mode in
cpu | device)
    [[ $mode == device ]] && export GEMMKIT_BLAS_THRESHOLD=0
    export GEMMKIT_BLAS_VERBOSE=1
    # Device: the matmul tests only (PoCL compiles a kernel per shape: the dot tests too would take minutes).
    select="(matmul or Matmul or dot or Dot) and not huge" # huge_vectordot: float64/complex, seconds of memory traffic
    [[ $mode == device ]] && select="matmul or Matmul"
    out=$(run "$tests/core/tests/test_multiarray.py" -k "$select" | tail -3)
    echo "$out"
    grep -qE "^[0-9]+ passed" <<<"$out" || { echo "FAIL: numpy's tests did not all pass"; cat "$log"; exit 1; }
    grep -qE "failed|error" <<<"$out" && { echo "FAIL: $out"; exit 1; }
    served=$(grep -c "gemmkit-blas: cblas_sgemm.*): $mode" "$log" || true)
    echo "gemmkit served $served cblas_sgemm calls on the $mode"
    [[ $served -gt 0 ]] || { echo "FAIL: no call reached gemmkit's $mode path"; head -20 "$log"; exit 1; }
    grep -q "device failed" "$log" && { echo "FAIL: the device failed"; grep "device failed" "$log" | head; exit 1; }
    ;;
xerbla)
    out=$(run "$tests/linalg/tests/test_linalg.py" -k test_xerbla_override | tail -3)
    echo "$out"
    grep -qE "^1 passed" <<<"$out" || { echo "FAIL: test_xerbla_override did not pass (skipped means xerbla_ was replaced)"; exit 1; }
    ;;
*) echo "usage: $0 PRELOAD cpu|device|xerbla" >&2; exit 2 ;;
esac
echo "PASS: numpy $mode"
