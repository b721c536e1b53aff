#!/usr/bin/env python3
"""Draws `gemmkit bench --json` results with matplotlib: rate (GFLOPS or GB/s,
whole call, median) against size, one line per kernel and peer. The same plot
as `gemmkit bench --plot` draws with gnuplot, for machines without gnuplot.

Panels: TF32 results (cuBLAS TF32 tensor cores, not fp32 accuracy, several
times faster) get their own panel, so the fp32 comparison stays readable; a
ladder of many kernels (--kernel all) gets one panel per document family
(tutorial-*, slides-*, lecture-*) beside the fp32 peers, and one for the
library kernels, the host baseline and the peers.

usage: bench/plot.py RESULTS.json [MORE.json ...] -o OUT.png
"""
import argparse
import json
import math
import os
import sys
import tempfile

FAMILIES = ("tutorial", "slides", "lecture")
# More gemmkit series than this in one document, from several families: one panel per family.
MANY = 10
# Peers in greys and black, TF32 in red, kernels in the other tab10/tab20 colours: none is shared.
PEER_COLOURS = ("black", "dimgray", "darkgray", "darkslategray")
TF32_COLOUR = "tab:red"
KERNEL_COLOURS = [c for i, c in enumerate(f"C{i}" for i in range(10)) if i not in (3, 7)]  # no red, no grey
MARKERS = "o^sDv<>pPX*h"


def size_axis(r):
    """n for squares; the geometric mean of the dimensions otherwise."""
    dims = [r["m"], r["n"]] + ([r["k"]] if r.get("k") else [])
    return math.prod(dims) ** (1.0 / len(dims))


def series_name(r):
    """The runner's name; "clblast:copy" for a peer's transposes and copies (one runner does both)."""
    return r["name"] if r["op"] == "sgemm" or r["kind"] == "gemmkit" else f"{r['name']}:{r['op']}"


def is_tf32(r):
    """TF32 tensor-core results: not fp32 accuracy, so not on the fp32 panels."""
    return r["name"].endswith("-tf32") or "tf32" in (r.get("label") or "").lower()


def family(s):
    """The document a gemmkit kernel comes from, or "library" (and peers, baseline)."""
    head = s["name"].split("-")[0]
    return head if s["kind"] == "gemmkit" and head in FAMILIES else "library"


def series_of(doc):
    """[{name, kind, tf32, points: [(size, rate)] sorted by size}] over the valid results, in the report's order."""
    series = {}
    for r in doc["results"]:
        if r["status"] != "ok" or not r.get("rate") or not r["rate"].get("call"):
            continue
        name = series_name(r)
        s = series.setdefault(name, {"name": name, "kind": r["kind"], "tf32": is_tf32(r), "points": []})
        s["points"].append((size_axis(r), r["rate"]["call"]))
    for s in series.values():
        # Sizes are measured in the order given (4097 after 16384): draw them left to right.
        s["points"].sort()
    return list(series.values())


def panels_of(series):
    """[(heading, [series])]: the fp32 panels, then the TF32 one."""
    fp32 = [s for s in series if not s["tf32"]]
    tf32 = [s for s in series if s["tf32"]]
    peers = [s for s in fp32 if s["kind"] == "peer"]
    kernels = [s for s in fp32 if s["kind"] == "gemmkit"]
    present = [f for f in FAMILIES if any(family(s) == f for s in kernels)]
    note = "; TF32 (not fp32) in the last panel" if tf32 else ""
    panels = []
    if len(kernels) > MANY and len(present) + any(family(s) == "library" for s in kernels) > 1:
        for f in present:
            panels.append((f"{f}-* kernels, fp32 peers dashed{note}", [s for s in kernels if family(s) == f] + peers))
        rest = [s for s in fp32 if family(s) == "library"]
        if rest:
            panels.append((f"library kernels, baseline and peers{note}", rest))
    elif fp32:
        panels.append((f"fp32{note}" if note else "", fp32))
    if tf32:
        panels.append(("TF32 tensor cores: NOT fp32 accuracy (fp32 peers dashed, for scale)", tf32 + peers))
    return panels or [("no valid results to plot", [])]


