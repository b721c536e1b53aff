#!/usr/bin/env bash
# `gemmkit tune --calibrate` end to end, one case per call: tune_calibrate.sh GEMMKIT SOURCE_DIR CASE.
# The policy is the built-in one with candidate rows for CPUs (the built-in rows are the GPUs'), so that on PoCL
# the cost model chooses among xgemm-direct, xgemm and skinny-m, and a calibration has lines to time.
set -uo pipefail
gemmkit=$1 src=$2 case=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db=$work/tuning.tsv
export GEMMKIT_POLICY=$work/policy.tsv
{
    cat "$src/src/kernels/tuning/policy.tsv"
    printf 'gemm\tcandidate\tcpu\tskinny-m\tM <= 16\n'
    printf 'gemm\tcandidate\tcpu\txgemm-direct\t1\n'
    printf 'gemm\tcandidate\tcpu\txgemm\t1\n'
} > "$GEMMKIT_POLICY"

fail() { echo "FAIL: $*"; exit 1; }

# Runs gemmkit, keeping its output in $out and its exit status in $rc.
run() { out=$("$gemmkit" "$@" 2>&1); rc=$?; echo "\$ gemmkit $* -> $rc"; echo "$out"; }

# A user's own lines: a comment and another device's line, kept through every save.
printf '# my notes\nopencl\tsome other device\txgemm\tTSM=64\t1.0\t2026-01-01\n' > "$db"

# The cost lines of the database, one "NAME<TAB>PARAMS" per line.
cost_lines() { awk -F'\t' '$3 ~ /^cost:/ { print $3 "\t" $4 }' "$db"; }

# Every cost line of the database well formed, its constants positive (BWEFF at most 1), one line per name.
check_saved() {
    local lines
    lines=$(cost_lines)
    [ "$(grep -c $'^cost:device\t' <<< "$lines")" = 1 ] || fail "want one cost:device line: $(cat "$db")"
    grep -qE $'^cost:device\tCOPY=[0-9.]+,LAUNCH=[0-9.]+(,SCALAR_C=[0-9.]+)?(,SCALAR_AB=[0-9.]+)?$' <<< "$lines" || fail "malformed cost:device: $lines"
    awk -F'\t' '$1 != "cost:device" {
        if ($2 !~ /^RATE=[0-9.]+,OCC=[0-9.]+,BWEFF=[0-9.]+(,GOK=[0-9.]+)?(,(NT|TN|TT)=[0-9.]+)*(,SUM=[0-9.]+)?$/) { print "malformed " $0; bad = 1; next }
        split($2, kv, /[=,]/)
        if (!(kv[2] > 0 && kv[4] >= 1 && kv[6] > 0 && kv[6] <= 1)) { print "out of range " $0; bad = 1 }
    } END { exit bad }' <<< "$lines" || fail "bad constants"
    awk -F'\t' '$1 == "cost:device" { split($2, kv, /[=,]/); exit !(kv[2] > 0 && kv[4] > 0) }' <<< "$lines" ||
        fail "cost:device not positive: $lines"
    [ "$(cut -f1 <<< "$lines" | sort | uniq -d)" = "" ] || fail "a name saved twice: $lines"
    grep -q '^# my notes$' "$db" && grep -q $'some other device\txgemm' "$db" || fail "the user's lines were lost"
    [ -z "$(find "$work" -name '*.tmp.*')" ] || fail "temporary files left behind"
}

# The lines the command said the model chooses among ($lines_named), each fitted and saved.
check_lines_reported() {
    lines_named=$(sed -n 's/^lines the model chooses among here: //p' <<< "$out")
    [ -n "$lines_named" ] && [ "$lines_named" != none ] || fail "no lines to calibrate with the CPU candidate rows"
    for line in $lines_named; do
        grep -qE "^  $line +RATE=[0-9.]+,OCC=[0-9.]+,BWEFF=[0-9.]+(,GOK=[0-9.]+)?(,(NT|TN|TT)=[0-9.]+)*(,SUM=[0-9.]+)? +rms log error [0-9.]+ over [0-9]+ timings$" \
            <<< "$out" || fail "no fit reported for $line"
        grep -q $'\t'"cost:$line"$'\t' "$db" || fail "cost:$line not saved"
    done
}

# A second process reads the saved constants back exactly as saved: --show prints each line's params as a new
# context parsed them, with the numbers' own text (four significant digits).
check_read_back() {
    local shown
    shown=$(GEMMKIT_TUNING_DB=$db "$gemmkit" tune --calibrate --show 2>&1) || fail "--show failed: $shown"
    echo "$shown"
    grep -q 'tuning database' <<< "$shown" && fail "the saved lines gave warnings: $shown"
    while IFS=$'\t' read -r name params; do
        grep -qE "^  $name +$params\$" <<< "$shown" || fail "a new context does not have $name $params"
    done < <(cost_lines)
    grep -q "none" <<< "$shown" && fail "a line without constants after a calibration: $shown"
}

