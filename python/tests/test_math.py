"""Math modes: the names against the header's gemmkit_math, math= reaching
gemmkit_options.math, Context.math, and on devices without TF32 tensor
cores (PoCL) the refusal as GemmkitError with C unchanged."""
import pathlib
import re

import numpy as np
import pytest

import gemmkit
from conftest import assert_gemm_close, random_matrix
from gemmkit import _library
from gemmkit.math_modes import MODES

HEADER = pathlib.Path(__file__).resolve().parents[2] / "include" / "gemmkit.h"
TENSOR_MODES = ["3xtf32", "tf32"]


def has_tensor_cores():
    with gemmkit.Context() as probe:
        try:
            probe.math = "3xtf32"
        except gemmkit.GemmkitError:
            return False
    return True


@pytest.mark.skipif(not HEADER.exists(), reason="not run from a gemmkit checkout")
def test_modes_match_the_header():
    values = dict(re.findall(r"GEMMKIT_MATH_(\w+) = (\d+)", HEADER.read_text()))
    assert {name.lower(): int(v) for name, v in values.items() if name != "DEFAULT"} == MODES
    assert int(values["DEFAULT"]) == 0


@pytest.mark.parametrize("math,code", [(None, 0), ("fp32", 1), ("3XTF32", 2), ("tf32", 3), ("int8x", 4)])
def test_math_reaches_the_options(monkeypatch, rng, math, code):
    seen = []
    monkeypatch.setattr(_library.lib, "gemmkit_sgemm_ex", lambda *args: seen.append(args[1]) or 0)
    monkeypatch.setattr(_library.lib, "gemmkit_sgemm_strided_batched", lambda *args: seen.append(args[1]) or 0)
    a, b = random_matrix(rng, (3, 4, 5)), random_matrix(rng, (3, 5, 2))
    gemmkit.sgemm(a[0], b[0], math=math)
    gemmkit.matmul(a[0], b[0], math=math)
    gemmkit.matmul(a, b, math=math)
    gemmkit.sgemm_batched(a, b, math=math)
    assert len(seen) == 4
    # No options at all for the defaults; otherwise the struct's math field.
    assert all((o is None) if code == 0 else o._obj.math == code for o in seen)


def test_context_math(rng):
    with gemmkit.Context() as ctx:
        assert ctx.math in MODES  # GEMMKIT_MATH's, else fp32
        ctx.math = "FP32"
        assert ctx.math == "fp32"
        with pytest.raises(ValueError, match="math"):
            ctx.math = None
        with pytest.raises(ValueError, match="math"):
            ctx.math = "fp16"
        a, b = random_matrix(rng, (20, 30)), random_matrix(rng, (30, 10))
        assert_gemm_close(gemmkit.sgemm(a, b, context=ctx, math="fp32"), a, b)
        for mode in TENSOR_MODES:
            if has_tensor_cores():
                ctx.math = mode
                assert ctx.math == mode
            else:
                with pytest.raises(gemmkit.GemmkitError, match="tensor cores") as error:
                    ctx.math = mode
                assert error.value.status == gemmkit.Status.UNSUPPORTED_MATH
                assert mode in str(error.value)
                assert ctx.math == "fp32"


@pytest.mark.parametrize("mode", TENSOR_MODES)
def test_refused_without_tensor_cores_c_unchanged(rng, context, mode):
    if has_tensor_cores():
        pytest.skip("the device has TF32 tensor cores: nothing is refused")
    a, b, c = random_matrix(rng, (3, 17, 9)), random_matrix(rng, (3, 9, 13)), random_matrix(rng, (3, 17, 13))
    before = c.copy()
    calls = [lambda: gemmkit.sgemm(a[0], b[0], c[0], beta=0.5, math=mode, context=context),
             lambda: gemmkit.sgemm_batched(a, b, c, beta=0.5, math=mode, context=context),
             lambda: gemmkit.matmul(a, b, c, math=mode, context=context),
             lambda: gemmkit.matmul(a[0], b[0], c[0], math=mode, context=context)]
    for call in calls:
        with pytest.raises(gemmkit.GemmkitError, match="math mode %s needs TF32 tensor cores" % mode) as error:
            call()
        assert error.value.status == gemmkit.Status.UNSUPPORTED_MATH
        np.testing.assert_array_equal(c, before)
    dc = context.to_device(c[0])
    with pytest.raises(gemmkit.GemmkitError) as error:
        gemmkit.sgemm(context.to_device(a[0]), context.to_device(b[0]), dc, math=mode)
    assert error.value.status == gemmkit.Status.UNSUPPORTED_MATH
    np.testing.assert_array_equal(dc.numpy(), before[0])


def test_fp32_named_on_every_device(rng, context):
    a, b = random_matrix(rng, (4, 21, 8)), random_matrix(rng, (4, 8, 19))
    assert_gemm_close(gemmkit.matmul(a, b, math="fp32", context=context), a, b)
    assert_gemm_close(gemmkit.sgemm_batched(a, b, math="fp32", context=context), a, b)
    assert_gemm_close(gemmkit.sgemm(a[1], b[1], math="fp32", context=context), a[1], b[1])


def test_int8x_on_every_device_with_fp64(rng, context):
    """int8x (the Ozaki scheme II) runs wherever the device has fp64 (PoCL's CPU devices too), as accurate as fp32
    on these inputs; elsewhere it is refused with C unchanged."""
    a, b = random_matrix(rng, (3, 33, 70)), random_matrix(rng, (3, 70, 25))
    try:
        context.math = "int8x"
    except gemmkit.GemmkitError as error:
        assert error.status == gemmkit.Status.UNSUPPORTED_MATH and "fp64" in str(error)
        pytest.skip("the device has no fp64")
    context.math = "fp32"
    assert_gemm_close(gemmkit.matmul(a, b, math="int8x", context=context), a, b)
    assert_gemm_close(gemmkit.sgemm_batched(a, b, math="INT8X", context=context), a, b)
    assert_gemm_close(gemmkit.sgemm(a[1], b[1], math="int8x", context=context), a[1], b[1])
