#!/usr/bin/env bash
# Helper run 2 (not part of the project; kept as the record of the commands): ozaki-igemm-tc's lines on the H100
# through both backends, the mma.sync ceiling (bench/imma_rate.cu), NVIDIA OpenCL's own build of the kernel
# (clptx.c beside this file), the int8x call beside cuBLAS fp32, test_ozaki with the kernel forced. The device
# command: cp -r build-igtc-overlay/. . && mkdir -p .deps && cp .gpu-deps/*.deb .deps/ && BUDGET=285 bash igtc-run2.sh
set -uo pipefail
root=$PWD
. bench/gpu-env.sh
gk_steps_begin "$OUT/r" "${BUDGET:-280}"
out=$gk_out
# NVIDIA OpenCL's PTX of the default line (built as the backend builds it) and ptxas' account of it.
( cc clptx.c -o /tmp/clptx -I.deps/root/usr/include -L.deps/root/usr/lib/x86_64-linux-gnu -l:libOpenCL.so.1 2>"$out/clptx-build.log" &&
  /tmp/clptx src/kernels/library/igemm_tc.cl "-I src/kernels/library -DGK_NV_ARCH=90" "$out/opencl-default.ptx" 2>"$out/clptx.log" &&
  ptxas -arch=sm_90 -v "$out/opencl-default.ptx" -o /tmp/ocl.cubin >"$out/ptxas-opencl.log" 2>&1 &&
  cuobjdump -sass /tmp/ocl.cubin >"$out/opencl-default.sass" 2>&1 ) &
( nvcc -O3 -gencode=arch=compute_90,code=sm_90 -o /tmp/imma_rate bench/imma_rate.cu >"$out/imma-build.log" 2>&1 ) &
JOBS=14 GK_TARGETS="gemmkit_cli gemmkit" gk_build "$root/build-gpu" || exit 1
g=$gk_gemmkit
wait
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpu.txt" 2>&1
[ -x /tmp/imma_rate ] && gk_step imma-rate 30 /tmp/imma_rate
moduli=8
rows=()
traced() { # NAME BACKEND N [PARAMS]
  local dev=; [ "$2" = opencl ] && dev=NVIDIA
  GEMMKIT_DEVICE=$dev GEMMKIT_TRACE=1 gk_step "$1" 30 "$g" --backend "$2" bench --kernel ozaki-igemm-tc ${4:+--params "$4"} \
    --sizes "$3" --repeat 3 --max-time 1 --no-baseline || return
  rows+=("$(awk -v k="$1" -v n="$3" -v mod="$moduli" '
    /gemmkit trace: step/ && $5 ~ /^ozaki-/ { ms = $NF == "ms" ? $(NF - 1) : $NF; name = $4
      if ($5 == "ozaki-igemm-tc") { if (!main || ms < main) main = ms } else if (!(name in best) || ms < best[name]) best[name] = ms }
    END { other = 0; for (s in best) other += best[s]
      printf "| %s | %d | %.3f | %.0f | %.3f |", k, n, main, main ? 2 * n * n * n * mod / main / 1e9 : 0, other }' "$out/$1.log")")
}
GEMMKIT_DEVICE=NVIDIA gk_step verify-opencl 45 "$g" --backend opencl verify --math int8x
gk_step verify-cuda 45 "$g" --backend cuda verify --math int8x
export GEMMKIT_SEED=38
best= best_tops=0
for params in "" "WARPS_M=4,WARPS_N=4,MI=2,NI=8" "WARPS_M=4,WARPS_N=2,MI=2,NI=8" "WARPS_N=2,TSK=64,STAGES=3" \
  "WARPS_M=4,WARPS_N=4,MI=2,NI=8,TSK=64,STAGES=2" "WARPS_M=4,WARPS_N=2,MI=2,NI=8,STAGES=6"; do
  traced "opencl-${params:-default}-8192" opencl 8192 "$params"
  tops=$(echo "${rows[-1]}" | awk -F'|' '{print int($5)}')
  [ "${tops:-0}" -gt "$best_tops" ] && { best_tops=$tops; best=$params; }
done
echo "best OpenCL line: '${best:-default}' ($best_tops TOPS)" | tee "$out/best.txt"
for params in "" "WARPS_M=4,WARPS_N=4,MI=2,NI=8" "WARPS_M=4,WARPS_N=2,MI=2,NI=8" "WARPS_N=2,TSK=64,STAGES=3"; do
  traced "cuda-${params:-default}-8192" cuda 8192 "$params"
done
traced "opencl-${best:-default}-4096" opencl 4096 "$best"
traced "cuda-${best:-default}-4096" cuda 4096 "$best"
GEMMKIT_DEVICE=NVIDIA gk_step opencl-call-best 45 "$g" --backend opencl bench --kernel ozaki-igemm-tc ${best:+--params "$best"} \
  --sizes 8192 --repeat 3 --max-time 2 --no-baseline --peers cublas --json "$out/opencl-call-best.json"
GEMMKIT_DEVICE=NVIDIA gk_step opencl-int8x-8192 45 "$g" --backend opencl bench --kernel best --math int8x --sizes 8192 \
  --repeat 3 --max-time 2 --no-baseline --peers cublas --json "$out/opencl-int8x-8192.json"
{ echo "| line | n | products ms | products TOPS | slicing + recombination ms |"; echo "| --- | --- | --- | --- | --- |"
  printf '%s\n' "${rows[@]}"; } >"$out/products.md"
# test_ozaki with ozaki-igemm-tc forced (the policy without the wgmma row), both backends.
grep -v "ozaki-igemm-wgmma" src/kernels/tuning/policy.tsv >"$out/policy-tc.tsv"
if gk_step build-test 90 cmake --build build-gpu -j 16 --target test_ozaki; then
  GEMMKIT_POLICY="$out/policy-tc.tsv" GEMMKIT_BACKEND=cuda gk_step test_ozaki-cuda 40 build-gpu/tests/test_ozaki
  GEMMKIT_POLICY="$out/policy-tc.tsv" GEMMKIT_BACKEND=opencl GEMMKIT_DEVICE=NVIDIA gk_step test_ozaki-opencl 40 build-gpu/tests/test_ozaki
fi
cat "$out/products.md"
echo "--- imma ---"; cat "$out/imma-rate.log" 2>/dev/null; tail -3 "$out/imma-build.log"
echo "--- opencl ptxas ---"; tail -4 "$out/ptxas-opencl.log" 2>/dev/null; tail -3 "$out/clptx.log" "$out/clptx-build.log" 2>/dev/null
[ -s "$out/opencl-default.sass" ] && grep -c "IMMA" "$out/opencl-default.sass" && grep -c "LDL\|STL" "$out/opencl-default.sass"
echo "--- verify ---"; tail -3 "$out/verify-opencl.log"; tail -3 "$out/verify-cuda.log"
echo "--- calls vs cublas (opencl) ---"; grep -E "^(best|ozaki|cublas )" "$out/opencl-call-best.log" "$out/opencl-int8x-8192.log" | cut -c1-200
echo "--- test_ozaki ---"; tail -3 "$out/test_ozaki-cuda.log" "$out/test_ozaki-opencl.log" 2>/dev/null
gk_steps_end
cd "$OUT" && tar czf r.tgz r && rm -rf r
