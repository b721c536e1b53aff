#!/usr/bin/env bash
# tools/cuda_build (one kernel through NVRTC into a CUBIN file, no GPU) and
# bench/sass-report.sh on it: a CUBIN for each kind of kernel (SIMT for sm_90,
# wgmma for sm_90a, TF32 and int8x's s8), usage and lookup errors with nothing written, a target
# that is kept when the build fails. Skipped (77) without NVRTC; the report
# only where nvdisasm is found.
# usage: cuda_build.sh CUDA_BUILD SOURCE_DIR
set -u
tool=$1 root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$("$tool" --kernel xgemm --params ASYNC_STAGES=3 --out "$work/x.cubin" 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
  echo "$out" | grep -qi "nvrtc" && { echo "skipped: $out"; exit 77; }
  fail "xgemm: exit $rc: $out"
fi
echo "$out" | grep -q "CUBIN for sm_90 " || fail "xgemm: $out"
[ "$(head -c 4 "$work/x.cubin" | od -An -c | tr -d ' ')" = '177ELF' ] || fail "x.cubin is not an ELF file"
echo "$out" | grep -q "ASYNC_STAGES=3" || fail "the parameters are not in the defines: $out"

out=$("$tool" --kernel xgemm-wgmma-tf32 --params PIPE=1 --trans NT --out "$work/w.cubin" 2>&1) || fail "wgmma: $out"
echo "$out" | grep -q "sm_90a" || fail "wgmma: not sm_90a: $out"
echo "$out" | grep -q "TRANS_B=1" || fail "wgmma: --trans NT: $out"
# The skinny split builds with their sum compiled in (the problem define the plan sets where they sum in the kernel).
for kernel in skinny-m-splitk skinny-n-dot-splitk; do
  out=$("$tool" --kernel $kernel --define SUM_HERE=1 --out "$work/s.cubin" 2>&1) || fail "$kernel SUM_HERE=1: $out"
  echo "$out" | grep -q "SUM_HERE=1" || fail "$kernel: SUM_HERE=1 is not in the defines: $out"
done
# int8x's s8 wgmma on tiles the tensor memory accelerator copies (tensor-map arguments, no problem defines).
out=$("$tool" --kernel ozaki-igemm-wgmma --out "$work/o.cubin" 2>&1) || fail "ozaki-igemm-wgmma: $out"
echo "$out" | grep -q "CUBIN for sm_90a " || fail "ozaki-igemm-wgmma: not sm_90a: $out"

# Bad usage: 2, an unknown kernel or parameter: 1; the earlier file untouched either way.
cp "$work/x.cubin" "$work/keep"
"$tool" --kernel xgemm 2>/dev/null; [ $? -eq 2 ] || fail "no --out: not exit 2"
"$tool" --kernel xgemm --trans XN --out "$work/x.cubin" 2>/dev/null; [ $? -eq 2 ] || fail "--trans XN: not exit 2"
"$tool" --kernel no-such-kernel --out "$work/x.cubin" 2>/dev/null; [ $? -eq 1 ] || fail "unknown kernel: not exit 1"
err=$("$tool" --kernel xgemm --params TSM=100 --out "$work/x.cubin" 2>&1); [ $? -eq 1 ] || fail "TSM=100: not exit 1"
echo "$err" | grep -q "TSM" || fail "TSM=100: the message does not name it: $err"
cmp -s "$work/x.cubin" "$work/keep" || fail "a failed build changed the output file"

if command -v nvdisasm >/dev/null || [ -n "${NVDISASM:-}" ]; then
  report=$(BUILD=$(dirname "$tool") bash "$root/bench/sass-report.sh" xgemm-wgmma-tf32 PIPE=1) || fail "sass-report failed"
  echo "$report" | grep -q "^HGMMA: [1-9]" || fail "sass-report: no HGMMA: $report"
  echo "$report" | grep -q "^registers per work-item: [1-9]" || fail "sass-report: no registers: $report"
  report=$(BUILD=$(dirname "$tool") bash "$root/bench/sass-report.sh" ozaki-igemm-wgmma) || fail "sass-report failed"
  echo "$report" | grep -q "^IGMMA: [1-9]" || fail "sass-report: ozaki-igemm-wgmma has no IGMMA: $report"
  echo "$report" | grep -q "^stack frame (spills and local arrays), bytes: 0$" || fail "ozaki-igemm-wgmma spills: $report"
  # int8x's slicing and recombination keep their digits and residues in registers (the moduli compiled in).
  for kernel in ozaki-norms ozaki-slice ozaki-crt; do
    report=$(BUILD=$(dirname "$tool") bash "$root/bench/sass-report.sh" $kernel --define MODULI=20 --define K_CONTIGUOUS=0) ||
      fail "sass-report $kernel failed"
    echo "$report" | grep -q "^stack frame (spills and local arrays), bytes: 0$" || fail "$kernel spills: $report"
  done
  # int8x's mma.sync kernel (both backends): IMMA, and its 64 x 64 warp tiles in registers with no spills.
  report=$(BUILD=$(dirname "$tool") bash "$root/bench/sass-report.sh" ozaki-igemm-tc) || fail "sass-report failed"
  echo "$report" | grep -Eq "^ +IMMA +[1-9]" || fail "sass-report: ozaki-igemm-tc has no IMMA: $report"
  echo "$report" | grep -q "^stack frame (spills and local arrays), bytes: 0$" || fail "ozaki-igemm-tc spills: $report"
fi
echo "cuda_build: ok"
