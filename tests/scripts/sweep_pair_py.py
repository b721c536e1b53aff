#!/usr/bin/env python3
"""Checks bench/sweep_pair.py on made-up runs: rows joined by backend, layout,
op and shape across the two directories, after / before and each run's own
cuBLAS ratio, rows in one run only named so, the geometric mean; a failed
result exits 1; empty directories exit 1; no arguments: usage, exit 2.

usage: sweep_pair_py.py SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile


def result(name, kind, m, gflops, layout="col", trans="NN", status="ok"):
    r = {"op": "sgemm", "name": name, "kind": kind, "m": m, "n": m, "k": m, "layout": layout, "trans": trans,
         "status": status}
    if status == "ok":
        r["rate"] = {"kernel": gflops, "call": gflops, "host": gflops}
    return r


def write(directory, name, results):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "w") as f:
        json.dump({"device": {"backend": "cuda"}, "results": results}, f)


def run(script, *args):
    p = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def main(source):
    script = os.path.join(source, "bench", "sweep_pair.py")
    with tempfile.TemporaryDirectory() as tmp:
        before, after = os.path.join(tmp, "before"), os.path.join(tmp, "after")
        write(before, "cuda-col-NT.json", [result("best", "gemmkit", 4096, 60000.0, trans="NT"),
                                           result("cublas", "peer", 4096, 50000.0, trans="NT"),
                                           result("best", "gemmkit", 4095, 45000.0, trans="NT")])
        write(after, "cuda-col-NT.json", [result("best", "gemmkit", 4096, 90000.0, trans="NT"),
                                          result("cublas", "peer", 4096, 45000.0, trans="NT"),
                                          result("best", "gemmkit", 2049, 30000.0, trans="NT")])
        rc, out = run(script, before, after)
        assert rc == 0, out
        rows = {line.split("|")[1].strip(): [c.strip() for c in line.strip("|").split("|")]
                for line in out.splitlines() if line.startswith("| 4") or line.startswith("| 2")}
        assert rows["4096"][1:] == ["col NT", "cuda", "60.0", "90.0", "1.50x", "1.20x", "2.00x"], rows["4096"]
        assert rows["4095"][3:6] == ["45.0", "-", "before only"], rows["4095"]
        assert rows["2049"][3:6] == ["-", "30.0", "after only"], rows["2049"]
        assert "geometric mean of after / before over 1 rows: 1.500x" in out, out

        write(after, "cuda-row-TT.json", [result("best", "gemmkit", 4096, 0.0, layout="row", trans="TT",
                                                 status="failed")])
        rc, out = run(script, before, after)
        assert rc == 1 and "FAILED: after: cuda row TT 4096: failed" in out, (rc, out)

        empty = os.path.join(tmp, "empty")
        os.makedirs(empty)
        rc, out = run(script, empty, empty)
        assert rc == 1 and "no gemmkit results" in out, (rc, out)
        rc, out = run(script)
        assert rc == 2 and "usage" in out, (rc, out)
    print("sweep_pair.py: ok")


if __name__ == "__main__":
    main(sys.argv[1])
