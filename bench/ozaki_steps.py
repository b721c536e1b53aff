#!/usr/bin/env python3
"""Math mode int8x's steps from a GEMMKIT_TRACE log of n^3 calls (bench/ozaki.sh): each step's median device
time over the calls, the bytes it must move at the least (fp32 operands and C, int8 residues; C read too
with --beta) and the rate that makes, then the three stages (slicing, products, recombination) summed.

usage: bench/ozaki_steps.py LOG --n N [--moduli 8] [--beta] > steps.md"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_summary import calls  # noqa: E402

STAGE = {"ozaki-norms": "slicing", "ozaki-slice": "slicing", "ozaki-crt": "recombination"}


def least_bytes(kernel, n, moduli, beta):
    """The traffic a step cannot avoid at n^3 (products: their operands once and their residues out)."""
    square = n * n
    if kernel == "ozaki-norms":
        return 4 * square
    if kernel == "ozaki-slice":
        return 4 * square + moduli * square
    if kernel == "ozaki-crt":
        return moduli * square + (8 if beta else 4) * square
    return 2 * moduli * square + moduli * square


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log")
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--moduli", type=int, default=8)
    parser.add_argument("--beta", action="store_true", help="the calls read C (beta != 0)")
    args = parser.parse_args()
    runs = [c for c in calls(args.log) if any(k == "ozaki-crt" for k, *_ in c)]
    if not runs:
        sys.exit(f"{args.log}: no traced int8x call (no ozaki-crt step)")
    key = [(k, main) for k, main, *_ in runs[-1]]
    runs = [r for r in runs if [(k, main) for k, main, *_ in r] == key]
    print(f"{len(runs)} call(s) of {args.n}^3, {args.moduli} moduli\n")
    print("| step | kernel | median ms | least GB | GB/s |")
    print("| ---: | --- | ---: | ---: | ---: |")
    stages = {}
    for i, (kernel, main) in enumerate(key):
        ms = statistics.median(r[i][4] for r in runs)
        gb = least_bytes(kernel, args.n, args.moduli, args.beta) / 1e9
        stage = STAGE.get(kernel, "products" if main else "other")
        total = stages.setdefault(stage, [0.0, 0.0])
        total[0] += ms
        total[1] += gb
        print(f"| {i + 1} | {kernel}{' (main)' if main else ''} | {ms:.4f} | {gb:.3f} | {1000 * gb / ms:.0f} |" if ms > 0 else
              f"| {i + 1} | {kernel} | {ms:.4f} | {gb:.3f} | - |")
    print("\n| stage | ms | least GB | GB/s |")
    print("| --- | ---: | ---: | ---: |")
    for stage, (ms, gb) in stages.items():
        print(f"| {stage} | {ms:.4f} | {gb:.3f} | {1000 * gb / ms:.0f} |" if ms > 0 else f"| {stage} | {ms:.4f} | {gb:.3f} | - |")
    print(f"| all | {sum(v[0] for v in stages.values()):.4f} | | |")


if __name__ == "__main__":
    main()
