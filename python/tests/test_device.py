"""Device-resident arrays (gemmkit_buffer): round trips, products and
transposes that stay on the device, a loop reusing its output, contexts,
device selection and the errors of misuse."""
import threading

import numpy as np
import pytest

import gemmkit
from conftest import assert_gemm_close, random_matrix


@pytest.mark.parametrize("order", ["C", "F"])
def test_round_trip(rng, context, order):
    a = random_matrix(rng, (13, 7), order)
    d = gemmkit.to_device(a, context=context)
    assert d.shape == (13, 7) and d.order == order
    np.testing.assert_array_equal(d.numpy(), a)
    np.testing.assert_array_equal(np.asarray(d.T), a.T)
    d.write(a * 2)
    np.testing.assert_array_equal(d.numpy(), a * 2)


@pytest.mark.parametrize("order_a,order_b,order_c", [("C", "C", "C"), ("F", "C", "F"), ("C", "F", "C"),
                                                     ("F", "F", "F")])
def test_sgemm_on_device(rng, context, order_a, order_b, order_c):
    a, b, c0 = random_matrix(rng, (65, 33)), random_matrix(rng, (33, 47)), random_matrix(rng, (65, 47))
    da, db = context.to_device(a, order_a), context.to_device(b, order_b)
    dc = context.to_device(c0, order_c)
    assert gemmkit.sgemm(da, db, dc, alpha=0.5, beta=-1.0) is dc
    assert_gemm_close(dc.numpy(), a, b, 0.5, -1.0, c0)
    # Transposed views share the memory: op(A) = (A.T).T
    dt = gemmkit.sgemm(db.T, da.T)
    assert isinstance(dt, gemmkit.DeviceArray)
    assert_gemm_close(dt.numpy(), b.T, a.T)
    assert_gemm_close((da @ db).numpy(), a, b)


def test_loop_stays_on_device(rng, context):
    """x <- 0.5 * W x + x, ten times, without copies between the steps."""
    w, x = random_matrix(rng, (32, 32)) / 8, random_matrix(rng, (32, 4))
    dw, dx = context.to_device(w), context.to_device(x)
    expected = x.astype(np.float64)
    for _ in range(10):
        gemmkit.sgemm(dw, dx, dx, alpha=0.5, beta=1.0)
        expected = 0.5 * w.astype(np.float64) @ expected + expected
    np.testing.assert_allclose(dx.numpy(), expected, rtol=1e-4, atol=1e-5)


def test_omatcopy_on_device(rng, context):
    a = random_matrix(rng, (70, 130))
    da = context.to_device(a)
    np.testing.assert_array_equal(gemmkit.omatcopy(da).numpy(), a.T)
    out = context.empty((70, 130), order="F")
    gemmkit.omatcopy(da, trans=False, alpha=3.0, out=out)
    np.testing.assert_array_equal(out.numpy(), np.float32(3.0) * a)


def test_misuse(rng, context):
    a = random_matrix(rng, (4, 4))
    da = context.to_device(a)
    with pytest.raises(TypeError, match="mix"):
        gemmkit.sgemm(da, a)
    with pytest.raises(ValueError, match="inner dimensions"):
        gemmkit.sgemm(da, context.empty((3, 4)))
    with pytest.raises(ValueError, match="shape"):
        da.write(np.zeros((4, 5), np.float32))
    with pytest.raises(gemmkit.GemmkitError, match="overlap") as error:
        gemmkit.omatcopy(da, trans=False, out=da)
    assert error.value.status == gemmkit.Status.INVALID_ARGUMENT
    other = gemmkit.Context(device=0)
    with pytest.raises(ValueError, match="different contexts"):
        gemmkit.sgemm(da, other.to_device(a))
    db = other.to_device(a)
    other.close()
    with pytest.raises(ValueError, match="closed"):
        db.numpy()


def test_devices_and_selection(context):
    found = gemmkit.devices()
    assert found and all(isinstance(d, gemmkit.DeviceInfo) for d in found)
    assert [d.index for d in found] == list(range(len(found)))
    with gemmkit.Context(device=len(found) - 1) as last:
        assert last.device.name == found[-1].name
        assert isinstance(last.warnings, str)
    with gemmkit.Context(device=found[0].platform.split()[0]) as by_name:
        assert by_name.device.platform == found[0].platform
    with pytest.raises(gemmkit.GemmkitError, match="matches no") as error:
        gemmkit.Context(device="no such device anywhere")
    assert error.value.status == gemmkit.Status.NO_DEVICE
    with pytest.raises(ValueError, match="backend"):
        gemmkit.devices(backend="vulkan")


def test_threads_share_a_context(rng, context):
    """Calls from several threads on one context (serialised by its mutex) all come out right."""
    inputs = [(random_matrix(rng, (48, 40)), random_matrix(rng, (40, 56))) for _ in range(4)]
    results = [None] * len(inputs)

    def work(i):
        for _ in range(5):
            results[i] = gemmkit.sgemm(*inputs[i], context=context)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(inputs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for (a, b), c in zip(inputs, results):
        assert_gemm_close(c, a, b)
