#!/usr/bin/env python3
"""Issue 13's sweep as a picture: per shape (layout, transposes), gemmkit on
OpenCL and on CUDA and CLBlast as ratios to cuBLAS of the same run (call time),
horizontal bars with the issue's lines at 0.90x and 1.0x. Reads the same
`gemmkit bench --json` files as bench/sweep_summary.py (bench/sweep.sh writes
them); written whole or not at all (temporary file + rename).

usage: bench/sweep_plot.py OUT.png RESULTS.json [MORE.json ...]
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep_summary import load, ratio  # noqa: E402


def label(key):
    m, n, k, layout, trans = key
    shape = str(m) if m == n == k else f"{m}x{n}x{k}"
    return f"{shape} {layout} {trans}"


def ratios(rows):
    """[(label, {series: ratio})], series: gemmkit OpenCL, gemmkit CUDA, CLBlast."""
    out = []
    for key, cell in rows.items():
        ocl, cuda = cell.get("opencl", {}), cell.get("cuda", {})
        values = {}
        for name, mine, other in (("gemmkit OpenCL", ocl, cuda), ("gemmkit CUDA", cuda, ocl)):
            r = ratio(mine, other)
            if r:
                values[name] = r
        clblast, cublas = ocl.get("clblast"), ocl.get("cublas")
        if clblast and cublas:
            values["CLBlast"] = clblast / cublas
        out.append((label(key), values))
    return out


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows, devices, _ = load(argv[2:])
    data = ratios(rows)
    series = [("gemmkit OpenCL", "#1f77b4"), ("gemmkit CUDA", "#2ca02c"), ("CLBlast", "#bbbbbb")]
    height = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(9, 0.32 * len(data) + 1.6))
    for s, (name, color) in enumerate(series):
        ys = [i + (s - 1) * height for i in range(len(data))]
        xs = [values.get(name, 0.0) for _, values in data]
        ax.barh(ys, xs, height=height, color=color, label=name)
    ax.axvline(0.9, color="#d62728", linestyle="--", linewidth=1, label="0.90x (every shape)")
    ax.axvline(1.0, color="black", linewidth=1, label="cuBLAS (1.0x)")
    ax.set_yticks(range(len(data)))
    ax.set_yticklabels([name for name, _ in data], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("call-time TFLOPS / cuBLAS's (pure fp32, same run)")
    ax.set_title("SGEMM sweep (issue 13): " + "; ".join(sorted({d.split(' (')[0].split(': ', 1)[1] for d in devices})),
                 fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    out = argv[1]
    fd, tmp = tempfile.mkstemp(prefix=".sweep-", suffix=".png", dir=os.path.dirname(os.path.abspath(out)))
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=110)
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
