#!/usr/bin/env bash
# `gemmkit bench --candidates` end to end on this machine's device: the built-in policy with its candidate rows
# replaced by rows for every device class (GEMMKIT_POLICY; the built-in table has them for GPUs only), so that the
# cost model chooses on PoCL too, and four small shapes: one with split-K candidates (K = 600), one that only the skinny kernel
# serves, one row-major TN, and one where no candidate row holds (the model does not choose: the default
# alone). The --candidates-out file must agree with itself and with the summary on stdout: every candidate
# has a time or is failed (or wrong), exactly one default row per shape, ranks in the model's order
# (predicted time never falling), the summary's counts those of the rows. Then usage errors and an output
# path checked before the run; a run killed during its second shape keeps the first shape's rows.
# Usage: bench_candidates.sh PATH/TO/gemmkit SOURCE_DIR
set -uo pipefail
gemmkit=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Candidate rows of the form the built-in table's GPU rows take, in place of those, for every device class (PoCL's
# and a GPU's alike), each with a condition so that some shape falls outside them all.
{
    grep -v $'^gemm\tcandidate\t' "$src/src/kernels/tuning/policy.tsv"
    printf 'gemm\tcandidate\tany\tskinny-m\tM <= 16\ttest: an edge of M at most 16\n'
    printf 'gemm\tcandidate\tany\txgemm-direct\tK >= 100\ttest\n'
    printf 'gemm\tcandidate\tany\txgemm\tK >= 100\ttest\n'
} >"$tmp/policy.tsv"

sizes=64x48x600,8x40x24,40x24x200:TN:row,64x48x32
out=$(GEMMKIT_POLICY="$tmp/policy.tsv" "$gemmkit" bench --sizes $sizes --repeat 2 --no-baseline --no-peers \
    --no-roofline --max-time 1000 --candidates --candidates-out "$tmp/c.tsv" 2>"$tmp/err.txt")
rc=$?
echo "$out"
[ "$rc" = 0 ] || fail "bench --candidates: exit $rc: $(cat "$tmp/err.txt")"
grep -q "policy" "$tmp/err.txt" && fail "the policy file has warnings: $(cat "$tmp/err.txt")"
[ -f "$tmp/c.tsv" ] || fail "no --candidates-out file"
[ -z "$(find "$tmp" -name '*.tmp.*')" ] || fail "a temporary file was left: $(find "$tmp")"

header=$'shape\ttrans\tlayout\trank\tkernel\tline\tsplits\tparams\tpredicted_ms\tmeasured_ms\twall_ms\tstatus\tis_default\tdefault_kernel\tdefault_ms\tmessage'
[ "$(head -n 1 "$tmp/c.tsv")" = "$header" ] || fail "the header is $(head -n 1 "$tmp/c.tsv")"