def draw_panel(ax, plt, ticker, series, colours, unit):
    """One panel: peers dashed in fixed colours, the baseline dotted, kernels solid."""
    kernels = sum(s["kind"] == "gemmkit" for s in series)
    palette = KERNEL_COLOURS if kernels <= len(KERNEL_COLOURS) else [
        plt.cm.tab20(i) for i in range(20) if i not in (6, 7, 14, 15)]
    k = 0
    rates = []
    for i, s in enumerate(series):
        if s["kind"] == "gemmkit":
            colour, k = palette[k % len(palette)], k + 1
        else:
            colour = colours[s["name"]]
        style = {"peer": "--", "baseline": ":"}.get(s["kind"], "-")
        xs, ys = zip(*s["points"])
        rates += ys
        ax.plot(xs, ys, style, color=colour, marker=MARKERS[i % len(MARKERS)], linewidth=2, label=s["name"])
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda x, _: f"{x:g}"))
    sizes = sorted({x for s in series for x, _ in s["points"]})
    if sizes and sizes[-1] < 4 * sizes[0]:
        # Less than two octaves hold one or two powers of two: label the measured sizes instead.
        ax.set_xticks(sizes)
        ax.xaxis.set_minor_locator(ticker.NullLocator())
    if rates and max(rates) > 50 * min(rates):
        ax.set_yscale("log")
    elif rates:
        ax.set_ylim(bottom=0)  # a linear axis from 0: the gaps between the lines read as ratios
    ax.set_xlabel("size (n for squares; geometric mean of the dimensions otherwise)")
    ax.set_ylabel(f"{unit}, median (whole call, device time)")
    ax.grid(True, which="both", alpha=0.3)
    if series:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    else:
        ax.text(0.5, 0.5, "no valid results to plot", ha="center", transform=ax.transAxes)


def save_whole(fig, path):
    """Writes the PNG beside its target and renames it over the target only when
    complete, so a failed write never leaves a truncated plot or loses the old one."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(prefix=".plot-", suffix=".png", dir=directory)
    try:
        with os.fdopen(fd, "wb") as out:
            fig.savefig(out, format="png", dpi=100)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o666 & ~current_umask())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def current_umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", nargs="+", help="files written by gemmkit bench --json")
    parser.add_argument("-o", "--output", required=True, help="PNG file to write")
    args = parser.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker as ticker
    except ImportError:
        sys.exit("bench/plot.py: matplotlib is missing (pip install matplotlib, or apt-get install python3-matplotlib)")

    docs = []
    for path in args.json:
        with open(path) as f:
            docs.append(json.load(f))
    layout = [(doc, panels_of(series_of(doc))) for doc in docs]
    count = sum(len(panels) for _, panels in layout)
    fig, axes = plt.subplots(count, 1, figsize=(13, 1.0 + 5.0 * count), squeeze=False)
    axes = iter(axes[:, 0])
    for doc, panels in layout:
        unit = doc["results"][0]["unit"] if doc["results"] else "GFLOPS"
        # A peer keeps its colour from panel to panel.
        names = dict.fromkeys(s["name"] for _, series in panels for s in series if s["kind"] != "gemmkit" and not s["tf32"])
        colours = {name: PEER_COLOURS[i % len(PEER_COLOURS)] for i, name in enumerate(names)}
        colours.update({s["name"]: TF32_COLOUR for _, series in panels for s in series if s["tf32"]})
        device = doc["device"]
        header = f"{doc['title']}\n{device['platform']} | {device['name']} ({device['backend']}), {doc['date']}\n"
        for j, (heading, series) in enumerate(panels):
            ax = next(axes)
            draw_panel(ax, plt, ticker, series, colours, unit)
            ax.set_title(((header if j == 0 else "") + heading).strip(), fontsize=9)
    fig.tight_layout()
    save_whole(fig, args.output)
    print(f"bench/plot.py: wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
