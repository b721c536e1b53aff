#!/usr/bin/env python3
"""Two runs of the same benchmarks side by side (e.g. bench/copy-rows.sh: the built-in policy, then a candidate
table through GEMMKIT_POLICY): each directory's bench JSON files, gemmkit's results joined by backend, layout,
op and shape; per row the call-time TFLOPS of each run, after / before, and each run's ratio to its own cuBLAS
pure fp32 (the peer of the same run, so that clock drift between the runs does not count). Then the geometric
mean of after / before. Rows in one run only are listed as such. Exit 1 when a gemmkit result of either run
failed. Standard library only.

usage: bench/sweep_pair.py BEFORE_DIR AFTER_DIR
"""
import glob
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summary import call_rate, size_text  # noqa: E402


def load(directory):
    """{(backend, layout, op, shape): (gemmkit result, cuBLAS fp32 of the same run or None)}, and the failures."""
    rows, failed = {}, []
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        with open(path) as f:
            doc = json.load(f)
        backend = doc["device"].get("backend", "opencl")
        results = [r for r in doc.get("results", []) if r.get("op") == "sgemm"]
        cublas = {(r["m"], r["n"], r["k"], r.get("layout"), r.get("trans")): r for r in results
                  if r["name"] == "cublas" and r["status"] == "ok"}
        for r in results:
            if r["kind"] != "gemmkit":
                continue
            key = (backend, r.get("layout"), r.get("trans"), size_text(r))
            if r["status"] != "ok":
                failed.append(f"{os.path.basename(directory)}: {' '.join(map(str, key))}: {r['status']}")
                continue
            rows[key] = (r, cublas.get((r["m"], r["n"], r["k"], r.get("layout"), r.get("trans"))))
    return rows, failed


def vs_peer(entry):
    r, peer = entry
    return f"{call_rate(r) / call_rate(peer):.2f}x" if peer and call_rate(peer) else "-"


def main(argv):
    if len(argv) != 3 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 2
    before, failed_before = load(argv[1])
    after, failed_after = load(argv[2])
    if not before and not after:
        print(f"no gemmkit results in {argv[1]} or {argv[2]}", file=sys.stderr)
        return 1
    print("| shape | layout, op | backend | before TFLOPS | after TFLOPS | after / before | before vs cuBLAS | "
          "after vs cuBLAS |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    logs = []
    for key in list(before) + [k for k in after if k not in before]:  # the runs' order (the sweep's)
        backend, layout, op, shape = key
        b, a = before.get(key), after.get(key)
        cells = [f"{call_rate(x[0]) / 1000:.1f}" if x else "-" for x in (b, a)]
        if a and b and call_rate(b[0]):
            ratio = call_rate(a[0]) / call_rate(b[0])
            logs.append(math.log(ratio))
            change = f"{ratio:.2f}x"
        else:
            change = "after only" if a else "before only"
        print(f"| {shape} | {layout} {op} | {backend} | {cells[0]} | {cells[1]} | {change} | "
              f"{vs_peer(b) if b else '-'} | {vs_peer(a) if a else '-'} |")
    print()
    if logs:
        print(f"- geometric mean of after / before over {len(logs)} rows: {math.exp(sum(logs) / len(logs)):.3f}x")
    for line in failed_before + failed_after:
        print(f"- FAILED: {line}")
    return 1 if failed_before or failed_after else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
