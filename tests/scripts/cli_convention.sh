#!/usr/bin/env bash
# The command line's one convention, checked on the built `gemmkit`: help and
# --version for every command (exit 0, usage on stdout), unknown arguments
# refused with exit 2 and a message, global options before or after the
# command, GEMMKIT_BACKEND in any case (a bad one is a usage error), and
# verify telling usage errors (2) and unverifiable kernels (2) from failures.
# Usage: cli_convention.sh PATH/TO/gemmkit
set -uo pipefail
gemmkit=$1
failures=0 cases=0
out_file=$(mktemp) err_file=$(mktemp)
trap 'rm -f "$out_file" "$err_file"' EXIT

# run [VAR=value ...] ARGS...: runs gemmkit, keeping rc, out and err.
run() {
    local envs=()
    while [[ $# -gt 0 && $1 == GEMMKIT_*=* ]]; do envs+=("$1"); shift; done
    shown="${envs[*]:+${envs[*]} }gemmkit $*"
    env "${envs[@]}" "$gemmkit" "$@" >"$out_file" 2>"$err_file"
    rc=$?
    out=$(cat "$out_file") err=$(cat "$err_file")
    problems=""
}
problem() { problems+="    $1"$'\n'; }
want_rc() { [[ $rc == "$1" ]] || problem "exit status $rc, expected $1"; }
want_out() { grep -Eq -- "$1" <<<"$out" || problem "stdout lacks /$1/"; }
want_err() { grep -Eq -- "$1" <<<"$err" || problem "stderr lacks /$1/"; }
no_out() { ! grep -Eq -- "$1" <<<"$out" || problem "stdout has /$1/"; }
no_err() { ! grep -Eq -- "$1" <<<"$err" || problem "stderr has /$1/"; }
# done_case: reports the case just checked.
done_case() {
    cases=$((cases + 1))
    if [[ -z $problems ]]; then
        echo "ok   $shown"
    else
        failures=$((failures + 1))
        echo "FAIL $shown"
        printf '%s' "$problems"
        printf '    stdout: %s\n    stderr: %s\n' "$(head -c 600 <<<"$out")" "$(head -c 600 <<<"$err")"
    fi
}

# ---- help and version
run help; want_rc 0; want_out '^usage: gemmkit'; want_out 'help env'; done_case
run --help; want_rc 0; want_out '^usage: gemmkit'; done_case
run --version; want_rc 0; want_out '^gemmkit [0-9]+\.[0-9]+\.[0-9]+$'; done_case
run --version extra; want_rc 2; want_err 'takes no argument'; done_case
for command in devices list verify bench tune gemm; do
    run "$command" --help; want_rc 0; want_out "^usage: gemmkit $command"; no_err .; done_case
    help_text=$out
    run help "$command"; want_rc 0; [[ $out == "$help_text" ]] || problem "differs from $command --help"; done_case
    run "$command" -h; want_rc 0; want_out "^usage: gemmkit $command"; done_case
    run --help "$command"; want_rc 0; [[ $out == "$help_text" ]] || problem "differs from $command --help"; done_case
done
run bench --sizes 64 --help; want_rc 0; want_out '^usage: gemmkit bench'; done_case
run help env; want_rc 0; want_out '^  GEMMKIT_DEVICE +default: '; want_out 'GEMMKIT_BLAS_THRESHOLD'; done_case
run help nothing-of-that-name; want_rc 2; want_err 'no help on "nothing-of-that-name"'; done_case
run; want_rc 2; want_err '^usage: gemmkit'; done_case
run --frobnicate list; want_rc 2; want_err 'unknown option --frobnicate'; done_case
run frobnicate; want_rc 2; want_err 'unknown command "frobnicate"'; done_case

# ---- unknown arguments: exit 2 with a message, for every command
run devices extra; want_rc 2; want_err 'unexpected argument "extra"'; no_out 'device\(s\)'; done_case
run list --foo; want_rc 2; want_err 'unexpected argument "--foo"'; no_out 'tutorial'; done_case
run verify --foo; want_rc 2; want_err 'unknown argument "--foo"'; done_case
run verify --kernel; want_rc 2; want_err '--kernel needs a value'; done_case
run bench --foo; want_rc 2; want_err 'unknown option "--foo"'; done_case
run gemm --foo; want_rc 2; want_err 'unknown option --foo'; done_case
run tune --foo; want_rc 2; want_err 'unknown option "--foo"'; want_err 'gemmkit tune --help'; done_case

# ---- verify: usage errors and kernels it cannot verify are not passes or failures
run verify --kernel no-such-kernel; want_rc 2; want_err 'no kernel named "no-such-kernel"'; done_case
run verify --kernel xgemm --params FOO=1; want_rc 2; want_err 'no parameter FOO'; no_out 'FAIL'; done_case
run verify --kernel tutorial-1-naive --params TS=0; want_rc 2; want_err 'constraint "TS >= 1" fails'; done_case
run verify --params TS=2; want_rc 2; want_err '--params needs one named kernel'; done_case
run verify --kernel tutorial-8-cuda --backend opencl; want_rc 2
want_err 'tutorial-8-cuda" needs the CUDA backend: nothing verified'; want_out '0 kernel\(s\) verified, 0 failed, 1 skipped'
done_case

# ---- global options before or after the command, with = or not
run --device 0 verify --kernel copy-fast; want_rc 0; want_out '1 kernel\(s\) verified, 0 failed'; done_case
run verify --kernel copy-fast --device 0; want_rc 0; want_out '1 kernel\(s\) verified, 0 failed'; done_case
run verify --device=0 --kernel copy-fast --backend=OpenCL; want_rc 0; want_out 'verified, 0 failed'; done_case
run bench --device 0 --sizes 16 --repeat 1 --no-peers --no-baseline --quiet; want_rc 0; done_case
run verify --kernel copy-fast --device no-device-has-this-name; want_rc 1
want_err '"no-device-has-this-name" matches no'; done_case
run verify --kernel copy-fast --device; want_rc 2; want_err '--device needs a value'; done_case
run list --device=; want_rc 2; want_err '--device needs a value'; done_case
run list --backend nope; want_rc 2; want_err 'unknown backend "nope"'; done_case
run --backend nope list; want_rc 2; want_err 'unknown backend "nope"'; done_case

# ---- GEMMKIT_BACKEND: any case; a bad value is a usage error unless --backend overrides it
run GEMMKIT_BACKEND=OPENCL verify --kernel copy-fast; want_rc 0; want_out 'verified, 0 failed'; done_case
run GEMMKIT_BACKEND=bogus verify --kernel copy-fast; want_rc 2; want_err 'GEMMKIT_BACKEND="bogus"'; done_case
run GEMMKIT_BACKEND=bogus devices; want_rc 2; want_err 'GEMMKIT_BACKEND="bogus"'; done_case
run GEMMKIT_BACKEND=bogus verify --kernel copy-fast --backend opencl; want_rc 0; done_case
# CUDA may be missing here (exit 1, no device); the name itself must be understood.
run GEMMKIT_BACKEND=CUDA verify --kernel copy-fast; [[ $rc != 2 ]] || problem "exit status 2"
no_err 'GEMMKIT_BACKEND'; done_case
run GEMMKIT_BACKEND=bogus help; want_rc 0; done_case

echo "$cases cases, $failures failed"
[[ $failures == 0 ]]
