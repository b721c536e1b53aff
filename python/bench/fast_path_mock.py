#!/usr/bin/env python3
"""cuda_overhead.py's measure without a GPU: Python's per-call work on the short path (cuda_fast.py), as
gemmkit.sgemm(a, b, c) minus gemmkit_sgemm_cuda_enqueue called straight through ctypes with the arguments made
once. The driver is the stand-in libcuda of the C tests (build/tests/libgemmkit_mock_libcuda.so: device memory
is host memory, launches recorded and not run), so every driver and library call is the real ctypes call; the
tensors are a minimal stand-in for torch's (the accessors the short path reads, torch._C's raw current stream).
The figures are this machine's, for comparing versions of the Python side; the GPU's are cuda_overhead.py's.

usage (from the checkout, after `cmake --build build --target gemmkit gemmkit_mock_libcuda`):
  PYTHONPATH=python python3 python/bench/fast_path_mock.py [--calls 4000] [--build build] [--profile]"""
import argparse
import cProfile
import ctypes
import os
import pstats
import sys
import time
import types

import numpy as np


def fake_torch(stream):
    """A `torch` module with just what cuda_fast reads: CUDA float32 tensors over host memory."""
    torch = types.ModuleType("torch")
    torch.float32 = "torch.float32"

    class Tensor:
        is_cuda, requires_grad = True, False

        def __init__(self, array):
            self.array, self.shape, self.dtype = array, array.shape, torch.float32
            self.device = types.SimpleNamespace(index=0)
            self._strides = tuple(s // 4 for s in array.strides)
            self._pointer = array.ctypes.data

        def dim(self):
            return self.array.ndim

        def stride(self):
            return self._strides

        def data_ptr(self):
            return self._pointer

        def get_device(self):
            return 0

        def numel(self):
            return self.array.size

        def is_neg(self):
            return False

        def is_conj(self):
            return False

    Tensor.__module__ = "torch"
    torch.Tensor = Tensor
    torch._C = types.SimpleNamespace(_cuda_getCurrentRawStream=lambda device: stream)
    torch.version = types.SimpleNamespace(hip=None)
    torch.empty = lambda shape, dtype, device: Tensor(np.empty(shape, np.float32))
    return torch


def per_call_us(call, calls):
    best = float("inf")
    for _ in range(15):  # the best of many short runs: the machine's other load shows in the rest
        start = time.perf_counter()
        for _ in range(calls):
            call()
        best = min(best, (time.perf_counter() - start) / calls * 1e6)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=4000)
    parser.add_argument("--n", type=int, default=64)
    parser.add_argument("--build", default="build", help="the build folder (libgemmkit.so, tests/)")
    parser.add_argument("--profile", action="store_true", help="then a cProfile of the short path's calls")
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    mock = os.path.join(build, "tests", "libgemmkit_mock_libcuda.so")
    os.environ.setdefault("GEMMKIT_LIBRARY", os.path.join(build, "libgemmkit.so"))
    os.environ["GEMMKIT_LIBCUDA"] = mock
    driver = ctypes.CDLL(mock)
    primary, stream = ctypes.c_void_p(), ctypes.c_void_p()
    assert driver.cuInit(0) == 0 and driver.cuDevicePrimaryCtxRetain(ctypes.byref(primary), 0) == 0
    assert driver.cuCtxPushCurrent_v2(primary) == 0  # current, as PyTorch leaves its primary context
    assert driver.cuStreamCreate(ctypes.byref(stream), 0) == 0
    sys.modules["torch"] = torch = fake_torch(stream.value)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import gemmkit
    from gemmkit import cuda_calls, cuda_fast
    from gemmkit._library import lib

    n = args.n
    a, b, c = (torch.Tensor(np.ones((n, n), np.float32)) for _ in range(3))
    gemmkit.sgemm(a, b, c)  # the general path: the context made, the stream made known
    gemmkit.sgemm(a, b, c)
    if cuda_fast.gemm(a, b, c, 1.0, 0.0, False, False) is None:
        sys.exit("fast_path_mock: the short path was not taken")
    context = cuda_calls.context_for(0)
    direct = (context.handle, stream.value, 101, 111, 111, n, n, n, 1.0, a.data_ptr(), n, b.data_ptr(), n, 0.0,
              c.data_ptr(), n)
    enqueue = lib.gemmkit_sgemm_cuda_enqueue
    rows = [("gemmkit.sgemm(a, b, c)", lambda: gemmkit.sgemm(a, b, c)),
            ("gemmkit.matmul(a, b, out=c)", lambda: gemmkit.matmul(a, b, out=c)),
            ("gemmkit.matmul(a, b) (C made)", lambda: gemmkit.matmul(a, b)),
            ("cuda_fast.gemm called straight", lambda: cuda_fast.gemm(a, b, c, 1.0, 0.0, False, False)),
            ("ctypes enqueue, arguments made once", lambda: enqueue(*direct))]
    times = {name: per_call_us(call, args.calls) for name, call in rows}
    # The same call with the enqueue a no-op: Python's work alone, without the C call's own time (which varies
    # with the machine's load more than the difference above can show)
    lib.gemmkit_sgemm_cuda_enqueue = lambda *arguments: 0
    try:
        alone = per_call_us(lambda: gemmkit.sgemm(a, b, c), args.calls)
    finally:
        del lib.gemmkit_sgemm_cuda_enqueue  # the library's function again (ctypes caches it on first look-up)
        lib.gemmkit_sgemm_cuda_enqueue = enqueue
    print("host time per call, %d calls at %d^3 on the stand-in driver, best of 15 (Python %s)" %
          (args.calls, n, sys.version.split()[0]))
    for name, _ in rows:
        print("  %-38s %8.2f us" % (name, times[name]))
    print("Python's own work per gemmkit.sgemm call (over the ctypes enqueue): %.2f us" %
          (times["gemmkit.sgemm(a, b, c)"] - times["ctypes enqueue, arguments made once"]))
    print("Python's own work per gemmkit.sgemm call, the enqueue a no-op:          %.2f us" % alone)
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(args.calls):
            gemmkit.sgemm(a, b, c)
        profile.disable()
        pstats.Stats(profile, stream=sys.stdout).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
