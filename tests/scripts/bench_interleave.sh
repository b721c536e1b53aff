#!/usr/bin/env bash
# bench/interleave.py end to end on this machine's device, with `gemmkit bench --list-sizes` under it: the listed
# shapes (a random draw expanded the same way twice, named shapes with their op() and layout), then two sides (the
# same build, the second with a tuning database that does not exist) over four shapes in chunks of one: each
# side's merged JSON holds every shape once, the chunks alternate A-B, B-A, the report compares them; usage errors.
# Usage: bench_interleave.sh PATH/TO/gemmkit SOURCE_DIR
set -uo pipefail
gemmkit=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

listed=$("$gemmkit" bench --sizes random:3:5,7x9x11:TN:row,12 --list-sizes) || fail "--list-sizes exited $?"
[ "$(wc -l <<< "$listed")" -eq 5 ] || fail "--list-sizes printed: $listed"
grep -qvE '^[0-9]+x[0-9]+x[0-9]+:[NT][NT]:(row|col)$' <<< "$listed" && fail "a malformed spec in: $listed"
[ "$(sed -n 4p <<< "$listed")" = "7x9x11:TN:row" ] && [ "$(sed -n 5p <<< "$listed")" = "12x12x12:NN:col" ] ||
    fail "named shapes not as given: $listed"
[ "$listed" = "$("$gemmkit" bench --sizes random:3:5,7x9x11:TN:row,12 --list-sizes)" ] || fail "the draw moved"
"$gemmkit" bench --list-sizes >/dev/null 2>&1; [ $? -eq 2 ] || fail "--list-sizes without --sizes is not bad usage"

python3 "$src/bench/interleave.py" --a "$gemmkit" --b "env GEMMKIT_TUNING_DB=$tmp/none.tsv $gemmkit" \
    --out "$tmp/run" --chunk 1 -- --sizes 40x24x32,7x9x11:TN:row,33x20x64,16 --repeat 1 --no-baseline \
    --no-peers --no-roofline >"$tmp/report.txt" 2>&1 || { cat "$tmp/report.txt"; fail "interleave exited $?"; }
cat "$tmp/report.txt"
grep -q "^interleaved: 4 shapes of 4 in chunks of 1" "$tmp/report.txt" || fail "no shape count"
grep -q "^B's call time against A's: [0-9.]*x faster" "$tmp/report.txt" || fail "no call-time comparison"
for side in A B; do
    n=$(python3 -c "import json,sys; print(sum(r['name'] in ('best', 'best-3xtf32', 'best-tf32', 'best-int8x') and r['status'] == 'ok' for r in json.load(open(sys.argv[1]))['results']))" "$tmp/run/$side.json") ||
        fail "$side.json unreadable"
    [ "$n" -eq 4 ] || fail "$side.json holds $n results of the library's choice, not 4"
done
[ "$tmp/run/A-000.json" -ot "$tmp/run/B-000.json" ] && [ "$tmp/run/B-001.json" -ot "$tmp/run/A-001.json" ] ||
    fail "chunks 0 and 1 not run A-B, B-A"
python3 "$src/bench/interleave.py" --a "$gemmkit" --b "$gemmkit" --out "$tmp/bad" -- --repeat 1 >/dev/null 2>&1 &&
    fail "no --sizes accepted"
python3 "$src/bench/interleave.py" --a "$gemmkit" --b "$gemmkit" --out "$tmp/bad" -- --sizes 8 --json x >/dev/null 2>&1 &&
    fail "--json accepted"
echo "PASS bench_interleave"
