"""How a stack of matrices (a numpy float32 array of shape (batch, rows,
cols)) is passed to the strided batched call: matrix 0 as an Operand, whose
strides decide layout, transpose and leading dimension as for one matrix
(operands.py), and the stride between consecutive matrices, 0 for a matrix
broadcast to the whole batch. Only strides that fit no layout are copied."""
import dataclasses

import numpy as np

from .operands import COL_MAJOR, ROW_MAJOR, Operand


@dataclasses.dataclass
class Stack:
    matrix: Operand  # matrix 0; its strides None when unusable
    batch: int
    stride: int  # elements from one matrix to the next; None when unusable

    @property
    def address(self):
        return self.matrix.address

    @property
    def keep(self):
        return self.matrix.keep


def float32_array(array, name):
    """A float32 numpy array (lists and other array-likes are converted);
    other dtypes are refused, as for matrices."""
    if not isinstance(array, np.ndarray):
        array = np.asarray(array, dtype=np.float32)
    if array.dtype != np.float32:
        raise TypeError("gemmkit: %s: float32 arrays only (SGEMM), not %s; convert with .astype(np.float32)"
                        % (name, array.dtype))
    return array


def host_stack(array):
    """A 3-D float32 array as a Stack: strides that are not whole,
    non-negative element counts (reversed or misaligned views) are marked
    unusable, for the caller to copy."""
    batch, rows, cols = array.shape
    itemsize = array.itemsize
    usable = array.flags.aligned and all(s >= 0 and s % itemsize == 0 for s in array.strides)
    if array.size == 0:  # numpy gives empty arrays any strides: describe them as packed
        strides = (rows * cols, cols, 1)
    elif usable:
        strides = tuple(s // itemsize for s in array.strides)
    else:
        strides = (None, None, None)
    stride = 0 if batch <= 1 and usable else strides[0]  # one matrix: its stride is never used
    return Stack(Operand(rows, cols, strides[1], strides[2], array.ctypes.data, array), batch, stride)


def packed(array, layout):
    """A copy of a stack with each matrix packed in `layout`, one after the
    other; a stack that repeats one matrix (stride 0) keeps doing so, with
    that matrix copied once."""
    repeated = array.shape[0] > 1 and array.strides[0] == 0
    source = array[:1] if repeated else array
    if layout == ROW_MAJOR:
        copy = np.array(source, dtype=np.float32, order="C", copy=True)
    else:
        copy = np.array(source.transpose(0, 2, 1), dtype=np.float32, order="C", copy=True).transpose(0, 2, 1)
    return np.broadcast_to(copy, array.shape) if repeated else copy


def stack_in_layout(stack, layout):
    """(trans, ld, stack) describing an input stack in `layout`, copied
    (packed) first when its strides fit neither way."""
    fit = stack.matrix.stored(layout) if stack.stride is not None else None
    if fit is None:
        stack = host_stack(packed(stack.keep, layout))
        fit = stack.matrix.stored(layout)
    return fit[0], fit[1], stack


def extent(rows, cols, ld, layout):
    """Elements from a stored matrix's first to one past its last."""
    if rows == 0 or cols == 0:
        return 0
    outer, inner = (rows, cols) if layout == ROW_MAJOR else (cols, rows)
    return (outer - 1) * ld + inner


def stack_output_layout(stack):
    """(layout, ld) in which every matrix of an output stack is stored as is
    and the matrices lie apart (the stride at least one matrix's extent, as
    the library requires of C); None when no layout fits (compute into a
    packed temporary)."""
    if stack.stride is None:
        return None
    for layout in (ROW_MAJOR, COL_MAJOR):
        fit = stack.matrix.stored(layout)
        if fit is not None and not fit[0]:
            if stack.batch > 1 and stack.stride < extent(stack.matrix.rows, stack.matrix.cols, fit[1], layout):
                continue
            return layout, fit[1]
    return None
