#!/usr/bin/env python3
"""The draws of r4 and r6: gemmkit (best) against cuBLAS, in call and host wall time, per set of constants.
cuBLAS's times are those of the step that ran it (the first of each pair); usage: python3 draws.py"""
import gzip, json, math


def load(p):
    return json.load(gzip.open(p))


def key(r):
    return (r["m"], r["n"], r["k"], r["trans"], r["layout"])


def runs(d, name):
    return {key(r): r for r in d["results"] if r["name"] == name and r["status"] == "ok"}


def gm(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def report(label, gk_file, peer_file):
    g, p = runs(load(gk_file), "best"), runs(load(peer_file), "cublas")
    ks = [k for k in g if k in p]
    call = {k: p[k]["total_ms"]["median"] / g[k]["total_ms"]["median"] for k in ks}
    wall = {k: p[k]["host_ms"]["median"] / g[k]["host_ms"]["median"] for k in ks}
    big = [k for k in ks if g[k]["work"] >= 2 ** 28]  # flops: 2^27 multiply-adds
    worst = sorted(ks, key=call.get)[:4]
    print(f"{label}: {len(ks)} shapes, call {gm(call.values()):.3f}x, wall {gm(wall.values()):.3f}x, "
          f"under 0.90x {sum(v < 0.9 for v in call.values())} (wall {sum(v < 0.9 for v in wall.values())}), "
          f"under 0.80x {sum(v < 0.8 for v in call.values())}, %roof >= 2^27 ({len(big)}) "
          f"{gm([g[k]['fraction_of_roofline'] for k in big]):.3f} (cuBLAS {gm([p[k]['fraction_of_roofline'] for k in big]):.3f}); "
          "worst " + ", ".join("%dx%dx%d %s %s %.2fx" % (k + (call[k],)) for k in worst))


report("r4 seed 2911 CUDA, built-in lines", "r4/draw-builtin.json.gz", "r4/draw-cal.json.gz")
report("r4 seed 2911 CUDA, H200-calibrated lines", "r4/draw-cal.json.gz", "r4/draw-cal.json.gz")
for b in ("cuda", "opencl"):
    report(f"r6 seed 3319 {b}, built-in lines", f"r6/draw-builtin-{b}.json.gz", f"r6/draw-dev-{b}.json.gz")
    report(f"r6 seed 3319 {b}, H200 device line", f"r6/draw-dev-{b}.json.gz", f"r6/draw-dev-{b}.json.gz")
