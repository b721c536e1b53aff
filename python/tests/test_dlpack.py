"""Arrays of another library through DLPack (gemmkit/exchange.py): a producer of this module's own (`Foreign`,
which speaks only DLPack and is found by its module's `from_dlpack`, as PyTorch's tensors are) is read in place
and answered in its own type; `out=` is written in place; an array on a GPU is a GemmkitError naming it; numpy
arrays and DeviceArrays are untouched."""
import numpy as np
import pytest

import gemmkit
import gemmkit.exchange
from conftest import assert_gemm_close, random_matrix


class Foreign:
    """An array of "another library": DLPack only, no __array__ (so nothing but DLPack can read it)."""

    def __init__(self, array, device=(1, 0)):
        self.array, self.device = array, device

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.device

    @property
    def shape(self):
        return self.array.shape


class Writable(Foreign):
    """A producer whose memory numpy may also write through __array__ (as PyTorch's CPU tensors)."""

    def __array__(self, dtype=None):
        return self.array


def from_dlpack(x):
    """This module's answer to `torch.from_dlpack`: what gemmkit returns a Foreign caller."""
    return Foreign(np.from_dlpack(x))


def test_foreign_inputs_give_a_foreign_result(rng):
    a, b = random_matrix(rng, (37, 21)), random_matrix(rng, (21, 13))
    for call in (lambda x, y: gemmkit.matmul(x, y), lambda x, y: gemmkit.sgemm(x, y)):
        c = call(Foreign(a), Foreign(b))
        assert isinstance(c, Foreign)
        assert_gemm_close(c.array, a, b)
        mixed = call(a, Foreign(b))  # one foreign operand: its type
        assert isinstance(mixed, Foreign)
    t = gemmkit.omatcopy(Foreign(a))
    assert isinstance(t, Foreign) and np.array_equal(t.array, a.T)
    s = random_matrix(rng, (3, 37, 21)).reshape(3, 37, 21)
    stack = gemmkit.sgemm_batched(Foreign(s), Foreign(b))
    assert isinstance(stack, Foreign)
    for z in range(3):
        assert_gemm_close(stack.array[z], s[z], b)


def test_views_are_read_in_place(rng):
    """A transposed view keeps its strides through DLPack: no copy, the same result as numpy's."""
    a, b = random_matrix(rng, (40, 30)), random_matrix(rng, (40, 20))
    view = gemmkit.exchange.host_view(Foreign(a.T), "a")
    assert np.shares_memory(view, a) and view.strides == a.T.strides
    c = gemmkit.matmul(Foreign(a.T), Foreign(b.T.copy().T))
    assert_gemm_close(c.array, a.T, b)


def test_out_is_written_in_place(rng):
    a, b = random_matrix(rng, (19, 11)), random_matrix(rng, (11, 7))
    target = np.full((19, 7), np.nan, dtype=np.float32)
    out = Writable(target)
    assert gemmkit.matmul(Foreign(a), Foreign(b), out=out) is out
    assert_gemm_close(target, a, b)
    c = np.full((19, 7), np.nan, dtype=np.float32)
    assert gemmkit.sgemm(a, b, Writable(c)).array is c
    assert_gemm_close(c, a, b)
    with pytest.raises(TypeError, match="cannot be written in place"):
        gemmkit.matmul(a, b, out=Foreign(np.zeros((19, 7), dtype=np.float32)))


def test_other_devices_are_refused_by_name(rng):
    """Device memory gemmkit cannot read in place (not CUDA: here ROCm's) is named; CUDA arrays go to the CUDA
    path (test_cuda_arrays.py)."""
    a, b = random_matrix(rng, (8, 8)), random_matrix(rng, (8, 8))
    with pytest.raises(gemmkit.GemmkitError, match=r"b lives on a ROCm device \(DLPack device 10, 1\)") as error:
        gemmkit.matmul(a, Foreign(b, device=(10, 1)))
    assert error.value.status == gemmkit.Status.INVALID_ARGUMENT


def test_numpy_and_device_arrays_are_untouched(rng):
    a, b = random_matrix(rng, (9, 5)), random_matrix(rng, (5, 4))
    assert type(gemmkit.matmul(a, b)) is np.ndarray
    da, db = gemmkit.to_device(a), gemmkit.to_device(b)
    assert isinstance(gemmkit.matmul(da, db), gemmkit.DeviceArray)
