#!/usr/bin/env bash
# `gemmkit tune` end to end, one case per call: tune_cli.sh GEMMKIT CASE.
# Tiny searches (--size 64 --max-configs 2 --repeat 1) keep each case fast on PoCL.
set -uo pipefail
gemmkit=$1 case=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db=$work/tuning.tsv
tiny=(--size 64 --max-configs 2 --repeat 1)

fail() { echo "FAIL: $*"; exit 1; }

# Runs gemmkit, keeping its output in $out and its exit status in $rc.
run() { out=$("$gemmkit" "$@" 2>&1); rc=$?; echo "\$ gemmkit $* -> $rc"; echo "$out"; }

# A database with the user's own lines (a comment, another device) whose last line has no newline.
write_user_db() {
    printf '# my notes\nopencl\tsome other device\txgemm\tTSM=64\t1.0\t2026-01-01' > "$db"
}

no_temporary_files() {
    local left
    left=$(find "$work" -name '*.tmp.*')
    [ -z "$left" ] || fail "temporary files left behind: $left"
}

case $case in
bad_usage)
    # Every number is checked whole; every refusal comes before any search.
    for args in "--size abc" "--size 64x64" "--size 0" "--repeat 1.5" "--repeat 0" "--max-configs 2abc" \
                "--max-configs -1" "--size" "--frobnicate" "--kernel no-such-kernel"; do
        # Tiny settings first, so that a tune that ignores the bad value stays short.
        # shellcheck disable=SC2086
        run tune --size 64 --max-configs 1 --repeat 1 $args --no-save --db "$db"
        [ "$rc" = 2 ] || fail "tune $args: exit $rc, want 2"
        grep -q '^tuning ' <<< "$out" && fail "tune $args: searched anyway"
        grep -q 'gemmkit tune: ' <<< "$out" || fail "tune $args: no message"
    done
    run --backend opencl tune --kernel tutorial-8-cuda "${tiny[@]}" --db "$db"
    [ "$rc" = 2 ] || fail "tutorial-8-cuda on OpenCL: exit $rc, want 2"
    grep -q 'needs the CUDA backend' <<< "$out" || fail "tutorial-8-cuda: no reason given"
    grep -q '^tuning ' <<< "$out" && fail "tutorial-8-cuda: searched anyway"
    [ ! -e "$db" ] || fail "a refused tune wrote $db"
    ;;
no_final_newline)
    # Both the user's last line and the new entry survive.
    write_user_db
    before=$(cat "$db")
    run tune --kernel direct "${tiny[@]}" --db "$db"
    [ "$rc" = 0 ] || fail "exit $rc"
    [ "$(head -n 2 "$db")" = "$before" ] || fail "the user's lines changed: $(cat "$db")"
    [ "$(wc -l < "$db")" = 3 ] || fail "want 3 lines: $(cat "$db")"
    tail -n 1 "$db" | grep -qE $'^(opencl|cuda)\t.*\tdirect\tTS=[0-9]+,WPT=[0-9]+\t[0-9.]+\t....-..-..$' ||
        fail "no direct entry on its own line: $(cat "$db")"
    no_temporary_files
    ;;
default_kernel)
    # Without --kernel, tune tunes what the library runs here, and says where the result goes.
    run tune "${tiny[@]}" --db "$db"
    [ "$rc" = 0 ] || fail "exit $rc"
    kernel=$(sed -n 's/^tuning \([^ ]*\) on .*/\1/p' <<< "$out")
    [ -n "$kernel" ] || fail "which kernel was tuned?"
    grep -qF "saved to $db; used by new contexts on this device when GEMMKIT_TUNING_DB=$db, in the default dispatch" \
        <<< "$out" || fail "the save message does not say when the result is used"
    grep -q $'\t'"$kernel"$'\t' "$db" || fail "$kernel not saved"
    out=$(GEMMKIT_TUNING_DB=$db "$gemmkit" bench --sizes 512 --repeat 1 --no-peers --no-baseline --quiet 2>&1)
    echo "$out"
    grep -q "^best:$kernel " <<< "$out" || fail "tuned $kernel, but the library runs another kernel at 512"
    ;;
concurrent)
    # Two tunes saving into one database at once: both entries, the user's lines, one valid file.
    write_user_db
    "$gemmkit" tune --kernel direct "${tiny[@]}" --db "$db" > "$work/a.log" 2>&1 &
    a=$!
    "$gemmkit" tune --kernel lecture-6-one-block-shared "${tiny[@]}" --db "$db" > "$work/b.log" 2>&1 &
    b=$!
    wait $a || { cat "$work/a.log"; fail "first tune failed"; }
    wait $b || { cat "$work/b.log"; fail "second tune failed"; }
    cat "$db"
    [ "$(grep -c $'\tdirect\t' "$db")" = 1 ] || fail "direct entry lost or doubled"
    [ "$(grep -c $'\tlecture-6-one-block-shared\t' "$db")" = 1 ] || fail "lecture-6 entry lost or doubled"
    [ "$(grep -c '^# my notes$' "$db")" = 1 ] || fail "the user's comment changed"
    [ "$(wc -l < "$db")" = 4 ] || fail "want 4 lines"
    no_temporary_files
    ;;
interrupted)
    # Ctrl-C in the middle of a search leaves the old database byte for byte.
    write_user_db
    cp "$db" "$work/before.tsv"
    set -m # background jobs of a script ignore SIGINT unless job control is on
    for delay in 1 3; do
        "$gemmkit" tune --kernel xgemm --size 128 --max-configs 400 --repeat 3 --db "$db" > "$work/run.log" 2>&1 &
        pid=$!
        sleep $delay
        kill -INT $pid
        wait $pid
        rc=$?
        cat "$work/run.log"
        [ "$rc" = 130 ] || fail "after SIGINT at ${delay}s: exit $rc, want 130 (the search should still be running)"
        cmp "$db" "$work/before.tsv" || fail "the database changed: $(cat "$db")"
        no_temporary_files
    done
    ;;
*)
    fail "unknown case $case"
    ;;
esac
echo "PASS: $case"
