"""The call a PyTorch loop makes, without the general path's machinery: 2-D float32 CUDA tensors on one device, on
torch's current stream, C given or made here, the device's CUcontext current, the context's last call on that same
stream. It reads each tensor's shape and strides, enqueues and records the scratch's event: three driver calls and
no objects made. Anything else (another library, a stream given or changed, a flag, an error to explain) returns
None, and cuda_calls' general path takes the call, checks it and says what is wrong."""
import sys

from . import cuda_arrays, cuda_calls, cuda_driver
from ._library import lib
from .errors import check

_ROW, _COL, _NO_TRANS, _TRANS = 101, 102, 111, 112
_known = {}  # device ordinal -> (CUcontext, gemmkit context, its scratch), filled by the first call of each


def _stored(rows, cols, s0, s1, layout):
    """(trans, ld) of a rows x cols matrix with element strides (s0, s1) read in `layout`, or None."""
    row_major = s1 == 1 and s0 >= cols
    col_major = s0 == 1 and s1 >= rows
    if layout == _ROW:
        return (_NO_TRANS, s0) if row_major else (_TRANS, s1) if col_major else None
    return (_NO_TRANS, s1) if col_major else (_TRANS, s0) if row_major else None


def _plain(t, float32):
    """A tensor whose memory is what it means: float32, no autograd, not a lazily negated or conjugated view."""
    return t.dtype is float32 and not t.requires_grad and not t.is_neg() and not t.is_conj()


def _ready(device, stream):
    """The device's context and scratch where the fast path may enqueue on `stream` now, else None."""
    known = _known.get(device)
    current = cuda_driver.current_context()
    if known is None:
        if cuda_driver.context_for_device(device) != current:  # not the current context: the general path pushes
            return None
        context = cuda_calls.context_for(device, current)
        known = _known[device] = (current, context, cuda_calls.scratch_of(context, current))
    if known[0] != current or known[2].stream != stream:  # another context, or a stream change to wait for
        return None
    return known


def gemm(a, b, c, alpha, beta, trans_a, trans_b):
    """c = alpha op(a) op(b) + beta c on PyTorch tensors, enqueued; c (made when None) or None: not this path."""
    torch = sys.modules.get("torch")
    tensor = cuda_arrays.torch_cuda_tensor_type()
    if tensor is None or not isinstance(a, tensor) or not isinstance(b, tensor):
        return None
    if c is not None and (not isinstance(c, tensor) or getattr(c, "is_cuda", False) is not True or c.dim() != 2):
        return None
    if getattr(a, "is_cuda", False) is not True or getattr(b, "is_cuda", False) is not True:
        return None
    if a.dim() != 2 or b.dim() != 2:
        return None
    float32 = torch.float32
    if not _plain(a, float32) or not _plain(b, float32) or (c is not None and not _plain(c, float32)):
        return None
    (ra, ca), (rb, cb) = a.shape, b.shape
    (a0, a1), (b0, b1) = a.stride(), b.stride()
    if trans_a:
        ra, ca, a0, a1 = ca, ra, a1, a0
    if trans_b:
        rb, cb, b0, b1 = cb, rb, b1, b0
    m, k, n = ra, ca, cb
    if rb != k or min(m, n, k) < 1:
        return None
    device = a.get_device()
    if b.get_device() != device:
        return None
    if c is None:  # made below, once the call is known to take this path: torch's row-major m x n
        if beta != 0:
            return None
        layout, ldc = _ROW, n
    else:
        if tuple(c.shape) != (m, n) or c.get_device() != device:
            return None
        c0, c1 = c.stride()
        layout, ldc = (_ROW, c0) if c1 == 1 and c0 >= n else (_COL, c1) if c0 == 1 and c1 >= m else (None, 0)
        if layout is None:
            return None
    fa, fb = _stored(m, k, a0, a1, layout), _stored(k, n, b0, b1, layout)
    if fa is None or fb is None:
        return None
    stream = cuda_arrays.current_torch_stream(device)
    known = _ready(device, stream)
    if known is None:
        return None
    _, context, scratch = known
    if c is None:
        c = torch.empty((m, n), dtype=float32, device=a.device)
    with scratch.lock:
        if scratch.stream != stream:
            return None
        check(lib.gemmkit_sgemm_cuda_enqueue(context.handle, stream, layout, fa[0], fb[0], m, n, k, alpha,
                                             a.data_ptr(), fa[1], b.data_ptr(), fb[1], beta, c.data_ptr(), ldc))
        cuda_driver.record_here(scratch.event, stream)  # the context is current (_ready)
    return c
