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
_known = {}  # device ordinal -> its _Device, made by the first call on it that may take this path


class _Device:
    """What the short path needs of a device, found once: the CUcontext its gemmkit context was made on, that
    context's handle and scratch (cuda_calls), the driver's functions bound (called straight, not looked up by
    name; capturing is None where the driver has no cuStreamIsCapturing), and the out-parameters of the two
    queries, made once: they are used only under the scratch's lock, so no two threads share them at once."""

    def __init__(self, cu_context, context, scratch):
        self.cu_context, self.handle, self.scratch = cu_context, context.handle, scratch
        self.get_current = cuda_driver.function_or_none("cuCtxGetCurrent")
        self.capturing = cuda_driver.function_or_none("cuStreamIsCapturing")
        self.record = cuda_driver.function_or_none("cuEventRecord")
        self.current, self.status = ctypes.c_void_p(), ctypes.c_int()
        self.current_ref, self.status_ref = ctypes.byref(self.current), ctypes.byref(self.status)


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
    """The device's _Device, where the device's context is the current one (else None: the general path
    pushes it)."""
    current = cuda_driver.current_context()
    if cuda_driver.context_for_device(device) != current:
        return None
    context = cuda_calls.context_for(device, current)
    known = _known[device] = _Device(current, context, cuda_calls.scratch_of(context, current))
    return known


def gemm(a, b, c, alpha, beta, trans_a, trans_b):
    """c = alpha op(a) op(b) + beta c on PyTorch tensors, enqueued; c (made when None) or None: not this path."""
    torch = sys.modules.get("torch")
    seen = cuda_arrays.torch_seen  # torch_cuda_tensor_type's cached answer, read in place (a call less)
    tensor = seen[1] if torch is seen[0] else cuda_arrays.torch_cuda_tensor_type()
    if tensor is None or not isinstance(a, tensor) or not isinstance(b, tensor):
        return None
    float32 = torch.float32
    try:  # a stand-in without these accessors is not PyTorch's tensor, a shape of another length not a matrix:
        # the general path reads those
        (ra, ca), (rb, cb) = a.shape, b.shape
        # float32, no autograd, not a lazily negated view (a conjugate view is complex only)
        if (a.is_cuda is not True or b.is_cuda is not True or a.dtype is not float32 or b.dtype is not float32 or
                a.requires_grad or b.requires_grad or a.is_neg() or b.is_neg()):
            return None
        if c is not None:
            if (not isinstance(c, tensor) or c.is_cuda is not True or c.dtype is not float32 or c.requires_grad or
                    c.is_neg()):
                return None
            rc, cc = c.shape
    except (AttributeError, ValueError):
        return None
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
        if rc != m or cc != n or c.get_device() != device:
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
    raw = cuda_arrays.raw_stream  # torch._C's getter of the current stream, when it is this torch's
    stream = raw[1](device) if raw[0] is torch and raw[1] is not None else cuda_arrays.current_torch_stream(device)
    known = _known.get(device)
    if known is None:
        known = _learn(device)
        if known is None:
            return None
    scratch = known.scratch
    if scratch.stream != stream:  # the context's last call was on another stream: to be waited for
        return None
    with scratch.lock:
        if (scratch.stream != stream or known.get_current(known.current_ref) != 0 or
                known.current.value != known.cu_context):
            return None  # another context current (or a driver error, which the general path reports)
        capturing = known.capturing
        if capturing is not None and (capturing(stream, known.status_ref) != 0 or known.status.value != 0):
            return None  # a stream being captured into a CUDA graph: cuda_capture's rules (the general path)
        if c is None:  # only now: a call that leaves for the general path has made nothing
            c = torch.empty((m, n), dtype=float32, device=a.device)
        check(lib.gemmkit_sgemm_cuda_enqueue(known.handle, stream, layout, fa[0], fb[0], m, n, k, alpha,
                                             a.data_ptr(), fa[1], b.data_ptr(), fb[1], beta, c.data_ptr(), ldc))
        result = known.record(scratch.event, stream)  # the context is current (checked above)
        if result != 0:
            cuda_driver.fail("cuEventRecord", result)
    return c
