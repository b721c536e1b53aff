#!/usr/bin/env bash
# Session 10, run C: the cost model's constants recalibrated on the H200 through CUDA with SCALAR_AB (operands
# loaded a float at a time; calibration seed 35), then a fresh draw (seed 8123) through CUDA three times in the
# same run: the built-in constants, the recalibrated ones, and the recalibrated ones without SCALAR_AB.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/c" 585 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
db=$gk_out/calibration-cuda.tsv
gk_step calibrate-cuda 170 "$g" --backend cuda tune --calibrate --verbose --seed 35 --max-time 110 --db "$db"
sed 's/,SCALAR_AB=[0-9.e-]*//' "$db" > "$gk_out/calibration-cuda-no-ab.tsv"
r="--sizes random:64:8123 --repeat 3 --no-baseline --max-time 5 --peers cublas"
gk_step random-builtin 120 "$g" --backend cuda bench $r --json "$gk_out/random-builtin.json"
gk_step random-new 120 env GEMMKIT_TUNING_DB="$db" "$g" --backend cuda bench $r --json "$gk_out/random-new.json"
gk_step random-no-ab 120 env GEMMKIT_TUNING_DB="$gk_out/calibration-cuda-no-ab.tsv" "$g" --backend cuda bench $r \
  --json "$gk_out/random-no-ab.json"
gk_steps_end
(cd "$OUT" && tar czf c.tgz c && rm -rf c)
