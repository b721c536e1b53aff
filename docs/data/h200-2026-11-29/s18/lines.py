#!/usr/bin/env python3
"""Lines by name beside cuBLAS (runs r2, r4): for PREFIX-BACKEND-BATCH.json.gz, per shape cuBLAS / each line's call
time (#1..#N in the order of the run's --params), the best line. usage: cd rN && python3 ../lines.py PREFIX (xb, rb, eb)"""
import gzip,json,glob,sys
def load(f):
    return [r for r in json.load(gzip.open(f))["results"] if r["status"]=="ok"]
pre=sys.argv[1]
for be in ("cuda","opencl"):
    tab={}
    for f in sorted(glob.glob(f"{pre}-{be}*.json.gz")):
        batch=f.split("-")[-1].split(".")[0]
        for r in load(f):
            key=(batch,r["m"],r["n"],r["k"],r["trans"])
            tab.setdefault(key,{})[r["name"]]=r["total_ms"]["median"]*1e3
    print(be, "cuBLAS/line: lines #1..#N")
    for key,v in tab.items():
        c=v["cublas"]
        ours={int(n.split("#")[1]) if "#" in n else 1:t for n,t in v.items() if not n.startswith("cublas") and n!="clblast"}
        bestn=min(ours,key=ours.get)
        print("%6s %4dx%4dx%5d %s "%key + " ".join("%5.2f"%(c/ours[i]) for i in sorted(ours)), " | best #%d %.2fx"%(bestn,c/ours[bestn]), "cublas %.1f us"%c)
