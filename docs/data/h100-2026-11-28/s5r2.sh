#!/usr/bin/env bash
# Session 5, run 2 on the H100: the built-in lines of r1's calibration judged on a fresh draw (seed 5151, 64 shapes)
# beside cuBLAS on both backends, one call's wall time at 32^3 / 128^3 / 1024^3, the drop-in's small calls, and the
# fixed sweep on both backends as a regression set.
mkdir -p .deps && cp .gpu-deps/*.deb .deps/
SKIP_CALIBRATE=1 CALL_TIME=1 DROPIN=1 FIXED=1 BUDGET=570 bash bench/cost-model.sh "$OUT/r2" 35 5151 64
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$OUT/r2/gpu.txt" 2>&1
gzip -f "$OUT"/r2/*.json
cp "$OUT/r2/steps.log" "$OUT/steps-r2.log"
(cd "$OUT" && tar czf r2.tgz r2 && rm -rf r2)
