"""Products of stacks of matrices on host arrays: sgemm_batched, and matmul
on arrays of more than two dimensions, through gemmkit_sgemm_strided_batched."""
import numpy as np

from . import cuda_calls, cuda_lists
from .cuda_arrays import is_cuda_array
from ._call import options, pick_context
from ._library import lib
from .device_array import DeviceArray
from .errors import check
from .exchange import exchanges
from .operands import NO_TRANS, TRANS
from .stacks import float32_array, host_stack, stack_in_layout, stack_output_layout


def _run(a, b, c, alpha, beta, context, opts):
    """c[z] = alpha * a[z] @ b[z] + beta * c[z] for 3-D float32 arrays of one
    batch (a and b may repeat one matrix with stride 0), in one call."""
    batch, m, k = a.shape
    n = b.shape[2]
    sc = host_stack(c)
    fit = stack_output_layout(sc)
    if fit is None:  # C's strides fit no layout: compute into a packed copy, then copy in
        temp = np.array(c, order="C", copy=True) if beta != 0 else np.empty(c.shape, np.float32)
        _run(a, b, temp, alpha, beta, context, opts)
        c[...] = temp
        return
    layout, ldc = fit
    ta, lda, sa = stack_in_layout(host_stack(a), layout)
    tb, ldb, sb = stack_in_layout(host_stack(b), layout)
    trans = (NO_TRANS, TRANS)
    check(lib.gemmkit_sgemm_strided_batched(context.handle, opts, layout, trans[ta], trans[tb], m, n, k, alpha,
                                            sa.address, lda, sa.stride, sb.address, ldb, sb.stride, beta,
                                            sc.address, ldc, sc.stride, batch))


def _refuse_device_arrays(*arrays):
    if any(isinstance(x, DeviceArray) for x in arrays):
        raise TypeError("gemmkit: stacks of DeviceArrays are not supported yet (a DeviceArray is one matrix); "
                        "pass numpy stacks, or call sgemm per matrix")


def _writable(out, name):
    if not isinstance(out, np.ndarray) or out.dtype != np.float32:
        raise TypeError("gemmkit: %s must be a float32 numpy array" % name)
    if not out.flags.writeable:
        raise ValueError("gemmkit: %s is read-only" % name)
    return out


def _as_stack(x, batch):
    """A 3-D view (batch, rows, cols) of a 2-D matrix (repeated, stride 0)
    or of a stack of `batch` matrices or of one (repeated)."""
    if x.ndim == 2 or x.shape[0] == 1:
        return np.broadcast_to(x.reshape(x.shape[-2:]), (batch,) + x.shape[-2:])
    return x


