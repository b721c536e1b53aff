#!/usr/bin/env python3
"""A short summary of `gemmkit bench --json` files: per file and size, gemmkit's
fastest correct result beside each peer, with the ratios; then every result
that failed its check or did not run. Standard library only.

usage: bench/summary.py RESULTS.json [MORE.json ...]
"""
import json
import sys


def size_text(r):
    if not r.get("k"):
        return f"{r['m']}x{r['n']}"
    if r["m"] == r["n"] == r["k"]:
        return str(r["m"])
    return f"{r['m']}x{r['n']}x{r['k']}"


def call_rate(r):
    return (r.get("rate") or {}).get("call") or 0.0


def summarize(path):
    with open(path) as f:
        doc = json.load(f)
    results = doc["results"]
    if not results:
        print(f"{path}: no results")
        return 0
    unit = results[0]["unit"]
    device = doc["device"]
    peers = []
    for r in results:
        if r["kind"] == "peer" and r["name"] not in peers:
            peers.append(r["name"])
    print(f"\n{path}: {doc['title']}")
    print(f"  {device['platform']} | {device['name']} (driver {device['driver']}), "
          f"fp32 peak {device['peak_gflops']:.0f} GFLOPS = {device['peak_formula']}")
    for p in doc.get("peers", []):
        print(f"  peer {p['label']}: {'found' if p['found'] else 'not used'}: {p['detail']}")
    head = f"  {'size':<12} {'fastest gemmkit (call)':<30} {unit:>10} {'%peak':>6}"
    head += "".join(f" {p:>12}" for p in peers) + "".join(f" {'vs ' + p:>16}" for p in peers)
    print(head)
    sizes = []
    for r in results:
        key = (r["op"], r["m"], r["n"], r["k"])
        if key not in sizes:
            sizes.append(key)
    for key in sizes:
        here = [r for r in results if (r["op"], r["m"], r["n"], r["k"]) == key and r["status"] == "ok"]
        ours = [r for r in here if r["kind"] == "gemmkit"]
        best = max(ours, key=call_rate, default=None)
        size = size_text(here[0]) if here else "?"
        if key[0] == "copy":
            size += " copy"  # beside the transposes at the same size
        line = f"  {size:<12} "
        if best:
            name = best["name"] if best["resolved"] == best["name"] else f"{best['name']}:{best['resolved']}"
            peak = call_rate(best) / device["peak_gflops"] if unit == "GFLOPS" and device["peak_gflops"] else None
            line += f"{name:<30} {call_rate(best):>10.1f} {('%.1f%%' % (100 * peak)) if peak else '-':>6}"
        else:
            line += f"{'(no correct result)':<30} {'-':>10} {'-':>6}"
        theirs = {r["name"]: call_rate(r) for r in here if r["kind"] == "peer"}
        line += "".join(f" {theirs[p]:>12.1f}" if theirs.get(p) else f" {'-':>12}" for p in peers)
        for p in peers:
            ratio = call_rate(best) / theirs[p] if best and theirs.get(p) else None
            line += f" {('%.2fx' % ratio) if ratio else '-':>16}"
        print(line)
    bad = [r for r in results if r["status"] in ("wrong", "error")]
    skipped = [r for r in results if r["status"] == "skipped"]
    for r in bad:
        print(f"  {r['status'].upper()}: {r['name']} {size_text(r)}: {r['message']}")
    if skipped:
        print(f"  skipped: {len(skipped)} (see the table or the JSON for why)")
    return sum(1 for r in bad if r["kind"] != "peer")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    failures = 0
    for path in sys.argv[1:]:
        try:
            failures += summarize(path)
        except (OSError, ValueError, KeyError) as e:
            print(f"{path}: cannot summarize: {e}")
            failures += 1
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
