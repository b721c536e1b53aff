#!/usr/bin/env bash
# Session 4, run 4 on the H100: the Release suite on both backends (fp32), then (run 5) with GEMMKIT_MATH=int8x.
mkdir -p .deps && cp .gpu-deps/*.deb .deps/
name=${1:-r4}
BUDGET=${BUDGET:-470} bench/gpu-tests.sh --no-sanitize --no-large "$OUT/$name"
rc=$?
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$OUT/$name/gpu.txt" 2>&1
git log -1 --format=%H > "$OUT/$name/commit.txt"
(cd "$OUT" && tar czf "$name.tgz" "$name" && cp "$name/steps.log" "steps-$name.log" && rm -rf "$name")
exit $rc
