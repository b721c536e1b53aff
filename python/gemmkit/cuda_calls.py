"""sgemm, matmul, sgemm_batched and omatcopy on CUDA arrays of other libraries (PyTorch, CuPy, JAX, Numba):
the operands are read in place (cuda_arrays), the call is enqueued on the stream of the rule in
cuda_arrays.resolve_stream through gemmkit_cuda.h's entry points, and returns without waiting (JAX aside:
its arrays carry no stream, so the call waits). Every argument error is raised before anything is enqueued."""
import atexit
import sys
import threading
import weakref

from . import cuda_arrays, cuda_capture, cuda_driver, cuda_fast, cuda_results
from ._library import lib
from .context import Context
from .errors import GemmkitError, Status, check
from .operands import COL_MAJOR, NO_TRANS, ROW_MAJOR, TRANS, Operand, output_layout
from .stacks import extent

_contexts = {}  # (device ordinal, CUcontext) -> Context made on that CUcontext
_contexts_lock = threading.Lock()


class _Scratch:
    """A context's scratch serves one stream at a time (gemmkit_cuda.h): the stream of its last call and an
    event recorded after that call, so that a call on another stream waits for it on the device. An event
    of ours, not the old stream's handle, which its owner may have destroyed since."""

    def __init__(self, cu_context):
        self.lock = threading.Lock()
        self.cu_context = cu_context
        self.event = cuda_driver.create_event(cu_context)
        self.stream = None


_scratch = weakref.WeakKeyDictionary()  # Context -> _Scratch


def context_for(device, cu_context=None):
    """gemmkit's context for calls on `device`, made once on the CUcontext current for it (the primary context
    PyTorch, CuPy and JAX use; cuda_driver.context_for_device, unless given) and cached."""
    if cu_context is None:
        cu_context = cuda_driver.context_for_device(device)
    key = (device, cu_context)
    context = _contexts.get(key)
    if context is None:
        with _contexts_lock:
            context = _contexts.get(key)
            if context is None:
                context = _contexts[key] = Context.on_cuda_context(cu_context)
    return context


def cuda_context(device=0):
    """The gemmkit Context that calls on CUDA arrays of `device` use (set its .math there)."""
    return context_for(int(device))


@atexit.register
def _close_contexts():  # before the interpreter (and the CUDA libraries' own exit handlers) tears down
    for context in _contexts.values():
        context.close()
    _contexts.clear()
    for scratch in list(_scratch.values()):
        try:
            cuda_driver.destroy_event(scratch.event, scratch.cu_context)
        except GemmkitError:  # a driver already gone at exit: nothing left to free
            pass
    _scratch.clear()


