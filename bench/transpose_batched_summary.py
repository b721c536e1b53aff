#!/usr/bin/env python3
"""The tables of bench/transpose-batched.sh from its OUTDIR's bench JSON files (markdown on stdout).

Policy runs (settings.kernel "best"): per backend and shape, the kernel and line gemmkit chose, its call rate,
cuBLAS's in the same run and the ratio; for transposes also copy-fast beside cuBLAS's copy and transpose (the
issue's "copy kernel >= cuBLAS's transpose rate"). Candidate runs (a named kernel with --params): each line's call
rate at each shape, beside the policy's choice and cuBLAS from the policy runs of the same backend and shape.

usage: transpose_batched_summary.py OUTDIR
"""
import glob
import json
import os
import sys


def shape_of(r):
    if r["op"] == "sgemm_batched":
        return f'{r["batch"]} x {r["m"]}x{r["n"]}x{r["k"]}'
    return f'{r["m"]}x{r["n"]}'


def call_rate(r):
    if r.get("status") != "ok" or not r.get("rate"):
        return None
    return r["rate"].get("call")


def fmt(x, digits=0):
    return "-" if x is None else f"{x:.{digits}f}"


def ratio(a, b):
    return f"{a / b:.3f}" if a and b else "-"


def line_of(r):
    """The note's "line: ..." part (bench writes the chosen line there), without -D prefixes."""
    for part in (r.get("note") or "").split("; "):
        if part.startswith("line: "):
            line = part[len("line: "):]
            return line.replace(" -D", ",").removeprefix("-D") if line.startswith("-D") else line
    return ""


def load(outdir):
    runs = []
    for path in sorted(glob.glob(os.path.join(outdir, "*.json"))):
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"skipped {path}: {e}", file=sys.stderr)
            continue
        runs.append((os.path.basename(path), doc))
    return runs


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    runs = load(sys.argv[1])
    # (backend, op, shape) -> {"best": rec, "cublas": rec, "copy-fast": rec, "cublas-copy": rec}
    policy = {}
    candidates = []
    device = ""
    for name, doc in runs:
        backend = doc["device"]["backend"]
        device = device or f'{doc["device"]["name"]} ({doc["device"].get("driver", "")})'
        kernel = doc["settings"]["kernel"]
        for r in doc["results"]:
            op = r["op"]
            key = (backend, "transpose" if op in ("transpose", "copy") else op, shape_of(r))
            slot = policy.setdefault(key, {})
            if kernel == "best":
                if r["kind"] == "gemmkit" and r["name"] == "best":
                    slot["best"] = r
                elif r["kind"] == "gemmkit" and r["name"] == "copy-fast":
                    slot["copy-fast"] = r
                elif r["name"] == "cublas":
                    slot["cublas-copy" if op == "copy" else "cublas"] = r
            elif r["kind"] == "gemmkit" and r["name"] == kernel:
                candidates.append((backend, key, kernel, doc["settings"].get("params", ""), r))

    print(f"# Transposes and batched SGEMM beside cuBLAS ({device})\n")
    print("Call rates (GB/s for transposes and copies, GFLOPS for batched); ratio = gemmkit / cuBLAS.\n")
    for backend in sorted({k[0] for k in policy}, key=lambda b: b != "cuda"):
        rows = [(k, v) for k, v in policy.items() if k[0] == backend and k[1] == "transpose" and "best" in v]
        if rows:
            print(f"## {backend}: transposes by policy\n")
            print("| shape | kernel | line | gemmkit | cuBLAS geam T | ratio | copy-fast | cuBLAS copy | "
                  "copy-fast / cuBLAS T |")
            print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
            for (_, _, shape), v in rows:
                g, c = call_rate(v["best"]), call_rate(v.get("cublas", {}))
                cf, cc = call_rate(v.get("copy-fast", {})), call_rate(v.get("cublas-copy", {}))
                print(f'| {shape} | {v["best"]["resolved"]} | {line_of(v["best"])} | {fmt(g)} | {fmt(c)} | '
                      f"{ratio(g, c)} | {fmt(cf)} | {fmt(cc)} | {ratio(cf, c)} |")
            print()
        rows = [(k, v) for k, v in policy.items() if k[0] == backend and k[1] == "sgemm_batched" and "best" in v]
        if rows:
            print(f"## {backend}: batched by policy\n")
            print("| batch x MxNxK | kernel | line | gemmkit | cuBLAS | ratio |")
            print("| --- | --- | --- | ---: | ---: | ---: |")
            for (_, _, shape), v in rows:
                g, c = call_rate(v["best"]), call_rate(v.get("cublas", {}))
                print(f'| {shape} | {v["best"]["resolved"]} | {line_of(v["best"])} | {fmt(g)} | {fmt(c)} | '
                      f"{ratio(g, c)} |")
            print()
        rows = [c for c in candidates if c[0] == backend]
        if rows:
            print(f"## {backend}: candidate lines by name\n")
            print("| kernel | params | shape | rate | policy's choice (rate) | cuBLAS | vs policy | vs cuBLAS |")
            print("| --- | --- | --- | ---: | --- | ---: | ---: | ---: |")
            for _, key, kernel, params, r in sorted(rows, key=lambda c: (c[2], c[1][2], -(call_rate(c[4]) or 0))):
                v = policy.get(key, {})
                g = call_rate(r)
                best = v.get("best")
                # a copy candidate compares with cuBLAS's copy and copy-fast's policy run
                if r["op"] == "copy":
                    best, c = v.get("copy-fast"), call_rate(v.get("cublas-copy", {}))
                    best_name = "copy-fast"
                else:
                    c = call_rate(v.get("cublas", {}))
                    best_name = best["resolved"] if best else "-"
                b = call_rate(best) if best else None
                print(f"| {kernel} | {params or '-'} | {key[2]} | {fmt(g)} | {best_name} ({fmt(b)}) | {fmt(c)} | "
                      f"{ratio(g, b)} | {ratio(g, c)} |")
            print()


if __name__ == "__main__":
    main()
