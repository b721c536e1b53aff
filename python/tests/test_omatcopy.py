"""gemmkit.omatcopy against numpy: transposes and copies with scaling, for
every order of A and B, views, alpha = 0, and overlap refused."""
import itertools

import numpy as np
import pytest

import gemmkit
from conftest import random_matrix
from test_sgemm import view

KINDS = ["C", "F", "T", "rows", "padded", "reversed", "strided"]


@pytest.mark.parametrize("trans", [True, False])
@pytest.mark.parametrize("kind_a,kind_out", list(itertools.product(KINDS, ["C", "F", "padded", "strided"])))
def test_omatcopy_views(rng, context, trans, kind_a, kind_out):
    a = random_matrix(rng, (45, 29))
    expected = np.float32(-2.5) * (a.T if trans else a)  # scaling a float32 by a float32 is exact here
    out = view(np.zeros(expected.shape, np.float32), kind_out)
    result = gemmkit.omatcopy(view(a, kind_a), trans=trans, alpha=-2.5, out=out, context=context)
    assert result is out
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("shape", [(1, 1), (1, 300), (300, 1), (0, 4), (257, 130)])
def test_omatcopy_sizes(rng, context, shape):
    a = random_matrix(rng, shape)
    np.testing.assert_array_equal(gemmkit.omatcopy(a, context=context), a.T)
    np.testing.assert_array_equal(gemmkit.omatcopy(a, trans=False, context=context), a)


def test_alpha_zero_writes_zeros(rng, context):
    a = random_matrix(rng, (5, 6))
    out = random_matrix(rng, (6, 5))
    gemmkit.omatcopy(a, alpha=0.0, out=out, context=context)
    np.testing.assert_array_equal(out, np.zeros((6, 5), np.float32))


def test_bad_input(rng, context):
    a = random_matrix(rng, (5, 6))
    with pytest.raises(ValueError, match="overlap"):
        gemmkit.omatcopy(a, trans=False, out=a)
    with pytest.raises(ValueError, match="out is 5x6"):
        gemmkit.omatcopy(a, out=np.empty((5, 6), np.float32))
    with pytest.raises(TypeError, match="float32"):
        gemmkit.omatcopy(a.astype(np.float16))
    with pytest.raises(gemmkit.GemmkitError, match="not a copy kernel") as error:
        gemmkit.omatcopy(a, trans=False, kernel="transpose-fast", context=context)
    assert error.value.status == gemmkit.Status.UNKNOWN_KERNEL


def test_named_kernel(rng, context):
    a = random_matrix(rng, (50, 70))
    np.testing.assert_array_equal(gemmkit.omatcopy(a, kernel="lecture-transpose-naive", context=context), a.T)
    out = np.empty((50, 70), np.float32, order="F")
    gemmkit.omatcopy(a, trans=False, kernel="lecture-copy", out=out, context=context)
    np.testing.assert_array_equal(out, a)
