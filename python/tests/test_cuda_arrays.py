"""CUDA arrays of other libraries (gemmkit/cuda_arrays.py, cuda_calls.py) without a GPU.

The producers here are stand-ins over host numpy arrays: `Cai` speaks only __cuda_array_interface__, `Pack`
only DLPack with a CUDA device. Their "device pointers" are host addresses, and the `gpu` fixture replaces
the CUDA entry points by recorders that run the very same arguments (layout, transposes, leading
dimensions, strides, pointers) through the host entry points on the PoCL context: so the results check that
the binding read the operands in place and described them correctly, and the records check the stream,
the context's device and that nothing is enqueued after an argument error."""
import ctypes
import subprocess
import sys

import numpy as np
import pytest

import gemmkit
from gemmkit import _library, cuda_arrays, cuda_calls, cuda_driver, cuda_fast, cuda_results
from conftest import assert_gemm_close, random_matrix

ROW, COL, N, T = 101, 102, 111, 112
_devices_of = {}  # host address -> the "device" a Cai array claims to live on


class Cai:
    """__cuda_array_interface__ (v3) of a host array; data of a numpy array, or made-up fields."""

    def __init__(self, array, device=0, stream=None, readonly=False, typestr="<f4", strides="own", mask=None):
        self.array = array
        byte_strides = array.strides if strides == "own" else strides
        self.interface = {"shape": array.shape, "typestr": typestr, "data": (array.ctypes.data, readonly),
                          "strides": byte_strides, "version": 3, "stream": stream}
        if mask is not None:
            self.interface["mask"] = mask
        _devices_of[array.ctypes.data] = device

    @property
    def __cuda_array_interface__(self):
        return self.interface


class Pack:
    """DLPack only, on CUDA device `device`; records the stream each export was asked for."""

    def __init__(self, array, device=0):
        self.array, self.device, self.streams = array, device, []

    def __dlpack__(self, stream=None):  # DLPack 0.x: no max_version
        self.streams.append(stream)
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return (2, self.device)


class Frozen(Pack):
    """A library whose arrays are immutable and carry no stream (as JAX's)."""
    waited = False

    def block_until_ready(self):
        self.waited = True
        return self


def _allocate(like, shape):
    return type(like)(np.empty(shape, dtype=np.float32), device=like.device if hasattr(like, "device") else 0)


class FakeContext:
    def __init__(self, device):
        self.handle, self.device = 0x1000 + device, device


class Calls(list):
    """The gpu fixture's record of calls, and the state its stand-ins answer from: the streams being captured
    into a CUDA graph, and the scratch bytes the workspace-size queries report."""
    def __init__(self):
        super().__init__()
        self.capturing, self.scratch_bytes = set(), 0


@pytest.fixture
def gpu(monkeypatch, context):
    """The CUDA entry points as recorders that compute through the host entry points (see the module's
    docstring); driver calls recorded; this module's producers allocate their results like a library."""
    calls = Calls()
    host = context.handle

    def sgemm(handle, stream, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc):
        calls.append(("sgemm", handle, stream, layout, ta, tb, m, n, k, lda, ldb, ldc))
        return _library.lib.gemmkit_sgemm_ex(host, None, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c,
                                             ldc)

    def batched(handle, stream, layout, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, count):
        calls.append(("batched", handle, stream, layout, ta, tb, m, n, k, lda, sa, ldb, sb, ldc, sc, count))
        return _library.lib.gemmkit_sgemm_strided_batched(host, None, layout, ta, tb, m, n, k, alpha, a, lda, sa,
                                                          b, ldb, sb, beta, c, ldc, sc, count)

    def omatcopy(handle, stream, layout, trans, rows, cols, alpha, a, lda, b, ldb):
        calls.append(("omatcopy", handle, stream, layout, trans, rows, cols, lda, ldb))
        return _library.lib.gemmkit_somatcopy(host, layout, trans, rows, cols, alpha, a, lda, b, ldb)

    def workspace_size(handle, *args):
        calls.append(("workspace_size", handle))
        args[-1]._obj.value = calls.scratch_bytes
        return 0

    def set_workspace(handle, pointer, size):
        calls.append(("set_workspace", handle, pointer, size))
        return 0

    monkeypatch.setattr(_library.lib, "gemmkit_cuda_workspace_size", workspace_size)
    monkeypatch.setattr(_library.lib, "gemmkit_cuda_strided_batched_workspace_size", workspace_size)
    monkeypatch.setattr(_library.lib, "gemmkit_cuda_set_workspace", set_workspace)
    monkeypatch.setattr(cuda_driver, "is_capturing", lambda stream, cu_context: stream in calls.capturing)
    monkeypatch.setattr(_library.lib, "gemmkit_sgemm_cuda_enqueue", sgemm)
    monkeypatch.setattr(_library.lib, "gemmkit_sgemm_strided_batched_cuda_enqueue", batched)
    monkeypatch.setattr(_library.lib, "gemmkit_somatcopy_cuda_enqueue", omatcopy)
    monkeypatch.setattr(cuda_driver, "pointer_device", lambda pointer: _devices_of[pointer])
    monkeypatch.setattr(cuda_driver, "context_for_device", lambda device: 0xC0 + device)
    monkeypatch.setattr(cuda_driver, "order_after", lambda *args: calls.append(("order_after",) + args))
    monkeypatch.setattr(cuda_driver, "synchronize", lambda *args: calls.append(("synchronize",) + args))
    monkeypatch.setattr(cuda_driver, "create_event", lambda cu_context: 0xE0 + cu_context)
    monkeypatch.setattr(cuda_driver, "destroy_event", lambda *args: None)
    monkeypatch.setattr(cuda_driver, "record", lambda *args: calls.append(("record",) + args))
    monkeypatch.setattr(cuda_driver, "wait", lambda *args: calls.append(("wait",) + args))
    monkeypatch.setattr(cuda_calls, "_scratch", {})
    contexts = {}
    monkeypatch.setattr(cuda_calls, "context_for", lambda device, cu_context=None: contexts.setdefault(device, FakeContext(device)))
    monkeypatch.setattr(cuda_calls, "made_context", lambda device, cu_context: contexts.get(device))
    module = __name__.split(".")[-1]
    monkeypatch.setitem(cuda_results.ALLOCATORS, module, _allocate)
    return calls


