#!/usr/bin/env python3
"""gemmkit on PyTorch CUDA tensors (docs/INTEROP.md, "Python"): read in place, enqueued on torch's current
stream without waiting, answered as a torch tensor on the same device.

    PYTHONPATH=python GEMMKIT_LIBRARY=build/libgemmkit.so python3 examples/python/torch_matmul.py
"""
import torch

import gemmkit

torch.backends.cuda.matmul.allow_tf32 = False  # compare with torch's fp32 product
a = torch.randn(500, 300, device="cuda")
b = torch.randn(200, 300, device="cuda")

c = gemmkit.matmul(a, b.T)  # b.T is a transposed view: passed as it is, no copy
print(type(c).__name__, tuple(c.shape), c.device)

side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())  # a and b were written on the default stream
with torch.cuda.stream(side):  # runs on `side`, after what is already there
    d = torch.empty(500, 200, device="cuda")
    gemmkit.sgemm(a, b, d, trans_b=True, alpha=2.0)  # writes d in place
torch.cuda.current_stream().wait_stream(side)

stack = gemmkit.matmul(torch.randn(8, 64, 32, device="cuda"), torch.randn(32, 16, device="cuda"))  # one batched call

torch.cuda.synchronize()
reference = a @ b.T
print("max |gemmkit - torch|:", (c - reference).abs().max().item(), (d - 2 * reference).abs().max().item())
print("stack:", tuple(stack.shape))
