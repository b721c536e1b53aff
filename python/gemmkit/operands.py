"""How a matrix (numpy array or DeviceArray) is passed to a BLAS-style call:
from its strides, the layout, transpose flag and leading dimension that
describe it without copying."""
import dataclasses

import numpy as np

from .device_array import DeviceArray, _float32_matrix

ROW_MAJOR, COL_MAJOR = 101, 102
NO_TRANS, TRANS = 111, 112


@dataclasses.dataclass
class Operand:
    rows: int
    cols: int
    row_stride: int  # in elements; None when the strides are no use (copy first)
    col_stride: int
    address: int  # host address of element [0, 0], or the gemmkit_buffer handle
    keep: object  # the array the address belongs to, kept alive for the call

    def stored(self, layout):
        """(trans, ld) such that the matrix is, in `layout`, a stored matrix
        (trans False) or the transpose of one (trans True) with leading
        dimension ld; None when its strides fit neither."""
        if self.row_stride is None:
            return None
        if layout == ROW_MAJOR:
            inner, outer, n_inner, n_outer = self.col_stride, self.row_stride, self.cols, self.rows
        else:
            inner, outer, n_inner, n_outer = self.row_stride, self.col_stride, self.rows, self.cols
        # A stride along an axis of length 1 is never used: any value fits.
        if (n_inner <= 1 or inner == 1) and (n_outer <= 1 or outer >= n_inner):
            return False, max(1, outer if n_outer > 1 else n_inner)
        if (n_outer <= 1 or outer == 1) and (n_inner <= 1 or inner >= n_outer):
            return True, max(1, inner if n_inner > 1 else n_outer)
        return None


def host_operand(array):
    """A numpy float32 matrix as an Operand; strides that are not whole,
    non-negative element counts (reversed or misaligned views) are marked
    unusable, for the caller to copy."""
    rows, cols = array.shape
    itemsize = array.itemsize
    usable = array.flags.aligned and all(s >= 0 and s % itemsize == 0 for s in array.strides)
    if array.size == 0:  # numpy gives empty arrays any strides (often 0): describe them as packed
        row_stride, col_stride = cols, 1
    elif usable:
        row_stride, col_stride = array.strides[0] // itemsize, array.strides[1] // itemsize
    else:
        row_stride, col_stride = None, None
    return Operand(rows, cols, row_stride, col_stride, array.ctypes.data, array)


def device_operand(array):
    rows, cols = array.shape
    row_stride, col_stride = array.strides_in_elements
    return Operand(rows, cols, row_stride, col_stride, array._buffer.handle, array)


def host_matrix(array, name):
    """A 2-D float32 numpy array (lists and other array-likes are converted)."""
    if isinstance(array, DeviceArray):
        raise TypeError("gemmkit: %s is a DeviceArray while the others are host arrays; pass all on the "
                        "device or all on the host" % name)
    return _float32_matrix(array)


def in_layout(operand, layout, copy_order):
    """(trans, ld, operand) for `layout`; an operand whose strides fit
    neither way is copied to a packed array first (the one copy made)."""
    fit = operand.stored(layout)
    if fit is None:
        packed = np.array(operand.keep, dtype=np.float32, order=copy_order, copy=True)
        operand = host_operand(packed)
        fit = operand.stored(layout)
    return fit[0], fit[1], operand


def output_layout(operand):
    """The layout in which an output is a stored (not transposed) matrix, or
    None when neither is (non-unit strides: compute into a temporary)."""
    for layout in (ROW_MAJOR, COL_MAJOR):
        fit = operand.stored(layout)
        if fit is not None and not fit[0]:
            return layout, fit[1]
    return None
