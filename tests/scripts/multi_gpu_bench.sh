#!/usr/bin/env bash
# bench/multi_gpu (issue 18's benchmark) on any machine, so that it cannot rot:
# its usage errors, a tiny run (n = 64, selector "0") without CUDA (pinned
# memory and cuBLASXt skipped, saying why), the same with the CUDA stand-in
# (tests/mock/mock_cuda.c: cuBLASXt over "two devices", the ratios filled in),
# a wrong cuBLASXt result reported WRONG with exit status 1, and the time budget.
# usage: multi_gpu_bench.sh MULTI_GPU MOCK_CUDA_LIBRARY
set -u
bin=$1 mock=$2
fails=0 passes=0
check() { # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok: $1"; passes=$((passes + 1)); else echo "FAILED: $1"; fails=$((fails + 1)); fi
}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# run NAME ARGS...: output in $out/NAME.txt, exit status in $out/NAME.rc
run() {
  local name=$1
  shift
  "$@" >"$out/$name.txt" 2>&1
  echo $? >"$out/$name.rc"
}
rc_is() { [ "$(cat "$out/$1.rc")" = "$2" ]; }
has() { grep -qE -- "$2" "$out/$1.txt"; }
lacks() { ! grep -qE -- "$2" "$out/$1.txt"; }
no_cuda=(env GEMMKIT_CUDART=/nonexistent/libcudart.so GEMMKIT_CUBLAS=/nonexistent/libcublas.so)
with_mock=(env GEMMKIT_CUDART="$mock" GEMMKIT_CUBLAS="$mock" MOCK_CUDA_DEVICES=2)

run help "$bin" --help
check "--help exits 0 and lists the options" bash -c "[ \$(cat $out/help.rc) = 0 ] && grep -q -- '--devices LIST' $out/help.txt"

i=0
for bad in "--n 0" "--n 12x" "--repeat 0" "--memory fast" "--peers cublas" "--peers none,cublasxt" "--xt 0,0" \
  "--xt 1," "--devices cuda:" "--budget -1" "--warmup 65 --n 64" "--block 0" "--samples 0" "--bogus 1" "--n" \
  "stray" "--tsv $out"; do
  i=$((i + 1))
  # shellcheck disable=SC2086
  run "bad$i" "${no_cuda[@]}" "$bin" $bad
  check "bad usage \"$bad\" exits 2 with a reason" bash -c \
    "[ \$(cat $out/bad$i.rc) = 2 ] && grep -q '^multi_gpu: ' $out/bad$i.txt && ! grep -q 'TFLOPS' $out/bad$i.txt"
done

# Without CUDA: pinned skipped with the reason, pageable gemmkit and the resident rate measured and right.
run plain "${no_cuda[@]}" "$bin" --n 64 --devices 0 --repeat 2 --tsv "$out/plain.tsv"
check "no CUDA: exit 0" rc_is plain 0
check "no CUDA: says CUDA is absent and what is skipped" has plain "CUDA: absent .*cuBLASXt and cuBLAS skipped"
check "no CUDA: pinned runs skipped with the reason" has plain "^gemmkit +0 +1 +pinned +SKIPPED: pinned memory needs the CUDA runtime"
check "no CUDA: gemmkit on pageable host arrays checked and timed" has plain "^gemmkit +0 +1 +pageable .* TFLOPS +ok \(2 timed"
check "no CUDA: the device-resident rate, and the host/resident ratio" \
  bash -c "grep -qE '^gemmkit-resident +0 +1 +device .* ok' $out/plain.txt && grep -qE '^gemmkit +0 .*x of resident' $out/plain.txt"
check "no CUDA: no cuBLASXt row, nothing WRONG" lacks plain "cublasxt|WRONG|FAILED"
check "no CUDA: TSV header and three rows of 15 fields" bash -c \
  "head -1 $out/plain.tsv | grep -q '^n	runner	target' && [ \$(wc -l <$out/plain.tsv) = 4 ] &&
   awk -F'\t' 'NF != 15 { exit 1 }' $out/plain.tsv"

# The stand-in CUDA: cuBLASXt on one and two devices, pinned and pageable, every ratio filled in.
run mock "${with_mock[@]}" "$bin" --n 64 --devices "0" --xt "0 0,1" --repeat 2 --tsv "$out/mock.tsv"
check "mock CUDA: exit 0" rc_is mock 0
check "mock CUDA: cuBLASXt on 1 and 2 devices, pinned and pageable" bash -c \
  "[ \$(grep -cE '^cublasxt +cuda:0(,1)? +[12] +(pinned|pageable) .* ok' $out/mock.txt) = 4 ]"
