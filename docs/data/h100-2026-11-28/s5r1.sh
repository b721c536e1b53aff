#!/usr/bin/env bash
# Session 5, run 1 on the H100: test_cl_enqueue again and again (r7's wrong result on NVIDIA's OpenCL: 37x22x45 TT,
# offsets 3/11/7), the OpenCL driver's floor under a small call (cl_floor), the cost model recalibrated with the
# memory-latency term (seed 35), then every candidate timed on a fresh draw (seed 4242, its first 30 shapes, CUDA).
set -uo pipefail
mkdir -p .deps && cp .gpu-deps/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r1" 575 || exit 2
GK_TARGETS="gemmkit_cli gemmkit_cl_floor test_cl_enqueue test_xgemm_direct" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
gk_step cl-floor-4k 30 build-r/cl_floor 500 4096
gk_step cl-floor-64k 30 build-r/cl_floor 500 65536
gk_step cl-enqueue-loop 100 bash s5loop.sh build-r/tests/test_cl_enqueue "$gk_out"
gk_step xgemm-direct-tests 90 build-r/tests/test_xgemm_direct
db=$gk_out/tuning.tsv
for b in cuda opencl; do
  gk_step "calibrate-$b" 140 "$g" --backend $b tune --calibrate --verbose --seed 35 --max-time 95 --db "$db"
done
export GEMMKIT_TUNING_DB=$db
gk_step candidates-cuda 290 "$g" --backend cuda bench --sizes random:30:4242 --repeat 3 --no-baseline --max-time 10 \
  --candidates --candidates-out "$gk_out/candidates-cuda.tsv"
gk_steps_end
cp "$db" "$OUT/tuning-r1.tsv"; cp "$gk_out/steps.log" "$OUT/steps-r1.log"
(cd "$OUT" && tar czf r1.tgz r1 && rm -rf r1)