class _Operands:
    """A call's CUDA operands read in place, the device they share, and the stream the call runs on."""

    def __init__(self, named, stream):
        placed, interfaces, dlpack_only, others = [], {}, {}, {}
        tensor_type = cuda_arrays.torch_cuda_tensor_type()
        first = None
        for name, x in named:
            if x is None:
                continue
            if cuda_arrays.is_torch_cuda(x, tensor_type):  # its accessors: the interface's cost spared
                view = interfaces[name] = cuda_arrays.from_torch(x, name)
                placed.append((name, view.device))
                first = x if first is None else first
                continue
            if not cuda_arrays.is_cuda_array(x):
                others[name] = x
                continue
            first = x if first is None else first
            torch = sys.modules.get("torch")
            if torch is not None and isinstance(x, torch.Tensor):  # its accessors: the interface's cost spared
                interfaces[name] = cuda_arrays.from_torch(x, name)
                placed.append((name, interfaces[name].device))
                continue
            known = cuda_arrays.dlpack_device(x)
            interface = cuda_arrays.interface_of(x, name)
            if interface is not None:
                interfaces[name] = cuda_arrays.from_interface(x, name, interface, known and known[1])
                placed.append((name, interfaces[name].device))
            else:
                dlpack_only[name] = x
                placed.append((name, known[1]))
        self.device = cuda_arrays.one_device(placed, others)
        self.library = cuda_arrays.library_of(first)
        streams = [v.stream for v in interfaces.values() if v.stream is not None]
        self.stream = cuda_arrays.resolve_stream(stream, self.library, self.device, streams)
        self.views = interfaces
        for name, x in dlpack_only.items():  # the producer orders these on our stream (DLPack's rule)
            self.views[name] = cuda_arrays.export(x, name, self.stream)

    def get(self, name):
        return self.views.get(name)

    def output(self, name, given, shape, like):
        """The view of the output: `given` (checked writable) or a new array of like's library."""
        if given is None:
            result = cuda_results.empty_like(like, shape)
            if like.library == "torch":
                return cuda_arrays.from_torch(result, name)
            interface = cuda_arrays.interface_of(result, name)
            view = (cuda_arrays.from_interface(result, name, interface, self.device) if interface is not None
                    else cuda_arrays.export(result, name, self.stream))
            if self.device is None:
                self.device = view.device
            return view
        view = self.views[name]
        if view.library in cuda_results.IMMUTABLE:
            raise TypeError("gemmkit: %s is a %s array, which cannot be written in place: leave %s out and use "
                            "the returned array" % (name, view.library, name))
        if view.readonly:
            raise ValueError("gemmkit: %s is read-only" % name)
        return view

    def run(self, context, enqueue, measure=None):
        """Orders the stream after the streams the operands' interfaces named and after the context's last
        call on another stream (its scratch), enqueues, and (for JAX, whose arrays carry no stream) waits.
        On a stream being captured into a CUDA graph, cuda_capture's rules instead (measure(handle): the
        call's scratch bytes, for its capture workspace; None: a call that uses no scratch)."""
        if self.device is None:  # every operand is empty: nothing to compute
            return
        cu_context = cuda_driver.context_for_device(self.device)
        if cuda_driver.is_capturing(self.stream, cu_context):
            self._captured(context, cu_context, enqueue, measure)
            return
        if context is None:
            context = context_for(self.device, cu_context)
        views = self.views.values()
        immutable = cuda_results.IMMUTABLE
        for view in views:  # JAX's arrays carry no stream: ready on the host's word, then read
            if view.library in immutable and hasattr(view.owner, "block_until_ready"):
                view.owner.block_until_ready()
        producers = {int(v.stream) for v in views if v.stream is not None}
        for producer in sorted(producers):
            if not cuda_driver.same_stream(producer, self.stream):
                cuda_driver.order_after(self.stream, producer, cu_context)
        scratch = scratch_of(context, cu_context)
        with scratch.lock:
            if scratch.stream is not None and not cuda_driver.same_stream(scratch.stream, self.stream):
                cuda_driver.wait(self.stream, scratch.event, cu_context)
            check(enqueue(context.handle, self.stream))
            # recorded after every call, not lazily at the next stream change: by then the old stream's owner
            # may have destroyed it
            cuda_driver.record(scratch.event, self.stream, cu_context)
            scratch.stream = self.stream
        if self.library in immutable:
            cuda_driver.synchronize(self.stream, cu_context)
        for view in views:
            view.keep = None  # DLPack capsules back to their producers

    def _captured(self, context, cu_context, enqueue, measure):
        """The call recorded into the capture of its stream (cuda_capture): no wait, no allocation by the
        driver, the scratch's event untouched; every refusal before anything is enqueued."""
        if self.library in cuda_results.IMMUTABLE:
            raise GemmkitError(Status.INVALID_ARGUMENT, "%s arrays carry no stream, so a call on them waits: it "
                               "cannot be captured into a CUDA graph" % self.library)
        if context is None:
            context = made_context(self.device, cu_context)
            if context is None:  # making one opens the device and allocates: not while capturing
                raise GemmkitError(Status.INVALID_ARGUMENT, "stream 0x%x is being captured into a CUDA graph, and "
                                   "gemmkit has made no context on CUDA device %d yet: make one call of each "
                                   "shape before capturing (as for any library's warm-up)" % (self.stream,
                                                                                                self.device))
        cuda_capture.check_producers(self.views.values(), self.stream, cu_context)
        like = next(iter(self.views.values()))
        cuda_capture.enqueue(context, scratch_of(context, cu_context), self.stream, like, enqueue, measure)
        for view in self.views.values():
            view.keep = None