case $case in
calibrate)
    # A calibration within --max-time saves cost:device and a cost line per line the model chooses among, which
    # a second process reads back; another seed times other random shapes and replaces the lines in place.
    start=$SECONDS
    run tune --calibrate --repeat 2 --max-time 30 --db "$db"
    [ "$rc" = 0 ] || fail "exit $rc"
    [ $((SECONDS - start)) -lt 60 ] || fail "took $((SECONDS - start)) s"
    grep -q '^seed 35: ' <<< "$out" || fail "the default seed is not printed"
    grep -qE '^device: copy [0-9.]+ GB/s .* launch [0-9.]+ us ' <<< "$out" || fail "no device constants reported"
    check_lines_reported
    check_saved
    grep -qF "saved to $db; used by new contexts on this device when GEMMKIT_TUNING_DB=$db" <<< "$out" ||
        fail "where the lines went is not said"
    check_read_back
    first=$(cost_lines)
    run tune --calibrate --seed 12345 --repeat 1 --verbose --db "$db"
    [ "$rc" = 0 ] || fail "second run: exit $rc"
    grep -q '^seed 12345: ' <<< "$out" || fail "--seed not printed"
    grep -qE '^ +[0-9]+x[0-9]+x[0-9]+ +random +' <<< "$out" || fail "--verbose shows no random timing"
    grep -qE '^ +[0-9]+x[0-9]+x[0-9]+ +many waves +.* ms, predicted +[0-9.]+ ms$' <<< "$out" ||
        fail "--verbose shows no prediction"
    check_lines_reported
    check_saved
    [ "$(cost_lines | wc -l)" = "$(wc -l <<< "$first")" ] || fail "the second run added lines: $(cost_lines)"
    check_read_back
    ;;
show_defaults)
    # Without cost lines --show says that the defaults are in force; --no-save measures and writes nothing.
    run tune --calibrate --show --db "$db"
    [ "$rc" = 0 ] || fail "exit $rc"
    # (A device of the built-in database's constants, the sm_90 GPUs, has them: nothing is "none" there.)
    if ! grep -qE '^  cost:device +COPY=' <<< "$out"; then
        grep -qE '^  cost:device +none: the defaults COPY=500.0,LAUNCH=3.000$' <<< "$out" || fail "no defaults shown"
        grep -qE '^  cost:xgemm-direct +none: ' <<< "$out" || fail "xgemm-direct not listed without constants"
    fi
    cp "$db" "$work/before.tsv"
    run tune --calibrate --repeat 1 --no-save --db "$db"
    [ "$rc" = 0 ] || fail "--no-save: exit $rc"
    grep -q '^not saved (--no-save)$' <<< "$out" || fail "--no-save not said"
    cmp "$db" "$work/before.tsv" || fail "--no-save changed the database"
    ;;
builtin_policy)
    # The built-in policy: on a CPU no candidate rows, so only the device's constants are measured and saved.
    unset GEMMKIT_POLICY
    run tune --calibrate --repeat 1 --db "$db"
    [ "$rc" = 0 ] || fail "exit $rc"
    if grep -q '^lines the model chooses among here: none$' <<< "$out"; then
        grep -q '^note: the cost model chooses nowhere on this device' <<< "$out" || fail "no note"
        [ "$(cost_lines | wc -l)" = 1 ] || fail "want only cost:device: $(cat "$db")"
    else
        check_lines_reported # a GPU: the built-in rows' lines
    fi
    check_saved
    ;;
interrupted)
    # Killed midway (SIGKILL, nothing to clean up with): the device's constants and every line fitted before the
    # kill are in the database, well formed, the user's lines kept, no temporary file left.
    "$gemmkit" tune --calibrate --repeat 1 --db "$db" > "$work/out.txt" 2>&1 &
    pid=$!
    # A line is saved right after it is printed: once a second has been printed, the first is saved.
    for _ in $(seq 600); do
        [ "$(grep -cE '^  [^ ]+ +RATE=.* rms log error ' "$work/out.txt")" -ge 2 ] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    first_line=$(grep -m1 -E '^  [^ ]+ +RATE=.* rms log error ' "$work/out.txt" | awk '{print $1}')
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    cat "$work/out.txt"
    [ -n "$first_line" ] || fail "no line was fitted before the kill"
    check_saved
    grep -q $'\t'"cost:$first_line"$'\t' "$db" || fail "cost:$first_line, fitted before the kill, not saved"
    ;;
