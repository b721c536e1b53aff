#!/usr/bin/env python3
"""Session 4 run 2: picks each skinny kernel's fastest configuration per access mode from the bench JSONs
(geometric mean of the call time over the mode's shapes) and writes them as tuning lines:
  skinny-m/stream, skinny-n/stream (the long operand contiguous along the long edge), and the strip lines
  (skinny-m/strip, skinny-n/strip: contiguous along K) when one beats the built-in strip configuration.
usage: s4pick.py OUTDIR DB  (OUTDIR holds KERNEL-MODE-I.json.gz and KERNEL-MODE-I.params)"""
import glob, gzip, json, math, os, sys, datetime

out, db = sys.argv[1], sys.argv[2]
best = {}
report = []
for f in sorted(glob.glob(os.path.join(out, "*.json.gz"))):
    stem = os.path.basename(f)[:-8]
    if stem.count("-") < 3 or not stem.startswith("skinny"):
        continue
    kernel, mode = stem.rsplit("-", 2)[0], stem.rsplit("-", 2)[1]
    params = open(os.path.join(out, stem + ".params")).read().strip()
    rows = [r for r in json.load(gzip.open(f))["results"] if r["kind"] == "gemmkit"]
    ok = [r for r in rows if r["status"] == "ok"]
    if not rows or len(ok) != len(rows):
        report.append(f"{kernel} {mode} {params}: {len(rows) - len(ok)} failed")
        continue
    g = math.exp(sum(math.log(r["total_ms"]["median"]) for r in ok) / len(ok))
    report.append(f"{kernel} {mode} {params}: geomean {g:.4f} ms over {len(ok)} shapes")
    if (kernel, mode) not in best or g < best[(kernel, mode)][0]:
        best[(kernel, mode)] = (g, params)
print("\n".join(report))
today = datetime.date.today().isoformat()
strip = "MR=4,LC=8,LK=32,NB=1,KU=8"
lines = []
for (kernel, mode), (g, params) in sorted(best.items()):
    print(f"best {kernel} {mode}: {params} ({g:.4f} ms)")
    name = f"{kernel}/stream" if mode == "stream" else f"{kernel}/strip"
    if mode == "dot" and params == strip:
        continue
    for backend in ("cuda", "opencl"):
        lines.append(f"{backend}\tarch:sm_90\t{name}\t{params}\t0\t{today}")
with open(db, "a") as f:
    if os.path.getsize(db) == 0 if os.path.exists(db) else True:
        f.write("# gemmkit tuning database: backend, device, kernel, params, score (GFLOPS or GB/s), date (tab-separated)\n")
    for l in lines:
        f.write(l + "\n")
print("\n".join(lines))
