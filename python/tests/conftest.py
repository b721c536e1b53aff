"""Shared by the tests: random inputs (never zeros) from a seed printed in
the header (GEMMKIT_SEED repeats a run), and the float64 reference with
float32 error bounds of tools/check/check.c."""
import os
import random
import zlib

import numpy as np
import pytest

import gemmkit

SEED = int(os.environ.get("GEMMKIT_SEED") or random.SystemRandom().randrange(2**32))


def pytest_report_header(config):
    return "gemmkit %s from %s; GEMMKIT_SEED=%d" % (gemmkit.__version__, gemmkit.library_path, SEED)


@pytest.fixture
def rng(request):
    return np.random.default_rng([SEED, zlib.crc32(request.node.nodeid.encode())])


@pytest.fixture(scope="session")
def context():
    return gemmkit.default_context()


def random_matrix(rng, shape, order="C"):
    """Uniform in +-[0.25, 1]: no zeros, no cancellation-free structure."""
    values = rng.uniform(0.25, 1.0, shape) * rng.choice([-1.0, 1.0], shape)
    return np.array(values, dtype=np.float32, order=order)


def assert_gemm_close(c, a, b, alpha=1.0, beta=0.0, c0=None):
    """c == alpha * a @ b + beta * c0 (matrices or stacks, as numpy.matmul)
    within float32 rounding: each element
    within 2 (k + 2) eps32 of the magnitude of its sum (check.c's bound)."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    ref = alpha * (a64 @ b64)
    magnitude = abs(alpha) * (np.abs(a64) @ np.abs(b64))
    if beta != 0:
        ref += beta * c0.astype(np.float64)
        magnitude += abs(beta) * np.abs(c0.astype(np.float64))
    bound = 2.0 * (a.shape[-1] + 2) * np.finfo(np.float32).eps * np.maximum(magnitude, np.finfo(np.float32).tiny)
    assert c.dtype == np.float32 and c.shape == ref.shape
    error = np.abs(c.astype(np.float64) - ref)
    assert np.all(np.isfinite(c)), "non-finite results"
    worst = np.unravel_index(np.argmax(error / bound), error.shape) if error.size else None
    assert np.all(error <= bound), "C%s = %r, reference %r (bound %g)" % (worst, c[worst], ref[worst], bound[worst])
