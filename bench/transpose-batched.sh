#!/usr/bin/env bash
# Issue 36's transposes and batched rows on the GPU machine, beside cuBLAS in the same run, in one device call:
#   1. a Release build of the command (bench/gpu-env.sh's gk_build);
#   2. per backend (CUDA first, then OpenCL while the budget lasts):
#      - the transposes by policy (`bench --transpose --kernel best --peers cublas`: the policy's kernel and line
#        per shape beside cuBLAS geam, copy-fast beside cuBLAS's copy) on the issue's shapes and on a random draw
#        (transposes.json, random-transposes.json);
#      - the batched rows by policy (`bench --batch B --kernel best --peers cublas`): bench/batched.sh's rows,
#        20000 x 24^3, 1000 x 100^3, 1000 x 200x50x300 and a random draw of batch shapes (batched-*.json);
#      - candidate lines timed by name (`--kernel NAME --params P`, no peers): transpose-fast on aligned squares,
#        transpose-aligned on unaligned shapes, copy-fast at 8192^2 and 20000^2, xgemm-direct-batched and
#        batched-small at 24^3, 100^3 and 200x50x300 (cand-*.json);
#   3. OUTDIR/summary.md (bench/transpose_batched_summary.py): every shape with the kernel and line gemmkit chose,
#      its rate, cuBLAS's and the ratio; every candidate line beside the policy's choice and cuBLAS at its shape.
#
# usage: bench/transpose-batched.sh OUTDIR [ARCHIVE.tar.gz]
#   ARCHIVE: also pack OUTDIR into one file (for the device tool: "$OUT/tb.tar.gz")
# Environment: BUDGET (seconds for the whole script, default 240), BACKENDS (default "cuda opencl"), JOBS (build
#   jobs), BUILD (default build-gpu), REPEAT (default 10), SEED (the random draws', default 3636), CANDIDATES=0:
#   skip the candidate lines, GEMMKIT_DEVICE (OpenCL device, default NVIDIA), QUICK=1: small shapes, for a dry run
#   on a CPU (GEMMKIT_DEVICE=pocl, BACKENDS=opencl).
set -uo pipefail

. "$(dirname "$0")/usage.sh"
gk_usage_check 1 2 "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
archive=${2:-}

. "$root/bench/gpu-env.sh"
export GEMMKIT_DEVICE=${GEMMKIT_DEVICE:-NVIDIA}
gk_steps_begin "$1" "${BUDGET:-240}" || exit 2
out=$gk_out
build=${BUILD:-$root/build-gpu}
GK_TARGETS="gemmkit_cli" gk_build "$build" || exit 1
gemmkit=$gk_gemmkit
repeat=${REPEAT:-10}
seed=${SEED:-3636}
quick=${QUICK:-0}

backends=()
for backend in ${BACKENDS:-cuda opencl}; do
  if [ "$backend" = cuda ] && ! gk_has_cuda "$gemmkit"; then
    gk_log "cuda: skipped, no CUDA device (or gemmkit built without the CUDA backend)"
    continue
  fi
  backends+=("$backend")
done
device_of() { [ "$1" = cuda ] && echo "" || echo "$GEMMKIT_DEVICE"; } # GEMMKIT_DEVICE names an OpenCL device

# The shapes. Transposes: the issue's, then a random draw (rows x cols, each log-uniform in [64, 40000], at most
# 4e8 elements, a third of the edges odd). Batched: bench/batched.sh's rows and the issue's, then a random draw
# grouped by batch (one bench call per batch): M, N, K log-uniform in [4, 320], at most 1 GiB of operands.
if [ "$quick" = 1 ]; then
  transposes=200,64x300,301x77
  rows="30x8 30x16 10x24 5x100 5x200x50x300"
  aligned=256 unaligned=255,131x77 copies=256
  small=24 mid=100,200x50x300 small_batch=10 mid_batch=5
else
  transposes=2000,4096,20000,7777x3333,100x100000,100000x100,8192,1999,4097,5001x3007
  rows="100000x8 100000x16 10000x32 10000x64 1000x128 100x512 16x2048 20000x24 1000x100 1000x200x50x300"
  aligned=2000,4096,8192 unaligned=1999,7777x3333,5001x3007 copies=8192,20000
  small=24 mid=100,200x50x300 small_batch=20000 mid_batch=1000
