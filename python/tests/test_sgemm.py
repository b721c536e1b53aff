"""gemmkit.sgemm and matmul on host arrays against numpy in float64: every
order and view of A, B and C, alpha/beta, odd and empty sizes, and errors."""
import itertools

import numpy as np
import pytest

import gemmkit
from conftest import assert_gemm_close, random_matrix


def view(x, kind):
    """The same matrix x through different strides."""
    if kind == "C":
        return np.ascontiguousarray(x)
    if kind == "F":
        return np.asfortranarray(x)
    if kind == "T":  # a transposed view of the C-ordered transpose
        return np.ascontiguousarray(x.T).T
    if kind == "rows":  # every other row of a larger array (row stride 2 cols)
        big = np.zeros((2 * x.shape[0], x.shape[1]), dtype=np.float32) + 7
        big[::2] = x
        return big[::2]
    if kind == "padded":  # a block of a larger F-ordered array (ld > rows)
        big = np.asfortranarray(np.full((x.shape[0] + 3, x.shape[1] + 2), 7, dtype=np.float32))
        big[1:1 + x.shape[0], 2:] = x
        return big[1:1 + x.shape[0], 2:]
    if kind == "reversed":  # negative strides: copied before the call
        return np.ascontiguousarray(x[::-1])[::-1]
    if kind == "strided":  # every other column: no layout describes it
        big = np.zeros((x.shape[0], 2 * x.shape[1]), dtype=np.float32)
        big[:, ::2] = x
        return big[:, ::2]
    raise ValueError(kind)


KINDS = ["C", "F", "T", "rows", "padded", "reversed", "strided"]


@pytest.mark.parametrize("kind_a,kind_b", list(itertools.product(KINDS, KINDS)))
def test_operand_views(rng, context, kind_a, kind_b):
    a, b = random_matrix(rng, (37, 19)), random_matrix(rng, (19, 23))
    c = gemmkit.sgemm(view(a, kind_a), view(b, kind_b), context=context)
    assert_gemm_close(c, a, b)


@pytest.mark.parametrize("kind_c", KINDS)
def test_output_views_alpha_beta(rng, context, kind_c):
    a, b, c0 = random_matrix(rng, (33, 65)), random_matrix(rng, (65, 17)), random_matrix(rng, (33, 17))
    c = view(c0.copy(), kind_c)
    base = c.base if c.base is not None else c
    before = base.copy()
    result = gemmkit.sgemm(a, b, c, alpha=-1.5, beta=0.75, context=context)
    assert result is c
    assert_gemm_close(c, a, b, -1.5, 0.75, c0)
    # Elements of the larger array around C keep their values.
    c[...] = np.nan
    around = ~np.isnan(base)
    assert around.sum() == base.size - c.size
    np.testing.assert_array_equal(base[around], before[around])


@pytest.mark.parametrize("trans_a,trans_b", [(False, True), (True, False), (True, True)])
def test_trans_flags(rng, context, trans_a, trans_b):
    a, b = random_matrix(rng, (40, 30)), random_matrix(rng, (30, 50))
    c = gemmkit.sgemm(a.T.copy() if trans_a else a, b.T.copy() if trans_b else b, trans_a=trans_a,
                      trans_b=trans_b, context=context)
    assert_gemm_close(c, a, b)


@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (1, 7, 1), (7, 1, 13), (129, 65, 97), (64, 64, 64), (200, 3, 300)])
def test_sizes(rng, context, m, n, k):
    a, b = random_matrix(rng, (m, k)), random_matrix(rng, (k, n))
    assert_gemm_close(gemmkit.sgemm(a, b, context=context), a, b)


def test_beta_zero_ignores_nan_in_c(rng, context):
    a, b = random_matrix(rng, (9, 8)), random_matrix(rng, (8, 7))
    c = np.full((9, 7), np.nan, dtype=np.float32)
    gemmkit.sgemm(a, b, c, alpha=2.0, beta=0.0, context=context)
    assert_gemm_close(c, a, b, 2.0)


def test_empty_and_k_zero(rng, context):
    assert gemmkit.sgemm(np.empty((0, 5), np.float32), random_matrix(rng, (5, 3))).shape == (0, 3)
    c0 = random_matrix(rng, (4, 3))
    c = c0.copy()
    gemmkit.sgemm(np.empty((4, 0), np.float32), np.empty((0, 3), np.float32), c, beta=0.5, context=context)
    np.testing.assert_array_equal(c, np.float32(0.5) * c0)


def test_matmul(rng, context):
    a, b = random_matrix(rng, (31, 47)), random_matrix(rng, (47, 29))
    assert_gemm_close(gemmkit.matmul(a, b, context=context), a, b)
    v = random_matrix(rng, (47, 1))[:, 0]
    assert gemmkit.matmul(a, v).shape == (31,)
    assert_gemm_close(gemmkit.matmul(a, v)[:, None], a, v[:, None])
    assert gemmkit.matmul(v, b).shape == (29,)
    assert_gemm_close(gemmkit.matmul(v, b)[None, :], v[None, :], b)
    out = np.empty((31, 29), np.float32)
    assert gemmkit.matmul(a, b, out) is out
    assert_gemm_close(out, a, b)


def test_bad_input_raises_and_changes_nothing(rng, context):
    a, b = random_matrix(rng, (6, 5)), random_matrix(rng, (5, 4))
    c = random_matrix(rng, (6, 4))
    before = c.copy()
    with pytest.raises(TypeError, match="float32"):
        gemmkit.sgemm(a.astype(np.float64), b)
    with pytest.raises(ValueError, match="inner dimensions"):
        gemmkit.sgemm(a, a)
    with pytest.raises(ValueError, match="c is 6x3"):
        gemmkit.sgemm(a, b, c[:, :3])
    with pytest.raises(ValueError, match="beta"):
        gemmkit.sgemm(a, b, beta=1.0)
    with pytest.raises(gemmkit.GemmkitError, match='no kernel named "no-such-kernel"') as error:
        gemmkit.sgemm(a, b, c, beta=1.0, kernel="no-such-kernel", context=context)
    assert error.value.status == gemmkit.Status.UNKNOWN_KERNEL
    with pytest.raises(gemmkit.GemmkitError) as error:
        gemmkit.sgemm(a, b, c, kernel="direct", params="NOT_A_PARAMETER=3", context=context)
    assert error.value.status == gemmkit.Status.INVALID_KERNEL_PARAMS
    np.testing.assert_array_equal(c, before)
    read_only = c.copy()
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        gemmkit.sgemm(a, b, read_only)


def test_named_kernel(rng, context):
    a, b = random_matrix(rng, (70, 40)), random_matrix(rng, (40, 90))
    assert_gemm_close(gemmkit.sgemm(a, b, kernel="direct", context=context), a, b)
