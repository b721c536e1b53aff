#!/bin/sh
# `make run` as a newcomer sees it (ctest make_run): no make directory noise,
# each result shown once, the kernel's choice explained, and the table ending
# with how many results were verified. Usage: make_run.sh SOURCE_DIR BUILD_DIR
src=$1 build=$2
cd "$src" || exit 1
# Installed or not, the packages are not this test's business.
out=$(GEMMKIT_OFFLINE=1 make run BUILD="$build" 2>&1)
status=$?
printf '%s\n' "$out"
fail() { echo "make_run: $*" >&2; exit 1; }
[ $status -eq 0 ] || fail "make run exited with $status"
printf '%s\n' "$out" | grep -q "Entering directory\|Leaving directory" && fail "make's directory lines are shown"
printf '%s\n' "$out" | grep -q "^kernel: .*; parameters: " || fail "no line explains the kernel"
printf '%s\n' "$out" | tail -n 1 | grep -Eq "^[0-9]+ of [0-9]+ results verified" ||
  fail "the output does not end with the count of verified results"
# Here stdout and stderr share one pipe: results come in the table only, each row once.
printf '%s\n' "$out" | grep -Eq '^\[ *[0-9.]+ s\] .*(GFLOPS|GB/s)' && fail "results shown as progress lines too"
rows=$(printf '%s\n' "$out" | grep -E '^(best|host-seq)[^ ]* +[0-9]' | sort)
[ -n "$rows" ] || fail "no result rows"
[ -z "$(printf '%s\n' "$rows" | uniq -d)" ] || fail "a result row is shown twice"
exit 0
