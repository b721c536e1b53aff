#!/usr/bin/env bash
# Wall time of one SGEMM call as a program waits for it (issue 35's per-call cost): gemmkit's
# build/call_time (gemmkit_sgemm on host arrays, gemmkit_sgemm_buffers on device buffers; median of
# REPEAT calls) on both backends, beside cuBLAS through PyTorch in the same run (torch.mm on device
# tensors, then torch.cuda.synchronize(), the same wait gemmkit's blocking call makes; and host tensors
# copied in and out, as gemmkit_sgemm does), and, given BASELINE.tar.gz (`git archive` of an older
# commit), the same calls of that build: rounds alternate the builds so that load falls on both alike.
#
#   bench/call-overhead.sh OUTDIR [BASELINE.tar.gz]
#
# Environment: SIZES (default 32,128,1024), REPEAT (default 500), ROUNDS (default 2).
# The machine's setup (NVIDIA's OpenCL driver, carried packages) is bench/gpu-env.sh's.
set -uo pipefail
out=${1:?usage: bench/call-overhead.sh OUTDIR [BASELINE.tar.gz]}
baseline=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/gpu-env.sh"
gk_steps_begin "$out" "${BUDGET:-540}" || exit 2
sizes=${SIZES:-32,128,1024} repeat=${REPEAT:-500} rounds=${ROUNDS:-2}

builds=(after)
gk_step build-after 240 cmake -S "$root" -B "$root/build-overhead" -DCMAKE_BUILD_TYPE=Release \
  ${CMAKE_PREFIX_PATH:+-DCMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH} || exit 1
gk_step build-after-2 240 cmake --build "$root/build-overhead" -j "$(nproc)" --target gemmkit_call_time || exit 1
declare -A tool=([after]=$root/build-overhead/call_time)
if [ -n "$baseline" ]; then
  before_src=$(mktemp -d)
  tar xzf "$baseline" -C "$before_src" || exit 1
  gk_step build-before 300 bash -c "cmake -S '$before_src' -B '$before_src/build' -DCMAKE_BUILD_TYPE=Release \
    ${CMAKE_PREFIX_PATH:+-DCMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH} >/dev/null && \
    cmake --build '$before_src/build' -j $(nproc) --target gemmkit_call_time" || exit 1
  tool[before]=$before_src/build/call_time
  builds=(before after)
fi

results=$gk_out/calls.tsv
printf 'round\tbuild\tbackend\tcall\tn\tmedian_us\n' >"$results"
for round in $(seq 1 "$rounds"); do
  order=("${builds[@]}")
  [ $((round % 2)) = 0 ] && order=($(printf '%s\n' "${builds[@]}" | tac))
  for build in "${order[@]}"; do
    for backend in opencl cuda; do
      for n in ${sizes//,/ }; do
        GEMMKIT_BACKEND=$backend timeout 120 "${tool[$build]}" "$n" "$repeat" 2>>"$gk_out/call_time.log" |
          awk -v r="$round" -v b="$build" -v be="$backend" '{ printf "%s\t%s\t%s\t%s\t%s\t%s\n", r, b, be, $1, $2, $3 }' \
            >>"$results"
      done
    done
  done
  python3 - "$sizes" "$repeat" "$round" >>"$results" 2>>"$gk_out/torch.log" <<'PY'
import statistics, sys, time
import torch
sizes, repeat, rnd = [int(s) for s in sys.argv[1].split(",")], int(sys.argv[2]), sys.argv[3]
torch.backends.cuda.matmul.allow_tf32 = False
for n in sizes:
    a, b = torch.rand(n, n, device="cuda"), torch.rand(n, n, device="cuda")
    ha, hb = a.cpu(), b.cpu()
    for name, call in (("buffers", lambda: torch.mm(a, b)),
                       ("host", lambda: torch.mm(ha.cuda(), hb.cuda()).cpu())):
        call(); torch.cuda.synchronize()
        times = []
        for _ in range(repeat):
            t = time.perf_counter(); call(); torch.cuda.synchronize(); times.append((time.perf_counter() - t) * 1e6)
        print(f"{rnd}\tcublas\tcuda\t{name}\t{n}\t{statistics.median(times):.1f}")
PY
done
python3 - "$results" <<'PY' | tee "$gk_out/summary.txt"
import collections, csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
t = collections.defaultdict(list)
for r in rows:
    t[(r["build"], r["backend"], r["call"], int(r["n"]))].append(float(r["median_us"]))
print(f"{'build':8} {'backend':8} {'call':8} {'n':>6} {'wall us (median of rounds)':>28} {'/ cuBLAS':>9}")
for key in sorted(t):
    v = statistics.median(t[key])
    ref = t.get(("cublas", "cuda", key[2], key[3]))
    ratio = f"{v / statistics.median(ref):.2f}x" if ref else "-"
    print(f"{key[0]:8} {key[1]:8} {key[2]:8} {key[3]:6} {v:28.1f} {ratio:>9}")
PY
gk_steps_end
