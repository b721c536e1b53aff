#!/usr/bin/env bash
# Session 16, run a: skinny_dot.cl's lines with the new PF=1 (each chunk's loads of the large operand one chunk
# ahead) and 8 or 16 rows per work-group, beside the built-in lines, kernel by name (unsplit), on memory-bound
# shapes of one small edge (fit set: session 9's and the draws' 2911/3319 thin shapes); skinny.cl's stream lines
# with more rows; the library's own choice and cuBLAS on the same shapes. CUDA.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/a" 570 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
MD="10x16648x4401,16x11008x8192:TN,3x30000x8000,7x9991x16522,14x5120x32000,4x44327x9124,4x15919x5660:TN,1x32000x8192,22902x13x5093:NT:row,12x20000x3000,8x50000x2048"
ND="16648x10x4401:TN,11008x16x8192:TT,30000x3x8000:TN,5522x1x22521:TN,5120x14x32000:TN,44327x4x9124:TT,15919x4x5660:TT,32000x1x8192:TN,14x9361x25807:NT:row,20000x12x3000:TN"
MS="11x2880x2737:NT,8565x14x707:TN:row,12x10539x14408:NT,9x20000x8000:NT,16x30000x4000:NT,5x40000x6000:NT"
NS="2880x11x2737,10539x12x14408,20000x9x8000,30000x16x4000,40000x5x6000"
P=""
for s in MR=4,KL=8,CL=16,NB=2,U=4 MR=4,KL=8,CL=16,NB=2,U=4,PF=1 MR=8,KL=8,CL=16,NB=2,U=4,PF=1 MR=16,KL=8,CL=16,NB=2,U=4,PF=1 \
  MR=8,KL=8,CL=16,NB=2,U=2,PF=1 MR=16,KL=8,CL=16,NB=1,U=4,PF=1 MR=4,KL=8,CL=32,NB=2,U=4,PF=1 MR=8,KL=16,CL=8,NB=2,U=2,PF=1 \
  MR=16,KL=16,CL=8,NB=2,U=2,PF=1 MR=8,KL=8,CL=16,NB=4,U=2,PF=1 MR=16,KL=4,CL=32,NB=2,U=2,PF=1 MR=8,KL=32,CL=4,NB=4,U=2,PF=1; do
  P="$P --params $s"; done
Q=""
for s in MR=4,KL=32,CL=4,NB=4,U=2 MR=4,KL=32,CL=4,NB=4,U=2,PF=1 MR=8,KL=32,CL=4,NB=4,U=2,PF=1 MR=16,KL=32,CL=4,NB=2,U=2,PF=1 \
  MR=16,KL=32,CL=4,NB=4,U=2,PF=1 MR=4,KL=8,CL=16,NB=2,U=4,PF=1 MR=8,KL=8,CL=16,NB=2,U=4,PF=1 MR=16,KL=8,CL=16,NB=2,U=4,PF=1 \
  MR=8,KL=16,CL=8,NB=4,U=2,PF=1 MR=16,KL=16,CL=8,NB=2,U=2,PF=1 MR=4,KL=32,CL=8,NB=2,U=4,PF=1; do
  Q="$Q --params $s"; done
R=""
for s in MR=4,LC=32,LK=8,NB=2,KU=8,PF=1 MR=8,LC=32,LK=8,NB=2,KU=8,PF=1 MR=16,LC=32,LK=8,NB=2,KU=8,PF=1 \
  MR=8,LC=32,LK=8,NB=4,KU=4,PF=1 MR=16,LC=32,LK=4,NB=2,KU=8,PF=1 MR=8,LC=64,LK=4,NB=2,KU=8,PF=1; do
  R="$R --params $s"; done
B="--repeat 3 --no-baseline --max-time 1"
gk_step mdot 170 "$g" --backend cuda bench --kernel skinny-m-dot $P --sizes "$MD" $B --json "$gk_out/mdot.json"
gk_step ndot 160 "$g" --backend cuda bench --kernel skinny-n-dot $Q --sizes "$ND" $B --json "$gk_out/ndot.json"
gk_step mstream 60 "$g" --backend cuda bench --kernel skinny-m $R --sizes "$MS" $B --json "$gk_out/mstream.json"
gk_step nstream 60 "$g" --backend cuda bench --kernel skinny-n $R --sizes "$NS" $B --json "$gk_out/nstream.json"
gk_step best 70 "$g" --backend cuda bench --sizes "$MD,$ND,$MS,$NS" $B --peers cublas --json "$gk_out/best.json"
gk_steps_end
gzip -f "$gk_out"/*.json
cd "$OUT" && tar czf a.tar.gz a