check "mock CUDA: the block size and the pinning mode are stated" has mock "block 4096, pinning mode left at its default"
check "mock CUDA: the cuBLAS resident rate" has mock "^cublas-resident +cuda:0 +1 +device .* ok"
check "mock CUDA: gemmkit's ratio to cuBLASXt in the TSV" bash -c \
  "awk -F'\t' '\$2 == \"gemmkit\" && \$6 == \"pinned\" && \$11 > 0 { found = 1 } END { exit !found }' $out/mock.tsv"
check "mock CUDA: 2-device scaling of cuBLASXt in the TSV" bash -c \
  "awk -F'\t' '\$2 == \"cublasxt\" && \$5 == 2 && \$12 > 0 { found = 1 } END { exit !found }' $out/mock.tsv"
# ratio_to_peer and scaling are the other row's seconds over this one's; tflops is 2 n^3 / seconds.
check "mock CUDA: the ratios and TFLOPS are computed from the rows' seconds" awk -F'\t' '
  NR > 1 { key = $2 " " $5 " " $6; sec[key] = $8; row[NR] = $0 }
  END {
    bad = 0
    for (i in row) {
      split(row[i], f, "\t")
      if (f[2] == "gemmkit" && f[11] != "") { want = sec["cublasxt " f[5] " " f[6]] / f[8]; bad += (f[11] / want > 1.01 || f[11] / want < 0.99) }
      if (f[2] == "cublasxt" && f[5] == 2) { want = sec["cublasxt 1 " f[6]] / f[8]; bad += (f[12] / want > 1.01 || f[12] / want < 0.99) }
      if (f[9] != "") { want = 2 * 64 ^ 3 / f[8] / 1e12; bad += (f[9] > want * 1.01 + 0.001 || f[9] < want * 0.99 - 0.001) }
    }
    exit bad != 0
  }' "$out/mock.tsv"
check "mock CUDA: cuBLASXt's set beyond the devices is skipped, not failed" bash -c \
  "env GEMMKIT_CUDART=$mock GEMMKIT_CUBLAS=$mock $bin --n 64 --devices 0 --xt 0,1 --memory pageable --peers cublasxt |
   grep -qE '^cublasxt +cuda:0,1 +2 +pageable +SKIPPED: CUDA device 1 asked for; the runtime sees 1'"

# A wrong result is reported WRONG (no speed) and the exit status says so.
run wrong "${with_mock[@]}" MOCK_CUBLASXT_WRONG=1 "$bin" --n 64 --devices 0 --xt 0 --memory pinned --peers cublasxt
check "wrong cuBLASXt: exit 1" rc_is wrong 1
check "wrong cuBLASXt: WRONG with the element, no TFLOPS" has wrong "^cublasxt +cuda:0 +1 +pinned +WRONG: [0-9]+ of 64 sampled elements off: C\("
check "wrong cuBLASXt: gemmkit still right" has wrong "^gemmkit +0 +1 +pinned .* ok"

# The budget: repeats cut (1000 calls at n = 1024 take over a second on a CPU and on a GPU),
# the next runner skipped; a budget spent before the first runner skips them all.
run budget "${no_cuda[@]}" "$bin" --n 1024 --devices "0 0" --memory pageable --peers none --repeat 1000 --budget 1
check "budget: exit 0" rc_is budget 0
check "budget: repeats cut" has budget "of 1000 repeats, the time budget is spent"
check "budget: the next runner skipped" has budget \
  "^gemmkit +0 +1 +pageable +SKIPPED: (the time budget \(1 s\) is spent|would need about)"
run spent "${no_cuda[@]}" "$bin" --n 64 --devices "0" --memory pageable --budget 0.000001
check "spent budget: every runner skipped, exit 0" bash -c "[ \$(cat $out/spent.rc) = 0 ] &&
  [ \$(grep -cE '^gemmkit(-resident)? +0 +1 .*SKIPPED: the time budget' $out/spent.txt) = 2 ]"

echo "$passes passed, $fails failed"
[ $fails -eq 0 ] && echo "PASS multi_gpu_bench"
[ $fails -eq 0 ]