def made_context(device, cu_context):
    """The context already made for (device, cu_context), else None (nothing is made)."""
    return _contexts.get((device, cu_context))


def scratch_of(context, cu_context):
    """The context's _Scratch (made on first use), kept on the context itself for a cheap look-up and in
    _scratch for the exit handler."""
    scratch = getattr(context, "_cuda_scratch", None)
    if scratch is None or scratch.cu_context != cu_context:
        with _contexts_lock:
            scratch = _scratch.get(context)
            if scratch is None:
                scratch = _scratch[context] = _Scratch(cu_context)
            try:
                context._cuda_scratch = scratch
            except AttributeError:  # a context that takes no attributes: looked up in _scratch every call
                pass
    return scratch


def _refuse_options(kernel=None, params=None, math=None):
    if kernel is not None or params is not None or math is not None:
        raise ValueError("gemmkit: kernel=, params= and math= apply to numpy arrays and DeviceArrays; a call on "
                         "CUDA arrays takes the context's choice (set gemmkit.cuda_context(device).math)")


def _transposed(view):
    """The view with its last two axes swapped (op(X) = X.T), no copy."""
    if view.strides is None:
        return cuda_arrays.CudaView(view.name, view.pointer, view.shape[:-2] + view.shape[-2:][::-1], None,
                                    view.device, view.readonly, view.owner, view.stream, view.keep)
    return cuda_arrays.CudaView(view.name, view.pointer, view.shape[:-2] + view.shape[-2:][::-1],
                                view.strides[:-2] + view.strides[-2:][::-1], view.device, view.readonly,
                                view.owner, view.stream, view.keep)


def _with_axis(view, axis):
    """The view with an axis of length 1 inserted at `axis` (a vector as a matrix, numpy's promotion)."""
    shape = list(view.shape)
    strides = None if view.strides is None else list(view.strides)
    shape.insert(axis, 1)
    if strides is not None:
        strides.insert(axis, 1)
    return cuda_arrays.CudaView(view.name, view.pointer, tuple(shape), strides and tuple(strides), view.device,
                                view.readonly, view.owner, view.stream, view.keep)


def _bad_strides(view, why):
    return ValueError("gemmkit: %s (%s, shape %r, strides %s in elements) %s: pass a contiguous copy (torch: "
                      ".contiguous(), CuPy: cupy.ascontiguousarray)" %
                      (view.name, cuda_arrays.describe(view.owner), view.shape, view.strides, why))


def _matrix(view):
    """The last two axes of `view` (at batch index 0) as an Operand."""
    rows, cols = view.shape[-2:]
    row_stride, col_stride = view.strides[-2:] if view.strides is not None else (None, None)
    if rows * cols == 0:
        row_stride, col_stride = cols, 1  # an empty matrix's strides are never used
    return Operand(rows, cols, row_stride, col_stride, view.pointer, view.owner)


def _input(view, layout):
    fit = _matrix(view).stored(layout)
    if fit is None:
        raise _bad_strides(view, "has strides no BLAS layout describes (one must be 1, the other at least the "
                           "matrix's extent, both non-negative)")
    return fit  # (transposed, leading dimension)


def _output(view):
    fit = output_layout(_matrix(view))
    if fit is None:
        raise _bad_strides(view, "is an output whose strides store no matrix as it is (row- or column-major)")
    return fit  # (layout, leading dimension)


