#!/usr/bin/env python3
"""Checks bench/transpose_batched_summary.py on made-up results (bench/transpose-batched.sh's files): the policy's
transposes with their kernel, line, rate, cuBLAS geam's and the ratio, copy-fast beside cuBLAS's transpose; the
batched rows likewise; each candidate line beside the policy's choice and cuBLAS of its shape (a copy candidate
beside copy-fast and cuBLAS's copy). Standard library only.

usage: transpose_batched_summary_py.py SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile


def rec(op, name, kind, m, n, rate, resolved=None, note="", k=0, batch=0):
    r = {"op": op, "name": name, "kind": kind, "resolved": resolved or name, "m": m, "n": n, "k": k,
         "status": "ok", "note": note, "rate": {"kernel": rate, "call": rate, "host": rate}}
    if batch:
        r["batch"] = batch
    return r


def doc(kernel, params, results):
    return {"device": {"backend": "cuda", "name": "Test GPU", "driver": "1.0"},
            "settings": {"kernel": kernel, "params": params}, "results": results}


def row(out, *first):
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if tuple(cells[:len(first)]) == first:
            return cells
    raise AssertionError(f"no row {first} in:\n{out}")


def main():
    source = sys.argv[1]
    docs = {
        "cuda-transposes.json": doc("best", "", [
            rec("transpose", "best", "gemmkit", 2000, 2000, 1800.0, "transpose-fast", "line: registry defaults"),
            rec("copy", "copy-fast", "gemmkit", 2000, 2000, 2100.0),
            rec("transpose", "cublas", "peer", 2000, 2000, 2000.0),
            rec("copy", "cublas", "peer", 2000, 2000, 2200.0)]),
        "cuda-batched-1000x100.json": doc("best", "", [
            rec("sgemm_batched", "best", "gemmkit", 100, 100, 20000.0, "xgemm-direct-batched",
                "line: -DTSM=64 -DTSN=64; 900.0 GB/s moved", k=100, batch=1000),
            rec("sgemm_batched", "cublas", "peer", 100, 100, 25000.0, k=100, batch=1000)]),
        "cuda-cand-transpose-fast-1.json": doc("transpose-fast", "ORDER=2", [
            rec("transpose", "transpose-fast", "gemmkit", 2000, 2000, 2200.0),
            rec("copy", "copy-fast", "gemmkit", 2000, 2000, 2100.0)]),
        "cuda-cand-copy-fast-1.json": doc("copy-fast", "COPY_PREFETCH=1", [
            rec("copy", "copy-fast", "gemmkit", 2000, 2000, 2310.0)]),
        "cuda-cand-batched-mid-1.json": doc("xgemm-direct-batched", "TSM=32,TSN=32", [
            rec("sgemm_batched", "xgemm-direct-batched", "gemmkit", 100, 100, 30000.0, k=100, batch=1000)]),
    }
    with tempfile.TemporaryDirectory() as tmp:
        for name, d in docs.items():
            with open(os.path.join(tmp, name), "w") as f:
                json.dump(d, f)
        p = subprocess.run([sys.executable, os.path.join(source, "bench", "transpose_batched_summary.py"), tmp],
                           capture_output=True, text=True)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out
    assert row(out, "2000x2000") == ["2000x2000", "transpose-fast", "registry defaults", "1800", "2000", "0.900",
                                     "2100", "2200", "1.050"], out
    assert row(out, "1000 x 100x100x100") == ["1000 x 100x100x100", "xgemm-direct-batched", "TSM=64,TSN=64", "20000",
                                              "25000", "0.800"], out
    assert row(out, "transpose-fast", "ORDER=2") == ["transpose-fast", "ORDER=2", "2000x2000", "2200",
                                                     "transpose-fast (1800)", "2000", "1.222", "1.100"], out
    assert row(out, "copy-fast", "COPY_PREFETCH=1") == ["copy-fast", "COPY_PREFETCH=1", "2000x2000", "2310",
                                                        "copy-fast (2100)", "2200", "1.100", "1.050"], out
    assert row(out, "xgemm-direct-batched", "TSM=32,TSN=32")[3:] == ["30000", "xgemm-direct-batched (20000)",
                                                                     "25000", "1.500", "1.200"], out
    print("PASS transpose_batched_summary_py")


if __name__ == "__main__":
    main()
