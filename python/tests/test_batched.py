"""Stacks of matrices: gemmkit.matmul on ndim > 2 and sgemm_batched against
numpy's matmul in float64, with every kind of stride inside the stacks,
broadcasting, empty and single batches, out=, and shapes refused before
any call."""
import numpy as np
import pytest

import gemmkit
from conftest import assert_gemm_close, random_matrix
from gemmkit import _library


def stack_view(x, kind):
    """The same stack x (batch, rows, cols) through different strides."""
    if kind == "C":
        return np.ascontiguousarray(x)
    if kind == "F":  # numpy's F order: the batch axis innermost
        return np.asfortranarray(x)
    if kind == "T":  # each matrix a transposed view of a C-ordered stack of transposes
        return np.ascontiguousarray(x.transpose(0, 2, 1)).transpose(0, 2, 1)
    if kind == "interleaved":  # matrix z's rows interleaved with the others' (a (rows, batch, cols) array)
        return np.ascontiguousarray(x.transpose(1, 0, 2)).transpose(1, 0, 2)
    if kind == "every-other":  # every other matrix of a larger stack
        big = np.full((2 * x.shape[0],) + x.shape[1:], 7, dtype=np.float32)
        big[::2] = x
        return big[::2]
    if kind == "block":  # blocks of a larger stack (ld > cols)
        big = np.full((x.shape[0], x.shape[1] + 2, x.shape[2] + 3), 7, dtype=np.float32)
        big[:, 1:1 + x.shape[1], 3:] = x
        return big[:, 1:1 + x.shape[1], 3:]
    if kind == "reversed":  # negative batch stride: copied
        return np.ascontiguousarray(x[::-1])[::-1]
    if kind == "strided":  # every other column: no layout describes it, copied
        big = np.zeros(x.shape[:2] + (2 * x.shape[2],), dtype=np.float32)
        big[:, :, ::2] = x
        return big[:, :, ::2]
    raise ValueError(kind)


KINDS = ["C", "F", "T", "interleaved", "every-other", "block", "reversed", "strided"]


@pytest.mark.parametrize("kind", KINDS)
def test_operand_strides(rng, context, kind):
    a, b = random_matrix(rng, (5, 13, 17)), random_matrix(rng, (5, 17, 11))
    assert_gemm_close(gemmkit.matmul(stack_view(a, kind), b, context=context), a, b)
    assert_gemm_close(gemmkit.matmul(a, stack_view(b, kind), context=context), a, b)


@pytest.mark.parametrize("kind", KINDS[:-2])
def test_output_strides(rng, context, kind):
    """out= of any strides gets the product; around it nothing changes."""
    a, b = random_matrix(rng, (4, 9, 6)), random_matrix(rng, (4, 6, 8))
    out = stack_view(random_matrix(rng, (4, 9, 8)), kind)
    base = out.base if out.base is not None else out
    before = base.copy()
    assert gemmkit.matmul(a, b, out, context=context) is out
    assert_gemm_close(out, a, b)
    out[...] = np.nan
    around = ~np.isnan(base)
    np.testing.assert_array_equal(base[around], before[around])


def test_broadcasting(rng, context):
    a, b = random_matrix(rng, (6, 10, 7)), random_matrix(rng, (7, 12))
    assert_gemm_close(gemmkit.matmul(a, b, context=context), a, np.broadcast_to(b, (6, 7, 12)))
    a2, b3 = random_matrix(rng, (10, 7)), random_matrix(rng, (6, 7, 12))
    assert_gemm_close(gemmkit.matmul(a2, b3, context=context), np.broadcast_to(a2, (6, 10, 7)), b3)
    one = random_matrix(rng, (1, 7, 12))  # a stack of one repeats too
    assert_gemm_close(gemmkit.matmul(a, one, context=context), a, np.broadcast_to(one, (6, 7, 12)))
    # Several batch axes, broadcast both ways (numpy's rules).
    x, y = random_matrix(rng, (2, 1, 5, 3)), random_matrix(rng, (1, 3, 3, 4))
    got = gemmkit.matmul(x, y, context=context)
    assert got.shape == (2, 3, 5, 4) and got.flags.c_contiguous
    xs, ys = np.broadcast_arrays(x, y[..., :1, :1])[0], np.broadcast_to(y, (2, 3, 3, 4))
    assert_gemm_close(got.reshape(6, 5, 4), xs.reshape(6, 5, 3), ys.reshape(6, 3, 4))
    # A transposed broadcast operand (F-ordered matrix) inside a stack.
    t = np.asfortranarray(random_matrix(rng, (7, 12)))
    assert_gemm_close(gemmkit.matmul(a, t, context=context), a, np.broadcast_to(t, (6, 7, 12)))


def test_vectors_with_stacks(rng, context):
    a, v = random_matrix(rng, (3, 8, 5)), random_matrix(rng, (5,))
    got = gemmkit.matmul(a, v, context=context)
    assert got.shape == (3, 8)
    assert_gemm_close(got[..., None], a, np.broadcast_to(v[:, None], (3, 5, 1)))
    w = random_matrix(rng, (8,))
    got = gemmkit.matmul(w, a, context=context)
    assert got.shape == (3, 5)
    assert_gemm_close(got[:, None, :], np.broadcast_to(w[None, :], (3, 1, 8)), a)
    out = np.empty((3, 8), np.float32)
    assert gemmkit.matmul(a, v, out) is out
    assert_gemm_close(out[..., None], a, np.broadcast_to(v[:, None], (3, 5, 1)))


@pytest.mark.parametrize("batch", [0, 1, 2, 70])
def test_batch_sizes(rng, context, batch):
    a, b = random_matrix(rng, (batch, 3, 4)), random_matrix(rng, (batch, 4, 5))
    got = gemmkit.matmul(a, b, context=context)
    assert got.shape == (batch, 3, 5)
    assert_gemm_close(got, a, b)


