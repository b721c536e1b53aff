#!/usr/bin/env python3
"""What the Python binding adds to a call: the wall-clock time of one n x n
x n SGEMM from Python (gemmkit.sgemm into a preallocated C, gemmkit.matmul
allocating its result, and on DeviceArrays) beside the same call from C
(build/call_time: gemmkit_sgemm and gemmkit_sgemm_buffers), on the default
device, and the binding alone (a call the library answers without the
device: alpha = 0, beta = 1). Medians over REPEAT calls after a warm-up; C and Python alternate
ROUNDS times so that the machine's load falls on both alike.

usage: overhead.py [--sizes 64,1024] [--repeat N] [--rounds R] [--call-time build/call_time]
Run from the checkout (PYTHONPATH=python, or the package installed)."""
import argparse
import pathlib
import statistics
import subprocess
import time

import numpy as np

import gemmkit


def python_times(n, repeat, context):
    rng = np.random.default_rng(12345)
    a = rng.uniform(0.001, 1, (n, n)).astype(np.float32)
    b = rng.uniform(0.001, 1, (n, n)).astype(np.float32)
    c = np.empty((n, n), np.float32)
    da, db, dc = context.to_device(a), context.to_device(b), context.empty((n, n))
    calls = {
        "sgemm(a, b, c)": lambda: gemmkit.sgemm(a, b, c, context=context),
        "matmul(a, b)": lambda: gemmkit.matmul(a, b, context=context),
        "sgemm(da, db, dc)": lambda: gemmkit.sgemm(da, db, dc),
        # alpha = 0, beta = 1 changes nothing: the library checks and returns
        # without the device, so this is the binding's own cost per call.
        "binding": lambda: gemmkit.sgemm(a, b, c, alpha=0.0, beta=1.0, context=context),
    }
    result = {}
    for name, call in calls.items():
        call()  # warm-up: kernel builds
        samples = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            call()
            samples.append((time.perf_counter() - t0) * 1e6)
        result[name] = statistics.median(samples)
    reference = a.astype(np.float64) @ b.astype(np.float64)
    assert np.allclose(c, reference, rtol=1e-4) and np.allclose(dc.numpy(), reference, rtol=1e-4)
    return result


def c_times(program, n, repeat):
    out = subprocess.run([str(program), str(n), str(repeat)], capture_output=True, text=True, check=True).stdout
    return {line.split()[0]: float(line.split()[2]) for line in out.splitlines()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="64,1024")
    parser.add_argument("--repeat", type=int, default=0, help="calls per measurement (default: 200 at n <= 256, else 10)")
    parser.add_argument("--rounds", type=int, default=3)
    default_program = pathlib.Path(__file__).resolve().parents[2] / "build" / "call_time"
    parser.add_argument("--call-time", type=pathlib.Path, default=default_program)
    args = parser.parse_args()
    context = gemmkit.default_context()
    print("device: %s %s; library %s" % (context.device.platform, context.device.name, gemmkit.library_path))
    print("| n | C gemmkit_sgemm | Python sgemm(a, b, c) | Python matmul(a, b) | C gemmkit_sgemm_buffers | "
          "Python sgemm(da, db, dc) | overhead host | overhead device | binding alone |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in (int(s) for s in args.sizes.split(",")):
        repeat = args.repeat or (200 if n <= 256 else 10)
        rounds = {"host": [], "buffers": [], "sgemm(a, b, c)": [], "matmul(a, b)": [], "sgemm(da, db, dc)": [],
                  "binding": []}
        for _ in range(args.rounds):
            for key, value in c_times(args.call_time, n, repeat).items():
                rounds[key].append(value)
            for key, value in python_times(n, repeat, context).items():
                rounds[key].append(value)
        m = {key: statistics.median(values) for key, values in rounds.items()}
        print("| %d | %.1f us | %.1f us | %.1f us | %.1f us | %.1f us | %+.1f us (%+.1f%%) | %+.1f us (%+.1f%%) "
              "| %.1f us |" % (
            n, m["host"], m["sgemm(a, b, c)"], m["matmul(a, b)"], m["buffers"], m["sgemm(da, db, dc)"],
            m["sgemm(a, b, c)"] - m["host"], 100 * (m["sgemm(a, b, c)"] / m["host"] - 1),
            m["sgemm(da, db, dc)"] - m["buffers"], 100 * (m["sgemm(da, db, dc)"] / m["buffers"] - 1),
            m["binding"]))


if __name__ == "__main__":
    main()
