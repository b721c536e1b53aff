#!/usr/bin/env python3
"""Checks bench/ncu_summary.py on a made-up Nsight Compute CSV (the details
page's columns): one row per launch with the metrics it finds ("-" for the
missing; a "%" column takes the percentage of a name given in two units; a
metric with a value before one that reads "n/a"; tensor pipes by pattern), durations in microseconds, "==PROF==" lines skipped, stall reasons
largest first; no launches: exit 1; no arguments: usage, exit 2.

usage: ncu_summary_py.py SOURCE_DIR
"""
import csv
import io
import os
import subprocess
import sys
import tempfile

HEADER = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
          "Grid Size", "Device", "CC", "Section Name", "Metric Name", "Metric Unit", "Metric Value"]


def rows(launch, kernel, metrics):
    for section, name, unit, value in metrics:
        yield [str(launch), "1", "gemmkit", "h", kernel, "1", "7", "(256, 1, 1)", "(64, 64, 1)", "0", "9.0",
               section, name, unit, value]


def main(source):
    out = io.StringIO()
    out.write("==PROF== Connected to process 1\n")
    w = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    w.writerow(HEADER)
    stall = "smsp__average_warps_issue_stalled_%s_per_issue_active.ratio"
    for r in rows(0, "gk_xgemm(int, int, int)", [
            ("GPU Speed Of Light Throughput", "Duration", "nsecond", "2,812,000"),
            ("GPU Speed Of Light Throughput", "Compute (SM) Throughput", "%", "77.1"),
            # one name in two units (the H200's reports): the "memory %" column takes the percentage
            ("GPU Speed Of Light Throughput", "Memory Throughput", "%", "42.6"),
            ("Memory Workload Analysis", "Memory Throughput", "byte/second", "129,222,293,343.09"),
            # a tensor pipe named in the list but without a value, another found by pattern
            ("Command line profiler metrics", "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active",
             "%", "n/a"),
            ("Command line profiler metrics", "sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_active",
             "%", "61.5"),
            ("Launch Statistics", "Registers Per Thread", "register/thread", "168"),
            ("Command line profiler metrics", stall % "barrier", "", "0.41"),
            ("Command line profiler metrics", stall % "short_scoreboard", "", "0.93"),
            ("Command line profiler metrics", stall % "math_pipe_throttle", "", "0.12"),
            ("Command line profiler metrics", stall % "sleeping", "", "0")]):
        w.writerow(r)
    for r in rows(1, "sm90_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x128x8_kernel", [
            ("GPU Speed Of Light Throughput", "Duration", "nsecond", "2600000"),
            ("Occupancy", "Achieved Occupancy", "%", "24.9")]):
        w.writerow(r)
    script = os.path.join(source, "bench", "ncu_summary.py")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fp32-4096.csv")
        with open(path, "w") as f:
            f.write(out.getvalue())
        p = subprocess.run([sys.executable, script, path], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        lines = p.stdout.splitlines()
        table = [l for l in lines if l.startswith("| 0 ") or l.startswith("| 1 ")]
        assert len(table) == 2, p.stdout
        assert "gk_xgemm" in table[0] and "2812.0 us" in table[0] and "77.1" in table[0] and "168" in table[0], table[0]
        assert "| 42.6 |" in table[0] and "129,222" not in table[0], table[0]
        assert "| 61.5 |" in table[0] and "n/a" not in table[0], table[0]
        assert "sm90_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesiz..." in table[1] and "24.9" in table[1], table[1]
        assert table[1].count("| - ") >= 5, table[1]
        stalls = [l for l in lines if l.startswith("- 0 ")][0]
        assert stalls.index("short_scoreboard 0.93") < stalls.index("barrier 0.41") < stalls.index(
            "math_pipe_throttle 0.12"), stalls
        assert "sleeping" not in stalls, stalls
        assert [l for l in lines if l.startswith("- 1 ")][0].endswith(": -"), p.stdout

        empty = os.path.join(tmp, "empty.csv")
        with open(empty, "w") as f:
            f.write("==PROF== nothing profiled\n")
        p = subprocess.run([sys.executable, script, empty], capture_output=True, text=True)
        assert p.returncode == 1 and "no profiled launches" in p.stderr, (p.returncode, p.stderr)
        p = subprocess.run([sys.executable, script], capture_output=True, text=True)
        assert p.returncode == 2 and "usage" in p.stdout, (p.returncode, p.stdout)
    print("ncu_summary.py: ok")


if __name__ == "__main__":
    main(sys.argv[1])
