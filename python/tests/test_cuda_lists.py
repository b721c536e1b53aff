"""sgemm_batched on lists and tuples of CUDA matrices (gemmkit/cuda_lists.py: the pointer-array form, one
enqueue per matrix on the call's stream), on test_cuda_arrays' stand-ins: host arrays described as device
arrays, the CUDA entry points recorded and computed through the host ones."""
import numpy as np
import pytest

import gemmkit
import test_cuda_arrays
from conftest import assert_gemm_close, random_matrix
from test_cuda_arrays import ROW, N, T, Cai, enqueued

gpu = test_cuda_arrays.gpu  # the fixture, used here by name


def test_lists_of_matrices(gpu, rng):
    a = [random_matrix(rng, (7, 5)), random_matrix(rng, (7, 5), "F"), random_matrix(rng, (5, 7)).T]
    b = random_matrix(rng, (6, 5))  # one matrix for every z, passed transposed
    c0 = [random_matrix(rng, (7, 6)) for _ in range(3)]
    c = [x.copy() for x in c0]
    given = [Cai(x) for x in c]
    assert gemmkit.sgemm_batched([Cai(x) for x in a], Cai(b), given, alpha=2.0, beta=-0.5, trans_b=True,
                                 stream=0x42) is given
    for z in range(3):
        assert_gemm_close(c[z], a[z], b.T, 2.0, -0.5, c0[z])
    records = enqueued(gpu)[-3:]
    assert [r[0] for r in records] == ["sgemm"] * 3 and {r[2] for r in records} == {0x42}  # one stream
    assert [r[3:6] for r in records] == [(ROW, N, T), (ROW, T, T), (ROW, T, T)]  # each matrix's own layout
    new = gemmkit.sgemm_batched(tuple(Cai(x) for x in a), [Cai(b.T)] * 3)
    assert isinstance(new, list) and len(new) == 3
    for z in range(3):
        assert isinstance(new[z], Cai)
        assert_gemm_close(new[z].array, a[z], b.T)
    assert gemmkit.sgemm_batched([], Cai(b)) == []


def test_list_errors_enqueue_nothing(gpu, rng):
    a, b = random_matrix(rng, (4, 3)), random_matrix(rng, (3, 2))
    c = np.zeros((4, 2), np.float32)
    refused = test_cuda_arrays._refused
    refused(gpu, lambda: gemmkit.sgemm_batched([Cai(a), Cai(a[:3])], Cai(b)), ValueError,
            r"matrices of a differ in shape \(a\[0\] \(4, 3\), a\[1\] \(3, 3\)\)")
    refused(gpu, lambda: gemmkit.sgemm_batched([Cai(a)] * 2, [Cai(b)] * 3), ValueError, "2 and 3 matrices")
    refused(gpu, lambda: gemmkit.sgemm_batched([Cai(a)] * 2, Cai(b), [Cai(c), Cai(c)]), ValueError,
            r"c\[0\] and c\[1\] overlap")
    refused(gpu, lambda: gemmkit.sgemm_batched([Cai(a)], Cai(b), [Cai(np.zeros((2, 4), np.float32))]),
            ValueError, r"c\[0\] is \(2, 4\)")
    refused(gpu, lambda: gemmkit.sgemm_batched([Cai(a), Cai(a.copy(), device=1)], Cai(b)), gemmkit.GemmkitError,
            "different GPUs")
    refused(gpu, lambda: gemmkit.sgemm_batched([Cai(a)], b), gemmkit.GemmkitError, "host numpy array")
    refused(gpu, lambda: gemmkit.sgemm_batched([Cai(a)], Cai(b), beta=1.0), ValueError, "beta = 1 reads C")
    refused(gpu, lambda: gemmkit.sgemm_batched([Cai(a)], Cai(b), math="tf32"), ValueError, "math=")
    with pytest.raises(ValueError, match="a list of matrices"):
        gemmkit.sgemm_batched([Cai(np.zeros((2, 4, 3), np.float32))], Cai(b))
