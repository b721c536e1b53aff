#!/usr/bin/env python3
"""r3's TPG lines beside the library's: measured call ms per shape (bench --candidates, CUDA), cuBLAS from the same
run; usage: python3 tpg.py"""
import csv, gzip, json

rows = list(csv.DictReader(open("r3/cand-cuda.tsv"), delimiter="\t"))
d = json.load(gzip.open("r3/cand-cuda.json.gz"))
cub = {(r["m"], r["n"], r["k"], r["trans"], r["layout"]): r["total_ms"]["median"] for r in d["results"]
       if r["name"] == "cublas" and r["status"] == "ok"}
cols = ["default", "xgemm", "xgemm-direct/mid-n", "xgemm-direct/mid-n-r1", "xgemm-direct/mid-n-t2",
        "xgemm-direct/mid-n-t4", "xgemm-direct/small-r1", "xgemm-direct/small-t2", "xgemm-direct/small-t4",
        "xgemm-direct/mid-m-r1", "xgemm-direct/mid-m-t2", "xgemm-direct/big-t2"]
print("| shape | cuBLAS | " + " | ".join(c.replace("xgemm-direct/", "") for c in cols) + " |")
print("| --- " * (len(cols) + 2) + "|")
shapes = []
for r in rows:
    s = (r["shape"], r["trans"], r["layout"])
    if s not in shapes: shapes.append(s)
for s in shapes:
    m, n, k = map(int, s[0].split("x"))
    got = {r["line"]: float(r["measured_ms"]) for r in rows if (r["shape"], r["trans"], r["layout"]) == s}
    dflt = [r for r in rows if (r["shape"], r["trans"], r["layout"]) == s][0]
    got["default"] = float(dflt["default_ms"])
    cells = ["%.3f" % got[c] if c in got else "-" for c in cols]
    print(f"| {s[0]} {s[1]} {s[2]} | {cub.get((m, n, k, s[1], s[2]), float('nan')):.3f} | " + " | ".join(cells) + " |")