@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (33, 1, 65), (1, 40, 9), (70, 50, 90)])
def test_shapes(rng, context, m, n, k):
    a, b = random_matrix(rng, (3, m, k)), random_matrix(rng, (3, k, n))
    assert_gemm_close(gemmkit.matmul(a, b, context=context), a, b)


def test_k_zero_and_empty_matrices(rng, context):
    np.testing.assert_array_equal(gemmkit.matmul(np.empty((2, 3, 0), np.float32), np.empty((2, 0, 4), np.float32)),
                                  np.zeros((2, 3, 4), np.float32))
    assert gemmkit.matmul(np.empty((2, 0, 5), np.float32), random_matrix(rng, (2, 5, 4))).shape == (2, 0, 4)


def test_sgemm_batched_alpha_beta_trans(rng, context):
    a, b, c0 = random_matrix(rng, (4, 11, 6)), random_matrix(rng, (4, 6, 9)), random_matrix(rng, (4, 11, 9))
    c = c0.copy()
    assert gemmkit.sgemm_batched(a, b, c, alpha=-1.5, beta=0.75, context=context) is c
    assert_gemm_close(c, a, b, -1.5, 0.75, c0)
    at, bt = np.ascontiguousarray(a.transpose(0, 2, 1)), np.ascontiguousarray(b.transpose(0, 2, 1))
    assert_gemm_close(gemmkit.sgemm_batched(at, bt, trans_a=True, trans_b=True, context=context), a, b)
    # A matrix repeated for the whole batch: 2-D, or a stack of one; and with a 2-D a and b, c gives the batch.
    assert_gemm_close(gemmkit.sgemm_batched(a[0], b, context=context), np.broadcast_to(a[0], a.shape), b)
    assert_gemm_close(gemmkit.sgemm_batched(a, b[:1], context=context), a, np.broadcast_to(b[0], b.shape))
    c = c0.copy()
    gemmkit.sgemm_batched(a[1], b[2], c, beta=1.0, context=context)
    assert_gemm_close(c, np.broadcast_to(a[1], a.shape), np.broadcast_to(b[2], b.shape), 1.0, 1.0, c0)
    # beta = 0 ignores what C held.
    c = np.full((4, 11, 9), np.nan, np.float32)
    gemmkit.sgemm_batched(a, b, c, alpha=2.0, context=context)
    assert_gemm_close(c, a, b, 2.0)


def test_named_kernel(rng, context):
    a, b = random_matrix(rng, (3, 20, 30)), random_matrix(rng, (3, 30, 10))
    for kernel in ("batched-small", "xgemm-direct-batched", "direct"):
        assert_gemm_close(gemmkit.sgemm_batched(a, b, kernel=kernel, context=context), a, b)
    with pytest.raises(gemmkit.GemmkitError, match="neither a batched nor an SGEMM kernel") as error:
        gemmkit.sgemm_batched(a, b, kernel="transpose-fast", context=context)
    assert error.value.status == gemmkit.Status.UNKNOWN_KERNEL


@pytest.fixture
def no_call(monkeypatch):
    """Fails the test if the batched C function is called."""
    def refuse(*args):
        raise AssertionError("gemmkit_sgemm_strided_batched was called")
    monkeypatch.setattr(_library.lib, "gemmkit_sgemm_strided_batched", refuse)


def test_bad_shapes_refused_before_any_call(rng, no_call):
    a, b = random_matrix(rng, (3, 4, 5)), random_matrix(rng, (3, 5, 6))
    c = random_matrix(rng, (3, 4, 6))
    before = c.copy()
    cases = [
        (lambda: gemmkit.matmul(a, random_matrix(rng, (3, 4, 6))), "inner dimensions"),
        (lambda: gemmkit.matmul(a, random_matrix(rng, (2, 5, 6))), "do not broadcast"),
        (lambda: gemmkit.matmul(a, b, np.empty((3, 6, 4), np.float32)), "out is"),
        (lambda: gemmkit.matmul(a, b, np.empty((3, 4, 6), np.float32)[None]), "out is"),
        (lambda: gemmkit.sgemm_batched(a, b, c[:, :3], beta=1.0), "c is"),
        (lambda: gemmkit.sgemm_batched(a, b, c[:2], beta=1.0), "batch sizes"),
        (lambda: gemmkit.sgemm_batched(a, random_matrix(rng, (2, 5, 6))), "batch sizes"),
        (lambda: gemmkit.sgemm_batched(a, b[:, :4]), "inner dimensions"),
        (lambda: gemmkit.sgemm_batched(a, b, beta=0.5), "beta"),
        (lambda: gemmkit.sgemm_batched(a[0], b[0]), "no stack"),
        (lambda: gemmkit.sgemm_batched(a[None], b), "shape"),
        (lambda: gemmkit.sgemm_batched(a, b, c[0]), "stack"),
        (lambda: gemmkit.sgemm_batched(a, b, math="fp64"), "math"),
        (lambda: gemmkit.matmul(a, b, math="bf16"), "math"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message):
            call()
    read_only = c.copy()
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        gemmkit.matmul(a, b, read_only)
    with pytest.raises(TypeError, match="float32"):
        gemmkit.matmul(a.astype(np.float64), b)
    with pytest.raises(TypeError, match="float32"):
        gemmkit.matmul(a, b, np.empty((3, 4, 6)))
    with pytest.raises(TypeError, match="DeviceArray"):
        gemmkit.sgemm_batched(gemmkit.to_device(a[0]), b)
    np.testing.assert_array_equal(c, before)