def _batch_stride(view, batch_shape):
    """The one stride (elements) from each matrix of `view` to the next along `batch_shape`, its batch axes
    broadcast (0 for a repeated matrix); ValueError when its batch axes step through memory otherwise."""
    if view.strides is None:
        raise _bad_strides(view, "has strides that are not whole elements")
    lead = len(batch_shape) - (len(view.shape) - 2)
    strides = [0] * lead + list(view.strides[:-2])
    shape = [1] * lead + list(view.shape[:-2])
    stride, step = None, 1  # step: how many matrices one index of the current axis spans
    for size, own_size, own_stride in reversed(list(zip(batch_shape, shape, strides))):
        if size > 1:
            effective = 0 if own_size == 1 else own_stride
            if stride is None:
                stride = effective
            elif effective != stride * step:
                raise _bad_strides(view, "has batch axes that do not step through memory with one stride")
        step *= size
    stride = stride or 0
    if stride < 0:
        raise _bad_strides(view, "has a negative batch stride")
    return stride


def _needs(views, names, ndims, routine):
    for name in names:
        view = views.get(name)
        if view is not None and len(view.shape) not in ndims:
            raise ValueError("gemmkit.%s: %s has shape %r; %s" % (routine, name, view.shape,
                                                                 "a matrix is needed" if ndims == (2,) else
                                                                 "a stack (batch, rows, cols) or a matrix is needed"))


def _gemm(ops, context, a, b, c, alpha, beta):
    """c = alpha a @ b + beta c on 2-D views, enqueued."""
    (m, k), n = a.shape, b.shape[1]
    layout, ldc = _output(c)
    ta, lda = _input(a, layout)
    tb, ldb = _input(b, layout)
    trans = (NO_TRANS, TRANS)
    ops.run(context, lambda handle, stream: lib.gemmkit_sgemm_cuda_enqueue(
        handle, stream, layout, trans[ta], trans[tb], m, n, k, alpha, a.pointer, lda, b.pointer, ldb, beta,
        c.pointer, ldc), lambda handle: cuda_capture.size_of(lambda size: lib.gemmkit_cuda_workspace_size(
            handle, layout, trans[ta], trans[tb], m, n, k, alpha, a.pointer, lda, b.pointer, ldb, beta, c.pointer,
            ldc, size)))


def _gemm_batched(ops, context, a, b, c, batch_shape, alpha, beta):
    """c[z] = alpha a[z] @ b[z] + beta c[z] over `batch_shape`, one strided batched call, enqueued."""
    m, k = a.shape[-2:]
    n = b.shape[-1]
    stride_a, stride_b = _batch_stride(a, batch_shape), _batch_stride(b, batch_shape)
    stride_c = _batch_stride(c, batch_shape)
    batch = 1
    for size in batch_shape:
        batch *= size
    layout, ldc = _output(c)
    if batch > 1 and stride_c < extent(m, n, ldc, layout):
        raise _bad_strides(c, "is an output whose matrices overlap")
    ta, lda = _input(a, layout)
    tb, ldb = _input(b, layout)
    trans = (NO_TRANS, TRANS)
    ops.run(context, lambda handle, stream: lib.gemmkit_sgemm_strided_batched_cuda_enqueue(
        handle, stream, layout, trans[ta], trans[tb], m, n, k, alpha, a.pointer, lda, stride_a, b.pointer, ldb,
        stride_b, beta, c.pointer, ldc, stride_c, batch),
        lambda handle: cuda_capture.size_of(lambda size: lib.gemmkit_cuda_strided_batched_workspace_size(
            handle, layout, trans[ta], trans[tb], m, n, k, alpha, a.pointer, lda, stride_a, b.pointer, ldb,
            stride_b, beta, c.pointer, ldc, stride_c, batch, size)))


