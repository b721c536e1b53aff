#!/usr/bin/env python3
"""Draws `gemmkit bench --json` results with matplotlib: rate (GFLOPS or GB/s,
whole call, median) against size, one line per kernel and peer. The same plot
as `gemmkit bench --plot` draws with gnuplot, for machines without gnuplot.

usage: bench/plot.py RESULTS.json [MORE.json ...] -o OUT.png
"""
import argparse
import json
import math
import sys


def size_axis(r):
    """n for squares; the geometric mean of the dimensions otherwise."""
    dims = [r["m"], r["n"]] + ([r["k"]] if r.get("k") else [])
    return math.prod(dims) ** (1.0 / len(dims))


def series_name(r):
    """The runner's name; "clblast:copy" for a peer's transposes and copies (one runner does both)."""
    return r["name"] if r["op"] == "sgemm" or r["kind"] == "gemmkit" else f"{r['name']}:{r['op']}"


def series_of(doc):
    """{name: [(size, rate)]} over the valid results, in the report's order."""
    series = {}
    for r in doc["results"]:
        if r["status"] != "ok" or not r.get("rate") or not r["rate"].get("call"):
            continue
        series.setdefault(series_name(r), []).append((size_axis(r), r["rate"]["call"]))
    return series


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", nargs="+", help="files written by gemmkit bench --json")
    parser.add_argument("-o", "--output", required=True, help="PNG file to write")
    args = parser.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("bench/plot.py: matplotlib is missing (pip install matplotlib, or apt-get install python3-matplotlib)")

    docs = []
    for path in args.json:
        with open(path) as f:
            docs.append(json.load(f))
    fig, axes = plt.subplots(len(docs), 1, figsize=(12, 6.5 * len(docs)), squeeze=False)
    for doc, ax in zip(docs, axes[:, 0]):
        series = series_of(doc)
        unit = doc["results"][0]["unit"] if doc["results"] else "GFLOPS"
        rates = [rate for points in series.values() for _, rate in points]
        markers = "o^sDv<>pPX*h"
        for i, (name, points) in enumerate(series.items()):
            kind = next(r["kind"] for r in doc["results"] if series_name(r) == name)
            style = {"peer": "--", "baseline": ":"}.get(kind, "-")
            xs, ys = zip(*points)
            # 20 colours and 12 markers: a ladder of dozens of kernels stays readable.
            ax.plot(xs, ys, style, color=plt.cm.tab20(i % 20), marker=markers[i % len(markers)], linewidth=2,
                    label=name)
        device = doc["device"]
        ax.set_title(f"{doc['title']}\n{device['platform']} | {device['name']} ({device['backend']}), {doc['date']}",
                     fontsize=9)
        ax.set_xscale("log", base=2)
        if rates and max(rates) > 50 * min(rates):
            ax.set_yscale("log")
        ax.set_xlabel("size (n for squares; geometric mean of the dimensions otherwise)")
        ax.set_ylabel(f"{unit}, median of the timed runs (whole call, device time)")
        ax.grid(True, which="both", alpha=0.3)
        if series:
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
        else:
            ax.text(0.5, 0.5, "no valid results to plot", ha="center", transform=ax.transAxes)
    fig.tight_layout()
    fig.savefig(args.output, dpi=100)
    print(f"bench/plot.py: wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