# Every row on its own, then per shape; prints the counts the summary must show, or FAIL lines.
checked=$(awk -F'\t' -v want=4 '
    function bad(why) { print "FAIL " why ": " $0; failed = 1 }
    NR == 1 { next }
    {
        if (NF != 16) bad("not 16 fields")
        key = $1 " " $2 " " $3
        if (!(key in rows)) { order[++shapes] = key }
        rows[key]++
        if ($4 != rows[key] - 1) bad("rank " $4 " out of order")
        if ($12 == "ok") { if (!($10 > 0) || !($11 > 0)) bad("ok without a measured and a wall time") }
        else if ($12 == "failed" || $12 == "wrong" || $12 == "skipped") { if ($10 != "-") bad("a time for a " $12 " row") }
        else bad("status " $12)
        if ($13 == 1) { defaults[key]++; if ($4 != 0) bad("the default row is not rank 0") }
        else if ($13 != 0) bad("is_default " $13)
        if ($9 == "-") {                     # the model does not choose: the default alone
            alone[key] = 1
            if ($7 != "-" || $6 != "-" || $13 != 1) bad("a default-alone row with a candidate'"'"'s fields")
            next
        }
        candidates++
        ok += $12 == "ok"; failed_rows += $12 == "failed"; wrong += $12 == "wrong"
        if ($12 == "ok") { logs += log($10 / $9); predicted++ }
        if (!($9 > 0)) bad("no prediction")
        if (rows[key] > 1 && $9 < last[key]) bad("predicted time falls with rank")
        last[key] = $9
        if ($7 > 1) splits++
        if ($12 == "ok" && (!(key in fastest) || $10 < fastest[key])) fastest[key] = $10
        default_ms[key] = $15
        if ($14 != kernel0[key] && rows[key] > 1) bad("the default kernel changes within a shape")
        kernel0[key] = $14
    }
    END {
        if (shapes != want) print "FAIL " shapes " shapes, want " want
        for (i = 1; i <= shapes; i++) {
            key = order[i]
            if (defaults[key] != 1) print "FAIL " key ": " defaults[key] + 0 " default rows"
            if ((key in alone) && rows[key] != 1) print "FAIL " key ": a default-alone shape with more rows"
            if ((key in fastest) && default_ms[key] > 0) {
                compared++
                near += default_ms[key] <= 1.1 * fastest[key]
            }
        }
        if (splits == 0) print "FAIL no split-K candidate (K = 600 allows 2 slices)"
        printf "near %d of %d; candidates %d: %d ok, %d failed, %d wrong; alone %d; geomean %.3g over %d\n",
            near, compared, candidates, ok, failed_rows, wrong, length(alone), exp(logs / predicted), predicted
    }' "$tmp/c.tsv")
echo "$checked"
grep -q "^FAIL" <<<"$checked" && fail "the file disagrees with itself"

# The summary on stdout counts what the file holds.
read -r near compared candidates ok failed wrong alone geomean predicted < <(sed -n \
    's/^near \([0-9]*\) of \([0-9]*\); candidates \([0-9]*\): \([0-9]*\) ok, \([0-9]*\) failed, \([0-9]*\) wrong; alone \([0-9]*\); geomean \([^ ]*\) over \([0-9]*\)$/\1 \2 \3 \4 \5 \6 \7 \8 \9/p' \
    <<<"$checked")
[ "$alone" = 1 ] || fail "want exactly one shape (64x48x32) where the model does not choose, got $alone"
grep -q "^64x48x32 NN col .*the model does not choose here" <<<"$out" || fail "64x48x32 is not said to be the default alone"
pct=$(awk -v n="$near" -v c="$compared" 'BEGIN { printf "%.0f", c ? 100 * n / c : 0 }')
summary="Candidates summary: default within 10% of the fastest candidate on $near of $compared shapes ($pct%)"
grep -qF "$summary" <<<"$out" || fail "want \"$summary\" in: $(grep 'Candidates summary' <<<"$out")"
grep -qF "; 1 of 4 shapes without the model's choice" <<<"$out" || fail "the shape without the model's choice is not counted"
grep -qF "; $candidates candidates: $ok ok, $failed failed, $wrong wrong; measured/predicted geometric mean " \
    <<<"$out" || fail "the candidates' counts differ from the file's ($candidates: $ok ok, $failed failed, $wrong wrong)"
# The mean over the file's times (6 digits) within 1% of the one printed.
printed=$(sed -n "s/.*measured\/predicted geometric mean \([0-9.e+-]*\)x over $predicted\$/\1/p" <<<"$out")
[ -n "$printed" ] || fail "no measured/predicted mean over $predicted candidates in the summary"
awk -v a="$printed" -v b="$geomean" 'BEGIN { exit !(a > 0 && b > 0 && a / b < 1.01 && b / a < 1.01) }' ||
    fail "measured/predicted: printed $printed, the file's $geomean"
# A shape line per shape, with the fastest candidate and the ratio where the model chose.
[ "$(grep -c '; fastest .* ms; default/fastest ' <<<"$out")" = 3 ] || fail "want 3 shape lines with a fastest candidate"

# Killed during its second shape, a long one (SIGKILL, nothing to clean up with): the file already holds the first
# shape's rows, whole (written after each shape, atomically), so does --json, and no temporary file is left.
rm -f "$tmp/k.tsv" "$tmp/k.json"
GEMMKIT_POLICY="$tmp/policy.tsv" "$gemmkit" bench --sizes 64x48x600,1536x1536x1536 --repeat 2 --no-baseline \
    --no-peers --no-roofline --max-time 1000 --candidates --candidates-out "$tmp/k.tsv" --json "$tmp/k.json" \
    >/dev/null 2>&1 &
pid=$!
for _ in $(seq 600); do
    [ -s "$tmp/k.tsv" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
kill -0 "$pid" 2>/dev/null || fail "the run ended before the kill (the second shape takes PoCL seconds per candidate)"
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ -s "$tmp/k.tsv" ] || fail "nothing was written before the kill"
[ "$(head -n 1 "$tmp/k.tsv")" = "$header" ] || fail "the cut-short file's header is $(head -n 1 "$tmp/k.tsv")"
awk -F'\t' 'NR > 1 && (NF != 16 || $1 !~ /^[0-9]+x[0-9]+x[0-9]+$/) { bad = 1 } END { exit bad || NR < 2 }' "$tmp/k.tsv" ||
    fail "the cut-short file is not whole rows: $(cat "$tmp/k.tsv")"
grep -q $'^64x48x600\t' "$tmp/k.tsv" || fail "the first shape's rows are missing: $(cat "$tmp/k.tsv")"
[ "$(awk -F'\t' 'NR > 1 && $13 == 1' "$tmp/k.tsv" | wc -l)" = "$(cut -f1 "$tmp/k.tsv" | sed 1d | sort -u | wc -l)" ] ||
    fail "a shape without its one default row: $(cat "$tmp/k.tsv")"
[ -s "$tmp/k.json" ] || fail "no --json written before the kill"
grep -q '"schema": "gemmkit-bench/1"' "$tmp/k.json" && grep -q '"m": 64,' "$tmp/k.json" &&
    [ "$(tail -c 1 "$tmp/k.json")" = "}" ] ||
    fail "the cut-short JSON is not whole, with the first shape: $(head -c 400 "$tmp/k.json")"
grep -q '"m": 1536,' "$tmp/k.json" && fail "the cut-short JSON holds the shape the kill cut"
[ -z "$(find "$tmp" -name '*.tmp.*')" ] || fail "a temporary file was left after the kill: $(find "$tmp")"

# Usage: --candidates-out alone, beside a named kernel, for transposes: exit 2 before anything runs.
for bad in "--candidates-out $tmp/x.tsv" "--candidates --kernel xgemm" "--candidates --transpose" "--candidates --batch 4"; do
    "$gemmkit" bench --sizes 16 --no-peers --quiet $bad >/dev/null 2>&1
    rc=$?
    [ "$rc" = 2 ] || fail "bench $bad: exit $rc, want 2"
done
# The output file is checked before the run: a missing folder fails at once, and nothing is measured.
err=$("$gemmkit" bench --sizes 16 --no-peers --candidates --candidates-out "$tmp/missing/c.tsv" 2>&1 >/dev/null)
rc=$?
[ "$rc" = 1 ] || fail "--candidates-out into a missing folder: exit $rc, want 1"
grep -q "size 16" <<<"$err" && fail "something was measured before the output path failed: $err"
echo "PASS bench_candidates"