def sgemm(a, b, c=None, *, alpha=1.0, beta=0.0, trans_a=False, trans_b=False, context=None, kernel=None,
          params=None, math=None, stream=None):
    """gemmkit.sgemm on CUDA arrays (see routines.sgemm)."""
    if stream is None and kernel is None and params is None and math is None and context is None:
        done = cuda_fast.gemm(a, b, c, float(alpha), float(beta), trans_a, trans_b)
        if done is not None:
            return done
    _refuse_options(kernel, params, math)
    ops = _Operands((("a", a), ("b", b), ("c", c)), stream)
    _needs(ops.views, "abc", (2,), "sgemm")
    va, vb = ops.get("a"), ops.get("b")
    va, vb = _transposed(va) if trans_a else va, _transposed(vb) if trans_b else vb
    (m, k), (k_b, n) = va.shape, vb.shape
    if k != k_b:
        raise ValueError("gemmkit: op(A) is %dx%d and op(B) %dx%d: inner dimensions differ" % (m, k, k_b, n))
    if c is None and beta != 0:
        raise ValueError("gemmkit: beta = %g reads C: pass c" % beta)
    if c is not None and tuple(ops.get("c").shape) != (m, n):
        raise ValueError("gemmkit: c is %dx%d; op(A) @ op(B) is %dx%d" % (tuple(ops.get("c").shape) + (m, n)))
    vc = ops.output("c", c, (m, n), va)
    _gemm(ops, context, va, vb, vc, float(alpha), float(beta))
    return vc.owner


def matmul(a, b, out=None, *, context=None, math=None, stream=None):
    """gemmkit.matmul on CUDA arrays: numpy.matmul's shapes (vectors promoted, batch axes broadcast)."""
    if stream is None and math is None and context is None:
        done = cuda_fast.gemm(a, b, out, 1.0, 0.0, False, False)
        if done is not None:
            return done
    _refuse_options(math=math)
    ops = _Operands((("a", a), ("b", b), ("out", out)), stream)
    va, vb = ops.get("a"), ops.get("b")
    if len(va.shape) == 0 or len(vb.shape) == 0:
        raise ValueError("gemmkit.matmul: scalars are not matrices (use *)")
    a2 = _with_axis(va, 0) if len(va.shape) == 1 else va
    b2 = _with_axis(vb, 1) if len(vb.shape) == 1 else vb
    (m, k), (k_b, n) = a2.shape[-2:], b2.shape[-2:]
    if k != k_b:
        raise ValueError("gemmkit.matmul: %r @ %r: inner dimensions differ (%d, %d)" % (va.shape, vb.shape, k, k_b))
    batch_shape = _broadcast(a2.shape[:-2], b2.shape[:-2]) if len(a2.shape) > 2 or len(b2.shape) > 2 else ()
    shape = batch_shape + (m,) * (len(va.shape) > 1) + (n,) * (len(vb.shape) > 1)
    if out is not None and tuple(ops.get("out").shape) != shape:
        raise ValueError("gemmkit.matmul: out is %r; the result is %r" % (tuple(ops.get("out").shape), shape))
    vc = ops.output("out", out, shape, va)
    if len(va.shape) == 1:  # the result as batch + (m, n), m and n of promoted vectors being 1
        vc = _with_axis(vc, len(batch_shape))
    if len(vb.shape) == 1:
        vc = _with_axis(vc, len(vc.shape))
    if batch_shape:
        _gemm_batched(ops, context, a2, b2, vc, batch_shape, 1.0, 0.0)
    else:
        _gemm(ops, context, a2, b2, vc, 1.0, 0.0)
    return vc.owner


def _broadcast(first, second):
    """numpy's broadcast of two batch shapes."""
    length = max(len(first), len(second))
    first, second = (1,) * (length - len(first)) + tuple(first), (1,) * (length - len(second)) + tuple(second)
    shape = []
    for x, y in zip(first, second):
        if x != y and 1 not in (x, y):
            raise ValueError("gemmkit.matmul: the stacks' batch shapes %r and %r do not broadcast" % (first, second))
        shape.append(max(x, y) if 0 not in (x, y) else 0)
    return tuple(shape)


