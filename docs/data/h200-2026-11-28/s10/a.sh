#!/usr/bin/env bash
# Session 10, run A: split-K summed in the kernel (xgemm-direct-splitk) verified on the H200 through both backends
# (gemmkit verify, the split-K and stream tests on the GPU), then the split and mid shapes of seeds 2468 and 1357
# through the library beside cuBLAS, this tree and 22d01e4 (exp/before) in the same run, both backends.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/a" 575 || exit 2
GK_TARGETS="gemmkit_cli test_direct_splitk test_xgemm_direct test_cuda_enqueue test_splitk test_skinny_splitk" \
  gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
gk_step build-before 120 bash -c "cmake -S exp/before -B build-before -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null && cmake --build build-before -j 16 --target gemmkit_cli >/dev/null"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
for b in cuda opencl; do
  gk_step verify-$b 60 "$g" --backend $b verify --kernel xgemm-direct-splitk
  gk_step verify-ring-$b 60 "$g" --backend $b verify --kernel xgemm-direct-splitk \
    --params TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8,ASYNC_STAGES=3,SPLITS=8
done
for t in test_direct_splitk test_xgemm_direct test_splitk test_skinny_splitk; do
  gk_step $t-opencl 60 build-r/tests/$t
  gk_step $t-cuda 60 env GEMMKIT_BACKEND=cuda build-r/tests/$t
done
gk_step test_cuda_enqueue 60 env GEMMKIT_BACKEND=cuda build-r/tests/test_cuda_enqueue
s=$(cat exp/split-shapes.txt)
for b in cuda opencl; do
  gk_step split-$b 70 "$g" --backend $b bench --sizes "$s" --repeat 5 --no-baseline --max-time 5 --peers cublas \
    --json "$gk_out/split-$b.json"
  gk_step split-$b-before 70 env GEMMKIT_QUIET=1 build-before/gemmkit --backend $b bench --sizes "$s" --repeat 5 \
    --no-baseline --max-time 5 --peers cublas --json "$gk_out/split-$b-before.json"
done
gk_steps_end
(cd "$OUT" && tar czf a.tgz a && rm -rf a)
