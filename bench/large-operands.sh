#!/usr/bin/env bash
# Operands past 4 GiB on a GPU (issue 34): every kernel family the policy can
# choose, each with A, B and C in turn larger than 4 GiB (transposes rotated so
# that every family meets several and each operand meets all four), an operand
# near 2^31 elements, strided batches whose every operand passes 4 GiB, the
# fp32-accurate and TF32 modes and the transpose; on both backends. Each case
# is one `gemmkit bench` run, checked against float64 on sampled elements.
#
#   bench/large-operands.sh OUTDIR [GEMMKIT]      (GEMMKIT: default build/gemmkit)
#
# Prints one line per case and a closing "N passed, N failed"; exits 1 when a
# case was wrong or failed. Environment: BACKENDS (default "opencl cuda", the
# CUDA one only where that gemmkit sees a CUDA device), ONLY (a regular
# expression over the case names), BUDGET (seconds, default 560).
# Needs a GPU with 6 GiB in one allocation and about 40 GB of host memory.
set -uo pipefail
out=${1:?usage: bench/large-operands.sh OUTDIR [GEMMKIT]}
root=$(cd "$(dirname "$0")/.." && pwd)
gemmkit=${2:-$root/build/gemmkit}
mkdir -p "$out"
deadline=$(($(date +%s) + ${BUDGET:-560}))

# name | bench arguments. A 4.8-8.6 GB operand in each; "near2^31" ones span 2.14e9-2.147e9 elements.
# The skinny kernels' small operand (B of skinny-n, A of skinny-m) passes 4 GiB only with K past 3e7 and
# the other operand then past 2^31 elements: those two are left out.
cases=(
  "skinny-n.A.NN|--kernel skinny-n --trans NN --sizes 49592x2x28747"
  "skinny-n.C.TT|--kernel skinny-n --trans TT --sizes 40000000x30x4"
  "skinny-m.B.NN|--kernel skinny-m --trans NN --sizes 3x100000x12000"
  "skinny-m.C.TN|--kernel skinny-m --trans TN --sizes 30x40000000x4"
  "skinny-m-splitk.B.NN|--kernel skinny-m-splitk --trans NN --sizes 3x100000x12000"
  "skinny-n-splitk.A.TN|--kernel skinny-n-splitk --trans TN --sizes 100000x3x12000"
  "skinny-m.stream.B.NT|--kernel skinny-m --params MR=4,LC=32,LK=8,NB=2,KU=8,PF=1 --trans NT --sizes 3x100000x12000"
  "skinny-n.stream.A.NN|--kernel skinny-n --params MR=4,LC=32,LK=8,NB=2,KU=8,PF=1 --trans NN --sizes 100000x3x12000"
  "skinny-n-splitk.stream.A.NT|--kernel skinny-n-splitk --params MR=4,LC=32,LK=8,NB=2,KU=8,PF=1,SPLITS=8 --trans NT --sizes 100000x3x12000"
  "skinny-m-dot.B.NN|--kernel skinny-m-dot --trans NN --sizes 3x100000x12000"
  "skinny-m-dot.C.TN|--kernel skinny-m-dot --trans TN --sizes 30x40000000x4"
  "skinny-n-dot.A.TN|--kernel skinny-n-dot --trans TN --sizes 100000x3x12000"
  "skinny-n-dot.C.TT|--kernel skinny-n-dot --trans TT --sizes 40000000x30x4"
  "skinny-m-dot-splitk.B.NN|--kernel skinny-m-dot-splitk --params SPLITS=8 --trans NN --sizes 3x100000x12000"
  "skinny-n-dot-splitk.A.TT|--kernel skinny-n-dot-splitk --params SPLITS=8 --trans TT --sizes 100000x3x12000"
  "small-k.A.NT|--kernel small-k --trans NT --sizes 70000000x4x16"
  "small-k.B.TT|--kernel small-k --trans TT --sizes 4x70000000x16"
  "small-k.C.NN|--kernel small-k --trans NN --sizes 70000x20000x16"
  "small-k.C.K64.TN|--kernel small-k --trans TN --sizes 70000x20000x64"
  "small-k.C.near2^31.NN|--kernel small-k --trans NN --sizes 1048575x2048x1"
  "xgemm.A.TN|--kernel xgemm --trans TN --sizes 100000x300x12000"
  "xgemm.B.NT|--kernel xgemm --trans NT --sizes 300x100000x12000"
  "xgemm.C.TT.row|--kernel xgemm --trans TT --layout row --sizes 40000x40000x300"
  "xgemm-direct.A.NN|--kernel xgemm-direct --trans NN --sizes 100000x300x12000"
  "xgemm-direct.B.TT|--kernel xgemm-direct --trans TT --sizes 300x100000x12000"
  "xgemm-direct.C.NT|--kernel xgemm-direct --trans NT --sizes 40000x40000x300"
  "xgemm-direct.mid-n.C.TN|--kernel xgemm-direct --params TSM=128,TSN=64,TSK=16,WPTM=4,WPTN=8 --trans TN --sizes 40000x40000x64"
  "xgemm-direct.tpg2.C.NT|--kernel xgemm-direct --params TSM=128,TSN=64,TSK=16,WPTM=4,WPTN=8,ASYNC_STAGES=3,TPG=2 --trans NT --sizes 40000x40000x64"
  "xgemm-direct.mid-m.A.TT|--kernel xgemm-direct --params TSM=64,TSN=128,TSK=16,WPTM=4,WPTN=8 --trans TT --sizes 100000x64x12000"
  "xgemm-direct.thin-n.A.NN|--kernel xgemm-direct --params TSM=64,TSN=16,TSK=32,WPTM=4,WPTN=4 --trans NN --sizes 100000x16x12000"
  "xgemm-direct-splitk.thin-m.B.TT|--kernel xgemm-direct-splitk --params TSM=16,TSN=64,TSK=32,WPTM=4,WPTN=4,SPLITS=8 --trans TT --sizes 16x100000x12000"
  "xgemm-splitk.A.TT|--kernel xgemm-splitk --trans TT --sizes 2000x64x600000"
  "xgemm-splitk.B.NN|--kernel xgemm-splitk --trans NN --sizes 64x2000x600000"
  "xgemm-direct-splitk.A.NT|--kernel xgemm-direct-splitk --trans NT --sizes 2000x64x600000"
  "xgemm-direct-splitk.B.TN|--kernel xgemm-direct-splitk --trans TN --sizes 64x2000x600000"
  "xgemm-direct-splitk.mid-n.B.NT|--kernel xgemm-direct-splitk --params TSM=128,TSN=64,TSK=16,WPTM=4,WPTN=8,SPLITS=8 --trans NT --sizes 64x2000x600000"
  "direct.A.TN|--kernel direct --trans TN --sizes 100000x4x12000"
  "best.A.near2^31.TN|--kernel best --trans TN --sizes 100000x8x21400"
  "best.C.shortk.NT|--kernel best --trans NT --sizes 60000x30000x40"
  "batched-small.ABC.NN|--kernel best --batch 500000 --trans NN --sizes 48"
  "batched.ABC.TN|--kernel best --batch 1000 --trans TN --sizes 1100"
  "3xtf32.A.NN|--kernel best --math 3xtf32 --trans NN --sizes 100000x300x12000"
  "3xtf32.C.TN|--kernel best --math 3xtf32 --trans TN --sizes 40000x40000x300"
  "tf32.B.NT|--kernel best --math tf32 --trans NT --sizes 300x100000x12000"
  "tf32.C.TT|--kernel best --math tf32 --trans TT --sizes 40000x40000x300"
  "omatcopy.transpose|--transpose --kernel transpose-fast --sizes 36000x32000"
)

