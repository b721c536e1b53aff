#!/usr/bin/env bash
# The reference BLAS's own test programs (Debian's libblas-test: xblat3s for SGEMM, xscblat3 for cblas_sgemm in
# both layouts) with libgemmkit_blas preloaded and every product sent to the device (GEMMKIT_BLAS_THRESHOLD=0):
# their error-exit tests (which parameter each illegal call reports) and their computational tests (every
# transpose, alpha and beta in {0, 1, 0.7} x {0, 1, 1.3}, M, N, K over 0-65 and leading dimensions above them,
# each result checked against the programs' own reference within 16 of their error ratio) must all pass, and the
# log must show gemmkit's device serving the products. A math mode in GEMMKIT_MATH (the GPU run of
# docs/MATH.md) runs them in that mode. Exit 77 (skipped) without libblas-test and the reference libblas3.
# Usage: blas_reference.sh PRELOAD
set -euo pipefail
preload=$1
dirs=(/usr/lib/x86_64-linux-gnu/blas "$(dirname "$0")/../../.deps/root/usr/lib/x86_64-linux-gnu/blas")
programs=""
for d in "${dirs[@]}"; do [[ -x $d/xblat3s && -x $d/xscblat3 ]] && { programs=$d; break; }; done
reference=""
for d in "${dirs[@]}"; do [[ -e $d/libblas.so.3 ]] && { reference=$d; break; }; done
if [[ -z $programs || -z $reference ]]; then
    echo "skipped: no reference BLAS test programs or reference libblas.so.3 (apt-get install libblas-test libblas3)"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
# The programs' inputs: SGEMM alone, sizes up to their NMAX of 65, error exits tested.
options="F        LOGICAL FLAG, T TO REWIND SNAPSHOT FILE AFTER EACH RECORD.
F        LOGICAL FLAG, T TO STOP ON FAILURES.
T        LOGICAL FLAG, T TO TEST ERROR EXITS."
values="16.0     THRESHOLD VALUE OF TEST RATIO
9                 NUMBER OF VALUES OF N
0 1 2 3 5 9 17 33 65       VALUES OF N
3                 NUMBER OF VALUES OF ALPHA
0.0 1.0 0.7       VALUES OF ALPHA
3                 NUMBER OF VALUES OF BETA
0.0 1.0 1.3       VALUES OF BETA"
cat >sblat3.in <<IN
'sblat3.out'      NAME OF SUMMARY OUTPUT FILE
6                 UNIT NUMBER OF SUMMARY FILE
'SBLAT3.SNAP'     NAME OF SNAPSHOT OUTPUT FILE
-1                UNIT NUMBER OF SNAPSHOT FILE (NOT USED IF .LT. 0)
$options
$values
SGEMM  T PUT F FOR NO TEST. SAME COLUMNS.
SSYMM  F PUT F FOR NO TEST. SAME COLUMNS.
STRMM  F PUT F FOR NO TEST. SAME COLUMNS.
STRSM  F PUT F FOR NO TEST. SAME COLUMNS.
SSYRK  F PUT F FOR NO TEST. SAME COLUMNS.
SSYR2K F PUT F FOR NO TEST. SAME COLUMNS.
IN
cat >scblat3.in <<IN
'SBLAT3.SNAP'     NAME OF SNAPSHOT OUTPUT FILE
-1                UNIT NUMBER OF SNAPSHOT FILE (NOT USED IF .LT. 0)
$options
2        0 TO TEST COLUMN-MAJOR, 1 TO TEST ROW-MAJOR, 2 TO TEST BOTH
$values
cblas_sgemm  T PUT F FOR NO TEST. SAME COLUMNS.
cblas_ssymm  F PUT F FOR NO TEST. SAME COLUMNS.
cblas_strmm  F PUT F FOR NO TEST. SAME COLUMNS.
cblas_strsm  F PUT F FOR NO TEST. SAME COLUMNS.
cblas_ssyrk  F PUT F FOR NO TEST. SAME COLUMNS.
cblas_ssyr2k F PUT F FOR NO TEST. SAME COLUMNS.
IN
export GEMMKIT_BLAS_THRESHOLD=0 GEMMKIT_BLAS_VERBOSE=1
# The reference libblas.so.3 under the programs (xscblat3 needs its CBLAS's RowMajorStrg), and the directory
# above it (libgfortran where the packages are carried, .deps); the drop-in over them.
export LD_LIBRARY_PATH=$reference:$(dirname "$reference")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
LD_PRELOAD=$preload "$programs/xblat3s" <sblat3.in >f77.out 2>f77.log || fail "xblat3s exited $?: $(tail -5 f77.log)"
LD_PRELOAD=$preload "$programs/xscblat3" <scblat3.in >cblas.out 2>cblas.log || fail "xscblat3 exited $?: $(tail -5 cblas.log)"
grep -E "PASSED|FAILED|NOT DETECTED|INSTEAD OF" sblat3.out cblas.out | sed 's/^/  /' | sort | uniq -c | head -20
for want in "SGEMM  PASSED THE TESTS OF ERROR-EXITS" "SGEMM  PASSED THE COMPUTATIONAL TESTS"; do
    grep -q "$want" sblat3.out || fail "xblat3s: no \"$want\": $(grep -iE 'fail|instead|detected' sblat3.out | head -5)"
done
for want in "cblas_sgemm  PASSED THE TESTS OF ERROR-EXITS" "cblas_sgemm  PASSED THE COLUMN-MAJOR COMPUTATIONAL TESTS" \
            "cblas_sgemm  PASSED THE ROW-MAJOR    COMPUTATIONAL TESTS"; do
    grep -q "$want" cblas.out || fail "xscblat3: no \"$want\": $(grep -iE 'fail|instead|detected' cblas.out | head -5)"
done
! grep -qiE "FAILED|NOT DETECTED|INSTEAD OF" sblat3.out cblas.out || fail "a failure reported: $(grep -iE 'failed|instead|detected' sblat3.out cblas.out | head -5)"
# gemmkit served the products on its device (each program makes thousands of calls that multiply).
for log in f77.log cblas.log; do
    served=$(grep -c ": device " "$log" || true)
    [[ $served -ge 1000 ]] || fail "$log: $served calls on the device: $(grep -v 'quick return' "$log" | head -3)"
    echo "  $log: $served products on the device: $(grep -m1 ": device " "$log" | sed 's/.*: device //; s/, [0-9.]* ms$//')"
done
echo "ok: the reference BLAS test programs pass with the drop-in${GEMMKIT_MATH:+ (GEMMKIT_MATH=$GEMMKIT_MATH)}"
