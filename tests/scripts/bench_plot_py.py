#!/usr/bin/env python3
"""Checks bench/plot.py on made-up results: each series in size order (4097
measured after 16384), TF32 on its own panel, a long ladder one panel per
document family, and a PNG written. Exit 77 (skipped) without matplotlib.

usage: bench_plot_py.py SOURCE_DIR
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile


def result(name, kind, label, n, gflops):
    return {"op": "sgemm", "name": name, "kind": kind, "label": label, "m": n, "n": n, "k": n,
            "status": "ok", "unit": "GFLOPS", "rate": {"call": gflops}}


def doc(results):
    return {"title": "SGEMM test", "date": "2026-01-01T00:00:00Z",
            "device": {"platform": "Test platform", "name": "Test GPU", "backend": "opencl"}, "results": results}


def best_doc():
    results = []
    for n in (1024, 2048, 4096, 8192, 16384, 4097):
        results += [result("best", "gemmkit", "gemmkit (library dispatch)", n, 45000.0),
                    result("cublas", "peer", "cuBLAS SGEMM, pure fp32", n, 50000.0),
                    result("cublas-tf32", "peer", "cuBLAS SGEMM, TF32 tensor cores: NOT fp32 accuracy", n, 4e5),
                    result("clblast", "peer", "CLBlast SGEMM", n, 33000.0)]
    return doc(results)


def ladder_doc():
    results = []
    for n in (256, 128, 64):
        results += [result(f"tutorial-{i}-step", "gemmkit", "", n, 100.0 * i) for i in range(1, 9)]
        results += [result(f"lecture-{i}-step", "gemmkit", "", n, 50.0 * i) for i in range(1, 5)]
        results += [result("xgemm", "gemmkit", "", n, 900.0), result("host-seq", "baseline", "", n, 1.0),
                    result("clblast", "peer", "CLBlast SGEMM", n, 1000.0)]
    return doc(results)


def main():
    source = sys.argv[1]
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("matplotlib is missing: skipped")
        return 77
    spec = importlib.util.spec_from_file_location("plot", os.path.join(source, "bench", "plot.py"))
    plot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plot)

    series = {s["name"]: s for s in plot.series_of(best_doc())}
    sizes = [x for x, _ in series["best"]["points"]]
    assert sizes == sorted(sizes) and len(sizes) == 6, f"best drawn out of size order: {sizes}"
    assert series["cublas-tf32"]["tf32"] and not series["cublas"]["tf32"]
    panels = plot.panels_of(plot.series_of(best_doc()))
    assert len(panels) == 2, [h for h, _ in panels]
    assert "cublas-tf32" not in [s["name"] for s in panels[0][1]], "TF32 on the fp32 panel"
    assert "TF32" in panels[1][0] and panels[1][1][0]["name"] == "cublas-tf32"

    panels = plot.panels_of(plot.series_of(ladder_doc()))
    headings = [h for h, _ in panels]
    assert len(panels) == 3 and headings[0].startswith("tutorial-*") and headings[1].startswith("lecture-*"), headings
    assert {"xgemm", "host-seq", "clblast"} == {s["name"] for s in panels[2][1]}, panels[2][1]

    with tempfile.TemporaryDirectory() as tmp:
        inputs = []
        for name, d in (("best", best_doc()), ("ladder", ladder_doc())):
            inputs.append(os.path.join(tmp, f"{name}.json"))
            with open(inputs[-1], "w") as f:
                json.dump(d, f)
        out = os.path.join(tmp, "plot.png")
        subprocess.run([sys.executable, os.path.join(source, "bench", "plot.py"), *inputs, "-o", out], check=True)
        with open(out, "rb") as f:
            data = f.read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000, f"{out}: not a PNG ({len(data)} bytes)"

        # A write that fails midway (a 4 KiB file-size limit) keeps the old plot whole and leaves no temporary file.
        def small_files():
            import resource
            import signal
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
        failed = subprocess.run([sys.executable, os.path.join(source, "bench", "plot.py"), *inputs, "-o", out],
                                preexec_fn=small_files, capture_output=True)
        assert failed.returncode != 0, "plot.py wrote a PNG over a 4 KiB file-size limit"
        with open(out, "rb") as f:
            assert f.read() == data, f"{out}: the previous plot changed after a failed write"
        assert sorted(os.listdir(tmp)) == ["best.json", "ladder.json", "plot.png"], os.listdir(tmp)
    print("bench/plot.py: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
