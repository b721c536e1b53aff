#!/usr/bin/env python3
"""The thin lines' constants from a calibration file (`tune --calibrate --lines ... --db CAL`, keyed by the device's
name and fitted against its measured copy bandwidth) as a tuning file for both backends, their BWEFF restated
against the built-in sm_90 device line's COPY (the one a context on this device reads), capped at 1.
usage: thin_lines.py CAL OUT BUILTIN_COPY"""
import sys
cal, out, builtin_copy = sys.argv[1], sys.argv[2], float(sys.argv[3])
rows = [l.rstrip("\n").split("\t") for l in open(cal) if l.strip() and not l.startswith("#")]
copy = next(float(dict(kv.split("=") for kv in r[3].split(","))["COPY"]) for r in rows if r[2] == "cost:device")
with open(out, "w") as f:
    for r in rows:
        if not r[2].startswith("cost:xgemm-direct/thin"):
            continue
        kv = [kv.split("=") for kv in r[3].split(",")]
        kv = [(k, "%.4f" % min(1.0, float(v) * copy / builtin_copy)) if k == "BWEFF" else (k, v) for k, v in kv]
        for b in ("cuda", "opencl"):
            f.write("\t".join([b, r[1], r[2], ",".join("%s=%s" % p for p in kv)] + r[4:]) + "\n")
print(open(out).read(), end="")
