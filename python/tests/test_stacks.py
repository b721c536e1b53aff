"""No needless copies for stacks: the strides of matrix 0 and the step
between matrices go to the library as they are (stride 0 for a repeated
matrix); only strides no layout describes are copied, a repeated matrix
then once."""
import numpy as np
import pytest

import gemmkit
from gemmkit import _library
from gemmkit.operands import COL_MAJOR, ROW_MAJOR
from gemmkit.stacks import host_stack, stack_in_layout, stack_output_layout

S = np.arange(1, 1 + 4 * 6 * 5, dtype=np.float32).reshape(4, 6, 5)
BIG = np.arange(1, 1 + 8 * 9 * 7, dtype=np.float32).reshape(8, 9, 7)


@pytest.mark.parametrize("array,layout,trans,ld,stride", [
    (S, ROW_MAJOR, False, 5, 30),
    (S, COL_MAJOR, True, 5, 30),
    (S.transpose(0, 2, 1), ROW_MAJOR, True, 5, 30),
    (np.ascontiguousarray(S.transpose(1, 0, 2)).transpose(1, 0, 2), ROW_MAJOR, False, 20, 5),  # interleaved
    (BIG[::2, 1:7, 2:7], ROW_MAJOR, False, 7, 126),
    (np.broadcast_to(S[0], (4, 6, 5)), ROW_MAJOR, False, 5, 0),
    (np.broadcast_to(S[0].T, (4, 5, 6)), ROW_MAJOR, True, 5, 0),
    (S[:1], ROW_MAJOR, False, 5, 0),  # one matrix: its stride is never used
])
def test_passed_without_copy(array, layout, trans, ld, stride):
    got_trans, got_ld, stack = stack_in_layout(host_stack(array), layout)
    assert (got_trans, got_ld, stack.stride) == (trans, ld, stride)
    assert stack.keep is array and stack.address == array.ctypes.data


@pytest.mark.parametrize("array", [S[::-1], S[:, :, ::2], np.asfortranarray(S)])
def test_other_strides_are_copied_packed(array):
    trans, ld, stack = stack_in_layout(host_stack(array), ROW_MAJOR)
    assert stack.keep is not array and stack.keep.flags.c_contiguous
    assert (trans, ld, stack.stride) == (False, array.shape[2], array.shape[1] * array.shape[2])
    np.testing.assert_array_equal(stack.keep, array)


def test_repeated_matrix_copied_once():
    array = np.broadcast_to(S[0, :, ::2], (4, 6, 3))
    trans, ld, stack = stack_in_layout(host_stack(array), COL_MAJOR)
    assert (trans, ld, stack.stride) == (False, 6, 0)
    assert stack.keep.base.size == 6 * 3  # one matrix behind the repeated view
    np.testing.assert_array_equal(stack.keep, array)


def test_output_layout():
    assert stack_output_layout(host_stack(np.empty((3, 4, 5), np.float32))) == (ROW_MAJOR, 5)
    per_matrix_f = np.empty((3, 5, 4), np.float32).transpose(0, 2, 1)
    assert stack_output_layout(host_stack(per_matrix_f)) == (COL_MAJOR, 4)
    # Matrices whose extents overlap (interleaved rows) or unusable strides: a temporary instead.
    interleaved = np.empty((4, 3, 5), np.float32).transpose(1, 0, 2)
    assert stack_output_layout(host_stack(interleaved)) is None
    assert stack_output_layout(host_stack(np.empty((3, 4, 10), np.float32)[:, :, ::2])) is None


def test_matmul_passes_the_arrays_themselves(monkeypatch):
    """matmul on a C-ordered stack and a 2-D matrix: their own addresses, B with stride 0."""
    calls = []
    real = _library.lib.gemmkit_sgemm_strided_batched

    def spy(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(_library.lib, "gemmkit_sgemm_strided_batched", spy)
    a, b = S.copy(), np.asfortranarray(S[0].T.copy())
    c = gemmkit.matmul(a, b)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b, rtol=1e-5)
    (args,) = calls
    assert args[9] == a.ctypes.data and args[11] == 30  # a, stride_a
    assert args[12] == b.ctypes.data and args[14] == 0  # b, stride_b
    assert args[16] == c.ctypes.data and args[18] == 36 and args[19] == 4  # c, stride_c, batch
