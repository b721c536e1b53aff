#!/usr/bin/env python3
"""bench/compare-kernels.sh's tables from its runs' JSON: OUTDIR/compare.md (kernel and call ms,
one column per kernel, one row per case line and shape) and OUTDIR/gflops.md (call GFLOPS, one
column per kernel and parameter set and per peer, one row per shape; a peer timed beside several
case lines gives its median).

usage: bench/compare_tables.py OUTDIR CASES
"""
import glob
import json
import os
import sys


def case_params(path):
    """Case line number (from 1, as compare-kernels.sh counts them) -> its PARAMS field."""
    params, n = {}, 0
    for line in open(path):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        n += 1
        params[n] = f[2] if len(f) > 2 else "-"
    return params


def runs(outdir):
    """(case, backend, kernel, result) of every ok result, the case lines in order."""
    paths = glob.glob(os.path.join(outdir, "*.json"))
    for path in sorted(paths, key=lambda p: int(os.path.basename(p).split("-")[0])):
        case, backend, kernel = os.path.basename(path)[:-5].split("-", 2)
        for r in json.load(open(path))["results"]:
            if r["status"] == "ok":
                yield int(case), backend, kernel, r


def shape(r):
    return "%dx%dx%d" % (r["m"], r["n"], r["k"])


def times_table(results):
    rows = {}
    for case, backend, kernel, r in results:
        if r["kind"] == "gemmkit":
            rows.setdefault((backend, case, shape(r), r["trans"]), {})[kernel] = r
    kernels = sorted({k for v in rows.values() for k in v})
    lines = ["| backend | case | shape | op | " + " | ".join("%s kernel / call ms" % k for k in kernels) + " |",
             "| --- | --- | --- | --- |" + " ---: |" * len(kernels)]
    for key in sorted(rows):
        cells = []
        for k in kernels:
            r = rows[key].get(k)
            cells.append("%.4f / %.4f" % (r["kernel_ms"]["median"], r["total_ms"]["median"]) if r else "-")
        lines.append("| %s | %d | %s | %s | %s |" % (key + (" | ".join(cells),)))
    return lines


def gflops_table(results, params):
    rows, columns = {}, []
    for case, backend, kernel, r in results:
        col = "%s %s" % (kernel, params[case]) if r["kind"] == "gemmkit" else r["name"].split(":")[0]
        if col not in columns:
            columns.append(col)
        rows.setdefault((backend, shape(r), r["trans"]), {}).setdefault(col, []).append(r["rate"]["call"])
    lines = ["call GFLOPS (peers: median over the case lines that timed them)"]
    lines += ["  c%d = %s" % (i + 1, c) for i, c in enumerate(columns)]
    lines += ["| backend | shape | op | " + " | ".join("c%d" % (i + 1) for i in range(len(columns))) + " |",
              "| --- | --- | --- |" + " ---: |" * len(columns)]
    for key in sorted(rows):
        cells = []
        for c in columns:
            v = sorted(rows[key].get(c, []))
            cells.append("%.0f" % v[len(v) // 2] if v else "-")
        lines.append("| %s | %s | %s | %s |" % (key + (" | ".join(cells),)))
    return lines


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    outdir, cases = sys.argv[1], sys.argv[2]
    results = list(runs(outdir))
    for name, lines in (("compare.md", times_table(results)), ("gflops.md", gflops_table(results, case_params(cases)))):
        with open(os.path.join(outdir, name), "w") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
