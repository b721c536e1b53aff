#!/usr/bin/env bash
# Session 10, run E: the draw of seed 8123 through CUDA and OpenCL with 22d01e4 (exp/before) and with this tree
# (split-K summed in the kernel up to 4 slices), alternating, in the same run.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/e" 440 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
gk_step build-before 60 bash -c "cmake -S exp/before -B build-before -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null && cmake --build build-before -j 16 --target gemmkit_cli >/dev/null"
r="--sizes random:64:8123 --repeat 3 --no-baseline --max-time 5 --peers cublas"
for b in cuda opencl; do
  gk_step random-$b-before 90 env GEMMKIT_QUIET=1 build-before/gemmkit --backend $b bench $r --json "$gk_out/random-$b-before.json"
  gk_step random-$b 90 "$g" --backend $b bench $r --json "$gk_out/random-$b.json"
done
gk_steps_end
(cd "$OUT" && tar czf e.tgz e && rm -rf e)
