"""Matrices that stay in device memory (gemmkit_buffer) between calls, so a
loop of products copies nothing to or from the host."""
import ctypes

import numpy as np

from ._library import lib
from .context import default_context
from .errors import check


class _Buffer:
    """One gemmkit_buffer; freed when the last DeviceArray on it goes, or by
    Context.close()."""

    def __init__(self, context, count):
        handle = ctypes.c_void_p()
        check(lib.gemmkit_buffer_create(context.handle, count, ctypes.byref(handle)))
        self.context = context  # keeps the context alive while the buffer is
        self.count = count
        self._handle = handle.value
        context._buffers.add(self)

    @property
    def handle(self):
        if self._handle is None:
            raise ValueError("gemmkit: this device array's context is closed")
        return self._handle

    def free(self):
        if self._handle is not None:
            lib.gemmkit_buffer_destroy(self._handle)
            self._handle = None

    def __del__(self):
        self.free()


class DeviceArray:
    """A 2-D float32 matrix in device memory, packed in C (row-major) or F
    (column-major) order. `.T` is a transposed view of the same memory;
    `numpy()` (or np.asarray) copies it back. gemmkit.sgemm, matmul (`@`)
    and omatcopy take DeviceArrays in place of numpy arrays."""

    dtype = np.dtype(np.float32)
    ndim = 2

    def __init__(self, buffer, shape, order):
        self._buffer = buffer
        self.shape = (int(shape[0]), int(shape[1]))
        self.order = order

    @classmethod
    def empty(cls, shape, context=None, order="C"):
        shape = tuple(int(s) for s in shape)
        if len(shape) != 2 or min(shape) < 0:
            raise ValueError("gemmkit: a DeviceArray is a 2-D matrix; shape %r" % (shape,))
        if order not in ("C", "F"):
            raise ValueError("gemmkit: order must be 'C' or 'F', not %r" % (order,))
        context = context or default_context()
        return cls(_Buffer(context, shape[0] * shape[1]), shape, order)

    @classmethod
    def from_numpy(cls, array, context=None, order=None):
        """Uploads a 2-D float32 array. order None keeps the array's order
        when it is F-contiguous, else C."""
        array = _float32_matrix(array)
        if order is None:
            order = "F" if array.flags.f_contiguous and not array.flags.c_contiguous else "C"
        result = cls.empty(array.shape, context, order)
        result.write(array)
        return result

    @property
    def context(self):
        return self._buffer.context

    @property
    def size(self):
        return self.shape[0] * self.shape[1]

    @property
    def strides_in_elements(self):
        """(row stride, column stride) in floats."""
        rows, cols = self.shape
        return (cols, 1) if self.order == "C" else (1, rows)

    @property
    def T(self):
        return DeviceArray(self._buffer, self.shape[::-1], "F" if self.order == "C" else "C")

    def write(self, array):
        """Copies a numpy array of the same shape into device memory."""
        array = _float32_matrix(array)
        if array.shape != self.shape:
            raise ValueError("gemmkit: shape %r does not match the DeviceArray's %r" % (array.shape, self.shape))
        packed = np.ascontiguousarray(array) if self.order == "C" else np.asfortranarray(array)
        check(lib.gemmkit_buffer_write(self.context.handle, self._buffer.handle, 0, packed.size,
                                       packed.ctypes.data))

    def numpy(self):
        """A new numpy array holding the matrix (in this array's order)."""
        out = np.empty(self.shape, dtype=np.float32, order=self.order)
        check(lib.gemmkit_buffer_read(self.context.handle, self._buffer.handle, 0, out.size, out.ctypes.data))
        return out

    def __array__(self, dtype=None, copy=None):
        out = self.numpy()
        return out if dtype is None else out.astype(dtype, copy=False)

    def __matmul__(self, other):
        from .routines import matmul
        return matmul(self, other)

    def __repr__(self):
        return "<gemmkit.DeviceArray %dx%d float32 order=%s on %s>" % (
            self.shape[0], self.shape[1], self.order, self.context.device.name)


def _float32_matrix(array):
    """A 2-D float32 numpy array; other dtypes are refused rather than
    converted silently (float64 would lose precision)."""
    if not isinstance(array, np.ndarray):
        array = np.asarray(array, dtype=np.float32)
    if array.dtype != np.float32:
        raise TypeError("gemmkit: float32 arrays only (SGEMM), not %s; convert with .astype(np.float32)"
                        % array.dtype)
    if array.ndim != 2:
        raise ValueError("gemmkit: a 2-D matrix is needed, not shape %r" % (array.shape,))
    return array
