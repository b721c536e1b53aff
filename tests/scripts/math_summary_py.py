#!/usr/bin/env python3
"""Checks bench/math_summary.py on made-up results (bench/math-modes.sh's
files): one row per mode, backend, size and inputs with the call TFLOPS, the
ratios to cuBLAS fp32 and TF32 of the same run, the errors beside cuBLAS
fp32's on the same inputs and whether they are no larger; cuBLAS's rows (the
median rate of its runs); the issue's targets met, not met or without data;
gemmkit's failures listed, exit 1. Standard library only.

usage: math_summary_py.py SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile


def result(name, kind, n, gflops, errors, status="ok", ratios=None, message=""):
    r = {"op": "sgemm", "name": name, "kind": kind, "label": name, "resolved": name, "m": n, "n": n, "k": n,
         "layout": "col", "trans": "NN", "status": status, "unit": "GFLOPS", "message": message,
         "check": {"method": "sampled", "passed": status == "ok", "max_error_of_scale": errors[0],
                   "rms_error_of_scale": errors[1], "elements": 16384}}
    if status == "ok":
        r["rate"] = {"kernel": gflops * 1.01, "call": gflops, "host": gflops * 0.99}
    if kind == "gemmkit" and status == "ok":
        r["ratio_to_peer"] = ratios or {}
    return r


def doc(backend, inputs, results):
    d = {"title": "SGEMM test", "date": "2026-01-01T00:00:00Z", "command_line": f"gemmkit --backend {backend} bench",
         "device": {"backend": backend, "name": "Test GPU", "driver": "1.0", "platform": "Test"},
         "settings": {"inputs": inputs}, "results": results}
    if inputs is None:
        del d["settings"]["inputs"]  # files from before --inputs: uniform
    return d


def peers(n, cublas_rate, cublas_errors=(3e-7, 2.4e-8)):
    return [result("cublas", "peer", n, cublas_rate, cublas_errors),
            result("cublas-tf32", "peer", n, 400000.0, (4e-5, 1e-5))]


def run(source, tmp, docs):
    paths = []
    for i, d in enumerate(docs):
        paths.append(os.path.join(tmp, f"{i}.json"))
        with open(paths[-1], "w") as f:
            json.dump(d, f)
    p = subprocess.run([sys.executable, os.path.join(source, "bench", "math_summary.py"), *paths],
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def row(out, *first):
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if tuple(cells[:len(first)]) == first:
            return cells
    raise AssertionError(f"no row {first} in:\n{out}")


def main():
    source = sys.argv[1]
    docs = [
        doc("cuda", "uniform", [result("best-3xtf32", "gemmkit", 8192, 105000.0, (2e-7, 2e-8),
                                       ratios={"cublas": 2.1, "cublas-tf32": 0.26})] + peers(8192, 50000.0)),
        doc("opencl", None, [result("best-3xtf32", "gemmkit", 8192, 75000.0, (4e-7, 2e-8),
                                    ratios={"cublas": 1.5, "cublas-tf32": 0.19})] + peers(8192, 52000.0)),
        doc("cuda", "uniform", [result("best-tf32", "gemmkit", 4096, 380000.0, (5e-5, 1e-5),
                                       ratios={"cublas": 7.4, "cublas-tf32": 0.95}),
                                result("best-tf32", "gemmkit", 8192, 350000.0, (5e-5, 1e-5),
                                       ratios={"cublas": 7.0, "cublas-tf32": 0.85})]
            + peers(4096, 51000.0) + peers(8192, 60000.0)),
        doc("cuda", "wide", [result("best-3xtf32", "gemmkit", 1024, 0.0, (1.0, 0.5), status="wrong",
                                    message="WRONG: 7 element(s) off")] + peers(1024, 38000.0, (9e-7, 7e-8))),
    ]
    failures = 0

    def check(what, ok, out):
        nonlocal failures
        if not ok:
            failures += 1
            print(f"FAILED: {what}\n{out}")
        else:
            print(f"ok: {what}")

    with tempfile.TemporaryDirectory() as tmp:
        rc, out = run(source, tmp, docs)
        cuda = row(out, "3xtf32", "cuda", "8192", "uniform")
        check("a row: TFLOPS, ratio to cuBLAS fp32, errors beside cuBLAS fp32's, no larger, ratio to TF32",
              cuda[4:] == ["105.0", "2.10x", "2.0e-07", "2.0e-08", "3.0e-07 / 2.4e-08", "yes", "0.26x"], out)
        opencl = row(out, "3xtf32", "opencl", "8192", "uniform")
        check("a file without settings.inputs is uniform; a larger max error is flagged",
              opencl[4:10] == ["75.0", "1.50x", "4.0e-07", "2.0e-08", "3.0e-07 / 2.4e-08", "**no**"], out)
        check("tf32 rows have no accuracy verdict", row(out, "tf32", "cuda", "4096", "uniform")[9] == "-", out)
        wrong = row(out, "3xtf32", "cuda", "1024", "wide")
        check("a wrong result shows its status and cuBLAS's errors on the same inputs",
              wrong[4] == "**wrong**" and wrong[8] == "9.0e-07 / 7.0e-08", out)
        peer = row(out, "cuBLAS fp32", "8192", "uniform")
        check("cuBLAS's row: the median rate of its runs", peer[3:5] == ["52.0", "3"], out)
        check("cuBLAS TF32 has its row", row(out, "cuBLAS TF32", "4096", "uniform")[3] == "400.0", out)
        head = "max and RMS <= cuBLAS fp32's at n = 1024, 4096, 8192, 16384, uniform and wide: "
        check("3xtf32 accuracy not met on opencl", f"3xtf32 accuracy, opencl: {head}**not met** (not at: uniform 8192)"
              " (no result at: uniform 1024, uniform 4096, uniform 16384, wide 1024," in out, out)
        check("3xtf32 accuracy on cuda: a wrong result is not met",
              f"3xtf32 accuracy, cuda: {head}**not met** (not at: wide 1024)" in out, out)
        check("3xtf32 speed target met on cuda", "3xtf32 speed, cuda: >= 2.0x cuBLAS fp32 at 8192: 2.10x, met" in out, out)
        check("3xtf32 speed target not met on opencl",
              "3xtf32 speed, opencl: >= 1.6x cuBLAS fp32 at 8192: 1.50x, **not met**" in out, out)
        check("tf32 targets", "at 4096: 0.95x, met" in out and "at 8192: 0.85x, **not met**" in out, out)
        check("gemmkit's failure listed, exit 1", rc == 1 and "cuda 3xtf32 1024 wide: wrong: WRONG" in out, out)
        rc, out = run(source, tmp, docs[:1])
        check("no failure: exit 0; missing data said", rc == 0 and "tf32 speed, cuda: >= 0.90x cuBLAS TF32 at 4096: "
              "-, no data" in out and f"3xtf32 accuracy, opencl: {head}no data" in out, out)
        check("accuracy met where measured, but not at every size: incomplete",
              f"3xtf32 accuracy, cuda: {head}incomplete (no result at: uniform 1024," in out, out)
        # Every size and both inputs, each no worse than cuBLAS: met.
        full = [doc("cuda", inputs, [result("best-3xtf32", "gemmkit", n, 100000.0, (2e-7, 2e-8), ratios={"cublas": 2.0})]
                    + peers(n, 50000.0)) for inputs in ("uniform", "wide") for n in (1024, 4096, 8192, 16384)]
        rc, out = run(source, tmp, full)
        check("every size and inputs no worse: met", rc == 0 and f"3xtf32 accuracy, cuda: {head}met\n" in out, out)
    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
