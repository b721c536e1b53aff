"""sgemm, matmul and omatcopy on numpy arrays or DeviceArrays."""
import numpy as np

from ._call import on_device as _on_device, options as _options, pick_context as _pick_context
from . import cuda_calls
from ._library import lib
from .batched import matmul_stacks
from .device_array import DeviceArray
from .errors import check
from .exchange import exchanges
from .operands import (COL_MAJOR, NO_TRANS, ROW_MAJOR, TRANS, device_operand, host_matrix, host_operand,
                       in_layout, output_layout)


def host_only(stream):
    """stream= names a CUDA stream: it has no meaning for numpy arrays and DeviceArrays."""
    if stream is not None:
        raise ValueError("gemmkit: stream= applies to CUDA device arrays (PyTorch, CuPy, JAX ...), not to numpy "
                         "arrays or DeviceArrays")


@exchanges(("a", "b"), "c", cuda_calls.sgemm)
def sgemm(a, b, c=None, *, alpha=1.0, beta=0.0, trans_a=False, trans_b=False, context=None, kernel=None,
          params=None, math=None, stream=None):
    """C = alpha * op(A) @ op(B) + beta * C, returning C.

    a, b, c: 2-D float32 numpy arrays (any strides: C- or F-ordered,
    transposed or sliced views are passed as they are, only other strides
    are copied) or DeviceArrays (all three then). c None: a new C-ordered
    result (a DeviceArray for DeviceArrays); beta must then be 0. trans_a /
    trans_b: op(X) = X.T (the same as passing a.T). kernel / params: a
    registry kernel and its parameters (`gemmkit list`). math: "fp32",
    "3xtf32", "tf32" or "int8x" (docs/MATH.md); None: the context's mode
    (Context.math).
    Raises GemmkitError with the library's message when the call fails,
    ValueError / TypeError for shapes and types Python can see are wrong.
    CUDA arrays of other libraries (PyTorch, CuPy, JAX, Numba) are read in
    place and the call is enqueued on a stream (stream=, else the
    library's current one) without waiting: docs/PYTHON.md, "CUDA arrays".
    """
    host_only(stream)
    on_device, arrays_context = _on_device((a, b, c))
    context = _pick_context(context, arrays_context)
    if not on_device:
        a, b = host_matrix(a, "a"), host_matrix(b, "b")
    if trans_a:
        a = a.T
    if trans_b:
        b = b.T
    (m, k), (k_b, n) = a.shape, b.shape
    if k != k_b:
        raise ValueError("gemmkit: op(A) is %dx%d and op(B) %dx%d: inner dimensions differ" % (m, k, k_b, n))
    if c is None:
        if beta != 0:
            raise ValueError("gemmkit: beta = %g reads C: pass c" % beta)
        c = DeviceArray.empty((m, n), context) if on_device else np.empty((m, n), dtype=np.float32)
    elif not on_device:
        c = host_matrix(c, "c")
        if not c.flags.writeable:
            raise ValueError("gemmkit: c is read-only")
    if c.shape != (m, n):
        raise ValueError("gemmkit: c is %dx%d; op(A) @ op(B) is %dx%d" % (c.shape + (m, n)))
    operand = device_operand if on_device else host_operand
    oc = operand(c)
    fit = output_layout(oc)
    if fit is None:  # host C whose strides no layout describes: compute into a packed copy
        packed = np.array(c, order="C")
        sgemm(a, b, packed, alpha=alpha, beta=beta, context=context, kernel=kernel, params=params, math=math)
        c[...] = packed
        return c
    layout, ldc = fit
    copy_order = "C" if layout == ROW_MAJOR else "F"
    ta, lda, oa = in_layout(operand(a), layout, copy_order)
    tb, ldb, ob = in_layout(operand(b), layout, copy_order)
    trans = (NO_TRANS, TRANS)
    opts = _options(kernel, params, math)
    if on_device:
        status = lib.gemmkit_sgemm_buffers(context.handle, opts, layout, trans[ta],
                                           trans[tb], m, n, k, alpha, oa.address, 0, lda, ob.address, 0, ldb,
                                           beta, oc.address, 0, ldc)
    else:
        status = lib.gemmkit_sgemm_ex(context.handle, opts, layout, trans[ta], trans[tb],
                                      m, n, k, alpha, oa.address, lda, ob.address, ldb, beta, oc.address, ldc)
    check(status)
    return c


