"""No needless copies: arrays whose strides a BLAS layout describes (C- and
F-ordered, transposed views, row slices, blocks of larger arrays) go to the
library as they are; only other strides are copied."""
import numpy as np
import pytest

from gemmkit.operands import COL_MAJOR, ROW_MAJOR, host_operand, in_layout, output_layout

X = np.arange(1, 1 + 6 * 4, dtype=np.float32).reshape(6, 4)
BIG = np.arange(1, 1 + 10 * 9, dtype=np.float32).reshape(10, 9)


@pytest.mark.parametrize("array,layout,trans,ld", [
    (X, ROW_MAJOR, False, 4),
    (X, COL_MAJOR, True, 4),
    (np.asfortranarray(X), COL_MAJOR, False, 6),
    (np.asfortranarray(X), ROW_MAJOR, True, 6),
    (X.T, ROW_MAJOR, True, 4),
    (X[::2], ROW_MAJOR, False, 8),
    (BIG[2:8, 3:7], ROW_MAJOR, False, 9),
    (BIG[2:8, 3:7].T, ROW_MAJOR, True, 9),
    (BIG[2:3, 1:5], ROW_MAJOR, False, 4),  # one row: its stride is never used
    (BIG[1:7, 4:5], COL_MAJOR, True, 9),
])
def test_passed_without_copy(array, layout, trans, ld):
    got_trans, got_ld, operand = in_layout(host_operand(array), layout, "C")
    assert (got_trans, got_ld) == (trans, ld)
    assert operand.keep is array and operand.address == array.ctypes.data


@pytest.mark.parametrize("array", [X[:, ::2], X[::-1], np.lib.stride_tricks.as_strided(X, (6, 4), (4, 4))])
def test_other_strides_are_copied_packed(array):
    trans, ld, operand = in_layout(host_operand(array), ROW_MAJOR, "C")
    assert operand.keep is not array and operand.keep.flags.c_contiguous
    assert (trans, ld) == (False, array.shape[1])
    np.testing.assert_array_equal(operand.keep, array)


def test_output_layout():
    assert output_layout(host_operand(np.empty((5, 3), np.float32))) == (ROW_MAJOR, 3)
    assert output_layout(host_operand(np.empty((5, 3), np.float32, order="F"))) == (COL_MAJOR, 5)
    assert output_layout(host_operand(np.empty((5, 6), np.float32)[:, ::2])) is None
