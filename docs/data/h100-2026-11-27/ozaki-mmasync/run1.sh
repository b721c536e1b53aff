#!/usr/bin/env bash
# Helper run 1 (not part of the project; kept as the record of the commands): ozaki-igemm-tc's first rewrite on the
# H100, both backends, main's kernel beside it. The device command was:
#   mkdir -p /tmp/old && tar --exclude=./.git --exclude=./.gpu-deps --exclude=./build-igtc-overlay --exclude='./build*'
#     --exclude=./.deps -cf - . | tar -xf - -C /tmp/old && cp -r build-igtc-overlay/. . && mkdir -p .deps &&
#     cp .gpu-deps/*.deb .deps/ && BUDGET=280 bash igtc-run.sh
set -uo pipefail
root=$PWD
. bench/gpu-env.sh
gk_steps_begin "$OUT/r" "${BUDGET:-275}"
out=$gk_out
LINES=${LINES:-"SWIZZLE=16;WARPS_M=4,WARPS_N=2;WARPS_N=2,TSK=64,STAGES=3;WARPS_N=2,STAGES=6;TSK=64,STAGES=2;STAGES=3;SWIZZLE=1"}
# /tmp/old: main's tree, copied by the command before the overlay
( cmake -S /tmp/old -B /tmp/old/b -DCMAKE_BUILD_TYPE=Release >/dev/null 2>&1 &&
  cmake --build /tmp/old/b -j 6 --target gemmkit_cli gemmkit >"$out/old-build.log" 2>&1 ) &
oldpid=$!
JOBS=10 GK_TARGETS="gemmkit_cli gemmkit" gk_build "$root/build-gpu" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpu.txt" 2>&1
moduli=8
rows=()
# traced NAME BACKEND BINARY N [PARAMS]: products' own device time from the trace, as TOPS.
traced() {
  local dev=; [ "$2" = opencl ] && dev=NVIDIA
  GEMMKIT_DEVICE=$dev GEMMKIT_TRACE=1 gk_step "$1" 30 "$3" --backend "$2" bench --kernel ozaki-igemm-tc ${5:+--params "$5"} \
    --sizes "$4" --repeat 3 --max-time 1 --no-baseline || return
  rows+=("$(awk -v k="$1" -v n="$4" -v mod="$moduli" '
    /gemmkit trace: step/ && $5 ~ /^ozaki-/ { ms = $NF == "ms" ? $(NF - 1) : $NF; name = $4
      if ($5 == "ozaki-igemm-tc") { if (!main || ms < main) main = ms } else if (!(name in best) || ms < best[name]) best[name] = ms }
    END { other = 0; for (s in best) other += best[s]
      printf "| %s | %d | %.3f | %.0f | %.3f |", k, n, main, main ? 2 * n * n * n * mod / main / 1e9 : 0, other }' "$out/$1.log")")
}
GEMMKIT_DEVICE=NVIDIA gk_step verify-opencl 45 "$g" --backend opencl verify --math int8x
export GEMMKIT_SEED=38
traced new-opencl-8192 opencl "$g" 8192
traced new-opencl-4096 opencl "$g" 4096
GEMMKIT_DEVICE=NVIDIA gk_step opencl-int8x-8192 45 "$g" --backend opencl bench --kernel best --math int8x --sizes 8192 \
  --repeat 3 --max-time 2 --no-baseline --peers cublas --json "$out/opencl-int8x-8192.json"
gk_step verify-cuda 45 "$g" --backend cuda verify --math int8x
traced new-cuda-8192 cuda "$g" 8192
traced new-cuda-4096 cuda "$g" 4096
wait $oldpid
if [ -x /tmp/old/b/gemmkit ]; then
  traced old-opencl-8192 opencl /tmp/old/b/gemmkit 8192
  traced old-cuda-8192 cuda /tmp/old/b/gemmkit 8192
  traced old-opencl-4096 opencl /tmp/old/b/gemmkit 4096
else gk_log "old build failed"; tail -5 "$out/old-build.log"; fi
IFS=';' read -ra line_list <<<"$LINES"
for params in "${line_list[@]}"; do traced "opencl-$params-8192" opencl "$g" 8192 "$params"; done
{ echo "| line | n | products ms | products TOPS | slicing + recombination ms |"; echo "| --- | --- | --- | --- | --- |"
  printf '%s\n' "${rows[@]}"; } >"$out/products.md"
cat "$out/products.md"
echo "--- verify ---"; tail -12 "$out/verify-opencl.log"; tail -12 "$out/verify-cuda.log"
echo "--- int8x call vs cublas (opencl) ---"; grep -E "GFLOPS|TFLOPS|cublas|int8x|x " "$out/opencl-int8x-8192.log" | tail -10
gk_steps_end
cd "$OUT" && tar czf r.tgz r && rm -rf r
