#!/usr/bin/env python3
"""Times skinny-m / skinny-n parameter sets (kernel only, unsplit) on memory-bound shapes whose large operand is
contiguous along K (the kernels' DOT loads) and writes each kernel's fastest (geometric mean of GB/s of the large
operand's read) as its main line, for both backends. usage: skinny_sweep.py GEMMKIT OUTDIR BACKEND PARAMS_FILE (one parameter set a line; the best so far saved after each)"""
import json, math, subprocess, sys, time

gemmkit, out, backend = sys.argv[1:4]
shapes = {
    # skinny-m reads B along K where B is not transposed (NN, TN); skinny-n reads A along K where A is (TN, TT).
    "skinny-m": "10x16648x4401,16x11008x8192:TN,3x30000x8000,7x9991x16522",
    "skinny-n": "16648x10x4401:TN,11008x16x8192:TT,30000x3x8000:TN,5522x1x22521:TN",
}
params = [l.strip() for l in open(sys.argv[4]) if l.strip() and not l.startswith("#")] if len(sys.argv) > 4 else []
best = {}
for kernel, sizes in shapes.items():
    for i, p in enumerate(params):
        js = f"{out}/skinny-{backend}-{kernel}-{i:02d}.json"
        cmd = [gemmkit, "--backend", backend, "bench", "--kernel", kernel, "--params", p, "--sizes", sizes,
               "--repeat", "5", "--no-baseline", "--no-roofline", "--json", js]
        t0 = time.time()
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        gbs = []
        try:
            for x in json.load(open(js))["results"]:
                if x["kind"] == "gemmkit" and x["status"] == "ok":
                    m, n, k = x["m"], x["n"], x["k"]
                    gbs.append(4.0 * (m * k + k * n + m * n) / (x["kernel_ms"]["min"] * 1e6))
        except Exception as e:
            print(f"{kernel} {p}: no results ({e}); rc {r.returncode}: {r.stderr[-400:]}", flush=True)
        cnt = len(sizes.split(","))
        g = math.exp(sum(map(math.log, gbs)) / len(gbs)) if len(gbs) == cnt else 0.0
        print(f"{kernel:9s} {p:36s} geomean {g:6.0f} GB/s  {['%.0f' % v for v in gbs]}  ({time.time()-t0:.1f} s)",
              flush=True)
        if g > best.get(kernel, ("", 0.0))[1]:
            best[kernel] = (p, g)
            with open(f"{out}/skinny-{backend}.tsv", "w") as f:
                for kb, (pb, gb) in best.items():
                    for b in ("cuda", "opencl"):
                        f.write(f"{b}\tarch:sm_90\t{kb}\t{pb}\t{gb:.1f}\t{time.strftime('%Y-%m-%d')}\n")
print(open(f"{out}/skinny-{backend}.tsv").read())
