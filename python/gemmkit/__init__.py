"""gemmkit for numpy: SGEMM and transposition on GPUs and CPUs (OpenCL,
CUDA) through libgemmkit.

    import numpy as np, gemmkit
    a = np.random.rand(512, 256).astype(np.float32)
    b = np.random.rand(256, 128).astype(np.float32)
    c = gemmkit.matmul(a, b)                      # like a @ b
    c = gemmkit.sgemm(a, b.T, trans_b=True)       # strides decide layout and transposes
    s = gemmkit.matmul(np.random.rand(8, 32, 16).astype(np.float32), b[:16])  # stacks: one batched call
    da, db = gemmkit.to_device(a), gemmkit.to_device(b)
    dc = da @ db                                  # stays on the device
    print(gemmkit.devices())
    t = gemmkit.matmul(x, y)                      # PyTorch/CuPy/JAX CUDA arrays: in place, on their stream

docs/PYTHON.md in the gemmkit repository has the details.
"""
from ._library import library_version, path as library_path
from ._version import __version__
from .context import Context, DeviceInfo, default_context, devices, use_device
from .device_array import DeviceArray
from .errors import GemmkitError, Status
from .batched import sgemm_batched
from .routines import matmul, omatcopy, sgemm
from .cuda_calls import cuda_context


def to_device(array, context=None, order=None):
    """A DeviceArray holding a copy of a 2-D float32 array (the default context when none is given)."""
    return DeviceArray.from_numpy(array, context=context, order=order)


__all__ = ["Context", "DeviceArray", "DeviceInfo", "GemmkitError", "Status", "__version__", "cuda_context",
           "default_context",
           "devices", "library_path", "library_version", "matmul", "omatcopy", "sgemm", "sgemm_batched",
           "to_device", "use_device"]
