"""The few CUDA driver calls the Python side makes itself, through ctypes: which CUcontext a device array's
device runs in, ordering a stream after another, waiting for a stream, and the device a pointer lives on.

libcuda is loaded on first use, never at import, so `import gemmkit` works on machines without an NVIDIA
driver. GEMMKIT_LIBCUDA names another driver library, as it does for libgemmkit: both must load the same one,
so that the contexts and streams they see are the same objects."""
import ctypes
import os
import threading

from .errors import GemmkitError, Status

LEGACY_STREAM = 1  # CU_STREAM_LEGACY: also what stream 0 means to a program built without per-thread streams
_EVENT_DISABLE_TIMING = 2  # CU_EVENT_DISABLE_TIMING: the cheapest event, for ordering only
_POINTER_DEVICE_ORDINAL = 9  # CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL

_c_ptr, _c_int, _c_uint = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint
# name: argtypes; every call returns a CUresult. Names with a _v2 symbol are looked up under it first (the
# unversioned symbol is the old ABI), as libgemmkit's loader does.
_ARGTYPES = {
    "cuInit": [_c_uint],
    "cuGetErrorName": [_c_int, ctypes.POINTER(ctypes.c_char_p)],
    "cuDeviceGet": [ctypes.POINTER(_c_int), _c_int],
    "cuDevicePrimaryCtxRetain": [ctypes.POINTER(_c_ptr), _c_int],
    "cuCtxGetCurrent": [ctypes.POINTER(_c_ptr)],
    "cuCtxGetDevice": [ctypes.POINTER(_c_int)],
    "cuCtxPushCurrent": [_c_ptr],
    "cuCtxPopCurrent": [ctypes.POINTER(_c_ptr)],
    "cuEventCreate": [ctypes.POINTER(_c_ptr), _c_uint],
    "cuEventRecord": [_c_ptr, _c_ptr],
    "cuEventDestroy": [_c_ptr],
    "cuStreamWaitEvent": [_c_ptr, _c_ptr, _c_uint],
    "cuStreamSynchronize": [_c_ptr],
    "cuPointerGetAttribute": [_c_ptr, _c_int, ctypes.c_uint64],
    "cuStreamIsCapturing": [_c_ptr, ctypes.POINTER(_c_int)],
}

_lock = threading.Lock()
_driver = None
_functions = {}
_devices = {}  # ordinal -> CUdevice
_primary = {}  # ordinal -> retained primary CUcontext (kept for the process's life, as the runtime keeps it)


def library_name():
    return os.environ.get("GEMMKIT_LIBCUDA") or "libcuda.so.1"


def _load():
    global _driver
    with _lock:
        if _driver is None:
            name = library_name()
            try:
                driver = ctypes.CDLL(name)
            except OSError as error:
                raise GemmkitError(Status.NO_DEVICE, "the CUDA driver (%s) could not be loaded (%s): CUDA device "
                                   "arrays need an NVIDIA driver" % (name, error)) from None
            _driver = driver
            _call("cuInit", 0)
    return _driver


def _function(name):
    function = _functions.get(name)
    if function is None:
        driver = _driver if _driver is not None else _load()
        function = getattr(driver, name + "_v2", None) or getattr(driver, name, None)
        if function is None:
            raise GemmkitError(Status.UNSUPPORTED_BACKEND, "the CUDA driver (%s) has no %s" % (library_name(), name))
        function.restype = _c_int
        function.argtypes = _ARGTYPES[name]
        _functions[name] = function
    return function


def function_or_none(name):
    """The driver's function `name` (argtypes set), or None where this driver has none."""
    try:
        return _function(name)
    except GemmkitError:
        return None


def _call(name, *args):
    function = _functions.get(name)
    result = (function if function is not None else _function(name))(*args)
    if result != 0:
        _fail(name, result)


def fail(name, result):
    """Raises the GemmkitError of a CUresult other than CUDA_SUCCESS."""
    _fail(name, result)


def _fail(name, result):
    text = ctypes.c_char_p()
    known = _function("cuGetErrorName")(result, ctypes.byref(text)) == 0 and text.value
    raise GemmkitError(Status.BACKEND_FAILURE, "%s failed: %s (%d)" %
                       (name, text.value.decode() if known else "CUresult", result))


def current_context():
    """The thread's current CUcontext (None: none)."""
    current = _c_ptr()
    _call("cuCtxGetCurrent", ctypes.byref(current))
    return current.value


