#!/usr/bin/env python3
"""Issue 14's math-mode table in markdown, from `gemmkit bench --math MODE
--inputs INPUTS --peers cublas --json` files (bench/math-modes.sh writes them):
per mode, backend, n and inputs, gemmkit's call-time TFLOPS, its ratio to
cuBLAS pure fp32 of the same run, its max and RMS error (per element, relative
to (|A||B|)ij, against the float64 reference) beside cuBLAS fp32's on the same
inputs, its ratio to cuBLAS TF32; then cuBLAS's own rows, the issue's targets
met or not, and every gemmkit result that failed. Exit 1 when one failed.
Standard library only.

usage: bench/math_summary.py RESULTS.json [MORE.json ...]
"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summary import call_rate, size_text  # noqa: E402

MODES = ("fp32", "3xtf32", "tf32", "int8x")
BACKENDS = ("cuda", "opencl")
PEERS = {"cublas": "cuBLAS fp32", "cublas-tf32": "cuBLAS TF32"}
ACCURACY_SIZES = (1024, 4096, 8192, 16384)  # the accuracy target, for both kinds of inputs


def mode_of(name):
    """The math mode of gemmkit's dispatch runner: best (fp32), best-3xtf32, best-tf32, best-int8x; None otherwise."""
    if name == "best":
        return "fp32"
    if name.startswith("best-") and name[5:] in MODES:
        return name[5:]
    return None


def errors_of(r):
    check = r.get("check") or {}
    return check.get("max_error_of_scale"), check.get("rms_error_of_scale")


def load(paths):
    """gemmkit's rows {(inputs, m, n, k, mode, backend): row}, cuBLAS's {(inputs, m, n, k, peer): [records]},
    the runs' descriptions and gemmkit's failures."""
    rows, peers, runs, failures = {}, {}, [], []
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        backend = doc["device"].get("backend", "opencl")
        inputs = (doc.get("settings") or {}).get("inputs", "uniform")
        runs.append(f"{os.path.basename(path)}: {backend}, {doc['device']['name']}, {doc['date']}: "
                    f"`{doc['command_line']}`")
        results = [r for r in doc["results"] if r["op"] == "sgemm"]
        cublas = {(r["m"], r["n"], r["k"]): r for r in results if r["name"] == "cublas" and r["status"] == "ok"}
        for r in results:
            shape = (r["m"], r["n"], r["k"])
            if r["kind"] == "peer" and r["name"] in PEERS:
                peers.setdefault((inputs,) + shape + (r["name"],), []).append(r)
                continue
            mode = mode_of(r["name"]) if r["kind"] == "gemmkit" else None
            if not mode:
                continue
            if r["status"] in ("wrong", "error"):
                failures.append(f"{backend} {mode} {size_text(r)} {inputs}: {r['status']}: {r['message']}")
            ref = cublas.get(shape)
            rows[(inputs,) + shape + (mode, backend)] = {
                "record": r,
                "cublas_errors": errors_of(ref) if ref else (None, None),
            }
    return rows, peers, runs, failures


def err(x):
    return "-" if x is None else f"{x:.1e}"


def times(x):
    return "-" if not x else f"{x:.2f}x"


def tflops(gflops):
    if not gflops:
        return "-"
    return f"{gflops / 1000:.1f}" if gflops >= 10000 else f"{gflops / 1000:.3g}"


def no_worse(row):
    """Whether the row's max and RMS error are no larger than cuBLAS fp32's on the same inputs (None: unknown)."""
    mine, theirs = errors_of(row["record"]), row["cublas_errors"]
    if None in mine or None in theirs or row["record"]["status"] != "ok":
        return None
    return mine[0] <= theirs[0] and mine[1] <= theirs[1]


def sort_key(key):
    inputs, m, n, k, mode, backend = key
    return (inputs != "uniform", m * n * k, m, n, k, MODES.index(mode), BACKENDS.index(backend)
            if backend in BACKENDS else 9)


