#!/usr/bin/env bash
# Math mode int8x's product kernels side by side on the GPU machine (CUDA backend), in order of what matters
# should the budget run out:
#   1. a Release build of the command and the library;
#   2. `gemmkit verify --math int8x` (every int8x kernel by name against float64, fresh inputs, NaN-poisoned C);
#   3. each product kernel by name (KERNELS) at SIZES, traced (GEMMKIT_TRACE): the products' own device time,
#      as TOPS (2 n^3 multiply-adds per modulus, MODULI moduli), and the slicing and recombination beside them;
#   4. the call by policy beside cuBLAS fp32 at SIZES (OUTDIR/cuda-int8x-uniform.json);
#   5. the wgmma kernel's other parameter lines (LINES) at the last size, traced the same way;
#   6. test_ozaki on CUDA, where cmocka is carried.
# Last it prints the table of step 3 and 5 (OUTDIR/products.md).
#
# usage: bench/ozaki-products.sh OUTDIR
# Environment: BUDGET (seconds, default 240), BUILD (default build-gpu), SIZES (default 4096,8192), KERNELS
#   (default ozaki-igemm-wgmma,ozaki-igemm-tc), LINES (';'-separated parameter lines of ozaki-igemm-wgmma),
#   GEMMKIT_OZAKI_MODULI (the library's, default 8), SEED (the timed calls' inputs, default 38).
set -uo pipefail

. "$(dirname "$0")/usage.sh"
gk_usage_check 1 1 "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/gpu-env.sh"
gk_steps_begin "$1" "${BUDGET:-240}" || exit 2
out=$gk_out
GK_TARGETS="gemmkit_cli gemmkit" gk_build "${BUILD:-$root/build-gpu}" || exit 1
gemmkit=$gk_gemmkit
gk_has_cuda "$gemmkit" || { gk_log "no CUDA device (or no CUDA backend): nothing to do"; exit 1; }
sizes=${SIZES:-4096,8192} moduli=${GEMMKIT_OZAKI_MODULI:-8}
gk_step verify 60 "$gemmkit" --backend cuda verify --math int8x # fresh inputs: a seed of its own
export GEMMKIT_SEED=${SEED:-38} # the timed calls' inputs

# traced NAME KERNEL N [PARAMS]: one traced call set of KERNEL at N; a row of the table from its fastest steps.
rows=()
traced() {
  local log="$out/$1.log"
  GEMMKIT_TRACE=1 gk_step "$1" 30 "$gemmkit" --backend cuda bench --kernel "$2" ${4:+--params "$4"} --sizes "$3" \
    --repeat 3 --max-time 1 --no-baseline || return
  rows+=("$(awk -v kern="$2" -v k="$2${4:+ $4}" -v n="$3" -v mod="$moduli" '
    /gemmkit trace: step/ && $5 ~ /^ozaki-/ { ms = $NF == "ms" ? $(NF - 1) : $NF; name = $4
      if ($5 == kern) { if (!main || ms < main) main = ms } else if (!(name in best) || ms < best[name]) best[name] = ms }
    END { other = 0; for (s in best) other += best[s]
      printf "| %s | %d | %.3f | %.0f | %.3f |", k, n, main, main ? 2 * n * n * n * mod / main / 1e9 : 0, other }' "$log")")
}
IFS=, read -ra size_list <<<"$sizes"
IFS=, read -ra kernel_list <<<"${KERNELS:-ozaki-igemm-wgmma,ozaki-igemm-tc}"
for n in "${size_list[@]}"; do
  for kernel in "${kernel_list[@]}"; do traced "$kernel-$n" "$kernel" "$n"; done
done

gk_step cuda-int8x-uniform 60 "$gemmkit" --backend cuda bench --kernel best --math int8x --sizes "$sizes" --repeat 3 \
  --max-time 2 --no-baseline --peers cublas --json "$out/cuda-int8x-uniform.json"

last=${size_list[${#size_list[@]}-1]}
IFS=';' read -ra line_list <<<"${LINES:-STAGES=3;SWIZZLE=8;NI=16;TSK=256,STAGES=2}"
for params in "${line_list[@]}"; do traced "wgmma-$params-$last" ozaki-igemm-wgmma "$last" "$params"; done

if gk_step build-test 120 cmake --build "${BUILD:-$root/build-gpu}" -j "${JOBS:-$(nproc)}" --target test_ozaki; then
  GEMMKIT_BACKEND=cuda gk_step test_ozaki-cuda 60 "${BUILD:-$root/build-gpu}/tests/test_ozaki"
fi

{
  echo "| kernel | n | products ms | products TOPS | slicing + recombination ms |"
  echo "| --- | --- | --- | --- | --- |"
  printf '%s\n' "${rows[@]}"
} >"$out/products.md"
echo
echo "=== int8x products ($moduli moduli): $out/products.md ==="
cat "$out/products.md"
echo "--- verify ---"
tail -4 "$out/verify.log" 2>/dev/null
echo "--- the call by policy beside cuBLAS fp32 ---"
grep -E "GFLOPS|TFLOPS|cublas|int8x" "$out/cuda-int8x-uniform.log" 2>/dev/null | tail -8
gk_steps_end
