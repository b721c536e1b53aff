#!/usr/bin/env bash
# one-off (untracked): does splitting off the last partial wave of tiles (as a split-K tail) pay?
set -u
. bench/gpu-env.sh >/dev/null 2>&1
gk_steps_begin /tmp/tail-steps 500 >/dev/null 2>&1
GK_TARGETS=gemmkit_cli gk_build build-gpu >/dev/null 2>&1 || { echo build failed; exit 1; }
g=build-gpu/gemmkit
T="TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=16"
for b in opencl cuda; do
  echo "=== $b"
  $g --backend $b bench --sizes 4096,8192 --repeat 10 --no-baseline --peers cublas --quiet 2>&1 | grep -E "^(best|cublas)"
  $g --backend $b bench --sizes 4096x3072x4096,8192x7808x8192 --repeat 10 --no-baseline --no-peers --quiet 2>&1 | grep -E "^best"
  for p in "$T,ASYNC_STAGES=3,SPLITS=3" "$T,SPLITS=3" "$T,ASYNC_STAGES=3,SPLITS=2" "TSM=128,TSN=128,TSK=8,WPTM=8,WPTN=8,SPLITS=3"; do
    $g --backend $b bench --kernel xgemm-direct-splitk --params $p --sizes 4096x1024x4096 --repeat 10 --no-baseline --no-peers --quiet 2>&1 | grep -E "^xgemm"
  done
  for p in "$T,ASYNC_STAGES=3,SPLITS=2" "$T,SPLITS=2"; do
    $g --backend $b bench --kernel xgemm-direct-splitk --params $p --sizes 8192x384x8192 --repeat 10 --no-baseline --no-peers --quiet 2>&1 | grep -E "^xgemm"
  done
  $g --backend $b bench --kernel xgemm-splitk --params "$T,SWIZZLE=16,SPLITS=3$([ $b = cuda ] && echo ,ASYNC_STAGES=3)" --sizes 4096x1024x4096 --repeat 10 --no-baseline --no-peers --quiet 2>&1 | grep -E "^xgemm"
done
