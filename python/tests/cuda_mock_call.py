"""Run by test_cuda_arrays.test_real_entry_points_on_the_mock_driver in its own process, with GEMMKIT_LIBCUDA
naming the stand-in libcuda (tests/mock_libcuda.c: device memory is host memory, launches are recorded and not
run). gemmkit.sgemm on __cuda_array_interface__ arrays goes through the real path: the driver found through
ctypes, the gemmkit context made on the current CUcontext (gemmkit_context_create_cuda) and cached, the
kernels built (NVRTC) and launched by gemmkit_sgemm_cuda_enqueue. Checks that every launch is on the stream
asked for, that nothing waited, and that the context was made once. Prints "PASS" at the end."""
import ctypes
import os

import numpy as np

import gemmkit
from gemmkit import cuda_calls


class Launch(ctypes.Structure):
    _fields_ = [("function", ctypes.c_char * 64), ("grid", ctypes.c_uint * 3), ("block", ctypes.c_uint * 3),
                ("shared", ctypes.c_uint), ("stream", ctypes.c_uint64), ("params", ctypes.c_uint64 * 16)]


class TensorMap(ctypes.Structure):
    _fields_ = [("address", ctypes.c_uint64), ("rank", ctypes.c_uint), ("dims", ctypes.c_uint64 * 3),
                ("strides", ctypes.c_uint64 * 2), ("box", ctypes.c_uint * 3), ("swizzle", ctypes.c_int),
                ("data_type", ctypes.c_int)]


_COUNTS = ["context_refs", "streams", "events", "allocations", "modules", "pushes", "calls_without_context",
           "cubins_loaded", "ptx_loaded", "launches", "copies_2d", "host_allocations", "expected_params",
           "max_threads", "cc_major", "cc_minor", "optin_shared", "dynamic_allowed"]


class State(ctypes.Structure):
    """mock_cuda_state_t (tests/mock_libcuda.h), field for field."""
    _fields_ = ([(name, ctypes.c_int) for name in _COUNTS] +
                [("function", ctypes.c_char * 64), ("last", Launch), ("recent", Launch * 8),
                 ("tensor_maps", ctypes.c_int), ("maps", TensorMap * 4), ("stream_syncs", ctypes.c_int),
                 ("event_syncs", ctypes.c_int), ("context_syncs", ctypes.c_int), ("allocs_made", ctypes.c_int),
                 ("user_context", ctypes.c_int)])


class Cai:
    """A "device" array over host memory (the mock's device memory is host memory) on device 0."""

    def __init__(self, array):
        self.array = array
        self.__cuda_array_interface__ = {"shape": array.shape, "typestr": "<f4", "data": (array.ctypes.data, False),
                                         "strides": array.strides, "version": 3}

    def __dlpack_device__(self):
        return (2, 0)


driver = ctypes.CDLL(os.environ["GEMMKIT_LIBCUDA"])
driver.mock_cuda_state.restype = ctypes.POINTER(State)
state = driver.mock_cuda_state().contents
assert driver.cuInit(0) == 0
primary, stream = ctypes.c_void_p(), ctypes.c_void_p()
assert driver.cuDevicePrimaryCtxRetain(ctypes.byref(primary), 0) == 0
assert driver.cuCtxPushCurrent_v2(primary) == 0  # the primary context current, as PyTorch leaves it
assert driver.cuStreamCreate(ctypes.byref(stream), 0) == 0

rng = np.random.default_rng(1)
a = rng.random((70, 50), dtype=np.float32)
b = rng.random((60, 50), dtype=np.float32).T  # a transposed view: passed as is, flagged
c = np.full((70, 60), np.nan, np.float32)
for round_ in range(2):
    before = (state.launches, state.stream_syncs, state.event_syncs, state.context_syncs)
    out = Cai(c)
    assert gemmkit.sgemm(Cai(a), Cai(b), out, stream=stream.value) is out
    assert state.launches > before[0], "nothing launched"
    for i in range(before[0], min(state.launches, before[0] + 8)):
        assert state.recent[i % 8].stream == stream.value, "a launch on stream 0x%x, not the caller's 0x%x" % (
            state.recent[i % 8].stream, stream.value)
    assert (state.stream_syncs, state.event_syncs, state.context_syncs) == before[1:], "the call waited"
assert len(cuda_calls._contexts) == 1 and list(cuda_calls._contexts)[0] == (0, primary.value)
current = ctypes.c_void_p()
driver.cuCtxGetCurrent(ctypes.byref(current))
assert current.value == primary.value, "the current context changed"
# the batched and omatcopy entry points, on the same stream
before = state.launches
gemmkit.sgemm_batched(Cai(np.ones((3, 8, 4), np.float32)), Cai(np.ones((4, 5), np.float32)),
                      Cai(np.zeros((3, 8, 5), np.float32)), stream=stream.value)
gemmkit.omatcopy(Cai(a), out=Cai(np.zeros((50, 70), np.float32)), stream=stream.value)
assert state.launches >= before + 2 and all(state.recent[i % 8].stream == stream.value
                                            for i in range(before, state.launches))
print("PASS")
