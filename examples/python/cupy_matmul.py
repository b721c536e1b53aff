#!/usr/bin/env python3
"""gemmkit on CuPy arrays: read in place, on CuPy's current stream, answered as a CuPy array.

    PYTHONPATH=python GEMMKIT_LIBRARY=build/libgemmkit.so python3 examples/python/cupy_matmul.py
"""
import cupy

import gemmkit

a = cupy.random.rand(400, 250, dtype=cupy.float32)
b = cupy.random.rand(250, 120, dtype=cupy.float32)
with cupy.cuda.Stream(non_blocking=True) as stream:  # gemmkit follows CuPy's current stream
    c = gemmkit.matmul(a, b)
    t = gemmkit.omatcopy(c)  # c.T, as a new array
    stream.synchronize()
print(type(c).__name__, c.shape, "max error:", float(abs(c - a @ b).max()), "transpose:", t.shape)