def sgemm_batched(a, b, c=None, *, alpha=1.0, beta=0.0, trans_a=False, trans_b=False, context=None, kernel=None,
                  params=None, math=None, stream=None):
    """gemmkit.sgemm_batched on CUDA arrays: 3-D stacks, or a matrix (2-D, or a stack of one) repeated; lists
    or tuples of matrices are cuda_lists' pointer-array form."""
    _refuse_options(kernel, params, math)
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)) or isinstance(c, (list, tuple)):
        from . import cuda_lists  # here, not at the top: cuda_lists builds on this module
        return cuda_lists.sgemm_batched(a, b, c, alpha, beta, trans_a, trans_b, context, stream)
    ops = _Operands((("a", a), ("b", b), ("c", c)), stream)
    _needs(ops.views, "ab", (2, 3), "sgemm_batched")
    if c is not None and len(ops.get("c").shape) != 3:
        raise ValueError("gemmkit.sgemm_batched: c has shape %r; a stack (batch, m, n) is needed"
                         % (ops.get("c").shape,))
    va, vb = ops.get("a"), ops.get("b")
    va, vb = _transposed(va) if trans_a else va, _transposed(vb) if trans_b else vb
    (m, k), (k_b, n) = va.shape[-2:], vb.shape[-2:]
    if k != k_b:
        raise ValueError("gemmkit.sgemm_batched: op(A) is %dx%d and op(B) %dx%d: inner dimensions differ"
                         % (m, k, k_b, n))
    sizes = {v.shape[0] for v in (va, vb) if len(v.shape) == 3 and v.shape[0] != 1}
    if c is not None:
        sizes.add(ops.get("c").shape[0])
    if len(sizes) > 1:
        raise ValueError("gemmkit.sgemm_batched: batch sizes %s differ (only a stack of one, or a matrix, is "
                         "repeated)" % sorted(sizes))
    if not sizes and len(va.shape) == 2 and len(vb.shape) == 2:
        raise ValueError("gemmkit.sgemm_batched: no stack among a, b and c (use sgemm for one matrix)")
    batch = sizes.pop() if sizes else 1
    if c is None and beta != 0:
        raise ValueError("gemmkit.sgemm_batched: beta = %g reads C: pass c" % beta)
    if c is not None and tuple(ops.get("c").shape) != (batch, m, n):
        raise ValueError("gemmkit.sgemm_batched: c is %r; the product is %r" % (ops.get("c").shape, (batch, m, n)))
    vc = ops.output("c", c, (batch, m, n), va)
    _gemm_batched(ops, context, va, vb, vc, (batch,), float(alpha), float(beta))
    return vc.owner


def omatcopy(a, *, trans=True, alpha=1.0, out=None, context=None, kernel=None, params=None, stream=None):
    """gemmkit.omatcopy on CUDA arrays: out = alpha op(a), out of place."""
    _refuse_options(kernel, params)
    ops = _Operands((("a", a), ("out", out)), stream)
    _needs(ops.views, ("a", "out"), (2,), "omatcopy")
    va = ops.get("a")
    shape = va.shape[::-1] if trans else va.shape
    if out is not None and tuple(ops.get("out").shape) != tuple(shape):
        raise ValueError("gemmkit: out is %dx%d; op(A) is %dx%d" % (tuple(ops.get("out").shape) + tuple(shape)))
    vb = ops.output("out", out, shape, va)
    layout, ldb = _output(vb)
    a_trans, lda = _input(va, layout)
    # The library's A is the stored matrix S: A itself, or S = A.T when A's strides store its transpose; then
    # op(A) = op'(S) with op' flipped (as routines.omatcopy does for numpy).
    rows, cols = (va.shape[1], va.shape[0]) if a_trans else va.shape
    flag = TRANS if bool(trans) != a_trans else NO_TRANS
    ops.run(context, lambda handle, stream_: lib.gemmkit_somatcopy_cuda_enqueue(
        handle, stream_, layout, flag, rows, cols, float(alpha), va.pointer, lda, vb.pointer, ldb))
    return vb.owner


__all__ = ["cuda_context", "matmul", "omatcopy", "sgemm", "sgemm_batched", "COL_MAJOR", "ROW_MAJOR"]