fi
random_transposes=$(python3 - "$seed" "$quick" <<'EOF'
import math, random, sys
rng = random.Random(int(sys.argv[1]))
quick = sys.argv[2] == "1"
hi, cap = (400, 1e5) if quick else (40000, 4e8)
shapes = []
while len(shapes) < (4 if quick else 14):
    r, c = (int(math.exp(rng.uniform(math.log(64), math.log(hi)))) for _ in range(2))
    if r * c > cap:
        continue
    if rng.random() < 0.34: r |= 1
    shapes.append(f"{r}x{c}")
print(",".join(shapes))
EOF
)
random_batched=$(python3 - "$seed" "$quick" <<'EOF'
import math, random, sys
rng = random.Random(int(sys.argv[1]) + 1)
quick = sys.argv[2] == "1"
groups = {3: 2, 5: 2} if quick else {100: 3, 1000: 4, 10000: 3}
lines = []
for batch, count in groups.items():
    shapes = []
    while len(shapes) < count:
        m, n, k = (int(math.exp(rng.uniform(math.log(4), math.log(320)))) for _ in range(3))
        if batch * (m * k + k * n + m * n) * 4 > 2**30:
            continue
        shapes.append(f"{m}x{n}x{k}")
    lines.append(f"{batch} {','.join(shapes)}")
print("\n".join(lines))
EOF
)
echo "random transposes (seed $seed): $random_transposes" >"$out/shapes.txt"
echo "random batched (seed $((seed + 1)), batch shapes): $(echo "$random_batched" | tr '\n' ';')" >>"$out/shapes.txt"
gk_log "$(cat "$out/shapes.txt")"

# run NAME BACKEND ARGS...: one gemmkit bench call, its JSON as OUTDIR/NAME.json and its table in NAME.log.
run() {
  local name=$1 backend=$2
  shift 2
  GEMMKIT_DEVICE=$(device_of "$backend") gk_step "$name" "${LIMIT:-40}" "$gemmkit" --backend "$backend" bench \
    --repeat "$repeat" --max-time 5 --no-baseline --json "$out/$name.json" "$@"
}

