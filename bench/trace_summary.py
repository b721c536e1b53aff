#!/usr/bin/env python3
"""Summarises GEMMKIT_TRACE lines (one per launched step, src/core/plan.c) from
stderr logs: per log, the calls (runs of steps 1..n) grouped by their steps,
and each step's median device time over the calls, as a Markdown table.

usage: bench/trace_summary.py LOG... > steps.md"""
import re
import statistics
import sys

LINE = re.compile(r"gemmkit trace: step (\d+)/(\d+) (\S+)( \(main\))? (.*) grid (\S+) local \S+: ([0-9.]+) ms")


def calls(path):
    """The calls of one log: lists of (kernel, main, options, grid, ms)."""
    out, current = [], []
    with open(path, errors="replace") as f:
        for line in f:
            m = LINE.search(line)
            if not m:
                continue
            step, count = int(m.group(1)), int(m.group(2))
            if step == 1:
                current = []
            current.append((m.group(3), bool(m.group(4)), m.group(5).strip(), m.group(6), float(m.group(7))))
            if step == count:
                out.append(current)
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        groups = {}
        for call in calls(path):
            key = tuple((k, main, o, g) for k, main, o, g, _ in call)
            groups.setdefault(key, []).append([ms for *_, ms in call])
        print(f"### {path}\n")
        for key, runs in groups.items():
            total = statistics.median(sum(r) for r in runs)
            print(f"{len(runs)} call(s), median device time of the call {total:.4f} ms\n")
            print("| step | kernel | parameters | grid | median ms | share |")
            print("| ---: | --- | --- | --- | ---: | ---: |")
            for i, (kernel, main, options, grid) in enumerate(key):
                ms = statistics.median(r[i] for r in runs)
                name = kernel + (" (main)" if main else "")
                print(f"| {i + 1} | {name} | {options} | {grid} | {ms:.4f} | {100 * ms / total:.0f}% |")
            print()


if __name__ == "__main__":
    main()
