#!/usr/bin/env python3
"""One table from Nsight Compute's CSV (`ncu --import R.ncu-rep --csv --page
details`, as bench/ncu-profile.sh writes it): one row per profiled launch with
what decides a GEMM kernel's speed side by side (gemmkit's and cuBLAS's of the
same run), then each launch's largest warp stall reasons.

Columns, where the report has them: duration, compute (SM) and memory
throughput (% of peak), issue slots busy, registers per thread, achieved
occupancy, shared-memory bank conflicts and the pipe utilizations
bench/ncu-profile.sh asks for (FMA, tensor). Missing metrics print as "-".
Standard library only.

usage: ncu_summary.py REPORT.csv [...]
"""
import csv
import re
import sys

# (column title, metric names in the details page, first found wins)
COLUMNS = [
    ("duration", ["Duration"]),
    ("SM %", ["Compute (SM) Throughput"]),
    ("memory %", ["Memory Throughput"]),
    ("issue busy %", ["Issue Slots Busy", "Issued Ipc Active"]),
    ("registers", ["Registers Per Thread"]),
    ("occupancy %", ["Achieved Occupancy"]),
    ("FMA pipe %", ["sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active",
                    "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"]),
    ("tensor pipe %", ["sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active",
                       "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
                       "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
                       re.compile(r"^sm__(inst_executed_)?pipe_tensor.*\.avg\.pct_of_peak_sustained_active$")]),
    ("smem conflicts", ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
                        "Shared Memory Bank Conflicts"]),
]
STALL_PREFIX = "smsp__average_warps_issue_stalled_"
STALL_SUFFIX = "_per_issue_active.ratio"


def number(text):
    try:
        return float(text.replace(",", ""))
    except (AttributeError, ValueError):
        return None


def launches(paths):
    """{(file, launch id): {"name": kernel, "metrics": {metric name: [(value, unit), ...]}}}, in file and launch
    order. A name can come with several units (Memory Throughput: % of peak in one section, bytes/s in another)."""
    out = {}
    for path in paths:
        with open(path, newline="") as f:
            # ncu prints "==PROF==" lines before the CSV when they share a stream.
            rows = [line for line in f if line.startswith('"')]
        for row in csv.DictReader(rows):
            key = (path, row.get("ID", ""))
            entry = out.setdefault(key, {"name": row.get("Kernel Name", "?"), "metrics": {}})
            entry["metrics"].setdefault(row.get("Metric Name", ""), []).append(
                (row.get("Metric Value", ""), row.get("Metric Unit", "")))
    return out


def short(name, width=48):
    name = name.split("(")[0]
    return name if len(name) <= width else name[: width - 3] + "..."


def matching(metrics, name):
    """The metric names `name` stands for: itself, or those a compiled pattern matches (sorted), with a number."""
    if isinstance(name, str):
        return [name] if name in metrics else []
    return sorted(m for m in metrics if name.match(m) and number(metrics[m][0][0]) is not None)


def cell(metrics, names, percent=False):
    """The column's value: its first metric with a number ("n/a" where ncu has no value), else the first found."""
    candidates = []
    for name in (m for pattern in names for m in matching(metrics, pattern)):
        found = metrics[name]
        if percent:  # a "%" column takes the percentage where the name has several units
            found = [m for m in found if m[1] == "%"] or found
        candidates.append(found[0])
    if not candidates:
        return "-"
    value, unit = next((c for c in candidates if number(c[0]) is not None), candidates[0])
    if unit in ("nsecond", "ns"):
        v = number(value)
        return f"{v / 1000:.1f} us" if v is not None else value
    if unit in ("usecond", "us", "msecond", "ms"):
        return f"{value} {unit[0]}s"
    return value


def stalls(metrics, top=4):
    found = []
    for name, values in metrics.items():
        value = values[0][0]
        if name.startswith(STALL_PREFIX) and name.endswith(STALL_SUFFIX):
            v = number(value)
            if v is not None and v > 0:
                found.append((v, name[len(STALL_PREFIX): -len(STALL_SUFFIX)]))
    found.sort(reverse=True)
    return ", ".join(f"{reason} {v:.2f}" for v, reason in found[:top]) or "-"


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 2
    entries = launches(argv[1:])
    if not entries:
        print("no profiled launches in " + ", ".join(argv[1:]), file=sys.stderr)
        return 1
    print("| launch | kernel | " + " | ".join(title for title, _ in COLUMNS) + " |")
    print("| --- | --- | " + " | ".join("---:" for _ in COLUMNS) + " |")
    for (path, launch), entry in entries.items():
        cells = [cell(entry["metrics"], names, title.endswith("%")) for title, names in COLUMNS]
        print(f"| {launch} | {short(entry['name'])} | " + " | ".join(cells) + " |")
    print()
    print("Warp stalls per issued instruction (largest first):")
    print()
    for (path, launch), entry in entries.items():
        print(f"- {launch} {short(entry['name'])}: {stalls(entry['metrics'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
