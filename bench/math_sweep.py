#!/usr/bin/env python3
"""Issue 14's sweep table in markdown, from bench/math-sweep.sh's JSON files: per shape, layout, op and backend,
the math mode's call-time TFLOPS, cuBLAS pure fp32's of the same run, their ratio, the mode's max error per
element (relative to (|A||B|)ij) beside cuBLAS fp32's, and a flag under 1.5x; then the count of shapes at or
above 1.5x per backend. Exit 1 when a gemmkit result failed. Standard library only.

usage: bench/math_sweep.py RESULTS.json [MORE.json ...]
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summary import call_rate, size_text  # noqa: E402

TARGET = 1.5


def max_error(r):
    return (r.get("check") or {}).get("max_error_of_scale")


def main(paths):
    rows, failed, met = [], [], {}
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        backend = doc["device"].get("backend", "opencl")
        settings = doc.get("settings") or {}
        results = [r for r in doc["results"] if r["op"] == "sgemm"]
        cublas = {(r["m"], r["n"], r["k"]): r for r in results if r["name"] == "cublas" and r["status"] == "ok"}
        for r in results:
            if r["kind"] != "gemmkit":
                continue
            if r["status"] != "ok":
                failed.append(f"{backend} {size_text(r)} {settings.get('layout')} {settings.get('trans')}: {r['status']}")
                continue
            peer = cublas.get((r["m"], r["n"], r["k"]))
            ratio = call_rate(r) / call_rate(peer) if peer and call_rate(peer) else None
            ok = met.setdefault(backend, [0, 0])
            ok[1] += 1
            ok[0] += ratio is not None and ratio >= TARGET
            err = max_error(r)
            peer_err = max_error(peer) if peer else None
            rows.append(f"| {size_text(r)} | {settings.get('layout')} {settings.get('trans')} | {backend} | "
                        f"{call_rate(r) / 1000:.1f} | {call_rate(peer) / 1000 if peer else 0:.1f} | "
                        f"{ratio:.2f}x | {err:.1e} / {peer_err:.1e} | "
                        f"{'' if ratio and ratio >= TARGET else 'under 1.5x'} |" if ratio else
                        f"| {size_text(r)} | {settings.get('layout')} {settings.get('trans')} | {backend} | "
                        f"{call_rate(r) / 1000:.1f} | - | - | - | no cuBLAS |")
    print("| shape | layout, op | backend | TFLOPS | cuBLAS fp32 | ratio | max err / cuBLAS fp32's | flag |")
    print("| --- | --- | --- | ---: | ---: | ---: | --- | --- |")
    print("\n".join(rows))
    print()
    for backend, (good, total) in sorted(met.items()):
        print(f"- {backend}: {good} of {total} shapes at or above {TARGET}x cuBLAS fp32")
    for line in failed:
        print(f"- FAILED: {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
