#!/usr/bin/env bash
# Session 18, run 1: where transposes and batched stand on the H200 (bench/transpose-batched.sh, fresh seed),
# int8x's accuracy with the moduli rule of session 17 (phi 0-4, n = 4096) and its speed at 9 and 10 moduli.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r1" 560 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
JOBS=14 GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
export GEMMKIT_DEVICE=NVIDIA
gk_step tb 290 env BUDGET=280 BUILD="$PWD/build-r" SEED=4107 CANDIDATES=0 REPEAT=5 bench/transpose-batched.sh "$gk_out/tb"
export PYTHONPATH="$PWD/python" GEMMKIT_LIBRARY="$PWD/build-r/libgemmkit.so"
gk_step accuracy 90 python3 bench/ozaki_accuracy.py --backend cuda --n 4096 --moduli 8,9,10,12 --seed 4108
for m in 8 9 10; do
  gk_step int8x-$m 40 env GEMMKIT_OZAKI_MODULI=$m "$g" --backend cuda bench --kernel best --math int8x \
    --sizes 4096,8192 --repeat 3 --max-time 2 --no-baseline --peers cublas --json "$gk_out/int8x-$m.json"
done
gk_steps_end
cd "$OUT" && tar czf r1.tar.gz r1