def _device(ordinal):
    device = _devices.get(ordinal)
    if device is None:
        handle = _c_int()
        try:
            _call("cuDeviceGet", ctypes.byref(handle), ordinal)
        except GemmkitError as error:
            raise GemmkitError(Status.NO_DEVICE, "CUDA device %d: %s" % (ordinal, error.message)) from None
        device = _devices[ordinal] = handle.value
    return device


def context_for_device(ordinal):
    """The CUcontext to run on for an array on device `ordinal`: the thread's current one when it is on that
    device (what PyTorch and CuPy make current: the primary context), else the device's primary context."""
    current = current_context()
    if current:
        device = _c_int()
        _call("cuCtxGetDevice", ctypes.byref(device))
        known = _devices.get(ordinal)
        if device.value == (known if known is not None else _device(ordinal)):
            return current
    with _lock:
        context = _primary.get(ordinal)
        if context is None:
            handle = _c_ptr()
            _call("cuDevicePrimaryCtxRetain", ctypes.byref(handle), _device(ordinal))
            context = _primary[ordinal] = handle.value
    return context


class _Current:
    """`with _Current(context):` the context is current in between (push / pop), as the driver calls need."""

    def __init__(self, context):
        self.context = context

    def __enter__(self):
        _call("cuCtxPushCurrent", self.context)

    def __exit__(self, *exc):
        popped = _c_ptr()
        _call("cuCtxPopCurrent", ctypes.byref(popped))


def same_stream(first, second):
    """0 and CU_STREAM_LEGACY name the same stream here."""
    return (first or LEGACY_STREAM) == (second or LEGACY_STREAM)


def create_event(context):
    """A new event of `context`, for ordering only (no timing)."""
    event = _c_ptr()
    with _Current(context):
        _call("cuEventCreate", ctypes.byref(event), _EVENT_DISABLE_TIMING)
    return event.value


def destroy_event(event, context):
    with _Current(context):
        _call("cuEventDestroy", event)  # released by the driver once pending waits on it have happened


def record(event, stream, context):
    """Marks the point `stream` has reached (the event completes when the work enqueued so far is done)."""
    if current_context() == context:  # (the common case: no push and pop)
        _call("cuEventRecord", event, stream)
        return
    with _Current(context):  # stream 0 and the legacy handle mean the *current* context's stream
        _call("cuEventRecord", event, stream)


def wait(stream, event, context):
    """Work enqueued on `stream` from now on runs after the event's point (waited for on the device)."""
    if current_context() == context:
        _call("cuStreamWaitEvent", stream, event, 0)
        return
    with _Current(context):
        _call("cuStreamWaitEvent", stream, event, 0)


def order_after(stream, producer_stream, context):
    """Work enqueued on `stream` from now on runs after what is already on `producer_stream` (an event
    recorded there and waited for on the device: the host does not wait)."""
    if same_stream(stream, producer_stream):
        return
    event = create_event(context)
    try:
        record(event, producer_stream, context)
        wait(stream, event, context)
    finally:
        destroy_event(event, context)


def is_capturing(stream, context):
    """True while `stream` is being captured into a CUDA graph (cuStreamIsCapturing, which is legal during a
    capture, unlike a query or a synchronisation). A driver without it (before CUDA 10) has no capture."""
    function = _functions.get("cuStreamIsCapturing") or function_or_none("cuStreamIsCapturing")
    if function is None:
        return False
    status = _c_int()
    if current_context() == context:
        result = function(stream, ctypes.byref(status))
    else:
        with _Current(context):  # stream 0 and the legacy handle mean the current context's stream
            result = function(stream, ctypes.byref(status))
    if result != 0:
        _fail("cuStreamIsCapturing", result)
    return status.value != 0  # CU_STREAM_CAPTURE_STATUS_ACTIVE, or _INVALIDATED (a capture already failed)


def synchronize(stream, context):
    """Waits on the host until everything on `stream` is done."""
    with _Current(context):
        _call("cuStreamSynchronize", stream)


def pointer_device(pointer):
    """The ordinal of the device `pointer` lives on (a __cuda_array_interface__ names none)."""
    _load()
    ordinal = _c_int()
    try:
        _call("cuPointerGetAttribute", ctypes.byref(ordinal), _POINTER_DEVICE_ORDINAL, pointer)
    except GemmkitError as error:
        raise GemmkitError(Status.INVALID_ARGUMENT, "0x%x is not device memory the CUDA driver knows (%s)"
                           % (pointer, error.message)) from None
    return ordinal.value