lines)
    # --lines: after a whole calibration, one line fitted again (named twice, fitted once) beside the device's
    # constants; every other line of the database kept byte for byte. skinny-m's constants are first set to
    # numbers no fit gives, so that its refit shows.
    run tune --calibrate --repeat 1 --max-time 20 --db "$db"
    [ "$rc" = 0 ] || fail "the whole calibration: exit $rc"
    grep -q $'\tcost:skinny-m\t' "$db" || fail "no cost:skinny-m to refit: $(cat "$db")"
    awk -F'\t' -v OFS='\t' '$3 == "cost:skinny-m" { $4 = "RATE=1.000,OCC=1.000,BWEFF=1.000" } 1' "$db" > "$work/seeded.tsv"
    cp "$work/seeded.tsv" "$db"
    others() { grep -v -e $'\tcost:device\t' -e $'\tcost:skinny-m\t' "$db" | sort; }
    before=$(others)
    start=$SECONDS
    run tune --calibrate --lines skinny-m,skinny-m --repeat 1 --db "$db"
    [ "$rc" = 0 ] || fail "--lines skinny-m: exit $rc"
    [ $((SECONDS - start)) -lt 30 ] || fail "--lines skinny-m took $((SECONDS - start)) s"
    grep -qE '^lines the model chooses among here: .*xgemm' <<< "$out" || fail "not every line listed"
    grep -q '^calibrating only: skinny-m$' <<< "$out" || fail "the lines calibrated are not said"
    grep -qE '^device: copy [0-9.]+ GB/s ' <<< "$out" || fail "the device's constants not measured"
    fitted=$(grep -E '^  [^ ]+ +RATE=.* rms log error ' <<< "$out" | awk '{print $1}')
    [ "$fitted" = skinny-m ] || fail "fitted \"$fitted\", want skinny-m alone"
    [ "$(others)" = "$before" ] || fail "--lines skinny-m changed other lines: $(diff <(echo "$before") <(others))"
    grep -q $'\tcost:skinny-m\tRATE=1.000,OCC=1.000,BWEFF=1.000\t' "$db" && fail "cost:skinny-m not refitted"
    check_saved
    check_read_back
    # A name the model does not choose among: exit 2 naming it and the lines there are, before any timing (even
    # of the lines named beside it), the database untouched.
    sum=$(cksum < "$db")
    run tune --calibrate --lines skinny-m,no-such-line --repeat 1 --db "$db"
    [ "$rc" = 2 ] || fail "--lines no-such-line: exit $rc, want 2"
    grep -q 'gemmkit tune: --lines: .*"no-such-line".*: .*skinny-m' <<< "$out" || fail "the unknown line not named"
    grep -qE '^(device: |  skinny-m )' <<< "$out" && fail "--lines no-such-line timed anyway"
    [ "$(cksum < "$db")" = "$sum" ] || fail "--lines no-such-line changed the database"
    ;;
transposed)
    # A line whose candidate row holds only with A transposed (skinny-n-dot, as on GPUs) is found at the probes
    # transposed, timed and fitted in the first orientation that row allows (TN), and saved.
    printf 'gemm\tcandidate\tcpu\tskinny-n-dot\tN <= 16 && TRANS_A\n' >> "$GEMMKIT_POLICY"
    run tune --calibrate --lines skinny-n-dot --repeat 1 --max-time 20 --verbose --db "$db"
    [ "$rc" = 0 ] || fail "--lines skinny-n-dot: exit $rc"
    grep -qE '^lines the model chooses among here: .*skinny-n-dot' <<< "$out" || fail "skinny-n-dot not listed"
    grep -qE '^  skinny-n-dot +RATE=.* rms log error [0-9.]+ over [0-9]+ timings$' <<< "$out" || fail "no fit"
    grep -qE '^      [0-9]+x[0-9]+x[0-9]+:TN ' <<< "$out" || fail "not timed with A transposed"
    grep -qE '^      [0-9]+x[0-9]+x[0-9]+ ' <<< "$out" && fail "timed NN, where its row never holds"
    grep -q $'\t'"cost:skinny-n-dot"$'\t' "$db" || fail "cost:skinny-n-dot not saved"
    # TN is the orientation its constants are of: no factor of its own (1); NT and TT are relative to it.
    grep $'\t'"cost:skinny-n-dot"$'\t' "$db" | grep -q 'TN=' && fail "a TN factor fitted over the TN constants"
    check_saved
    ;;
bad_usage)
    # Conflicting options, bad seeds and bad --lines: exit 2 before anything is timed or written.
    rm -f "$db"
    for args in "--calibrate --kernel xgemm" "--calibrate --size 64" "--calibrate --variant small" \
                "--calibrate --all-variants" "--calibrate --blas-threshold" "--calibrate --max-configs 2" \
                "--show" "--seed 1" "--calibrate --seed x" "--calibrate --seed -1" \
                "--calibrate --seed 18446744073709551616" "--calibrate --seed" \
                "--lines skinny-m" "--calibrate --lines" "--calibrate --lines skinny-m,,xgemm" \
                "--calibrate --lines ,skinny-m" "--calibrate --lines skinny-m," "--calibrate --show --lines skinny-m" \
                "--calibrate --lines skinny-m --lines xgemm" "--calibrate --lines no-such-line"; do
        # shellcheck disable=SC2086
        run tune $args --db "$db"
        [ "$rc" = 2 ] || fail "tune $args: exit $rc, want 2"
        grep -q 'gemmkit tune: ' <<< "$out" || fail "tune $args: no message"
        grep -q '^device: ' <<< "$out" && fail "tune $args: timed anyway"
    done
    [ ! -e "$db" ] || fail "a refused calibration wrote $db"
    ;;
*)
    fail "unknown case $case"
    ;;
esac
echo "PASS: $case"
