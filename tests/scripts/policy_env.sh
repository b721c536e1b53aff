#!/usr/bin/env bash
# GEMMKIT_POLICY: a policy file replaces the built-in table (the bench's
# "kernel:" line names the file's kernel row's choice, and its unusable rows
# are warned about with the file's name and line); a file that cannot be read
# leaves the built-in table, a warning naming it, and the call succeeds. The
# built-in table with each bench/cases/copy-rows*.tsv (the candidate rows
# measured on the GPU through GEMMKIT_POLICY) parses without a warning.
# Usage: policy_env.sh PATH/TO/gemmkit SOURCE_DIR
set -uo pipefail
gemmkit=$1 src=$2
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bench=(bench --sizes 32 --repeat 1 --no-peers --quiet)

printf 'gemm\tkernel\tany\txgemm-direct\t1\ngemm\tcopy-b\tany\tsideways\t1\n' >"$tmp/policy.tsv"
out=$(GEMMKIT_POLICY="$tmp/policy.tsv" "$gemmkit" "${bench[@]}" 2>&1); rc=$?
[[ $rc == 0 ]] || fail "with a policy file: exit $rc: $out"
grep -q "^kernel: xgemm-direct " <<<"$out" || fail "the file's kernel row is not the choice: $out"
grep -q "policy $tmp/policy.tsv:2: unknown copy \"sideways\"" <<<"$out" || fail "no warning for the file's row 2: $out"

out=$(GEMMKIT_POLICY="$tmp/missing.tsv" "$gemmkit" "${bench[@]}" 2>&1); rc=$?
[[ $rc == 0 ]] || fail "with a missing policy file: exit $rc: $out"
grep -q "GEMMKIT_POLICY=$tmp/missing.tsv: No such file or directory; the built-in policy instead" <<<"$out" ||
    fail "no warning for the missing file: $out"
grep -q "^kernel: xgemm-direct " <<<"$out" && fail "the missing file's run did not use the built-in table: $out"

for rows in "$src"/bench/cases/copy-rows*.tsv; do
    cat "$src/src/kernels/tuning/policy.tsv" "$rows" >"$tmp/candidates.tsv"
    out=$(GEMMKIT_POLICY="$tmp/candidates.tsv" "$gemmkit" "${bench[@]}" 2>&1); rc=$?
    [[ $rc == 0 ]] || fail "with the candidate rows of $rows: exit $rc: $out"
    grep -q "policy" <<<"$out" && fail "the built-in table with $rows has warnings: $out"
done

[[ $failures == 0 ]] && echo "GEMMKIT_POLICY: ok"
exit $((failures > 0))
