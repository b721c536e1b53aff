#!/usr/bin/env bash
# The GPU machine's one setup (bench/gpu-env.sh), exercised on any machine:
# sourcing it changes nothing where NVIDIA's driver is absent, its steps log,
# time out and record failures, a spent budget skips a step, a build without
# a gemmkit fails, and the GPU scripts use it rather than their own copies;
# their help (bench/usage.sh) is their whole header.
# usage: gpu_env.sh SOURCE_DIR
set -u
root=$1
fails=0 passes=0
check() { # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok: $1"; passes=$((passes + 1)); else echo "FAILED: $1"; fails=$((fails + 1)); fi
}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

(
  . "$root/bench/gpu-env.sh" 2>/dev/null
  gk_steps_begin "$out/steps" 60
  gk_step good 30 true
  gk_step bad 30 false
  gk_step slow 10 sleep 30
  gk_deadline=$(date +%s) # the budget is spent: the next step must not run
  gk_step late 30 touch "$out/late-ran"
  echo "failed=${gk_failed[*]}"
  [ "$GEMMKIT_OFFLINE" = 1 ] && echo offline
  gk_steps_end && echo "end=0" || echo "end=1"
) >"$out/run.txt" 2>"$out/err.txt"

# gk_build: a tree that does not configure gives no gemmkit and a failure, both steps logged.
(
  . "$root/bench/gpu-env.sh" 2>/dev/null
  mkdir -p "$out/empty"
  gk_root=$out/empty
  gk_steps_begin "$out/build-steps" 60
  gk_build "$out/empty-build" && echo "build=0" || echo "build=1"
  echo "failed=${gk_failed[*]}"
) >"$out/build.txt" 2>/dev/null
check "gk_build fails without a gemmkit" grep -qx "build=1" "$out/build.txt"
check "gk_build runs configure and build as steps" grep -qx "failed=configure build" "$out/build.txt"

check "failed steps are recorded, in order" grep -qx "failed=bad slow late" "$out/run.txt"
check "a spent budget skips the step" test ! -e "$out/late-ran"
check "a slow step is stopped at its limit" grep -q "slow: stopped after" "$out/steps/steps.log"
check "each step has its log" test -f "$out/steps/good.log" -a -f "$out/steps/bad.log"
check "the closing status says a step failed" grep -qx "end=1" "$out/run.txt"
check "make runs offline there" grep -qx offline "$out/run.txt"
for script in gpu.sh gpu-tests.sh cuda-check.sh sweep.sh multigpu-tests.sh multi-gpu.sh math-modes.sh scalapack.sh dropin-gpu.sh; do
  check "$script sources gpu-env.sh" grep -q '\. "\?\$\?[a-z_]*/\?bench/gpu-env.sh' "$root/bench/$script"
  check "$script has no step runner or driver setup of its own" \
    bash -c "! grep -qE '^ *(step|log|cap)\(\)|nvidia.icd|OCL_ICD_VENDORS|dpkg -x' '$root/bench/$script'"
  check "$script is valid bash" bash -n "$root/bench/$script"
done
# The scripts' help is their whole header comment (bench/usage.sh), with exit status 2 on bad usage.
for script in "$root"/bench/*.sh; do
  [ "$(basename "$script")" != usage.sh ] && grep -q gk_usage_check "$script" || continue
  name=$(basename "$script")
  last=$(awk 'NR > 1 && !/^#/ {print prev; exit} {prev = $0}' "$script" | sed 's/^# \{0,1\}//')
  help=$(bash "$script" --help 2>&1)
  check "$name --help exits with 2" test $? -eq 2
  check "$name --help ends with its header's last line" test "$(printf '%s\n' "$help" | tail -1)" = "$last"
  check "$name without arguments prints its help" test "$(bash "$script" 2>&1 | head -1)" = "$(printf '%s\n' "$help" | head -1)"
done
check "gpu-tests.sh runs the Makefile's test target (its sanitizer settings)" grep -q "make test" "$root/bench/gpu-tests.sh"
check "gpu-tests.sh sets no ASan options of its own" bash -c "! grep -q ASAN_OPTIONS '$root/bench/gpu-tests.sh'"
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
