#!/usr/bin/env python3
"""Transposes judge (runs r5, r6): tr-A*.json.gz (4ca4bfc) against tr-B*.json.gz (this tree) through CUDA, each beside
cuBLAS of its own run (the fastest of a side's repeats where it ran twice): per shape the ratio to cuBLAS and the
kernel of each side, B's speed over A's; geomeans. usage: python3 judge_transposes.py rN"""
import glob, gzip, json, math, sys

def gm(x): return math.exp(sum(map(math.log, x)) / len(x))
t = {}
for f in sorted(glob.glob(f"{sys.argv[1]}/tr-*.json.gz")):
    side = f.split("/")[-1].split("-")[1].split(".")[0]
    for r in json.load(gzip.open(f))["results"]:
        if r["status"] == "ok":
            t.setdefault((r["m"], r["n"]), {}).setdefault((side, r["name"]), []).append((r["total_ms"]["median"], r.get("resolved", "")))
ra, rb, own = [], [], []
for k, v in t.items():
    a, b = min(x[0] for x in v[("A", "best")]), min(x[0] for x in v[("B", "best")])
    ca, cb = min(x[0] for x in v[("A", "cublas")]), min(x[0] for x in v[("B", "cublas")])
    ra.append(ca / a), rb.append(cb / b), own.append(a / b)
    print("%6dx%6d A %.2fx %-17s B %.2fx %-17s B/A %.2f" % (k[0], k[1], ca / a, v[("A", "best")][0][1], cb / b, v[("B", "best")][0][1], a / b))
print("A %.3fx (min %.2f, under 1.0: %d)  B %.3fx (min %.2f, under 1.0: %d)  B/A %.3f  (%d shapes)" % (
    gm(ra), min(ra), sum(x < 1 for x in ra), gm(rb), min(rb), sum(x < 1 for x in rb), gm(own), len(ra)))
