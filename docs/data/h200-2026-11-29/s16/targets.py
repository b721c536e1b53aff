#!/usr/bin/env python3
"""Issue 36's targets on an interleaved judge (bench/interleave.py's A.json/B.json): each side against cuBLAS of its
own chunks, call and wall geomean, shapes under 0.90x / 0.80x, the roofline geomean over shapes of >= 2^27
multiply-adds, and memory-bound shapes (an edge or K <= 16, >= 2^24 multiply-adds): fraction of their roofline.
usage: targets.py DIR..."""
import gzip, json, math, sys
def gm(x): return math.exp(sum(map(math.log, x)) / len(x)) if x else float("nan")
for d in sys.argv[1:]:
    for side in ("A", "B"):
        res = json.load(gzip.open(f"{d}/{side}.json.gz"))["results"]
        t = {}
        for r in res:
            if r["status"] == "ok":
                t.setdefault((r["m"], r["n"], r["k"], r["trans"], r["layout"]), {})[r["name"]] = r
        ks = [k for k in t if "best" in t[k] and "cublas" in t[k]]
        call = [t[k]["cublas"]["total_ms"]["median"] / t[k]["best"]["total_ms"]["median"] for k in ks]
        wall = [t[k]["cublas"]["host_ms"]["median"] / t[k]["best"]["host_ms"]["median"] for k in ks]
        big = [k for k in ks if k[0] * k[1] * k[2] >= 2 ** 27]
        mem = [k for k in ks if min(k[0], k[1], k[2]) <= 16 and k[0] * k[1] * k[2] >= 2 ** 24]
        print(f"{d} {side}: {len(ks)} shapes, call {gm(call):.3f}x, wall {gm(wall):.3f}x, under 0.90x {sum(c < 0.9 for c in call)}, "
              f"under 0.80x {sum(c < 0.8 for c in call)}; roofline >= 2^27 ({len(big)}) {gm([t[k]['best']['fraction_of_roofline'] for k in big]):.3f} "
              f"(cuBLAS {gm([t[k]['cublas']['fraction_of_roofline'] for k in big]):.3f}); memory-bound ({len(mem)}) "
              + ", ".join("%dx%dx%d %.2f" % (k[0], k[1], k[2], t[k]['best']['fraction_of_roofline']) for k in mem))
