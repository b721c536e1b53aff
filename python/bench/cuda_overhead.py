#!/usr/bin/env python3
"""What Python adds to a call on PyTorch CUDA tensors (issue 37's target: at most 10 us over the C call): host
time per call of back-to-back calls on torch's current stream, nothing waited for but once at the end (a loop of
small products is bound by the host, so this is each call's host cost):
  - torch.matmul(a, b, out=c), the peer;
  - gemmkit.sgemm(a, b, c) and gemmkit.matmul(a, b, out=c);
  - gemmkit_sgemm_cuda_enqueue called straight through ctypes with the arguments made once (the C call plus
    ctypes' own cost): what the binding adds is the difference;
then a cProfile of gemmkit.sgemm's calls, the functions that cost most.

usage: cuda_overhead.py [--n 64] [--calls 2000] [--lib build/libgemmkit.so] (from the checkout: PYTHONPATH=python)
Needs PyTorch with a CUDA device."""
import argparse
import cProfile
import os
import pstats
import sys
import time


def per_call_us(call, calls, sync):
    best = float("inf")
    for _ in range(3):
        sync()
        start = time.perf_counter()
        for _ in range(calls):
            call()
        sync()
        best = min(best, (time.perf_counter() - start) / calls * 1e6)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=64)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--lib", help="libgemmkit to load (GEMMKIT_LIBRARY)")
    args = parser.parse_args()
    if args.lib:
        os.environ["GEMMKIT_LIBRARY"] = os.path.abspath(args.lib)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import torch

    import gemmkit
    from gemmkit import cuda_calls
    from gemmkit._library import lib

    torch.backends.cuda.matmul.allow_tf32 = False
    n = args.n
    a, b = (torch.rand(n, n, device="cuda") for _ in range(2))
    c = torch.empty(n, n, device="cuda")
    sync = torch.cuda.synchronize
    gemmkit.sgemm(a, b, c)  # warm-up: the context, kernel builds
    want = (a.double() @ b.double()).float()
    if not torch.allclose(c, want, rtol=1e-4, atol=1e-4):
        sys.exit("cuda_overhead: gemmkit.sgemm's result is wrong")
    context = cuda_calls.context_for(torch.cuda.current_device())
    stream = torch.cuda.current_stream().cuda_stream
    # Row-major NN (GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS): the call gemmkit.sgemm makes for these tensors.
    direct = (context.handle, stream, 101, 111, 111, n, n, n, 1.0, a.data_ptr(), n, b.data_ptr(), n, 0.0,
              c.data_ptr(), n)
    enqueue = lib.gemmkit_sgemm_cuda_enqueue
    rows = [
        ("torch.matmul(a, b, out=c)", lambda: torch.matmul(a, b, out=c)),
        ("gemmkit.sgemm(a, b, c)", lambda: gemmkit.sgemm(a, b, c)),
        ("gemmkit.matmul(a, b, out=c)", lambda: gemmkit.matmul(a, b, out=c)),
        ("ctypes enqueue, arguments made once", lambda: enqueue(*direct)),
    ]
    times = {}
    for name, call in rows:
        call()
        times[name] = per_call_us(call, args.calls, sync)
    print("host time per call, %d back-to-back calls at %d^3 on torch's current stream, best of 3 (%s, %s)" %
          (args.calls, n, torch.cuda.get_device_name(), "torch " + torch.__version__))
    for name, _ in rows:
        print("  %-38s %8.2f us" % (name, times[name]))
    over = times["gemmkit.sgemm(a, b, c)"] - times["ctypes enqueue, arguments made once"]
    print("Python's own work per gemmkit.sgemm call (over the ctypes enqueue): %.2f us (issue 37: <= 10 us) -> %s" %
          (over, "MET" if over <= 10 else "NOT MET"))
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(args.calls):
        gemmkit.sgemm(a, b, c)
    profile.disable()
    sync()
    print("cProfile of %d gemmkit.sgemm calls (the profiler's own cost included), by own time:" % args.calls)
    pstats.Stats(profile, stream=sys.stdout).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
