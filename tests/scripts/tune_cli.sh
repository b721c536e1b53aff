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

# tune --variant NAME (ARGS...) on the device class's representative shapes (shapes.tsv: the cpu rows on PoCL, the
# gpu rows on a GPU); checks that the line saved is KERNEL/NAME for the kernel the library runs at the first shape
# tune reports, and sets $kernel, $params and $shape (that shape).
tune_variant() {
    local name=$1
    shift
    run tune "$@" --max-configs 2 --repeat 1 --db "$db"
    [ "$rc" = 0 ] || fail "tune $*: exit $rc"
    kernel=$(sed -n "s|^tuning \([^ ]*\)/$name on .*|\1|p" <<< "$out")
    [ -n "$kernel" ] || fail "which kernel was tuned for $name?"
    params=$(sed -n 's/^best: \([^ ]*\) .*/\1/p' <<< "$out")
    [ -n "$params" ] || fail "no best configuration for $name"
    [ "$(grep -c $'\t'"$kernel/$name"$'\t'"$params"$'\t' "$db")" = 1 ] || fail "$kernel/$name $params not saved once"
    shape=$(sed -n 's/^  \([0-9]*x[0-9]*x[0-9]*\): .*/\1/p' <<< "$out" | head -n 1)
    [ -n "$shape" ] || fail "tune does not report what a new context runs"
    # The kernel tuned is the one the library runs at the variant's shape (or its split-K build, with the same
    # tiles: policy.tsv's split rows, on GPUs at mid sizes).
    local bench
    bench=$(GEMMKIT_TUNING_DB=$db "$gemmkit" bench --sizes "$shape" --repeat 1 --no-peers --no-baseline --quiet 2>&1)
    echo "$bench"
    grep -qE "^best:$kernel(-splitk)? " <<< "$bench" || weighed "$name"
}

# Where the cost model chooses (a GPU's candidate rows), the line saved as KERNEL/NAME is one of its candidates at
# the shape tune reported, run where it is the cheapest.
weighed() {
    GEMMKIT_TUNING_DB=$db "$gemmkit" bench --sizes "$shape" --repeat 1 --no-peers --no-baseline --quiet \
        --candidates --candidates-out "$work/candidates.tsv" >/dev/null 2>&1
    grep -q $'\t'"$kernel/$1"$'\t' "$work/candidates.tsv" 2>/dev/null ||
        fail "tuned $kernel for $1, but the library runs another line at $shape and weighs no such line"
}

case $case in
variant_narrow)
    # narrow-n and narrow-m: saved as KERNEL/NAME, and a new context reading the database runs that line at their
    # shapes (what the dispatch takes, reported by tune from a fresh context).
    for name in narrow-n narrow-m; do
        tune_variant $name --variant $name
        # (on GPUs over two K-slices: the split-K build of the kernel, with the line's tiles; where the cost model
        # chooses, tune says when it runs another line, and the line is among its candidates: tune_variant)
        grep -qF "  $shape: $kernel with $kernel/$name ($params)" <<< "$out" ||
            grep -qF "  $shape: $kernel-splitk with $kernel/$name ($params)" <<< "$out" ||
            { grep -qE "^  $shape: .* -- not the line saved: the cost model" <<< "$out" && weighed "$name"; } ||
            fail "a new context does not run $kernel/$name at $shape"
    done
    [ "$(grep -c $'\t' "$db")" = 2 ] || fail "want exactly the two variant lines: $(cat "$db")"
    no_temporary_files
    ;;
variant_small)
    # --small is --variant small: the same line, replaced in place.
    tune_variant small --variant small
    first=$params
    grep -qE "  $shape: $kernel(-splitk)? (with $kernel/small|-- not the line saved: the variant row does not hold here)" \
        <<< "$out" || { grep -qE "^  $shape: .* -- not the line saved: the cost model" <<< "$out" && weighed small; } ||
        fail "no truthful report of where $kernel/small is used"
    tune_variant small --small
    [ "$(grep -c $'\t'"$kernel/small"$'\t' "$db")" = 1 ] || fail "--small added a second line: $(cat "$db")"
    echo "first $first, then $params"
    no_temporary_files
    ;;
all_variants)
    # The main line and every variant of the policy in one command, within --max-time, with a summary. An empty
    # kernel cache, as on a fresh machine: with every build cached, the searches can all end within their shares.
    export POCL_CACHE_DIR="$work/pocl-cache"
    mkdir -p "$POCL_CACHE_DIR"
    start=$SECONDS
    run tune --all-variants --size 64 --max-configs 400 --repeat 1 --max-time 4 --db "$db"
    [ "$rc" = 0 ] || fail "exit $rc"
    [ $((SECONDS - start)) -lt 60 ] || fail "--max-time 4 took $((SECONDS - start)) s"
    grep -q '(stopped: its share of --max-time)' <<< "$out" || fail "no search stopped for --max-time"
    kernel=$(sed -n 's/^tuning \([^ /]*\) on .*/\1/p' <<< "$out")
    [ -n "$kernel" ] || fail "which kernel was tuned?"
    grep -q '^summary: lines saved to ' <<< "$out" || fail "no summary"
    for line in "$kernel" "$kernel/small" "$kernel/narrow-n" "$kernel/narrow-m" "$kernel/long-k"; do
        grep -qE "^  $line +[A-Z]" <<< "$out" || fail "$line not in the summary"
        [ "$(grep -c $'\t'"$line"$'\t' "$db")" = 1 ] || fail "$line not saved once: $(cat "$db")"
    done
    # One line per summary entry saved (GPUs have more variants: strip, tiny), at least those five.
    saved=$(sed -n '/^summary:/,$p' <<< "$out" | grep -cE '^  [^ (]+ +[A-Z]')
    [ "$saved" -ge 5 ] || fail "want at least 5 lines in the summary: $out"
    [ "$(grep -c $'\t' "$db")" = "$saved" ] || fail "want $saved lines: $(cat "$db")"
    no_temporary_files
    ;;
