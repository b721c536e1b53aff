#!/usr/bin/env bash
# Session 14, run 2: int8x (and 3xTF32) served by fp32 at short K. Fit: the K at which fp32 stops beating the
# 3xTF32 kernels int8x runs there (16384^2 by K, and the first 20 shapes of >= 2^33 multiply-adds with K <= 128 drawn
# from random:200:9901..9930); judge: the last 24 of them, not fitted, with the threshold the fit picked.
set -uo pipefail
mkdir -p .deps && cp .deps-lean/*.deb .deps/
. bench/gpu-env.sh
gk_steps_begin "$OUT/r2" 470 || exit 2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$gk_out/gpu.txt" 2>&1
GK_TARGETS="gemmkit_cli gemmkit" gk_build "$PWD/build-r" || exit 1
g=$gk_gemmkit
pol=src/kernels/tuning/policy.tsv
sed "/^gemm\tmath\tgpu\tfp32\t/s/\&\& K <= 32\t/\&\& K <= 128\t/" $pol > "$gk_out/p128.tsv"
grep -v "^gemm	math	gpu	fp32	" $pol > "$gk_out/p0.tsv"
grep -c "K <= 128" "$gk_out/p128.tsv" >&2
FIT="16384x16384x8,16384x16384x16,16384x16384x24,16384x16384x32,16384x16384x48,16384x16384x64,16384x16384x96,16384x16384x128,5495x27098x116:NT:col,29851x17196x58:NT:col,21688x33251x52:TT:col,26744x10547x59:NN:col,11875x27715x119:NT:col,39473x9135x28:TN:col,26779x10385x39:NT:col,17348x17971x115:NN:col,26351x26917x16:TT:col,25737x21254x28:NT:col,17595x28894x44:TT:row,39343x10073x74:NN:row,19420x28605x79:NT:row,24828x30312x73:NT:col,15633x38028x98:TN:row,20546x28846x16:NT:row,9571x12889x77:NT:col,22551x6187x71:TT:col,15618x14101x43:TN:row,24231x21066x25:TN:col"
JUDGE="6179x33364x82:TT:col,36010x17432x72:TN:col,23341x22430x108:NN:col,13990x39161x113:NT:row,22316x6804x68:TN:col,19854x36278x82:TN:col,36311x15342x113:NN:col,24026x16857x27:TN:col,5528x30224x66:TN:row,25817x9962x89:TT:col,4892x34912x88:TT:row,19843x13905x81:TN:col,34692x9719x81:NN:row,38363x18944x101:TN:row,32137x30156x20:NN:col,24981x24808x33:TT:col,11150x21883x86:NT:col,27833x7486x42:NN:col,5089x22363x109:NT:col,31622x31945x13:TT:row,36095x21461x38:TN:col,36117x25168x17:TT:row,26438x22165x16:NN:col,38463x25145x15:TN:row"
B="--repeat 3 --max-time 2 --no-baseline"
GEMMKIT_POLICY="$gk_out/p128.tsv" gk_step fit-fp32 110 "$g" --backend cuda bench --kernel best --math int8x --sizes "$FIT" $B --peers cublas --json "$gk_out/fit-fp32.json"
GEMMKIT_POLICY="$gk_out/p0.tsv" gk_step fit-tc 90 "$g" --backend cuda bench --kernel best --math int8x --sizes "$FIT" $B --json "$gk_out/fit-tc.json"
T=$(python3 exp/pick_t.py "$gk_out/fit-fp32.json" "$gk_out/fit-tc.json" 2> "$gk_out/pick.txt")
gk_log "threshold picked: K <= $T"
sed "/^gemm\tmath\tgpu\tfp32\t/s/\&\& K <= 32\t/\&\& K <= ${T:-32}\t/" $pol > "$gk_out/pT.tsv"
GEMMKIT_POLICY="$gk_out/pT.tsv" gk_step judge-cuda 110 "$g" --backend cuda bench --kernel best --math int8x --sizes "$JUDGE" $B --peers cublas --json "$gk_out/judge-cuda.json"
GEMMKIT_POLICY="$gk_out/p0.tsv" gk_step judge-tc 80 "$g" --backend cuda bench --kernel best --math int8x --sizes "$JUDGE" $B --json "$gk_out/judge-tc.json"
O="16384x16384x16,16384x16384x32,16384x16384x64,39473x9135x28:TN:col,26744x10547x59:NN:col,17595x28894x44:TT:row"
GEMMKIT_DEVICE=NVIDIA GEMMKIT_POLICY="$gk_out/p128.tsv" gk_step ocl-fp32 40 "$g" --backend opencl bench --kernel best --math int8x --sizes "$O" $B --peers cublas --json "$gk_out/ocl-fp32.json"
GEMMKIT_DEVICE=NVIDIA GEMMKIT_POLICY="$gk_out/p0.tsv" gk_step ocl-tc 40 "$g" --backend opencl bench --kernel best --math int8x --sizes "$O" $B --json "$gk_out/ocl-tc.json"
gk_steps_end
cd "$OUT" && tar czf r2.tar.gz r2
