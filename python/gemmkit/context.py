"""Devices and contexts: listing, selection, and the default context that
calls without `context=` use."""
import ctypes
import dataclasses
import threading
import weakref

from ._library import DeviceInfoStruct, lib
from .errors import check
from .math_modes import math_code, math_name

_BACKENDS = {None: 0, "default": 0, "opencl": 1, "cuda": 2}


def _backend_code(backend):
    key = backend.lower() if isinstance(backend, str) else backend
    if key not in _BACKENDS:
        raise ValueError("backend must be 'opencl', 'cuda' or None (GEMMKIT_BACKEND, else OpenCL), not %r"
                         % (backend,))
    return _BACKENDS[key]


@dataclasses.dataclass(frozen=True)
class DeviceInfo:
    """What gemmkit knows about a device (gemmkit_device_info)."""
    index: int  # within its backend; Context(device=index) opens it
    backend: str
    platform: str
    name: str
    vendor: str
    driver_version: str
    is_gpu: bool
    compute_units: int
    clock_mhz: int
    lanes_per_unit: int
    local_mem_bytes: int
    max_work_group_size: int
    global_mem_bytes: int
    max_alloc_bytes: int
    peak_gflops: float

    @classmethod
    def _from_struct(cls, index, s):
        text = {f: getattr(s, f).decode(errors="replace")
                for f in ("backend", "platform", "name", "vendor", "driver_version")}
        numbers = {f: getattr(s, f) for f in ("compute_units", "clock_mhz", "lanes_per_unit", "local_mem_bytes",
                                               "max_work_group_size", "global_mem_bytes", "max_alloc_bytes",
                                               "peak_gflops")}
        return cls(index=index, is_gpu=bool(s.is_gpu), **text, **numbers)


def devices(backend=None):
    """Every device of a backend ('opencl', 'cuda'; None: GEMMKIT_BACKEND, else OpenCL)."""
    code = _backend_code(backend)
    count = ctypes.c_int()
    check(lib.gemmkit_device_count(code, ctypes.byref(count)))
    found = []
    for index in range(count.value):
        info = DeviceInfoStruct()
        check(lib.gemmkit_device_get_info(code, index, ctypes.byref(info)))
        found.append(DeviceInfo._from_struct(index, info))
    return found


class Context:
    """One opened device (gemmkit_context): compiled kernels and scratch
    memory live here, so reuse one context for many calls.

    device: None (GEMMKIT_DEVICE, else the first GPU, else the first
    device), an index from devices(), or part of "platform device" ('pocl',
    'H200'). backend: 'opencl', 'cuda' or None.

    Calls on one context run one at a time (the library's mutex); ctypes
    releases the GIL during each call, so other Python threads go on.
    """

    def __init__(self, device=None, backend=None):
        selector = None if device is None else str(device).encode()
        handle = ctypes.c_void_p()
        check(lib.gemmkit_context_create_ex(ctypes.byref(handle), _backend_code(backend), selector))
        self._adopt(handle.value)

    @classmethod
    def on_cuda_context(cls, cu_context):
        """A context on a CUDA program's CUcontext (an address; gemmkit_context_create_cuda): its calls on
        CUDA device arrays run there. The CUcontext must outlive the context."""
        handle = ctypes.c_void_p()
        check(lib.gemmkit_context_create_cuda(cu_context, ctypes.byref(handle)))
        self = cls.__new__(cls)
        self._adopt(handle.value)
        return self

    def _adopt(self, handle):
        self._handle = handle
        self._buffers = weakref.WeakSet()  # freed before the context (close())
        info = DeviceInfoStruct()
        check(lib.gemmkit_context_device_info(self._handle, ctypes.byref(info)))
        self.device = DeviceInfo._from_struct(None, info)
        self.warnings = lib.gemmkit_context_warnings(self._handle).decode(errors="replace")

    @property
    def handle(self):
        if self._handle is None:
            raise ValueError("gemmkit: this context is closed")
        return self._handle

    def close(self):
        """Frees the context and every device buffer made on it (their
        DeviceArrays become unusable). Also done when the context is
        garbage-collected, which DeviceArrays prevent while they live."""
        if self._handle is None:
            return
        for buffer in list(self._buffers):
            buffer.free()
        lib.gemmkit_context_destroy(self._handle)
        self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_handle", None) is not None:
            self.close()

    def __repr__(self):
        state = "closed" if self._handle is None else "%s: %s" % (self.device.platform, self.device.name)
        return "<gemmkit.Context %s>" % state

    @property
    def math(self):
        """The math mode of calls that ask for none ("fp32", "3xtf32",
        "tf32", "int8x"; a new context starts in GEMMKIT_MATH's, else "fp32").
        Setting a mode the device cannot compute in raises GemmkitError
        (Status.UNSUPPORTED_MATH) and leaves the mode as it was."""
        code = ctypes.c_int()
        check(lib.gemmkit_context_get_math(self.handle, ctypes.byref(code)))
        return math_name(code.value)

    @math.setter
    def math(self, mode):
        check(lib.gemmkit_context_set_math(self.handle, math_code(mode, allow_default=False)))

    def to_device(self, array, order=None):
        """A DeviceArray holding a copy of a 2-D float32 array."""
        from .device_array import DeviceArray
        return DeviceArray.from_numpy(array, context=self, order=order)

    def empty(self, shape, order="C"):
        """An uninitialised DeviceArray of that shape."""
        from .device_array import DeviceArray
        return DeviceArray.empty(shape, context=self, order=order)


_default = None
_default_lock = threading.Lock()


def default_context():
    """The context calls use when given none: opened on first use (with the
    GEMMKIT_DEVICE / GEMMKIT_BACKEND selection) or set by use_device()."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Context()
        return _default


def use_device(device=None, backend=None):
    """Makes a new context on that device the default one and returns it.
    Arrays already on the old device keep it alive and usable."""
    global _default
    context = Context(device, backend)
    with _default_lock:
        _default = context
    return context
