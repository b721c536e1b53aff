"""Calls made while their stream is being captured into a CUDA graph (gemmkit/cuda_capture.py), on
test_cuda_arrays' stand-ins: the fixture's driver says which streams are capturing and records every driver
call, so these tests check that a captured call makes none that a capture forbids (no wait for an event
recorded outside it, no event record that would leave the scratch's event captured, no synchronisation),
that its scratch is a capture workspace set for that call alone, and that eager calls go on as before."""
import numpy as np

import gemmkit
import test_cuda_arrays
from conftest import assert_gemm_close, random_matrix
from test_cuda_arrays import Cai, FastTorch, enqueued

gpu = test_cuda_arrays.gpu  # the fixture, used here by name
_FORBIDDEN = {"wait", "record", "record_here", "synchronize", "order_after"}


def test_a_captured_torch_call(gpu, rng, monkeypatch):
    test_cuda_arrays._short_path(monkeypatch, gpu)
    Tensor = FastTorch.Tensor
    a, b = random_matrix(rng, (9, 6)), random_matrix(rng, (6, 5))
    ta, tb = Tensor(a, device=1), Tensor(b, device=1)
    out = Tensor(np.full((9, 5), np.nan, np.float32), device=1)
    gemmkit.matmul(ta, tb, out=out)  # warm-up: the context made, stream 0x7701 known
    gemmkit.matmul(ta, tb, out=out)
    assert gpu[-1][0] == "record_here"  # the short path
    gpu.capturing.add(0x7701)
    mark = len(gpu)
    out = Tensor(np.full((9, 5), np.nan, np.float32), device=1)
    assert gemmkit.matmul(ta, tb, out=out) is out  # no scratch needed: enqueued as it is
    assert [c[0] for c in gpu[mark:]] == ["workspace_size", "sgemm"]
    assert gpu[-1][2] == 0x7701
    assert_gemm_close(out.array, a, b)
    gpu.scratch_bytes = 5000  # a call needing scratch: a capture workspace, for that call alone
    mark = len(gpu)
    gemmkit.sgemm(ta, tb, out, alpha=0.5)
    gemmkit.matmul(ta, tb, out=out)
    kinds = [c[0] for c in gpu[mark:]]
    assert kinds == ["workspace_size", "set_workspace", "sgemm", "set_workspace"] * 2, kinds
    first, second = gpu[mark + 1], gpu[mark + 5]
    assert first[2] % 256 == 0 and first[3] == 5000 and gpu[mark + 3][2:] == (0, 0)
    assert second[2] == first[2], "a second workspace allocated where the first one serves"
    gpu.scratch_bytes = 9000
    gemmkit.matmul(ta, tb, out=out)
    assert gpu[-3][0] == "set_workspace" and gpu[-3][2] != first[2] and gpu[-3][3] == 9000
    assert not _FORBIDDEN & {c[0] for c in gpu[mark:]}
    assert_gemm_close(out.array, a, b)
    # The capture over: the short path again on its stream, the scratch's event recorded as before.
    gpu.capturing.clear()
    gpu.scratch_bytes = 0
    gemmkit.matmul(ta, tb, out=out)
    assert gpu[-1][0] == "record_here" and [c for c in gpu if c[0] == "set_workspace"][-1][2:] == (0, 0)


def test_capture_refusals_enqueue_nothing(gpu, rng, monkeypatch):
    test_cuda_arrays._short_path(monkeypatch, gpu)
    a, b = random_matrix(rng, (4, 3)), random_matrix(rng, (3, 2))
    gpu.capturing.add(0x66)
    refused = test_cuda_arrays._refused
    # no context made on device 0 yet: making one while capturing would allocate
    refused(gpu, lambda: gemmkit.matmul(Cai(a), Cai(b), stream=0x66), gemmkit.GemmkitError,
            "make one call of each shape before capturing")
    gemmkit.matmul(Cai(a), Cai(b), stream=0x55)  # an eager call: the context made
    error = refused(gpu, lambda: gemmkit.matmul(Cai(a, stream=0x55), Cai(b), stream=0x66), gemmkit.GemmkitError,
                    "names stream 0x55, which is not being captured")
    assert "graph cannot wait" in str(error)
    gpu.capturing.add(0x55)  # a stream of the same capture (a fork): ordered after, in the capture
    mark = len(gpu)
    gemmkit.matmul(Cai(a, stream=0x55), Cai(b), stream=0x66)
    assert [c[0] for c in gpu[mark:]] == ["order_after", "workspace_size", "sgemm"]


def test_captured_batched_calls(gpu, rng, monkeypatch):
    a, b = random_matrix(rng, (3, 5, 4)), random_matrix(rng, (4, 2))
    gemmkit.sgemm_batched(Cai(a), Cai(b), stream=0x66)  # eager: the context made
    gpu.capturing.add(0x66)
    gpu.scratch_bytes = 300
    mark = len(gpu)
    c = gemmkit.sgemm_batched(Cai(a), Cai(b), stream=0x66)
    lists = gemmkit.sgemm_batched([Cai(x) for x in a], Cai(b), stream=0x66)
    kinds = [r[0] for r in gpu[mark:]]
    assert kinds == (["workspace_size", "set_workspace", "batched", "set_workspace"] +
                     ["workspace_size"] * 3 + ["set_workspace"] + ["sgemm"] * 3 + ["set_workspace"]), kinds
    assert_gemm_close(c.array, a, b)
    for z in range(3):
        assert_gemm_close(lists[z].array, a[z], b)
    assert len(enqueued(gpu)) == 5


def test_a_driver_without_capture(gpu, rng, monkeypatch):
    """A driver before CUDA 10 has no cuStreamIsCapturing (nor graphs): the short path goes on without asking,
    and cuda_driver.is_capturing says no."""
    from gemmkit import cuda_driver
    driver = test_cuda_arrays._short_path(monkeypatch, gpu)
    functions = {"cuCtxGetCurrent": driver.cuCtxGetCurrent, "cuEventRecord": driver.cuEventRecord}
    monkeypatch.setattr(cuda_driver, "function_or_none", functions.get)
    Tensor = FastTorch.Tensor
    a, b = random_matrix(rng, (5, 4)), random_matrix(rng, (4, 3))
    ta, tb = Tensor(a, device=1), Tensor(b, device=1)
    gemmkit.matmul(ta, tb)
    c = gemmkit.matmul(ta, tb)
    assert gpu[-1][0] == "record_here"
    assert_gemm_close(c.array, a, b)
    monkeypatch.undo()
    monkeypatch.setattr(cuda_driver, "_functions", {})
    monkeypatch.setattr(cuda_driver, "function_or_none", lambda name: None)
    assert cuda_driver.is_capturing(0x7701, 0xC1) is False
