#!/usr/bin/env bash
# Session 4, run 6 on the H100: every candidate of the model timed on the first 24 shapes of r3's draw (seed 7373),
# built-in lines (r3's calibration), CUDA: is the choice within 10% of the fastest?
mkdir -p .deps && cp .gpu-deps/*.deb .deps/
SKIP_CALIBRATE=1 SKIP_RANDOM=1 BACKENDS=cuda CANDIDATES=24 CANDIDATE_TIME=420 BUDGET=480 bash bench/cost-model.sh "$OUT/r6" 35 7373 24
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$OUT/r6/gpu.txt" 2>&1
(cd "$OUT" && tar czf r6.tgz r6 && cp r6/steps.log steps-r6.log && rm -rf r6)
