#!/usr/bin/env bash
# --math on the command line (docs/MATH.md): named in each command's help, a bad
# mode is a usage error (exit 2) that says what is expected, and a mode the
# device cannot run fails with the library's message (exit 1) and writes no
# output file; on a device with TF32 tensor cores `gemm --math` runs instead.
# Usage: cli_math.sh PATH/TO/gemmkit
set -uo pipefail
gemmkit=$1
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for cmd in gemm verify bench; do
    # The help whole first: grep -q stops reading at its match, and the writer's SIGPIPE would fail the pipeline.
    help=$("$gemmkit" "$cmd" --help 2>&1)
    grep -q -- "--math" <<<"$help" || fail "gemmkit $cmd --help does not name --math"
    out=$("$gemmkit" "$cmd" --math fp16 2>&1); rc=$?
    [[ $rc == 2 ]] || fail "gemmkit $cmd --math fp16: exit $rc, expected 2"
    grep -q "fp32, 3xtf32, tf32 or int8x" <<<"$out" || fail "gemmkit $cmd --math fp16 does not list the modes: $out"
done

# Two small .npy inputs (float32, C order), written with printf: 2x2 each.
npy() { printf '\x93NUMPY\x01\x00\x76\x00'; printf "%-117s\n" "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }"; printf "$2"; }
npy a '\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40\x00\x00\x80\x40' >"$tmp/a.npy"   # 1 2 / 3 4
npy b '\x00\x00\x80\x3f\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80\x3f' >"$tmp/b.npy"   # identity
for mode in 3xtf32 tf32; do
    out=$("$gemmkit" gemm "$tmp/a.npy" "$tmp/b.npy" -o "$tmp/c.npy" --math $mode 2>&1); rc=$?
    if [[ $rc == 0 ]]; then
        [[ -s $tmp/c.npy ]] || fail "gemm --math $mode succeeded without writing C"
        echo "ok   gemm --math $mode ran (a device with tensor cores)"
    else
        [[ $rc == 1 ]] || fail "gemm --math $mode: exit $rc, expected 1 (device without tensor cores)"
        grep -q "tensor cores" <<<"$out" || fail "gemm --math $mode: no reason given: $out"
        [[ ! -e $tmp/c.npy ]] || fail "gemm --math $mode failed but wrote C"
        echo "ok   gemm --math $mode refused: $out"
    fi
    rm -f "$tmp/c.npy"
done
# int8x runs on every device with fp64 (PoCL's CPU devices too): 1 2 / 3 4 times the identity, exactly.
out=$("$gemmkit" gemm "$tmp/a.npy" "$tmp/b.npy" -o "$tmp/c.npy" --math int8x 2>&1); rc=$?
if [[ $rc == 0 ]]; then
    cmp -s <(tail -c 16 "$tmp/c.npy") <(tail -c 16 "$tmp/a.npy") || fail "gemm --math int8x: C is not A"
    echo "ok   gemm --math int8x ran"
else
    grep -q "fp64" <<<"$out" || fail "gemm --math int8x: exit $rc: $out"
    echo "ok   gemm --math int8x refused: $out"
fi
rm -f "$tmp/c.npy"
out=$(GEMMKIT_MATH=fast "$gemmkit" gemm "$tmp/a.npy" "$tmp/b.npy" -o "$tmp/c.npy" 2>&1); rc=$?
[[ $rc == 1 ]] && grep -q "GEMMKIT_MATH" <<<"$out" || fail "GEMMKIT_MATH=fast: exit $rc: $out"
"$gemmkit" gemm "$tmp/a.npy" "$tmp/b.npy" -o "$tmp/c.npy" --math fp32 >/dev/null || fail "gemm --math fp32 failed"
echo "$failures problem(s)"
[[ $failures == 0 ]]
