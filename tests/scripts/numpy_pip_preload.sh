#!/usr/bin/env bash
# NumPy from PyPI (>= 2.0: it bundles scipy-openblas, whose symbols are
# prefixed, scipy_cblas_sgemm64_) as a client of the BLAS drop-in: float32
# `A @ B` on a few shapes (transposed views, non-square, Fortran order) with
# libgemmkit_blas preloaded, on the device (GEMMKIT_BLAS_THRESHOLD=0, PoCL
# here) or on the CPU (threshold inf), against float64; the verbose log must
# show gemmkit serving each product there, and on the CPU scipy-openblas's
# own scipy_sgemm_64_ doing the work (never gemmkit's own loop).
# Usage: numpy_pip_preload.sh PRELOAD device|cpu; PYTHON (default python3
# on PATH) picks the interpreter. Exit 77 (skipped) when it has no numpy or
# its numpy does not use scipy-openblas (Debian's, linked with libblas.so.3,
# is tested by numpy_preload.sh).
set -euo pipefail
preload=$1 mode=$2
python=${PYTHON:-python3}
blas=$("$python" -c 'import numpy; print(numpy.__config__.CONFIG["Build Dependencies"]["blas"]["name"])' 2>/dev/null) || {
    echo "skipped: $python has no numpy >= 1.26 (pip install numpy)"
    exit 77
}
if [[ $blas != scipy-openblas* ]]; then
    echo "skipped: $python's numpy uses $blas, not scipy-openblas (the pip wheels' BLAS)"
    exit 77
fi
case $mode in
device) export GEMMKIT_BLAS_THRESHOLD=0 where="device" ;;
cpu) export GEMMKIT_BLAS_THRESHOLD=inf where="cpu .* by OpenBLAS scipy_sgemm(_64)?_ \(.*scipy_openblas" ;;
*) echo "usage: $0 PRELOAD device|cpu" >&2; exit 2 ;;
esac
log=$(mktemp)
trap 'rm -f "$log"' EXIT
products=$(GEMMKIT_BLAS_VERBOSE=1 LD_PRELOAD=$preload "$python" - 2>"$log" <<'PY'
import numpy as np
rng = np.random.default_rng(7)
def mat(r, c, order="C"):
    return np.asarray(rng.standard_normal((r, c)), dtype=np.float32, order=order)
a, b = mat(64, 48), mat(48, 40)
cases = [
    ("64x48 @ 48x40", a, b),
    ("A.T @ B (views)", mat(48, 64).T, b),
    ("A @ B.T (views)", a, mat(40, 48).T),
    ("A.T @ B.T", mat(48, 64).T, mat(40, 48).T),
    ("130x7 @ 7x200", mat(130, 7), mat(7, 200)),
    ("Fortran order 33x65 @ 65x17", mat(33, 65, "F"), mat(65, 17, "F")),
    ("257x129 @ 129x31", mat(257, 129), mat(129, 31)),
]
bad = 0
for name, x, y in cases:
    got = x @ y
    want = x.astype(np.float64) @ y.astype(np.float64)
    bound = 2 * (x.shape[1] + 2) * np.finfo(np.float32).eps * (np.abs(x).astype(np.float64) @ np.abs(y).astype(np.float64))
    err = np.abs(got - want)
    ok = got.dtype == np.float32 and got.shape == want.shape and bool((err <= bound).all())
    print(f"{name}: max error {err.max():.3g} ({'ok' if ok else 'FAIL'})", flush=True)
    bad += not ok
print(f"products {len(cases)} bad {bad}")
PY
) || { echo "FAIL: python failed"; echo "$products"; cat "$log"; exit 1; }
echo "$products"
read -r total bad < <(sed -n 's/^products \([0-9]*\) bad \([0-9]*\)$/\1 \2/p' <<<"$products")
[[ ${bad:-1} -eq 0 ]] || { echo "FAIL: results differ from float64"; exit 1; }
served=$(grep -cE "^gemmkit-blas: scipy_cblas_sgemm(64_)?\(.*\): $where" "$log" || true)
echo "gemmkit served $served scipy_cblas_sgemm calls on the $mode ($total products)"
grep -m1 -E "^gemmkit-blas: scipy_cblas_sgemm" "$log" || true
[[ $served -ge $total ]] || { echo "FAIL: fewer calls than products reached gemmkit's $mode path"; head -20 "$log"; exit 1; }
grep -q "device failed" "$log" && { echo "FAIL: the device failed"; grep "device failed" "$log" | head; exit 1; }
echo "PASS: pip numpy ($blas) $mode"