@exchanges(("a", "b"), "c", cuda_calls.sgemm_batched)
def sgemm_batched(a, b, c=None, *, alpha=1.0, beta=0.0, trans_a=False, trans_b=False, context=None, kernel=None,
                  params=None, math=None, stream=None):
    """C[z] = alpha * op(A[z]) @ op(B[z]) + beta * C[z] for every matrix z of
    a batch, in one call (gemmkit_sgemm_strided_batched); returns C.

    a: a float32 stack (batch, m, k), or one matrix (m, k) (or a stack of
    one) used for every z; b likewise, (batch, k, n). c: (batch, m, n), or
    None for a new C-ordered stack (beta must then be 0). Strides decide
    layouts and transposes as in sgemm: stacks of C- or F-ordered matrices,
    transposed views (x.transpose(0, 2, 1)), slices and repeated matrices
    (stride 0) are passed as they are; only other strides are copied.
    trans_a / trans_b: op(X) = X transposed (its last two axes). kernel,
    params, math: as for sgemm. Raises ValueError for shapes that do not
    multiply, before any call; GemmkitError when the library fails (C is
    then unchanged). CUDA arrays of other libraries: as for sgemm (the
    stream rule, in place, the caller's type back); a, b and c may also
    be lists or tuples of CUDA matrices of one shape (the pointer-array
    form: one enqueue per matrix; c None gives a new list).
    """
    sequences = [x for x in (a, b, c) if cuda_lists.is_sequence(x)]
    if any(x and is_cuda_array(x[0]) for x in sequences):  # lists of CUDA matrices alone: their CUDA form
        return cuda_calls.sgemm_batched(a, b, c, alpha=alpha, beta=beta, trans_a=trans_a, trans_b=trans_b,
                                        context=context, kernel=kernel, params=params, math=math, stream=stream)
    if stream is not None:
        raise ValueError("gemmkit: stream= applies to CUDA device arrays (PyTorch, CuPy, JAX ...), not to numpy "
                         "arrays")
    _refuse_device_arrays(a, b, c)
    a, b = float32_array(a, "a"), float32_array(b, "b")
    for name, x in (("a", a), ("b", b)):
        if x.ndim not in (2, 3):
            raise ValueError("gemmkit.sgemm_batched: %s has shape %r; a stack (batch, rows, cols) or one matrix "
                             "is needed" % (name, x.shape))
    if c is not None and _writable(c, "c").ndim != 3:
        raise ValueError("gemmkit.sgemm_batched: c has shape %r; a stack (batch, m, n) is needed" % (c.shape,))
    if trans_a:
        a = a.swapaxes(-1, -2)
    if trans_b:
        b = b.swapaxes(-1, -2)
    (m, k), (k_b, n) = a.shape[-2:], b.shape[-2:]
    if k != k_b:
        raise ValueError("gemmkit.sgemm_batched: op(A) is %dx%d and op(B) %dx%d: inner dimensions differ"
                         % (m, k, k_b, n))
    sizes = {x.shape[0] for x in (a, b) if x.ndim == 3 and x.shape[0] != 1}
    if c is not None:
        sizes.add(c.shape[0])
    if len(sizes) > 1:
        raise ValueError("gemmkit.sgemm_batched: batch sizes %s differ (only a stack of one, or a matrix, is "
                         "repeated)" % sorted(sizes))
    if not sizes and a.ndim == 2 and b.ndim == 2:
        raise ValueError("gemmkit.sgemm_batched: no stack among a, b and c (use sgemm for one matrix)")
    batch = sizes.pop() if sizes else 1
    if c is None:
        if beta != 0:
            raise ValueError("gemmkit.sgemm_batched: beta = %g reads C: pass c" % beta)
        c = np.empty((batch, m, n), dtype=np.float32)
    elif c.shape != (batch, m, n):
        raise ValueError("gemmkit.sgemm_batched: c is %r; the product is %r" % (c.shape, (batch, m, n)))
    opts = options(kernel, params, math)
    _run(_as_stack(a, batch), _as_stack(b, batch), c, alpha, beta, pick_context(context, None), opts)
    return c


def matmul_stacks(a, b, out=None, *, context=None, math=None):
    """numpy.matmul for float32 arrays of which one has more than two
    dimensions: the leading (batch) axes broadcast, a 1-D operand is a
    vector as numpy has it. Batch axes that step through memory with one
    stride (C-ordered stacks, broadcast operands, slices along one axis) are
    passed as they are; others are copied once."""
    _refuse_device_arrays(a, b, out)
    a, b = float32_array(a, "a"), float32_array(b, "b")
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("gemmkit.matmul: scalars are not matrices (use *)")
    a2 = a[np.newaxis, :] if a.ndim == 1 else a
    b2 = b[:, np.newaxis] if b.ndim == 1 else b
    (m, k), (k_b, n) = a2.shape[-2:], b2.shape[-2:]
    if k != k_b:
        raise ValueError("gemmkit.matmul: %r @ %r: inner dimensions differ (%d, %d)" % (a.shape, b.shape, k, k_b))
    try:
        batch_shape = np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    except ValueError:
        raise ValueError("gemmkit.matmul: the stacks' batch shapes %r and %r do not broadcast"
                         % (a2.shape[:-2], b2.shape[:-2])) from None
    shape = batch_shape + (m,) * (a.ndim > 1) + (n,) * (b.ndim > 1)
    if out is None:
        result = np.empty(batch_shape + (m, n), dtype=np.float32)
    else:
        out = _writable(out, "out")
        if out.shape != shape:
            raise ValueError("gemmkit.matmul: out is %r; the result is %r" % (out.shape, shape))
        result = out
        if a.ndim == 1:
            result = np.expand_dims(result, -2)
        if b.ndim == 1:
            result = np.expand_dims(result, -1)
    opts = options(None, None, math)
    batch = int(np.prod(batch_shape, dtype=np.int64))
    # reshape is a view where the batch axes merge into one stride, else a packed copy.
    a3 = np.broadcast_to(a2, batch_shape + (m, k)).reshape((batch, m, k))
    b3 = np.broadcast_to(b2, batch_shape + (k, n)).reshape((batch, k, n))
    c3 = result.reshape((batch, m, n))
    _run(a3, b3, c3, 1.0, 0.0, pick_context(context, None), opts)
    if not np.may_share_memory(c3, result):  # reshape copied: a fresh array never shares memory bounds
        result[...] = c3.reshape(result.shape)
    return out if out is not None else result.reshape(shape)
