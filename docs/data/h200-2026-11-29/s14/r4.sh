#!/usr/bin/env bash
# Session 14, run 4: the three tests that failed in run 3, again with GEMMKIT_MATH=int8x, on the tree of the fixes;
# OpenCL on the default device (no GEMMKIT_DEVICE, as bench/gpu-tests.sh runs it), then CUDA.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r4" 200 || exit 2
gk_step build 90 make build || { tail -30 "$gk_out/build.log" >&2; exit 1; }
T="^(cli_convention|cli_tune_variant_bad_usage|cli_bench_interleave)$"
gk_step int8x-opencl 60 env GEMMKIT_MATH=int8x ctest --test-dir build --output-on-failure -j 3 -R "$T"
gk_step int8x-cuda 60 env GEMMKIT_MATH=int8x GEMMKIT_BACKEND=cuda ctest --test-dir build --output-on-failure -j 3 -R "$T"
grep -hE "tests passed|\(Failed\)|^FAIL" "$gk_out"/int8x-*.log >&2
gk_steps_end
cd "$OUT" && tar czf r4.tar.gz r4
