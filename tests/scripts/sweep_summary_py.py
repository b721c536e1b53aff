#!/usr/bin/env python3
"""Checks bench/sweep_summary.py on made-up results of both backends: call
rates in TFLOPS, cuBLAS pure fp32 (never TF32) from each backend's own run,
the best backend's ratio and OpenCL's, a shape's variants under it, shapes
below 0.90x flagged, the geometric means and the issue's targets; gemmkit's
failures exit 1, skipped results are flagged, bad input is refused. Standard
library only.

usage: sweep_summary_py.py SOURCE_DIR
"""
import json
import math
import os
import subprocess
import sys
import tempfile


def result(name, kind, m, n, k, gflops, layout="col", trans="NN", status="ok", message=""):
    r = {"op": "sgemm", "name": name, "kind": kind, "label": name, "resolved": name, "m": m, "n": n, "k": k,
         "layout": layout, "trans": trans, "status": status, "unit": "GFLOPS", "message": message}
    if status == "ok":
        r["rate"] = {"kernel": gflops * 1.01, "call": gflops, "host": gflops * 0.99}
    return r


def doc(backend, results):
    return {"title": "SGEMM test", "date": f"2026-01-01T00:00:0{len(results) % 10}Z",
            "device": {"backend": backend, "name": "Test GPU", "driver": "1.0", "platform": "Test"},
            "results": results}


def trio(m, n, k, ours, cublas, **kw):
    return [result("best", "gemmkit", m, n, k, ours, **kw), result("cublas", "peer", m, n, k, cublas, **kw),
            result("cublas-tf32", "peer", m, n, k, 400000.0, **kw)]


def run(source, tmp, docs):
    paths = []
    for i, d in enumerate(docs):
        paths.append(os.path.join(tmp, f"{i}.json"))
        with open(paths[-1], "w") as f:
            json.dump(d, f)
    p = subprocess.run([sys.executable, os.path.join(source, "bench", "sweep_summary.py"), *paths],
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def row(out, shape, op):
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 9 and cells[0] == shape and cells[1] == op:
            return cells
    raise AssertionError(f"no row {shape} {op} in:\n{out}")


def main():
    source = sys.argv[1]
    opencl = doc("opencl", trio(4096, 4096, 4096, 45000.0, 50000.0)
                 + [result("clblast", "peer", 4096, 4096, 4096, 30000.0)]
                 + trio(128, 128, 131072, 2300.0, 45700.0))
    cuda = doc("cuda", trio(4096, 4096, 4096, 52000.0, 51000.0) + trio(128, 128, 131072, 44000.0, 45000.0))
    variant = doc("opencl", trio(4096, 4096, 4096, 40000.0, 40000.0, layout="row", trans="TN"))
    with tempfile.TemporaryDirectory() as tmp:
        rc, out = run(source, tmp, [opencl, cuda, variant])
        assert rc == 0, out
        # shape | layout, op | OpenCL | CUDA | cuBLAS | CLBlast | best/cuBLAS | OpenCL/cuBLAS | flag
        assert row(out, "4096", "col NN") == ["4096", "col NN", "45.0", "52.0", "50.0", "30.0", "1.02", "0.90", ""], \
            row(out, "4096", "col NN")
        skinny = row(out, "128x128x131072", "col NN")
        assert skinny[2:8] == ["2.3", "44.0", "45.7", "-", "0.98", "**0.05**"], skinny
        assert skinny[8] == "OpenCL < 0.90x", skinny
        tn = row(out, "4096", "row TN")
        assert tn[2:8] == ["40.0", "-", "40.0", "-", "1.00", "1.00"], tn
        # The variant sits under its shape, before the next shape.
        lines = out.splitlines()
        at = [i for i, line in enumerate(lines) for s in ("| 4096 | col NN", "| 4096 | row TN", "| 128x128x131072")
              if line.startswith(s)]
        assert at == sorted(at) and len(at) == 3, at
        mean = row(out, "geometric mean", "")
        best = math.exp((math.log(52 / 51) + math.log(44 / 45) + math.log(1.0)) / 3)
        ocl = math.exp((math.log(0.9) + math.log(2300 / 45700) + math.log(1.0)) / 3)
        # three digits: a mean of 0.999 must not read as the 1.00 it misses
        assert mean[6] == f"{best:.3f}" and mean[7] == f"**{ocl:.3f}**", (mean, best, ocl)
        targets = out[out.index("Targets"):]
        assert "- met: every shape >= 0.90x cuBLAS on the best backend" in targets, targets
        assert "- **not met**: every shape >= 0.90x cuBLAS on OpenCL (below or unmeasured: 128x128x131072" in targets
        assert ("- met: " if best >= 1.0 else "- **not met**: ") + "geometric mean" in targets, targets
        assert "- met: large squares (4096 and up) >= 1.00x cuBLAS: 4096 1.02" in targets, targets
        assert "opencl: Test GPU (driver 1.0), 2 run(s)" in out and "cuda: Test GPU (driver 1.0), 1 run(s)" in out, out

        # gemmkit's failures fail the summary; skipped results are flagged with why; peers' failures are not ours.
        broken = doc("cuda", [result("best", "gemmkit", 4096, 4096, 4096, 0, status="wrong", message="C[0] = NaN"),
                              result("best", "gemmkit", 999, 999, 999, 0, status="skipped", message="predicted 30 s"),
                              result("clblast", "peer", 999, 999, 999, 0, status="error", message="peer broke")])
        rc, out = run(source, tmp, [opencl, broken])
        assert rc == 1 and "FAILED: cuda 4096 col NN: best wrong: C[0] = NaN" in out, out
        assert "peer broke" not in out, out
        assert row(out, "999", "col NN")[8] == "no gemmkit CUDA result (predicted 30 s); no cuBLAS", out
        assert "unmeasured: 999 col NN" in out, out

        # Bad input: no files, a file that is not JSON, no SGEMM result.
        script = os.path.join(source, "bench", "sweep_summary.py")
        assert subprocess.run([sys.executable, script], capture_output=True).returncode != 0
        bad = os.path.join(tmp, "bad.json")
        with open(bad, "w") as f:
            f.write("{not json")
        p = subprocess.run([sys.executable, script, bad], capture_output=True, text=True)
        assert p.returncode != 0 and "cannot read" in p.stderr, p.stderr
        rc, out = run(source, tmp, [doc("opencl", [])])
        assert rc != 0 and "no SGEMM results" in out, out
    print("bench/sweep_summary.py: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
