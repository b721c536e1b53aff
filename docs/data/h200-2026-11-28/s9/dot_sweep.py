#!/usr/bin/env python3
"""Times skinny-m-dot / skinny-n-dot parameter sets (kernel only, unsplit) beside skinny-m / skinny-n on their
current lines, on memory-bound shapes whose large operand is contiguous along K; writes each new kernel's fastest set
(geometric mean of GB/s of A + B + C) as its main line for both backends. usage: dot_sweep.py GEMMKIT OUTDIR BACKEND [SETS_FILE]
(SETS_FILE: lines "KERNEL PARAMS"; without it, round 1's sets on both new kernels and the two references)"""
import json, math, subprocess, sys, time

gemmkit, out, backend = sys.argv[1:4]
shapes = {
    "m": "10x16648x4401,16x11008x8192:TN,3x30000x8000,7x9991x16522,14x5120x32000,4x44327x9124,4x15919x5660:TN,1x32000x8192",
    "n": "16648x10x4401:TN,11008x16x8192:TT,30000x3x8000:TN,5522x1x22521:TN,5120x14x32000:TN,44327x4x9124:TT,15919x4x5660:TT,32000x1x8192:TN",
}
sets = ["MR=4,KL=32,CL=4,NB=2,U=4", "MR=4,KL=32,CL=8,NB=2,U=4", "MR=4,KL=32,CL=4,NB=4,U=2", "MR=4,KL=16,CL=8,NB=2,U=4",
        "MR=4,KL=8,CL=16,NB=2,U=4", "MR=4,KL=32,CL=2,NB=4,U=4", "MR=8,KL=32,CL=4,NB=2,U=4", "MR=8,KL=16,CL=8,NB=2,U=2",
        "MR=16,KL=32,CL=4,NB=2,U=2", "MR=16,KL=32,CL=8,NB=1,U=4", "MR=16,KL=16,CL=8,NB=1,U=4", "MR=2,KL=32,CL=4,NB=4,U=4",
        "MR=4,KL=32,CL=4,NB=2,U=8", "MR=8,KL=32,CL=8,NB=1,U=4"]
runs = []
if len(sys.argv) > 4:
    runs = [tuple(l.split(None, 1)) if len(l.split()) > 1 else (l.strip(), None)
            for l in open(sys.argv[4]) if l.strip() and not l.startswith("#")]
for edge in ("m", "n") if not runs else ():
    runs.append((f"skinny-{edge}", None))          # its line as the database has it (the reference)
    runs.append((f"skinny-{edge}", "MR=4,LC=8,LK=32,NB=1,KU=8"))  # the /strip line's set
    runs += [(f"skinny-{edge}-dot", p) for p in sets]
best, rows = {}, []
for i, (kernel, p) in enumerate(runs):
    sizes = shapes[kernel.split("-")[1]]
    p = p.strip() if p else None
    js = f"{out}/sweep-{backend}-{i:02d}.json"
    cmd = [gemmkit, "--backend", backend, "bench", "--kernel", kernel, "--sizes", sizes, "--repeat", "5",
           "--no-baseline", "--no-roofline", "--json", js] + (["--params", p] if p else [])
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=150)
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
    line = f"{kernel:13s} {p or '(its line)':28s} geomean {g:6.0f} GB/s  {' '.join('%.0f' % v for v in gbs)}  ({time.time()-t0:.1f} s)"
    print(line, flush=True)
    rows.append(line)
    if kernel.endswith("-dot") and g > best.get(kernel, ("", 0.0))[1]:
        best[kernel] = (p, g)
        with open(f"{out}/dot-{backend}.tsv", "w") as f:
            for kb, (pb, gb) in best.items():
                for b in ("cuda", "opencl"):
                    f.write(f"{b}\tarch:sm_90\t{kb}\t{pb}\t{gb:.1f}\t{time.strftime('%Y-%m-%d')}\n")
print(open(f"{out}/dot-{backend}.tsv").read())
