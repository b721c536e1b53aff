#!/usr/bin/env python3
"""Times each xgemm-direct parameter set of exp/tiles.txt (kernel only, unsplit) on its group's shapes and writes a
tuning database with each group's fastest (geometric mean of kernel GFLOPS) as KERNEL/GROUP lines for both backends.
usage: sweep2.py GEMMKIT OUTDIR BACKEND (exp/tiles2.txt)"""
import gzip, json, math, os, subprocess, sys, time

gemmkit, out, backend = sys.argv[1:4]
SMALL = os.environ.get("SWEEP_SMALL")
shapes = {
    "n96": "16384x96x4096,16384x90x4096:TN",
    "m96": "96x16384x4096,90x16384x4096:TN",
    "n48": "16384x48x4096,16384x42x4096:TN",
    "m48": "48x16384x4096,42x16384x4096:TN",
}
best = {}
rows = []
for i, line in enumerate(l.split() for l in open("exp/tiles2.txt") if l.strip() and not l.startswith("#")):
    group, params = line
    js = f"{out}/sweep-{backend}-{i:02d}.json"
    cmd = [gemmkit, "--backend", backend, "bench", "--kernel", "xgemm-direct", "--params", params, "--sizes",
           shapes[group], "--repeat", "5", "--no-baseline", "--no-roofline", "--json", js]
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    rates = []
    try:
        for x in json.load(open(js))["results"]:
            if x["kind"] == "gemmkit" and x["status"] == "ok":
                rates.append(x["rate"]["kernel"])
    except Exception as e:
        print(f"{group} {params}: no results ({e}); rc {r.returncode}: {r.stderr[-400:]}", flush=True)
    n = len(shapes[group].split(","))
    g = math.exp(sum(map(math.log, rates)) / len(rates)) if len(rates) == n else 0.0
    rows.append((group, params, g, rates))
    print(f"{group:7s} {params:58s} geomean {g:8.0f} GFLOPS  {['%.0f' % v for v in rates]}  ({time.time()-t0:.1f} s)",
          flush=True)
    if g > best.get(group, ("", 0.0))[1]:
        best[group] = (params, g)
with open(f"{out}/tiles2-{backend}.tsv", "w") as f:
    for group, (params, g) in best.items():
        for b in ("cuda", "opencl"):
            f.write(f"{b}\tarch:sm_90\txgemm-direct/{group}\t{params}\t{g:.1f}\t{time.strftime('%Y-%m-%d')}\n")
print(open(f"{out}/tiles2-{backend}.tsv").read())
