#!/usr/bin/env bash
# Session 17, run c: this tree (xgemm-direct-splitk's sum with a block's loads in flight; the cost lines' SUM)
# against HEAD 391cdc1 (exp/old.tar.gz): the changed kernel's suites on both backends, then a fresh draw
# (random:60:SEED, a seed in no fit) interleaved through BACKEND, cuBLAS beside.
set -uo pipefail
BE=${BE:-cuda} SEED=${SEED:-1129} TESTS=${TESTS:-1}
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/c-$BE" 560 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
old=/tmp/gk-old && rm -rf $old && mkdir -p $old && tar xzf exp/old.tar.gz -C $old
( cd $old && cmake -S . -B build-o -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-o -j 6 --target gemmkit_cli gemmkit >/dev/null ) > "$gk_out/old-build.log" 2>&1 &
JOBS=10 GK_TARGETS="gemmkit_cli gemmkit test_direct_splitk test_xgemm_direct" gk_build "$PWD/build-r" || exit 1
wait
g=$gk_gemmkit
export GEMMKIT_DEVICE=NVIDIA
if [ "$TESTS" = 1 ]; then
  R='^(test_direct_splitk|test_xgemm_direct)$'
  gk_step ctest-opencl 100 ctest --test-dir build-r -R "$R" --output-on-failure -j 8
  gk_step ctest-cuda 100 env GEMMKIT_BACKEND=cuda ctest --test-dir build-r -R "$R" --output-on-failure -j 8
fi
if [ -n "${LARGE:-}" ]; then gk_step large 160 env ONLY="$LARGE" BUDGET=150 bench/large-operands.sh "$gk_out/large" "$g"; fi
gk_step judge-$BE 330 python3 bench/interleave.py --a "$old/build-o/gemmkit --backend $BE" --b "$g --backend $BE" \
  --out "$gk_out/judge-$BE" --chunk 10 --budget 300 -- --sizes random:60:$SEED --repeat 3 --no-baseline --max-time 10 --peers cublas
gk_steps_end
gzip -f "$gk_out"/*/*.json
cd "$OUT" && tar czf c-$BE.tar.gz c-$BE
