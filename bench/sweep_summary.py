#!/usr/bin/env python3
"""Issue 13's sweep as one markdown table, from `gemmkit bench --json` files of
the OpenCL and the CUDA backend (bench/sweep.sh writes them): per shape, layout
and transposes, gemmkit's call-time TFLOPS on each backend beside cuBLAS (pure
fp32) and CLBlast, the ratios to cuBLAS (best backend, and OpenCL), their
geometric means, shapes below 0.90x flagged, and the issue's targets met or
not. Each backend's ratio is to cuBLAS of its own run (cuBLAS in the same run,
as the issue asks); the cuBLAS column shows the OpenCL run's. Call time: every
launch of the call, pack/unpack included (rate.call). Standard library only.

usage: bench/sweep_summary.py RESULTS.json [MORE.json ...]
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summary import call_rate, size_text  # noqa: E402

FLOOR = 0.90          # every shape, on the best backend and on OpenCL
LARGE_SQUARES = 4096  # squares from here up: >= 1.0x


def load(paths):
    """{key: {"opencl": {...}, "cuda": {...}}} in first-seen order, {device: [dates]}, gemmkit's failures."""
    rows, devices, failures = {}, {}, []
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        backend = doc["device"].get("backend", "opencl")
        devices.setdefault(f"{backend}: {doc['device']['name']} (driver {doc['device'].get('driver', '?')})",
                           []).append(doc["date"])
        for r in doc["results"]:
            if r["op"] != "sgemm":
                continue
            key = (r["m"], r["n"], r["k"], r.get("layout", "col"), r.get("trans", "NN"))
            cell = rows.setdefault(key, {}).setdefault(backend, {})
            if r["status"] in ("wrong", "error") and r["kind"] == "gemmkit":
                failures.append(f"{backend} {size_text(r)} {key[3]} {key[4]}: {r['name']} {r['status']}: "
                                f"{r['message']}")
            if r["status"] != "ok":
                if r["kind"] == "gemmkit" and r["status"] == "skipped":
                    cell.setdefault("why", r["message"])
                continue
            slot = {"gemmkit": "gemmkit", "peer": r["name"]}.get(r["kind"])
            if slot:
                cell[slot] = max(cell.get(slot, 0.0), call_rate(r))
    # Each shape's variants (layouts, transposes) under its first row.
    shapes = list(dict.fromkeys(key[:3] for key in rows))
    rows = {key: rows[key] for shape in shapes for key in rows if key[:3] == shape}
    return rows, devices, failures


def ratio(cell, other):
    """gemmkit over cuBLAS of the same run, else of the other backend's run."""
    ours = cell.get("gemmkit")
    cublas = cell.get("cublas") or other.get("cublas")
    return ours / cublas if ours and cublas else None


def geomean(values):
    values = [v for v in values if v]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def tflops(x):
    if not x:
        return "-"
    return f"{x / 1000:.1f}" if x >= 10000 else f"{x / 1000:.3g}"


def times(x, digits=2):
    if x is None:
        return "-"
    return f"**{x:.{digits}f}**" if x < FLOOR else f"{x:.{digits}f}"


def table(rows):
    """The markdown lines and, per row, (key, best ratio, OpenCL ratio)."""
    lines = ["| shape (M x N x K) | layout, op | gemmkit OpenCL | gemmkit CUDA | cuBLAS | CLBlast "
             "| best / cuBLAS | OpenCL / cuBLAS | flag |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    ratios = []
    for key, cells in rows.items():
        ocl, cuda = cells.get("opencl", {}), cells.get("cuda", {})
        r_ocl, r_cuda = ratio(ocl, cuda), ratio(cuda, ocl)
        best = max((r for r in (r_ocl, r_cuda) if r), default=None)
        ratios.append((key, best, r_ocl))
        flags = []
        if best is not None and best < FLOOR:
            flags.append(f"best < {FLOOR:.2f}x")
        if r_ocl is not None and r_ocl < FLOOR:
            flags.append(f"OpenCL < {FLOOR:.2f}x")
        for name, cell in (("OpenCL", ocl), ("CUDA", cuda)):
            if cell and not cell.get("gemmkit"):
                flags.append(f"no gemmkit {name} result" + (f" ({cell['why']})" if cell.get("why") else ""))
        if not (ocl.get("cublas") or cuda.get("cublas")):
            flags.append("no cuBLAS")
        m, n, k, layout, trans = key
        shape = size_text({"m": m, "n": n, "k": k})
        cublas = ocl.get("cublas") or cuda.get("cublas")
        lines.append(f"| {shape} | {layout} {trans} | {tflops(ocl.get('gemmkit'))} | {tflops(cuda.get('gemmkit'))} "
                     f"| {tflops(cublas)} | {tflops(ocl.get('clblast'))} | {times(best)} | {times(r_ocl)} "
                     f"| {'; '.join(flags)} |")
    g_best, g_ocl = geomean([b for _, b, _ in ratios]), geomean([o for _, _, o in ratios])
    lines.append(f"| geometric mean | | | | | | {times(g_best, 3)} | {times(g_ocl, 3)} "
                 f"| over {sum(1 for _, b, _ in ratios if b)} / {sum(1 for _, _, o in ratios if o)} shapes |")
    return lines, ratios, g_best


def verdict(met, text):
    return f"- {'met' if met else '**not met**'}: {text}"


def targets(ratios, g_best):
    """Issue 13's targets, each met or not; a shape without a ratio is not met."""
    missing = [k for k, b, _ in ratios if b is None]
    low_best = [k for k, b, _ in ratios if b is not None and b < FLOOR]
    low_ocl = [k for k, _, o in ratios if o is None or o < FLOOR]
    large = [(k, b) for k, b, _ in ratios if k[0] == k[1] == k[2] >= LARGE_SQUARES and k[3:] == ("col", "NN")]

    def names(keys, most=8):
        text = ", ".join(f"{size_text({'m': k[0], 'n': k[1], 'k': k[2]})} {k[3]} {k[4]}" for k in keys[:most])
        return (text + (f" and {len(keys) - most} more" if len(keys) > most else "")) or "none"
    return [
        verdict(not low_best and not missing, f"every shape >= {FLOOR:.2f}x cuBLAS on the best backend "
                f"(below: {names(low_best)}; unmeasured: {names(missing)})"),
        verdict(not low_ocl, f"every shape >= {FLOOR:.2f}x cuBLAS on OpenCL (below or unmeasured: {names(low_ocl)})"),
        verdict(g_best is not None and g_best >= 1.0 and not missing,
                f"geometric mean >= 1.00x cuBLAS (best backend: {times(g_best, 3)})"),
        verdict(bool(large) and all(b is not None and b >= 1.0 for _, b in large),
                f"large squares ({LARGE_SQUARES} and up) >= 1.00x cuBLAS: "
                + (", ".join(f"{k[0]} {times(b)}" for k, b in large) or "none measured")),
    ]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    try:
        rows, devices, failures = load(sys.argv[1:])
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"sweep_summary: cannot read the results: {e}")
    if not rows:
        sys.exit("sweep_summary: no SGEMM results in " + " ".join(sys.argv[1:]))
    lines, ratios, g_best = table(rows)
    print("## The sweep (issue 13): call-time TFLOPS, pure fp32\n")
    for device, dates in devices.items():
        print(f"- {device}, {len(dates)} run(s) from {min(dates)} to {max(dates)}")
    print()
    print("\n".join(lines))
    print("\nTargets (issue 13):")
    print("\n".join(targets(ratios, g_best)))
    for f in failures:
        print(f"- FAILED: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