def table(rows, peers):
    lines = ["| mode | backend | n | inputs | TFLOPS | vs cuBLAS fp32 | max err | RMS err | cuBLAS fp32 max / RMS "
             "| max, RMS <= cuBLAS fp32 | vs cuBLAS TF32 |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for key in sorted(rows, key=sort_key):
        inputs, mode, backend = key[0], key[4], key[5]
        row = rows[key]
        r = row["record"]
        size = size_text(r)
        theirs = row["cublas_errors"]
        theirs_text = "-" if theirs[0] is None else f"{err(theirs[0])} / {err(theirs[1])}"
        if r["status"] != "ok":
            lines.append(f"| {mode} | {backend} | {size} | {inputs} | **{r['status']}** | - | - | - | {theirs_text} "
                         f"| - | - |")
            continue
        mine = errors_of(r)
        ratios = r.get("ratio_to_peer") or {}
        verdict = no_worse(row)
        flag = "-" if mode == "tf32" or verdict is None else "yes" if verdict else "**no**"
        lines.append(f"| {mode} | {backend} | {size} | {inputs} | {tflops(call_rate(r))} | {times(ratios.get('cublas'))} "
                     f"| {err(mine[0])} | {err(mine[1])} | {theirs_text} | {flag} | {times(ratios.get('cublas-tf32'))} |")
    # cuBLAS itself, once per size and inputs: the median rate of its runs (every run has it), its errors.
    lines += ["", "| peer | n | inputs | TFLOPS (median of its runs) | runs | max err | RMS err |",
              "| --- | --- | --- | --- | --- | --- | --- |"]
    for key in sorted(peers, key=lambda x: (x[0] != "uniform", x[1] * x[2] * x[3], x[1:4], x[4])):
        records = [r for r in peers[key] if r["status"] == "ok"]
        if not records:
            lines.append(f"| {PEERS[key[4]]} | {size_text(peers[key][0])} | {key[0]} | **{peers[key][0]['status']}** "
                         f"| 0 | - | - |")
            continue
        rate = statistics.median(call_rate(r) for r in records)
        mx, rms = errors_of(records[0])
        lines.append(f"| {PEERS[key[4]]} | {size_text(records[0])} | {key[0]} | {tflops(rate)} | {len(records)} "
                     f"| {err(mx)} | {err(rms)} |")
    return lines


def target_lines(rows):
    """The issue's targets (H200): each met, not met, or without data."""
    def ratio(mode, backend, n, peer):
        row = rows.get(("uniform", n, n, n, mode, backend))
        if not row or row["record"]["status"] != "ok":
            return None
        return (row["record"].get("ratio_to_peer") or {}).get(peer)

    def verdict(ok):
        return "no data" if ok is None else "met" if ok else "**not met**"

    out = ["", "Targets (issue 14, H200):"]
    for backend in BACKENDS:
        head = f"- 3xtf32 accuracy, {backend}: max and RMS <= cuBLAS fp32's at n = " \
               f"{', '.join(map(str, ACCURACY_SIZES))}, uniform and wide: "
        mine = [(k, rows[k]) for k in rows if k[4] == "3xtf32" and k[5] == backend]
        if not mine:
            out.append(head + "no data")
            continue
        worse = [f"{k[0]} {size_text(row['record'])}" for k, row in sorted(mine, key=lambda x: sort_key(x[0]))
                 if no_worse(row) is not True]
        missing = [f"{inputs} {n}" for inputs in ("uniform", "wide") for n in ACCURACY_SIZES
                   if (inputs, n, n, n, "3xtf32", backend) not in rows]
        text = verdict(False) if worse else "incomplete" if missing else verdict(True)
        if worse:
            text += f" (not at: {', '.join(worse)})"
        if missing:
            text += f" (no result at: {', '.join(missing)})"
        out.append(head + text)
    for backend, want in (("cuda", 2.0), ("opencl", 1.6)):
        x = ratio("3xtf32", backend, 8192, "cublas")
        out.append(f"- 3xtf32 speed, {backend}: >= {want:.1f}x cuBLAS fp32 at 8192: {times(x)}, "
                   f"{verdict(None if x is None else x >= want)}")
    for n in (4096, 8192):
        x = ratio("tf32", "cuda", n, "cublas-tf32")
        out.append(f"- tf32 speed, cuda: >= 0.90x cuBLAS TF32 at {n}: {times(x)}, "
                   f"{verdict(None if x is None else x >= 0.9)}")
    return out


def main(paths):
    if not paths:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    rows, peers, runs, failures = load(paths)
    print("Math modes: call-time TFLOPS (every launch of the call) and error per element of C, |c - ref| / "
          "(|A||B|)ij against a float64 reference, max and RMS over the checked elements of every input set "
          "(every element up to 512^3 multiply-adds, else a grid of 128 x 128 sampled rows x columns; the same "
          "elements and inputs for every runner of one seed). Ratios to cuBLAS of the same run.\n")
    print("\n".join(table(rows, peers)))
    print("\n".join(target_lines(rows)))
    print("\nRuns:")
    for run in runs:
        print(f"- {run}")
    if failures:
        print("\nFailed gemmkit results:")
        for f in failures:
            print(f"- {f}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