variant_concurrent)
    # Two variant tunes saving into one database at once keep both lines and the user's.
    write_user_db
    "$gemmkit" tune --variant narrow-n --max-configs 2 --repeat 1 --db "$db" > "$work/a.log" 2>&1 &
    a=$!
    "$gemmkit" tune --variant narrow-m --max-configs 2 --repeat 1 --db "$db" > "$work/b.log" 2>&1 &
    b=$!
    wait $a || { cat "$work/a.log"; fail "first tune failed"; }
    wait $b || { cat "$work/b.log"; fail "second tune failed"; }
    cat "$db"
    [ "$(grep -c $'/narrow-n\t' "$db")" = 1 ] || fail "narrow-n entry lost or doubled"
    [ "$(grep -c $'/narrow-m\t' "$db")" = 1 ] || fail "narrow-m entry lost or doubled"
    [ "$(wc -l < "$db")" = 4 ] || fail "want 4 lines"
    no_temporary_files
    ;;
variant_bad_usage)
    # Unknown variants, kernels whose variant lines the policy never uses, and conflicting options: exit 2, before
    # any search, with a message.
    for args in "--variant no-such-variant" "--kernel direct --variant narrow-n" "--kernel transpose-aligned --small" \
                "--kernel direct --all-variants" "--variant small --size 64" "--variant small --all-variants" \
                "--small --variant narrow-m" "--variant" "--max-time 0" "--max-time 1s"; do
        # shellcheck disable=SC2086
        run tune --max-configs 1 --repeat 1 $args --db "$db"
        [ "$rc" = 2 ] || fail "tune $args: exit $rc, want 2"
        grep -q '^tuning ' <<< "$out" && fail "tune $args: searched anyway"
        grep -q 'gemmkit tune: ' <<< "$out" || fail "tune $args: no message"
    done
    run tune --variant no-such-variant --db "$db"
    # (GPUs also have the mid tiles' mid-n and mid-m and the tensor-core modes' trans-a.)
    grep -qE 'no variant "no-such-variant" on a (CPU \(its variants: long-k, narrow-n, narrow-m, small|GPU \(its variants: long-k, narrow-n, narrow-m, mid-n, mid-m, strip, stream, split-k, tiny, small, trans-a)\)' <<< "$out" ||
        fail "the message does not list the variants"
    run tune --kernel direct --variant narrow-n --db "$db"
    grep -qE 'kernel rows never run direct on a (CPU|GPU)' <<< "$out" || fail "the message does not say why direct is refused"
    [ ! -e "$db" ] || fail "a refused tune wrote $db"
    ;;
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
blas_threshold)
    # --blas-threshold (n capped at 256 by --size): a table of sizes, one blas-threshold line for this device in the
    # database, replaced in place by a second run; the user's other lines kept; --no-save writes nothing.
    write_user_db
    run tune --blas-threshold --size 256 --repeat 1 --db "$db"
    [ "$rc" = 0 ] || fail "exit $rc"
    for n in 64 128 256; do
        grep -qE "^ +$n +[0-9.]+ +[0-9.]+  (cpu|device)$" <<< "$out" || fail "no row for n = $n"
    done
    grep -qE '^threshold: WORK=([0-9]+|inf)' <<< "$out" || fail "no threshold reported"
    line=$(grep $'\tblas-threshold\t' "$db") || fail "no blas-threshold line saved: $(cat "$db")"
    grep -qE $'^(opencl|cuda)\t[^\t]+\tblas-threshold\tWORK=([0-9]+|inf)\t[0-9.]+\t[0-9-]+$' <<< "$line" ||
        fail "malformed line: $line"
    grep -q '^# my notes' "$db" && grep -q $'some other device\txgemm' "$db" || fail "the user's lines were lost"
    run tune --blas-threshold --size 64 --repeat 1 --db "$db"
    [ "$rc" = 0 ] || fail "second run: exit $rc"
    [ "$(grep -c $'\tblas-threshold\t' "$db")" = 1 ] || fail "a second line: $(cat "$db")"
    cp "$db" "$work/before.tsv"
    run tune --blas-threshold --size 64 --repeat 1 --no-save --db "$db"
    [ "$rc" = 0 ] || fail "--no-save: exit $rc"
    cmp "$db" "$work/before.tsv" || fail "--no-save changed the database"
    for bad in "--kernel xgemm" "--small" "--all-variants" "--size 32"; do
        run tune --blas-threshold $bad --db "$db"
        [ "$rc" = 2 ] || fail "--blas-threshold $bad: exit $rc, want 2"
    done
    # No CPU BLAS to time: refused with a reason.
    GEMMKIT_CPU_BLAS_LIB=builtin run tune --blas-threshold --size 64 --db "$db"
    [ "$rc" = 1 ] && grep -q 'needs a CPU BLAS' <<< "$out" || fail "GEMMKIT_CPU_BLAS_LIB=builtin: exit $rc"
    no_temporary_files
    ;;
*)
    fail "unknown case $case"
    ;;
esac
echo "PASS: $case"