@exchanges(("a", "b"), "out", cuda_calls.matmul)
def matmul(a, b, out=None, *, context=None, math=None, stream=None):
    """a @ b like numpy.matmul for float32 arrays, on the host, on
    DeviceArrays or on CUDA arrays of other libraries (as sgemm): 2-D
    matrices, 1-D vectors (promoted as numpy does), and stacks of matrices
    (ndim > 2, batch axes broadcast as numpy does; one batched call,
    gemmkit_sgemm_strided_batched). math: as for sgemm."""
    host_only(stream)
    if isinstance(a, DeviceArray) or isinstance(b, DeviceArray):
        return sgemm(a, b, out, context=context, math=math)
    a, b = np.asarray(a), np.asarray(b)
    if a.ndim > 2 or b.ndim > 2:
        return matmul_stacks(a, b, out, context=context, math=math)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("gemmkit.matmul: scalars are not matrices (use *)")
    a2 = a[np.newaxis, :] if a.ndim == 1 else a
    b2 = b[:, np.newaxis] if b.ndim == 1 else b
    shape = a2.shape[:1] * (a.ndim == 2) + b2.shape[1:] * (b.ndim == 2)
    if out is not None and out.shape != shape:
        raise ValueError("gemmkit.matmul: out is %r; the result is %r" % (out.shape, shape))
    target = None if out is None else out.reshape(a2.shape[0], b2.shape[1])
    if target is not None and not np.shares_memory(target, out):
        raise ValueError("gemmkit.matmul: out cannot be viewed as a matrix without a copy")
    result = sgemm(a2, b2, target, context=context, math=math)
    return out if out is not None else result.reshape(shape)


@exchanges(("a",), "out", cuda_calls.omatcopy)
def omatcopy(a, *, trans=True, alpha=1.0, out=None, context=None, kernel=None, params=None, stream=None):
    """B = alpha * op(A) (op: the transpose when trans, else a copy),
    returning B.

    a, out: 2-D float32 numpy arrays (any strides; out None: a new C-ordered
    array) or DeviceArrays (both). A transpose between a C- and an
    F-ordered array is a plain copy for the library, and it runs as one.
    A and B must not overlap. CUDA arrays: as for sgemm.
    """
    host_only(stream)
    on_device, arrays_context = _on_device((a, out))
    context = _pick_context(context, arrays_context)
    if not on_device:
        a = host_matrix(a, "a")
    shape = a.shape[::-1] if trans else a.shape
    if not on_device and (kernel is not None or params is not None):
        # The host entry point (gemmkit_somatcopy) takes no options: go through device arrays.
        result = omatcopy(DeviceArray.from_numpy(a, context), trans=trans, alpha=alpha, kernel=kernel,
                          params=params).numpy()
        if out is None:
            return result
        out = host_matrix(out, "out")
        if tuple(out.shape) != tuple(shape):
            raise ValueError("gemmkit: out is %dx%d; op(A) is %dx%d" % (tuple(out.shape) + tuple(shape)))
        out[...] = result
        return out
    if out is None:
        out = DeviceArray.empty(shape, context) if on_device else np.empty(shape, dtype=np.float32)
    elif not on_device:
        out = host_matrix(out, "out")
        if not out.flags.writeable:
            raise ValueError("gemmkit: out is read-only")
        if np.may_share_memory(a, out):
            raise ValueError("gemmkit: a and out overlap; omatcopy is out-of-place")
    if tuple(out.shape) != tuple(shape):
        raise ValueError("gemmkit: out is %dx%d; op(A) is %dx%d" % (tuple(out.shape) + tuple(shape)))
    operand = device_operand if on_device else host_operand
    ob = operand(out)
    fit = output_layout(ob)
    if fit is None:
        packed = np.empty(shape, dtype=np.float32)
        omatcopy(a, trans=trans, alpha=alpha, out=packed, context=context, kernel=kernel, params=params)
        out[...] = packed
        return out
    layout, ldb = fit
    a_trans, lda, oa = in_layout(operand(a), layout, "C" if layout == ROW_MAJOR else "F")
    # The library's A is the stored matrix S: A itself, or S = A.T when A's
    # strides store its transpose; then op(A) = op'(S) with op' flipped.
    rows, cols = (a.shape[1], a.shape[0]) if a_trans else a.shape
    flag = TRANS if trans != a_trans else NO_TRANS
    if on_device:
        status = lib.gemmkit_somatcopy_buffers(context.handle, _options(kernel, params), layout, flag, rows,
                                               cols, alpha, oa.address, 0, lda, ob.address, 0, ldb)
    else:
        status = lib.gemmkit_somatcopy(context.handle, layout, flag, rows, cols, alpha, oa.address, lda,
                                       ob.address, ldb)
    check(status)
    return out


__all__ = ["sgemm", "matmul", "omatcopy", "COL_MAJOR", "ROW_MAJOR"]
