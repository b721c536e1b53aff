#!/usr/bin/env bash
# The sanitizer build's ctest (`make test-sanitize`), with one retry of a test
# that failed only because LeakSanitizer's own tracer crashed at the process's
# exit ("Tracer caught signal 11", then "LeakSanitizer has encountered a fatal
# error"): a rare crash of the sanitizer's stop-the-world step with PoCL's
# threads about, after the test itself passed (docs/RELIABILITY.md). The retry
# runs the whole test again, leak check included; any other failure, or a
# second one, fails the run.
#
#   tests/sanitizers/ctest_sanitize.sh BUILD_DIR JOBS
set -uo pipefail
cd "${1:?usage: ctest_sanitize.sh BUILD_DIR JOBS}" || exit 2
jobs=${2:-2}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
ctest --output-on-failure -j "$jobs" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] && exit 0
failed=$(sed -n 's/^[[:space:]]*[0-9][0-9]* - \([A-Za-z0-9_.+-]*\) (Failed)$/\1/p' "$log")
[ -n "$failed" ] || exit "$status"
for test in $failed; do
  # The failed test's own output: from its result line to the next test's line.
  output=$(awk -v t="$test" '
    $0 ~ ("Test +#[0-9]+: " t " .*Failed") { on = 1; next }
    on && ($0 ~ /^ *Start +[0-9]+:/ || $0 ~ /^ *[0-9]+\/[0-9]+ Test +#/ || $0 ~ /tests passed|tests failed/) { on = 0 }
    on { print }' "$log")
  if ! grep -q "Tracer caught signal" <<<"$output" ||
    ! grep -q "LeakSanitizer has encountered a fatal error" <<<"$output" ||
    grep -qE "\[  FAILED  \]|ERROR: (Address|Leak|UndefinedBehavior)Sanitizer|runtime error" <<<"$output"; then
    echo "ctest_sanitize: $test failed for its own reasons: no retry" >&2
    exit "$status"
  fi
done
for test in $failed; do
  echo "ctest_sanitize: $test passed, then LeakSanitizer's tracer crashed at exit: running it once more" >&2
  ctest --output-on-failure -R "^${test}\$" || exit 1
done
exit 0