# The policy's choices beside cuBLAS.
policy_runs() {
  local b=$1 row batch sizes
  LIMIT=60 run "$b-transposes" "$b" --transpose --kernel best --peers cublas --sizes "$transposes"
  LIMIT=60 run "$b-random-transposes" "$b" --transpose --kernel best --peers cublas --sizes "$random_transposes"
  for row in $rows; do
    batch=${row%%x*} sizes=${row#*x}
    run "$b-batched-$row" "$b" --batch "$batch" --kernel best --peers cublas --sizes "$sizes"
  done
  while read -r batch sizes; do
    [ -n "$batch" ] && run "$b-random-batched-$batch" "$b" --batch "$batch" --kernel best --peers cublas --sizes "$sizes"
  done <<<"$random_batched"
}

# Candidate lines by name (no peers: the policy runs above give cuBLAS at the same shapes). Each list holds
# whole lines; the registry's defaults fill what a line leaves out.
fast_lines=(
  "TILE=64,VW=4,BLOCK_ROWS=16,TILES=4,GROUPS=2048,ORDER=0,BAND=8"   # the registry's (CUDA has no line)
  "TILE=64,VW=4,BLOCK_ROWS=16,TILES=4,GROUPS=2048,ORDER=2,BAND=8"   # OpenCL's built-in line
  "ORDER=2,BAND=8,MIN_GROUPS=5"                                    # 48 registers (63): 5 groups an SM
  "ORDER=2,BAND=8,TILES=1"
  "ORDER=2,BAND=8,GROUPS=4096"
  "TILE=32,BLOCK_ROWS=8,ORDER=2,BAND=8"
  "BLOCK_ROWS=8,ORDER=2,BAND=8"
)
aligned_lines=(
  "TILE=64,BLOCK_ROWS=8,ALIGN=8,TILES=2,GROUPS=2048,ORDER=2,BAND=8"               # OpenCL's line (150 registers)
  "TILE=64,BLOCK_ROWS=8,ALIGN=8,TILES=2,GROUPS=2048,ORDER=2,BAND=8,MIN_GROUPS=5"  # 91 registers: 5 groups
  "TILE=64,BLOCK_ROWS=16,ALIGN=8,TILES=2,GROUPS=2048,ORDER=2,BAND=8"              # 88 registers: 2 groups
  "TILE=64,BLOCK_ROWS=16,ALIGN=8,TILES=2,GROUPS=2048,ORDER=2,BAND=8,MIN_GROUPS=4" # 62 registers: 4 groups
  "TILE=64,BLOCK_ROWS=8,ALIGN=8,TILES=1,GROUPS=2048,ORDER=2,BAND=8,MIN_GROUPS=5"
)
copy_lines=(
  "TILE=64,VW=4,BLOCK_ROWS=16,TILES=4,GROUPS=2048"  # the registry's (no line on either backend)
  "COPY_PREFETCH=1"
  "COPY_PREFETCH=1,MIN_GROUPS=4"
  "TILES=1"
  "TILES=8"
  "BLOCK_ROWS=8"
)
small_lines=( # xgemm-direct-batched at 24^3 (the policy: its /tiny line, 32x32)
  "TSM=32,TSN=32,TSK=16,WPTM=4,WPTN=4"
  "TSM=24,TSN=24,TSK=12,WPTM=4,WPTN=4"
  "TSM=24,TSN=24,TSK=24,WPTM=4,WPTN=4"
  "TSM=32,TSN=32,TSK=8,WPTM=4,WPTN=4"
  "TSM=32,TSN=32,TSK=16,WPTM=4,WPTN=4,ASYNC_STAGES=2"
  "TSM=32,TSN=32,TSK=16,WPTM=4,WPTN=4,MIN_GROUPS=16"  # 64 registers (72): 16 groups an SM (14)
)
small_lines_bs=( # batched-small at 24^3 (4, 2 and 8 matrices a work-group)
  "ELEMS=2304,RM=4,RN=4"
  "ELEMS=1152,RM=2,RN=4"
  "ELEMS=4608,RM=4,RN=4"
)
mid_lines=( # xgemm-direct-batched at 100^3 and 200x50x300 (the policy: its own line, 64x64 with 8x8, 168 registers)
  "TSM=64,TSN=64,TSK=16,WPTM=8,WPTN=8"
  "TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8"
  "TSM=64,TSN=32,TSK=16,WPTM=4,WPTN=4"
  "TSM=32,TSN=32,TSK=16,WPTM=4,WPTN=4"
  "TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=4"
  "TSM=64,TSN=64,TSK=32,WPTM=8,WPTN=8"
  "TSM=64,TSN=64,TSK=16,WPTM=8,WPTN=8,ASYNC_STAGES=3"
  "TSM=128,TSN=64,TSK=16,WPTM=8,WPTN=8"
  "TSM=64,TSN=64,TSK=16,WPTM=4,WPTN=8,MIN_GROUPS=6"   # 80 registers (96): 6 groups an SM (5)
  "TSM=32,TSN=32,TSK=16,WPTM=4,WPTN=4,MIN_GROUPS=16"
)
candidate_runs() {
  local b=$1 i p
  i=0; for p in "${fast_lines[@]}"; do i=$((i + 1))
    run "$b-cand-transpose-fast-$i" "$b" --transpose --kernel transpose-fast --params "$p" --no-peers --sizes "$aligned"
  done
  i=0; for p in "${copy_lines[@]}"; do i=$((i + 1))
    run "$b-cand-copy-fast-$i" "$b" --transpose --kernel copy-fast --params "$p" --no-peers --sizes "$copies"
  done
  i=0; for p in "${small_lines[@]}"; do i=$((i + 1))
    run "$b-cand-batched-small-xd-$i" "$b" --batch "$small_batch" --kernel xgemm-direct-batched --params "$p" \
      --no-peers --sizes "$small"
  done
  i=0; for p in "${small_lines_bs[@]}"; do i=$((i + 1))
    run "$b-cand-batched-small-bs-$i" "$b" --batch "$small_batch" --kernel batched-small --params "$p" --no-peers \
      --sizes "$small"
  done
  i=0; for p in "${mid_lines[@]}"; do i=$((i + 1))
    run "$b-cand-batched-mid-$i" "$b" --batch "$mid_batch" --kernel xgemm-direct-batched --params "$p" --no-peers \
      --sizes "$mid"
  done
  i=0; for p in "${aligned_lines[@]}"; do i=$((i + 1))
    run "$b-cand-transpose-aligned-$i" "$b" --transpose --kernel transpose-aligned --params "$p" --no-peers \
      --sizes "$unaligned"
  done
}

# CUDA's policy runs and candidates first, then OpenCL's policy runs, then OpenCL's candidates.
for b in "${backends[@]}"; do
  policy_runs "$b"
  [ "${CANDIDATES:-1}" = 1 ] && [ "$b" = cuda ] && candidate_runs "$b"
done
for b in "${backends[@]}"; do
  [ "${CANDIDATES:-1}" = 1 ] && [ "$b" != cuda ] && candidate_runs "$b"
done

python3 "$root/bench/transpose_batched_summary.py" "$out" >"$out/summary.md" 2>"$out/summary.err" ||
  gk_failed+=("summary")
# The logs hold what the JSON holds; keep the tables small for the device tool's file limits.
[ -n "$archive" ] && tar czf "$archive" -C "$out" . && gk_log "packed $out into $archive"
echo
echo "=== issue 36, transposes and batched: results in $out ==="
cat "$out/summary.md" 2>/dev/null
gk_steps_end