def enqueued(calls):
    return [c for c in calls if c[0] in ("sgemm", "batched", "omatcopy")]


# --- reading the interfaces ---------------------------------------------------------------------------------

def test_interface_is_read_in_place(gpu, rng):
    base = random_matrix(rng, (10, 12))
    view = base[2:8:2, 1:5]  # rows 2 apart, a block: strides (24, 1) elements
    v = cuda_arrays.from_interface(view, "a", Cai(view, device=3, stream=55, readonly=True).interface)
    assert (v.pointer, v.shape, v.strides, v.device, v.readonly, v.stream) == \
        (view.ctypes.data, (3, 4), (24, 1), 3, True, 55)
    packed = random_matrix(rng, (4, 6))
    v = cuda_arrays.from_interface(packed, "b", Cai(packed, strides=None).interface)
    assert v.strides == (6, 1) and not v.readonly and v.stream is None  # no strides: C-contiguous
    v = cuda_arrays.from_interface(packed, "b", Cai(packed, strides=(24, 2)).interface)
    assert v.strides is None  # half a float: no element stride describes it


def test_dlpack_capsules_are_read_in_place(rng):
    a = random_matrix(rng, (7, 5)).T  # a transposed view: strides (1, 5)
    v = cuda_arrays.from_capsule(a, "a", a.__dlpack__())
    assert (v.pointer, v.shape, v.strides, v.readonly) == (a.ctypes.data, (5, 7), (1, 5), False)
    assert v.keep is not None  # the capsule stays alive with the view