backends=${BACKENDS:-opencl cuda}
passed=0 failed=0 failures=()
for backend in $backends; do
  if [ "$backend" = cuda ] && ! "$gemmkit" --backend cuda devices 2>/dev/null | grep -q "^CUDA: [1-9]"; then
    echo "cuda: no CUDA device or backend: skipped"
    continue
  fi
  for entry in "${cases[@]}"; do
    name=${entry%%|*} args=${entry#*|}
    [ -n "${ONLY:-}" ] && ! [[ $name =~ $ONLY ]] && continue
    left=$((deadline - $(date +%s)))
    if [ $left -lt 20 ]; then
      echo "$backend $name: not run, the time budget is spent"
      failed=$((failed + 1)) failures+=("$backend/$name")
      continue
    fi
    log="$out/$backend-${name//[^A-Za-z0-9.-]/_}.txt"
    start=$(date +%s)
    # shellcheck disable=SC2086 # args is a list of options
    timeout --kill-after=10 $((left < 240 ? left : 240)) "$gemmkit" --backend "$backend" bench $args --repeat 1 \
      --sets 1 --no-baseline --no-peers --quiet >"$log" 2>&1
    rc=$?
    secs=$(($(date +%s) - start))
    # The result line (under the table's header: kernel, size, ..., the check last), else the last line.
    result=$(awk 'p { print; p = 0 } /^name +size/ { p = 1 }' "$log" | tail -1)
    [ -n "$result" ] || result=$(tail -1 "$log")
    if [ $rc -eq 0 ] && ! grep -q "WRONG" "$log"; then
      passed=$((passed + 1)) verdict=ok
    else
      failed=$((failed + 1)) verdict="FAILED (exit $rc)" failures+=("$backend/$name")
    fi
    printf '%-7s %-28s %-16s %4ss  %s\n' "$backend" "$name" "$verdict" "$secs" "$(echo "$result" | cut -c1-200)"
  done
done
[ ${#failures[@]} -gt 0 ] && echo "failed: ${failures[*]}"
echo "large-operands: $passed passed, $failed failed"
[ $failed -eq 0 ]
