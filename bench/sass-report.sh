#!/usr/bin/env bash
# The machine code of one registry kernel as the CUDA backend builds it, read
# on any machine (no GPU): build/cuda_build compiles it through NVRTC, nvdisasm
# disassembles it, and this prints what decides its speed before it is timed:
# registers per work-item, stack (spills), the instruction mix (FFMA share of
# a SIMT kernel; HGMMA (IGMMA for s8) and the WARPGROUP waits of a wgmma
# kernel: a wait after every one is ptxas serializing them), barriers and local-memory
# traffic.
#
# usage: bench/sass-report.sh KERNEL [PARAMS] [CUDA_BUILD_OPTION...]
#   e.g. bench/sass-report.sh xgemm-wgmma-tf32 PIPE=1,STAGES=4 --trans NT
# Environment: BUILD (default build: its cuda_build), NVDISASM (default: nvdisasm
#   on the PATH), SASS (also keep the disassembly in this file).
# nvdisasm is not a Debian package: `pip download --no-deps nvidia-cuda-nvdisasm`
# and unzip the wheel (nvidia/cu13/bin/nvdisasm), or use the CUDA toolkit's.
set -uo pipefail

. "$(dirname "$0")/usage.sh"
gk_usage_check 1 99 "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
kernel=$1
shift
params=
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then
  params=$1
  shift
fi
build_tool=${BUILD:-$root/build}/cuda_build
nvdisasm=${NVDISASM:-$(command -v nvdisasm || true)}
[ -x "$build_tool" ] || { echo "sass-report: no $build_tool (cmake --build ${BUILD:-build} --target gemmkit_cuda_build)" >&2; exit 1; }
[ -n "$nvdisasm" ] && [ -x "$nvdisasm" ] || {
  echo "sass-report: no nvdisasm (NVDISASM=path; see this script's header)" >&2
  exit 1
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build_tool" --kernel "$kernel" ${params:+--params "$params"} "$@" --out "$work/kernel.cubin" || exit 1
"$nvdisasm" "$work/kernel.cubin" >"$work/kernel.sass" || exit 1
[ -n "${SASS:-}" ] && cp "$work/kernel.sass" "$SASS"

# An EIATTR's value: the last .word of its record.
attribute() {
  awk -v name="$1" '$0 ~ "EIATTR_" name "$" {on = 1; next} on && /\.word/ {v = $NF} on && /nvinfo :/ {print v; exit}' \
    "$work/kernel.sass"
}
printf 'registers per work-item: %d\n' "$(attribute REGCOUNT)"
printf 'stack frame (spills and local arrays), bytes: %d\n' "$(attribute FRAME_SIZE)"

# Opcodes of the code sections, predicates and modifiers dropped.
grep -oE '^\s+/\*[0-9a-f]{4}\*/\s+(@!?U?P[0-9T] )?[A-Z][A-Z0-9_.]*' "$work/kernel.sass" |
  awk '{print $NF}' | sed 's/\..*//' >"$work/ops"
total=$(wc -l <"$work/ops")
echo "instructions: $total"
sort "$work/ops" | uniq -c | sort -rn | head -12 |
  awk -v t="$total" '{printf "  %-10s %6d  %5.1f%%\n", $2, $1, 100 * $1 / t}'
for op in BAR LDL STL HGMMA IGMMA; do
  printf '%s: %d\n' "$op" "$(grep -cx "$op" "$work/ops")"
done
waits=$(grep -oE 'WARPGROUP\.DEPBAR[^;]*' "$work/kernel.sass" | sort | uniq -c)
[ -n "$waits" ] && echo "wgmma waits (WARPGROUP.DEPBAR):" && echo "$waits"
exit 0