def _versioned_capsule(array, flags=0, code=2, bits=32):
    """A DLPack 1.0 capsule ("dltensor_versioned") over a host array, built field by field."""
    shape = (ctypes.c_int64 * array.ndim)(*array.shape)
    strides = (ctypes.c_int64 * array.ndim)(*(s // array.itemsize for s in array.strides))
    managed = cuda_arrays._DLManagedTensorVersioned(major=1, minor=0, flags=flags)
    managed.dl_tensor.data = array.ctypes.data
    managed.dl_tensor.device.device_type, managed.dl_tensor.device.device_id = 2, 1
    managed.dl_tensor.ndim = array.ndim
    managed.dl_tensor.dtype.code, managed.dl_tensor.dtype.bits, managed.dl_tensor.dtype.lanes = code, bits, 1
    managed.dl_tensor.shape, managed.dl_tensor.strides = shape, strides
    new = ctypes.pythonapi.PyCapsule_New
    new.restype, new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new(ctypes.addressof(managed), b"dltensor_versioned", None), (managed, shape, strides)


def test_dlpack_1_gives_the_read_only_flag_and_the_dtype(rng):
    a = random_matrix(rng, (4, 3))
    capsule, keep = _versioned_capsule(a, flags=1)
    v = cuda_arrays.from_capsule(a, "a", capsule)
    assert (v.pointer, v.shape, v.strides, v.device, v.readonly) == (a.ctypes.data, (4, 3), (3, 1), 1, True)
    capsule, keep = _versioned_capsule(a, code=2, bits=64)
    with pytest.raises(TypeError, match="float32 arrays only.*code 2, 64 bits"):
        cuda_arrays.from_capsule(a, "a", capsule)


def test_what_counts_as_a_cuda_array(rng):
    a = random_matrix(rng, (2, 2))
    assert cuda_arrays.is_cuda_array(Cai(a)) and cuda_arrays.is_cuda_array(Pack(a))
    for host in (a, None, gemmkit.to_device(a), 3.0, [[1.0]]):
        assert not cuda_arrays.is_cuda_array(host)

    class HostPack(Pack):
        def __dlpack_device__(self):
            return (1, 0)
    assert not cuda_arrays.is_cuda_array(HostPack(a))


# --- the stream rule ----------------------------------------------------------------------------------------

def test_stream_rule(monkeypatch):
    resolve = cuda_arrays.resolve_stream

    class TorchStream:
        cuda_stream = 0x7001

    class CupyStream:
        ptr = 0x7002

    class ProtocolStream:
        def __cuda_stream__(self):
            return (0, 0x7003)

    class NumbaStream:
        handle = ctypes.c_void_p(0x7004)

    monkeypatch.setitem(cuda_arrays.CURRENT_STREAM, "somelib", lambda device: 0x5000 + device)
    # stream= first, in any of its forms
    for given, handle in ((0x42, 0x42), (0, 0), (TorchStream(), 0x7001), (CupyStream(), 0x7002),
                          (ProtocolStream(), 0x7003), (NumbaStream(), 0x7004)):
        assert resolve(given, "somelib", 1, [0x99]) == handle
    # then the library's current stream on the array's device, then a stream the interface named, then legacy
    assert resolve(None, "somelib", 2, [0x99]) == 0x5002
    assert resolve(None, "otherlib", 2, [None, 0x99]) == 0x99
    assert resolve(None, "otherlib", 2, [None]) == cuda_driver.LEGACY_STREAM
    for bad, error in ((True, TypeError), ("s", TypeError), (-3, ValueError)):
        with pytest.raises(error, match="stream"):
            resolve(bad, "somelib", 0, [])
    assert cuda_arrays.dlpack_stream(0) == 1 and cuda_arrays.dlpack_stream(0x42) == 0x42


def test_calls_run_on_the_resolved_stream(gpu, rng, monkeypatch):
    a, b = random_matrix(rng, (6, 5)), random_matrix(rng, (5, 4))
    c = gemmkit.matmul(Cai(a, stream=0x33), Cai(b, stream=0x33))
    assert enqueued(gpu)[-1][2] == 0x33 and not [x for x in gpu if x[0] == "order_after"]
    assert_gemm_close(c.array, a, b)
    gpu.clear()
    gemmkit.matmul(Cai(a, stream=0x33), Cai(b, stream=0x44), stream=0x55)  # each producer's stream waited for
    assert [x for x in gpu if x[0] == "order_after"] == [("order_after", 0x55, 0x33, 0xC0),
                                                         ("order_after", 0x55, 0x44, 0xC0)]
    assert enqueued(gpu)[-1][2] == 0x55
    gpu.clear()
    pa, pb = Pack(a, device=2), Pack(b, device=2)
    gemmkit.matmul(pa, pb, stream=0)  # DLPack: the producer is told the stream (0 is DLPack's 1)
    assert pa.streams == [1] and pb.streams == [1] and enqueued(gpu)[-1][1:3] == (0x1002, 0)
    module = __name__.split(".")[-1]
    monkeypatch.setitem(cuda_arrays.CURRENT_STREAM, module, lambda device: 0x6000 + device)
    gpu.clear()
    gemmkit.matmul(Pack(a, device=1), Pack(b, device=1))  # the library's current stream on the device
    assert enqueued(gpu)[-1][1:3] == (0x1001, 0x6001)


def test_a_context_serves_one_stream_at_a_time(gpu, rng):
    """The context's scratch: a call on another stream than the context's last waits (on the device) for the
    event recorded after that call; calls on one stream wait for nothing."""
    a, b = random_matrix(rng, (6, 5)), random_matrix(rng, (5, 4))
    for stream in (0x10, 0x10, 0x20, 0x10):
        gemmkit.matmul(Cai(a), Cai(b), stream=stream)
    events = [x for x in gpu if x[0] in ("record", "wait")]
    assert events == [("record", 0xE0 + 0xC0, 0x10, 0xC0), ("record", 0xE0 + 0xC0, 0x10, 0xC0),
                      ("wait", 0x20, 0xE0 + 0xC0, 0xC0), ("record", 0xE0 + 0xC0, 0x20, 0xC0),
                      ("wait", 0x10, 0xE0 + 0xC0, 0xC0), ("record", 0xE0 + 0xC0, 0x10, 0xC0)]
    gpu.clear()
    gemmkit.matmul(Cai(a, device=1), Cai(b, device=1), stream=0x20)  # another device: its own context
    assert [x[0] for x in gpu] == ["sgemm", "record"]


def test_dlpack_when_the_interface_fails(gpu, rng):
    """An array whose __cuda_array_interface__ raises (other than AttributeError) is read through DLPack when it
    has it; without DLPack the error is a TypeError naming the array."""
    class Both(Pack):
        @property
        def __cuda_array_interface__(self):
            raise RuntimeError("no interface for this one")

    a, b = random_matrix(rng, (4, 3)), random_matrix(rng, (3, 2))
    x = Both(a)
    c = gemmkit.matmul(x, Both(b), stream=0x12)
    assert x.streams == [0x12] and isinstance(c, Both)
    assert_gemm_close(c.array, a, b)

    class Broken:
        @property
        def __cuda_array_interface__(self):
            raise RuntimeError("Can't export tensors that require grad")
    _refused(gpu, lambda: gemmkit.matmul(Broken(), Cai(b)), TypeError, "a .* does not export its memory: Can't")


class FakeTorch:
    """Just enough of `torch` for gemmkit's PyTorch path: tensors over host arrays, torch.empty, the current
    stream (0x7700 + device)."""
    float32, float64 = "torch.float32", "torch.float64"

    class Tensor:
        __module__ = "torch"

        def __init__(self, array, device=0, requires_grad=False):
            self.array, self.index, self.requires_grad = array, device, requires_grad
            self.device = type("device", (), {"index": device})()
            self.dtype = FakeTorch.float32 if array.dtype == np.float32 else FakeTorch.float64
            self.shape = array.shape

        def stride(self):
            return tuple(s // self.array.itemsize for s in self.array.strides)

        def data_ptr(self):
            return self.array.ctypes.data

        def get_device(self):
            return self.index

        def numel(self):
            return self.array.size

        def is_neg(self):
            return False

        def is_conj(self):
            return False

        def __dlpack_device__(self):
            return (2, self.index)

        def __dlpack__(self, stream=None):
            raise AssertionError("the PyTorch path reads tensors through their accessors")

    class cuda:
        @staticmethod
        def current_stream(device):
            return type("Stream", (), {"cuda_stream": 0x7700 + device})()

    @staticmethod
    def empty(shape, dtype, device):
        return FakeTorch.Tensor(np.empty(shape, np.float32), device.index)


def test_torch_tensors_through_their_accessors(gpu, rng, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", FakeTorch)
    Tensor = FakeTorch.Tensor
    a, b = random_matrix(rng, (9, 6)), random_matrix(rng, (4, 6))
    c = gemmkit.matmul(Tensor(a, device=1), Tensor(b.T, device=1))  # b.T: a transposed view
    assert isinstance(c, Tensor) and c.index == 1
    assert_gemm_close(c.array, a, b.T)
    assert enqueued(gpu)[-1][1:6] == (0x1001, 0x7701, ROW, N, T)  # torch's current stream on device 1
    out = Tensor(np.full((9, 4), np.nan, np.float32), device=1)
    assert gemmkit.matmul(Tensor(a, device=1), Tensor(b.T, device=1), out=out) is out
    assert_gemm_close(out.array, a, b.T)
    _refused(gpu, lambda: gemmkit.matmul(Tensor(a, requires_grad=True), Tensor(b.T)), TypeError,
             r"a requires grad.*a.detach\(\)")
    _refused(gpu, lambda: gemmkit.matmul(Tensor(a.astype(np.float64)), Tensor(b.T)), TypeError,
             "a: float32 arrays only.*torch.float64")
    _refused(gpu, lambda: gemmkit.matmul(Tensor(a, device=0), Tensor(b.T, device=1)), gemmkit.GemmkitError,
             "different GPUs")


class FastTorch(FakeTorch):
    """FakeTorch whose tensors say is_cuda and dim(), as PyTorch's do: cuda_fast's short path takes them."""

    class Tensor(FakeTorch.Tensor):
        __module__ = "torch"
        is_cuda = True

        def dim(self):
            return self.array.ndim

    @staticmethod
    def empty(shape, dtype, device):
        return FastTorch.Tensor(np.empty(shape, np.float32), device.index)


class FakeDriver:
    """The driver functions the short path calls straight (cuda_fast binds them through
    cuda_driver.function_or_none), called as ctypes calls them: out-parameters by reference. It answers from
    the gpu fixture's state (the streams being captured) and records the event records in its calls."""

    def __init__(self, calls, current):
        self.calls, self.current = calls, current

    def cuCtxGetCurrent(self, out):
        out._obj.value = self.current
        return 0

    def cuEventRecord(self, event, stream):
        self.calls.append(("record_here", event, stream))
        return 0

    def cuStreamIsCapturing(self, stream, out):
        out._obj.value = 1 if stream in self.calls.capturing else 0  # CU_STREAM_CAPTURE_STATUS_ACTIVE
        return 0


def _short_path(monkeypatch, gpu, current=0xC1):
    """FastTorch as torch, the short path's driver a FakeDriver whose current context is `current`."""
    monkeypatch.setitem(sys.modules, "torch", FastTorch)
    monkeypatch.setattr(cuda_fast, "_known", {})
    driver = FakeDriver(gpu, current)
    monkeypatch.setattr(cuda_driver, "current_context", lambda: driver.current)
    monkeypatch.setattr(cuda_driver, "function_or_none", lambda name: getattr(driver, name, None))
    return driver


def _general_only(monkeypatch, call):
    """call() through cuda_calls' general path alone; its enqueued record."""
    with monkeypatch.context() as m:
        m.setattr(cuda_fast, "gemm", lambda *args: None)
        return call()


@pytest.mark.parametrize("order_a,order_b,order_c", [("C", "C", "C"), ("F", "C", "F"), ("C", "F", "F"),
                                                     ("F", "F", "C")])
def test_the_common_torch_call_takes_the_short_path(gpu, rng, monkeypatch, order_a, order_b, order_c):
    _short_path(monkeypatch, gpu)
    Tensor = FastTorch.Tensor
    a, b = random_matrix(rng, (9, 6), order_a), random_matrix(rng, (6, 5), order_b)
    c0 = random_matrix(rng, (9, 5), order_c)
    ta, tb = Tensor(a, device=1), Tensor(b, device=1)
    cases = [  # (call, op(A), op(B), alpha, beta): every argument form the short path takes
        (lambda c: gemmkit.sgemm(ta, tb, c, alpha=0.5, beta=-1.5), a, b, 0.5, -1.5),
        (lambda c: gemmkit.sgemm(Tensor(a.T, device=1), tb, c, trans_a=True), a, b, 1.0, 0.0),
        (lambda c: gemmkit.sgemm(ta, Tensor(np.asfortranarray(b.T), device=1), c, trans_b=True), a, b, 1.0, 0.0),
        (lambda c: gemmkit.matmul(ta, tb, out=c), a, b, 1.0, 0.0),
    ]
    gemmkit.matmul(ta, tb)  # the first call: the general path, which makes the context's stream known
    for call, op_a, op_b, alpha, beta in cases:
        short = Tensor(np.array(c0, order=order_c), device=1)
        general = Tensor(np.array(c0, order=order_c), device=1)
        assert call(short) is short
        assert gpu[-1][0] == "record_here", "the short path was not taken"
        fast_enqueued = enqueued(gpu)[-1]
        assert _general_only(monkeypatch, lambda: call(general)) is general
        assert gpu[-1][0] == "record"
        assert enqueued(gpu)[-1] == fast_enqueued  # the same call either way
        assert_gemm_close(short.array, op_a, op_b, alpha, beta, c0)
        np.testing.assert_array_equal(short.array, general.array)
    c = gemmkit.matmul(ta, tb)  # C made by the short path: torch's row-major tensor on the operands' device
    assert isinstance(c, Tensor) and c.index == 1 and gpu[-1][0] == "record_here"
    assert_gemm_close(c.array, a, b)


def test_the_short_path_leaves_the_rest_to_the_general_one(gpu, rng, monkeypatch):
    driver = _short_path(monkeypatch, gpu)
    Tensor = FastTorch.Tensor
    a, b = random_matrix(rng, (9, 6)), random_matrix(rng, (6, 5))
    ta, tb = Tensor(a, device=1), Tensor(b, device=1)
    gemmkit.matmul(ta, tb)
    gemmkit.matmul(ta, tb)
    assert gpu[-1][0] == "record_here"
    # Another current stream: the general path, which waits for the context's last call on the old one.
    monkeypatch.setattr(FastTorch.cuda, "current_stream",
                        staticmethod(lambda device: type("Stream", (), {"cuda_stream": 0x9900})()))
    gemmkit.matmul(ta, tb)
    assert [c[0] for c in gpu[-3:]] == ["wait", "sgemm", "record"] and gpu[-2][2] == 0x9900
    gemmkit.matmul(ta, tb)  # then the short path again, on the new stream
    assert gpu[-1][0] == "record_here" and enqueued(gpu)[-1][2] == 0x9900
    # Errors are the general path's, with its messages, and nothing enqueued.
    _refused(gpu, lambda: gemmkit.matmul(Tensor(a.astype(np.float64), device=1), tb), TypeError,
             "a: float32 arrays only")
    _refused(gpu, lambda: gemmkit.matmul(Tensor(a, device=1, requires_grad=True), tb), TypeError, "requires grad")
    _refused(gpu, lambda: gemmkit.matmul(ta, Tensor(b, device=0)), gemmkit.GemmkitError, "different GPUs")
    _refused(gpu, lambda: gemmkit.matmul(ta, Tensor(random_matrix(rng, (5, 5)), device=1)), ValueError, "differ")
    # A context that is not the current one: the general path (which pushes it).
    driver.current = 0xD0
    gemmkit.matmul(ta, tb)
    assert gpu[-1][0] == "record"


def test_immutable_results_are_waited_for(gpu, rng, monkeypatch):
    module = __name__.split(".")[-1]
    monkeypatch.setattr(cuda_arrays, "library_of", lambda x: "frozen" if isinstance(x, Frozen) else module)
    monkeypatch.setitem(cuda_results.ALLOCATORS, "frozen", _allocate)
    monkeypatch.setattr(cuda_results, "IMMUTABLE", {"frozen"})
    a, b = random_matrix(rng, (3, 4)), random_matrix(rng, (4, 2))
    fa, fb = Frozen(a), Frozen(b)
    c = gemmkit.matmul(fa, fb)
    assert fa.waited and fb.waited  # inputs ready before they are read
    assert isinstance(c, Frozen) and gpu[-1] == ("synchronize", 1, 0xC0)  # legacy stream, waited
    assert_gemm_close(c.array, a, b)
    with pytest.raises(TypeError, match="cannot be written in place"):
        gemmkit.matmul(Frozen(a), Frozen(b), out=Frozen(np.empty((3, 2), np.float32)))


# --- layouts and transposes, computed ----------------------------------------------------------------------

@pytest.mark.parametrize("order_a,order_b,order_c", [("C", "C", "C"), ("F", "C", "C"), ("C", "F", "F"),
                                                     ("F", "F", "F")])
def test_sgemm_layouts_and_transposes(gpu, rng, order_a, order_b, order_c):
    m, n, k = 13, 7, 9
    a, b = random_matrix(rng, (m, k), order_a), random_matrix(rng, (k, n), order_b)
    c0 = random_matrix(rng, (m, n), order_c)
    c = c0.copy(order=order_c)
    out = Cai(c)
    assert gemmkit.sgemm(Cai(a), Cai(b), out, alpha=0.5, beta=-2.0) is out
    assert_gemm_close(c, a, b, 0.5, -2.0, c0)
    name, handle, stream, layout, ta, tb = enqueued(gpu)[-1][:6]
    assert layout == (ROW if order_c == "C" else COL)
    assert ta == (N if (order_a == order_c) else T) and tb == (N if (order_b == order_c) else T)


def test_transposed_views_slices_and_flags(gpu, rng):
    big = random_matrix(rng, (30, 40))
    a = big[3:14, 5:25]  # 11x20 block, ld 40
    b = random_matrix(rng, (8, 20))  # used as b.T with trans_b
    c = gemmkit.sgemm(Cai(a), Cai(b), trans_b=True)
    assert isinstance(c, Cai)
    assert_gemm_close(c.array, a, b.T)
    assert enqueued(gpu)[-1][3:6] == (ROW, N, T) and enqueued(gpu)[-1][9:11] == (40, 20)
    d = gemmkit.sgemm(Cai(a.T), Cai(b.T), trans_a=True)  # a.T read as stored, flagged back
    assert_gemm_close(d.array, a, b.T)


def test_matmul_vectors_and_stacks(gpu, rng):
    a, x = random_matrix(rng, (6, 5)), random_matrix(rng, (5,))
    y = gemmkit.matmul(Cai(a), Cai(x))
    assert y.array.shape == (6,)
    assert_gemm_close(y.array[:, None], a, x[:, None])
    s = random_matrix(rng, (4, 6, 5))
    m = random_matrix(rng, (5, 3))
    st = gemmkit.matmul(Cai(s), Cai(m))
    assert st.array.shape == (4, 6, 3)
    record = enqueued(gpu)[-1]
    assert record[0] == "batched" and record[12] == 0 and record[15] == 4  # m repeated: stride 0
    for z in range(4):
        assert_gemm_close(st.array[z], s[z], m)
    t = random_matrix(rng, (3, 2, 4, 5)).transpose(0, 1, 3, 2)  # batch axes merge; matrices transposed
    w = random_matrix(rng, (4, 2))
    r = gemmkit.matmul(Cai(t), Cai(w))
    assert r.array.shape == (3, 2, 5, 2) and enqueued(gpu)[-1][4] == T
    for i in range(3):
        for j in range(2):
            assert_gemm_close(r.array[i, j], t[i, j], w)


def test_batched_strided_form(gpu, rng):
    a = random_matrix(rng, (5, 7, 4))
    b = random_matrix(rng, (5, 6, 4)).transpose(0, 2, 1)  # stacks of transposed views
    c0 = random_matrix(rng, (5, 7, 6))
    c = c0.copy()
    gemmkit.sgemm_batched(Cai(a), Cai(b), Cai(c), alpha=2.0, beta=0.5)
    for z in range(5):
        assert_gemm_close(c[z], a[z], b[z], 2.0, 0.5, c0[z])
    record = enqueued(gpu)[-1]
    assert record[:6] == ("batched", 0x1000, 1, ROW, N, T) and record[10] == 28 and record[12] == 24
    new = gemmkit.sgemm_batched(Cai(a), Cai(random_matrix(rng, (4, 3))))  # one matrix for every z
    assert new.array.shape == (5, 7, 3) and enqueued(gpu)[-1][12] == 0


def test_omatcopy(gpu, rng):
    a = random_matrix(rng, (9, 4))
    t = gemmkit.omatcopy(Cai(a), alpha=3.0)
    assert np.array_equal(t.array, 3.0 * a.T)
    f = np.full((4, 9), np.nan, np.float32, order="F")
    gemmkit.omatcopy(Cai(a), out=Cai(f))  # C -> F transposed: a plain copy for the library
    assert np.array_equal(f, a.T) and enqueued(gpu)[-1][3:5] == (COL, N)
    same = gemmkit.omatcopy(Cai(a), trans=False)
    assert np.array_equal(same.array, a)


# --- errors: raised before anything is enqueued -------------------------------------------------------------

def _refused(gpu, call, error, match):
    before = len(enqueued(gpu))
    with pytest.raises(error, match=match) as raised:
        call()
    assert len(enqueued(gpu)) == before, "enqueued after an argument error"
    return raised.value


def test_argument_errors_enqueue_nothing(gpu, rng):
    a, b = random_matrix(rng, (6, 5)), random_matrix(rng, (5, 4))
    c = np.full((6, 4), np.nan, np.float32)
    doubles = np.ones((6, 5))
    _refused(gpu, lambda: gemmkit.matmul(Cai(doubles, typestr="<f8"), Cai(b)), TypeError,
             r"a: float32 arrays only.*'<f8'")
    _refused(gpu, lambda: gemmkit.matmul(Cai(a), Cai(b, mask=1)), TypeError, "mask")
    e = _refused(gpu, lambda: gemmkit.matmul(Cai(a, device=0), Cai(b, device=1)), gemmkit.GemmkitError,
                 r"different GPUs \(a on CUDA device 0, b on CUDA device 1\)")
    assert e.status == gemmkit.Status.INVALID_ARGUMENT
    e = _refused(gpu, lambda: gemmkit.matmul(Cai(a), b), gemmkit.GemmkitError,
                 "b is a host numpy array while a is a CUDA array")
    assert e.status == gemmkit.Status.INVALID_ARGUMENT
    _refused(gpu, lambda: gemmkit.sgemm(a, b, Cai(c)), gemmkit.GemmkitError, "a is a host numpy array")
    _refused(gpu, lambda: gemmkit.matmul(gemmkit.to_device(a), Cai(b)), gemmkit.GemmkitError,
             "a is a gemmkit DeviceArray")
    _refused(gpu, lambda: gemmkit.matmul(Pack(a, device=0), Pack(b, device=1)), gemmkit.GemmkitError,
             "different GPUs")
    every_other_column = random_matrix(rng, (6, 10))[:, ::2]
    _refused(gpu, lambda: gemmkit.matmul(Cai(every_other_column), Cai(b)), ValueError,
             r"a \(.*strides \(10, 2\) in elements\) has strides no BLAS layout describes.*contiguous")
    _refused(gpu, lambda: gemmkit.matmul(Cai(a), Cai(b), out=Cai(np.empty((6, 8), np.float32)[:, ::2])),
             ValueError, "out .* is an output whose strides store no matrix")
    _refused(gpu, lambda: gemmkit.matmul(Cai(a), Cai(b), out=Cai(c, readonly=True)), ValueError, "read-only")
    _refused(gpu, lambda: gemmkit.matmul(Cai(a), Cai(a)), ValueError, "inner dimensions differ")
    _refused(gpu, lambda: gemmkit.sgemm(Cai(a), Cai(b), beta=1.0), ValueError, "beta = 1 reads C")
    _refused(gpu, lambda: gemmkit.sgemm(Cai(a), Cai(b), Cai(c.T.copy())), ValueError, "c is 4x6")
    _refused(gpu, lambda: gemmkit.matmul(Cai(a), Cai(b), math="tf32"), ValueError, "math=")
    _refused(gpu, lambda: gemmkit.matmul(a, b, stream=5), ValueError, "stream= applies to CUDA")
    _refused(gpu, lambda: gemmkit.sgemm_batched(Cai(random_matrix(rng, (2, 6, 5))), Cai(random_matrix(
        rng, (3, 5, 4)))), ValueError, "batch sizes")
    _refused(gpu, lambda: gemmkit.matmul(Cai(random_matrix(rng, (4, 3, 6, 5))[:, ::2]), Cai(b)), ValueError,
             "one stride")
    _refused(gpu, lambda: gemmkit.omatcopy(Cai(a), out=Cai(np.empty((6, 5), np.float32))), ValueError,
             "out is 6x5")
    assert not np.any(np.isfinite(c))  # C untouched throughout


def test_results_need_a_known_library(gpu, rng, monkeypatch):
    module = __name__.split(".")[-1]
    monkeypatch.delitem(cuda_results.ALLOCATORS, module)
    a = random_matrix(rng, (3, 3))
    _refused(gpu, lambda: gemmkit.matmul(Cai(a), Cai(a)), TypeError, "no way to allocate a result.*pass the output")


def test_the_driver_is_loaded_only_when_needed(tmp_path):
    """Importing gemmkit and calling it on numpy loads no CUDA driver; a call that needs one where there is
    none is a GemmkitError saying so."""
    script = """
import numpy as np, gemmkit
from gemmkit import cuda_driver
gemmkit.matmul(np.ones((2, 2), np.float32), np.ones((2, 2), np.float32))
assert cuda_driver._driver is None
class Cai:
    __cuda_array_interface__ = {"shape": (2, 2), "typestr": "<f4", "data": (4096, False), "version": 3}
try:
    gemmkit.matmul(Cai(), Cai())
except gemmkit.GemmkitError as error:
    assert error.status == gemmkit.Status.NO_DEVICE, error
    assert "/nonexistent/libcuda.so.1" in str(error) and "could not be loaded" in str(error), error
    print("refused")
"""
    import os
    env = dict(os.environ, GEMMKIT_LIBCUDA="/nonexistent/libcuda.so.1")
    env.pop("GEMMKIT_BACKEND", None)  # numpy's call on the default backend (a suite run with cuda would need the driver)
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "refused", done.stderr


def test_real_entry_points_on_the_mock_driver():
    """The whole path with the C library's CUDA entry points and no stand-in on the Python side, against the
    stand-in libcuda the C tests use (tests/mock_libcuda.c, built beside the library as
    tests/libgemmkit_mock_libcuda.so): cuda_mock_call.py checks the stream of every launch, that nothing
    waited and that one context was made on the current CUcontext."""
    import os
    import pathlib
    here = pathlib.Path(__file__).resolve().parent
    mock = os.environ.get("GEMMKIT_MOCK_LIBCUDA") or str(
        pathlib.Path(gemmkit.library_path).resolve().parent / "tests" / "libgemmkit_mock_libcuda.so")
    if not os.path.exists(mock):
        pytest.skip("no stand-in libcuda at %s (a build without cmocka or without the CUDA toolkit)" % mock)
    env = dict(os.environ, GEMMKIT_LIBCUDA=mock, GEMMKIT_LIBRARY=str(gemmkit.library_path),
               PYTHONPATH=os.pathsep.join([str(here.parent)] + sys.path))
    done = subprocess.run([sys.executable, str(here / "cuda_mock_call.py")], env=env, capture_output=True,
                          text=True, timeout=300)
    if done.returncode != 0 and ("without the CUDA backend" in done.stderr or "nvrtc" in done.stderr.lower()):
        pytest.skip("this library has no CUDA backend or no NVRTC: " + done.stderr.strip().splitlines()[-1])
    assert done.returncode == 0 and done.stdout.strip().endswith("PASS"), done.stdout + done.stderr
