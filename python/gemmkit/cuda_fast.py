"""The call a PyTorch loop makes, without the general path's machinery: 2-D float32 CUDA tensors on one device, on
torch's current stream, C given or made here, the device's CUcontext current, the context's last call on that same
stream, and that stream not being captured into a CUDA graph. It reads each tensor's shape and strides, asks the
driver for the current context and whether the stream is captured, enqueues and records the scratch's event: four
calls into C, the driver's bound once (no name look-ups), and no objects made but two ctypes out-parameters.
Anything else (another library, a stream given or changed, a flag, a capture, an error to explain) returns None,
and cuda_calls' general path takes the call, checks it and says what is wrong."""
import ctypes
import sys

from . import cuda_arrays, cuda_calls, cuda_driver
from ._library import lib
from .errors import check

_ROW, _COL, _NO_TRANS, _TRANS = 101, 102, 111, 112
_known = {}  # device ordinal -> (CUcontext, gemmkit context handle, its scratch), filled by the first call of each
# The driver's functions, bound once the driver is loaded (by the first call's _learn): called straight, not
# through cuda_driver's name look-up. capturing is None where the driver has no cuStreamIsCapturing.
_driver = {"current": None, "record": None, "capturing": None}
_c_ptr, _c_int, _byref = ctypes.c_void_p, ctypes.c_int, ctypes.byref


def _stored(rows, cols, s0, s1, layout):
    """(trans, ld) of a rows x cols matrix with element strides (s0, s1) read in `layout`, or None."""
    if layout == _ROW:
        if s1 == 1 and s0 >= cols:
            return _NO_TRANS, s0
        return (_TRANS, s1) if s0 == 1 and s1 >= rows else None
    if s0 == 1 and s1 >= rows:
        return _NO_TRANS, s1
    return (_TRANS, s0) if s1 == 1 and s0 >= cols else None


def _learn(device):
    """The device's entry of _known, where the device's context is the current one (else None: the general
    path pushes it)."""
    current = cuda_driver.current_context()
    if cuda_driver.context_for_device(device) != current:
        return None
    context = cuda_calls.context_for(device, current)
    _driver["current"] = cuda_driver.function_or_none("cuCtxGetCurrent")
    _driver["record"] = cuda_driver.function_or_none("cuEventRecord")
    _driver["capturing"] = cuda_driver.function_or_none("cuStreamIsCapturing")
    known = _known[device] = (current, context.handle, cuda_calls.scratch_of(context, current))
    return known


def gemm(a, b, c, alpha, beta, trans_a, trans_b):
    """c = alpha op(a) op(b) + beta c on PyTorch tensors, enqueued; c (made when None) or None: not this path."""
    tensor = cuda_arrays.torch_cuda_tensor_type()
    if tensor is None or not isinstance(a, tensor) or not isinstance(b, tensor):
        return None
    float32 = sys.modules["torch"].float32
    try:  # a stand-in without these is not PyTorch's tensor: the general path reads it
        # float32, no autograd, not a lazily negated view (a conjugate view is complex only)
        if (a.is_cuda is not True or b.is_cuda is not True or a.dim() != 2 or b.dim() != 2 or
                a.dtype is not float32 or b.dtype is not float32 or a.requires_grad or b.requires_grad or
                a.is_neg() or b.is_neg()):
            return None
        if c is not None and (not isinstance(c, tensor) or c.is_cuda is not True or c.dim() != 2 or
                              c.dtype is not float32 or c.requires_grad or c.is_neg()):
            return None
    except AttributeError:
        return None
    ra, ca = a.shape
    rb, cb = b.shape
    a0, a1 = a.stride()
    b0, b1 = b.stride()
    if trans_a:
        ra, ca, a0, a1 = ca, ra, a1, a0
    if trans_b:
        rb, cb, b0, b1 = cb, rb, b1, b0
    m, k, n = ra, ca, cb
    if rb != k or m < 1 or n < 1 or k < 1:
        return None
    device = a.get_device()
    if b.get_device() != device:
        return None
    if c is None:  # made below, once the call is known to take this path: torch's row-major m x n
        if beta != 0:
            return None
        layout, ldc = _ROW, n
    else:
        if c.shape != (m, n) or c.get_device() != device:
            return None
        c0, c1 = c.stride()
        if c1 == 1 and c0 >= n:
            layout, ldc = _ROW, c0
        elif c0 == 1 and c1 >= m:
            layout, ldc = _COL, c1
        else:
            return None
    fa, fb = _stored(m, k, a0, a1, layout), _stored(k, n, b0, b1, layout)
    if fa is None or fb is None:
        return None
    stream = cuda_arrays.current_torch_stream(device)
    known = _known.get(device)
    if known is None:
        known = _learn(device)
        if known is None:
            return None
    current = _c_ptr()
    if _driver["current"](_byref(current)) != 0 or current.value != known[0]:
        return None  # another context current (or a driver error, which the general path reports)
    capturing = _driver["capturing"]
    if capturing is not None:
        status = _c_int()
        if capturing(stream, _byref(status)) != 0 or status.value != 0:
            return None  # a stream being captured into a CUDA graph: cuda_capture's rules (the general path)
    scratch = known[2]
    if scratch.stream != stream:  # the context's last call was on another stream: to be waited for
        return None
    if c is None:
        c = sys.modules["torch"].empty((m, n), dtype=float32, device=a.device)
    with scratch.lock:
        if scratch.stream != stream:
            return None
        check(lib.gemmkit_sgemm_cuda_enqueue(known[1], stream, layout, fa[0], fb[0], m, n, k, alpha,
                                             a.data_ptr(), fa[1], b.data_ptr(), fb[1], beta, c.data_ptr(), ldc))
        result = _driver["record"](scratch.event, stream)  # the context is current (checked above)
        if result != 0:
            cuda_driver.fail("cuEventRecord", result)
    return c
