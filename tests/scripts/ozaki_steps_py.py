#!/usr/bin/env python3
"""Checks bench/ozaki_steps.py on a made-up GEMMKIT_TRACE log: the int8x calls only (an fp32 call beside them
left out), each step's median over the calls, its least traffic at n^3 and rate, the stages summed (norms and
residues as slicing, the main kernel as products); no int8x call: exit 1.

usage: ozaki_steps_py.py SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile

STEPS = [("ozaki-norms", "", 0.1), ("ozaki-slice", "-DTR=64 -DVW=16", 0.3), ("ozaki-norms", "", 0.1),
         ("ozaki-slice", "-DTR=64 -DVW=16", 0.3), ("ozaki-igemm-tc (main)", "-DMI=4", 7.0),
         ("ozaki-crt", "-DTX=32", 0.4)]


def log_text(scale):
    lines = ["gemmkit trace: step 1/1 copy-fast (main) -DTILE=64 grid 8x8x1 local 16x16x1: 9.0000 ms"]
    for i, (name, options, ms) in enumerate(STEPS):
        lines.append(f"gemmkit trace: step {i + 1}/{len(STEPS)} {name} {options} grid 64x1x1 local 256x1x1: "
                     f"{ms * scale:.4f} ms")
    return "\n".join(lines) + "\n"


def main(source):
    script = os.path.join(source, "bench", "ozaki_steps.py")
    with tempfile.TemporaryDirectory() as work:
        log = os.path.join(work, "trace.log")
        with open(log, "w") as f:
            f.write(log_text(1.0) + log_text(3.0) + log_text(1.0))  # the median: the first call's times
        out = subprocess.run([sys.executable, script, log, "--n", "1000"], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        text = out.stdout
        assert "3 call(s) of 1000^3, 8 moduli" in text, text
        # norms: 4 MB in 0.1 ms = 40 GB/s; residues 4 + 8 MB in 0.3 ms; recombination 8 + 4 MB in 0.4 ms
        assert "| 1 | ozaki-norms | 0.1000 | 0.004 | 40 |" in text, text
        assert "| 2 | ozaki-slice | 0.3000 | 0.012 | 40 |" in text, text
        assert "| 6 | ozaki-crt | 0.4000 | 0.012 | 30 |" in text, text
        assert "| slicing | 0.8000 | 0.032 | 40 |" in text, text
        assert "| products | 7.0000 |" in text, text
        assert "| all | 8.2000 |" in text, text
        assert "copy-fast" not in text, text
        beta = subprocess.run([sys.executable, script, log, "--n", "1000", "--beta"], capture_output=True, text=True)
        assert "| 6 | ozaki-crt | 0.4000 | 0.016 | 40 |" in beta.stdout, beta.stdout
        with open(log, "w") as f:
            f.write(log_text(1.0).splitlines()[0] + "\n")
        none = subprocess.run([sys.executable, script, log, "--n", "1000"], capture_output=True, text=True)
        assert none.returncode == 1 and "no traced int8x call" in none.stderr, none
    print("ozaki_steps_py: ok")


if __name__ == "__main__":
    main(sys.argv[1])
