#!/usr/bin/env bash
# Session 4, run 1 on the H100: the skinny kernels' new group order and PF, small-k on unaligned C (SCALAR_C),
# then a fresh draw (seed 6161) and the fixed sweep beside cuBLAS on both backends.
set -uo pipefail
mkdir -p .deps && cp .gpu-deps/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r1" 580 || exit 2
GK_TARGETS="gemmkit_cli" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
strip="MR=4,LC=8,LK=32,NB=1,KU=8"
for b in cuda opencl; do
  gk_step "verify-$b-skinny" 60 "$g" --backend $b verify --kernel skinny-n
  gk_step "verify-$b-skinny-pf" 60 "$g" --backend $b verify --kernel skinny-n --params "$strip,PF=1"
  gk_step "verify-$b-skinny-m-pf" 60 "$g" --backend $b verify --kernel skinny-m --params "$strip,PF=1"
  gk_step "verify-$b-skinny-n-splitk" 60 "$g" --backend $b verify --kernel skinny-n-splitk
  gk_step "verify-$b-small-k" 60 "$g" --backend $b verify --kernel small-k
done
dot="29741x9x18749:TN,1x9027x13238:TT:row,880x1x8960:TT,8x7601x601:TT:row,4096x16x4096:TN,20000x11x8000:TN,16384x1x16384:TN,9027x1x13238:TN"
stream="29741x9x18749,16384x1x16384,4096x16x4096,20000x11x8000"
i=0
for p in "$strip" "$strip,PF=1" "MR=8,LC=8,LK=32,NB=1,KU=8,PF=1" "MR=16,LC=8,LK=32,NB=1,KU=8,PF=1" "$strip,KU=16,PF=1" "MR=4,LC=4,LK=64,NB=1,KU=8,PF=1"; do
  i=$((i+1))
  gk_step "skinny-$i" 60 "$g" --backend cuda bench --kernel skinny-n --params "$p" --sizes "$dot,$stream" --repeat 5 --no-baseline --peers cublas --no-roofline
done
gk_step "skinny-best" 60 "$g" --backend cuda bench --sizes "$dot,$stream" --repeat 5 --no-baseline --peers cublas
shortk="3825x31286x1:NN:row,19112x28778x3:NN:row,14021x7235x1:TT,3217x3571x1:TT,2331x4561x7,8192x8192x4,8194x8192x4"
for b in cuda opencl; do
  gk_step "shortk-best-$b" 60 "$g" --backend $b bench --sizes "$shortk" --repeat 5 --no-baseline --peers cublas
  gk_step "shortk-direct-$b" 60 "$g" --backend $b bench --kernel xgemm-direct --sizes "$shortk" --repeat 5 --no-baseline --no-peers --no-roofline
  gk_step "shortk-smallk-$b" 60 "$g" --backend $b bench --kernel small-k --sizes "$shortk" --repeat 5 --no-baseline --no-peers --no-roofline
done
for b in cuda opencl; do
  gk_step "random-$b" 200 "$g" --backend $b bench --sizes random:64:6161 --repeat 3 --no-baseline --max-time 10 --peers cublas --json "$gk_out/random-$b.json"
done
gzip -f "$gk_out"/*.json 2>/dev/null
gk_steps_end
