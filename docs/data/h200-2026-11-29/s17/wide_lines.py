#!/usr/bin/env python3
"""A calibrated line's constants from a calibration file (`tune --calibrate --lines ... --db CAL`, keyed by the
device's name, fitted against its measured copy bandwidth) as tuning lines for BACKEND on every sm_90 device, BWEFF
restated against the built-in sm_90 device line's COPY (the one a context reads), capped at 1.
usage: wide_lines.py CAL OUT BUILTIN_COPY BACKEND PREFIX"""
import sys
cal, out, builtin_copy, backend, prefix = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4], sys.argv[5]
rows = [l.rstrip("\n").split("\t") for l in open(cal) if l.strip() and not l.startswith("#")]
copy = next(float(dict(kv.split("=") for kv in r[3].split(","))["COPY"]) for r in rows if r[2] == "cost:device")
with open(out, "a") as f:
    for r in rows:
        if not r[2].startswith("cost:" + prefix):
            continue
        kv = [kv.split("=") for kv in r[3].split(",")]
        kv = [(k, "%.4f" % min(1.0, float(v) * copy / builtin_copy)) if k == "BWEFF" else (k, v) for k, v in kv]
        f.write("\t".join([backend, "arch:sm_90", r[2], ",".join("%s=%s" % p for p in kv)] + r[4:]) + "\n")
print(open(out).read(), end="")
