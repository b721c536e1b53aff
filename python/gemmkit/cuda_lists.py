"""sgemm_batched on Python lists or tuples of CUDA matrices: the pointer-array form (cuBLAS's
cublasSgemmBatched), for matrices of one shape anywhere in memory. gemmkit_cuda.h has no pointer-array entry
point, so each matrix is its own gemmkit_sgemm_cuda_enqueue, all on the call's stream in one hold of the
context's scratch, after every matrix has been checked (gemmkit_sgemm_batched_buffers runs each matrix as its
own plan too). For many small matrices of one stack, pass the stack (3-D): one strided launch."""
from . import cuda_calls, cuda_capture
from ._library import lib
from .operands import NO_TRANS, TRANS
from .stacks import extent


def is_sequence(x):
    return isinstance(x, (list, tuple))


def _names(x, name):
    """(name, array) pairs of an operand: one per matrix of a sequence, or the one matrix (repeated)."""
    if is_sequence(x):
        return [("%s[%d]" % (name, z), item) for z, item in enumerate(x)]
    return [(name, x)]


def _matrices(ops, x, name, batch, trans):
    """The 2-D views of an operand, one per batch index, op() applied; ValueError for other shapes."""
    names = [n for n, _ in _names(x, name)]
    views = [ops.get(n) for n in names]
    for n, view in zip(names, views):
        if len(view.shape) != 2:
            raise ValueError("gemmkit.sgemm_batched: %s has shape %r; a list of matrices (2-D) is needed"
                             % (n, view.shape))
    views = [cuda_calls._transposed(v) if trans else v for v in views]
    shapes = {tuple(v.shape) for v in views}
    if len(shapes) > 1:
        raise ValueError("gemmkit.sgemm_batched: the matrices of %s differ in shape (%s): a batch has one shape"
                         % (name, ", ".join("%s %r" % (n, tuple(v.shape)) for n, v in zip(names, views))))
    return views if len(views) == batch else views * batch


def _no_overlap(views, layout_of):
    """ValueError where two written matrices share memory (their spans pointer .. pointer + extent)."""
    spans = []
    for view in views:
        layout, ld = layout_of(view)
        rows, cols = view.shape
        spans.append((view.pointer, view.pointer + 4 * extent(rows, cols, ld, layout), view.name))
    spans.sort()
    for first, second in zip(spans, spans[1:]):
        if second[0] < first[1] and first[1] > first[0]:
            raise ValueError("gemmkit.sgemm_batched: %s and %s overlap in memory: each written matrix needs its "
                             "own" % (first[2], second[2]))


def sgemm_batched(a, b, c, alpha, beta, trans_a, trans_b, context, stream):
    """C[z] = alpha op(A[z]) op(B[z]) + beta C[z]; a, b: a list/tuple of matrices or one matrix (repeated),
    c: a list/tuple of matrices or None (a new list, beta 0). Returns c, or the new list."""
    lengths = {len(x) for x in (a, b, c) if is_sequence(x)}
    if len(lengths) > 1:
        raise ValueError("gemmkit.sgemm_batched: the lists of a, b and c have %s matrices: one count is needed"
                         % " and ".join(str(n) for n in sorted(lengths)))
    batch = lengths.pop()
    if c is not None and not is_sequence(c):
        raise ValueError("gemmkit.sgemm_batched: c must be a list of matrices like a or b (or None)")
    if c is None and beta != 0:
        raise ValueError("gemmkit.sgemm_batched: beta = %g reads C: pass c" % beta)
    if batch == 0:
        return c if c is not None else []
    named = _names(a, "a") + _names(b, "b") + (_names(c, "c") if c is not None else [])
    ops = cuda_calls._Operands(named, stream)
    va = _matrices(ops, a, "a", batch, trans_a)
    vb = _matrices(ops, b, "b", batch, trans_b)
    (m, k), (k_b, n) = va[0].shape, vb[0].shape
    if k != k_b:
        raise ValueError("gemmkit.sgemm_batched: op(A) is %dx%d and op(B) %dx%d: inner dimensions differ"
                         % (m, k, k_b, n))
    if c is not None:
        for name, _ in _names(c, "c"):
            if tuple(ops.get(name).shape) != (m, n):
                raise ValueError("gemmkit.sgemm_batched: %s is %r; op(A) @ op(B) is %r"
                                 % (name, tuple(ops.get(name).shape), (m, n)))
        vc = [ops.output(name, item, (m, n), va[0]) for name, item in _names(c, "c")]
    else:
        vc = [ops.output("c[%d]" % z, None, (m, n), va[0]) for z in range(batch)]
    _no_overlap(vc, cuda_calls._output)
    trans = (NO_TRANS, TRANS)
    calls = []  # every matrix's arguments, all checked before the first is enqueued
    for x, y, z in zip(va, vb, vc):
        layout, ldc = cuda_calls._output(z)
        tx, ldx = cuda_calls._input(x, layout)
        ty, ldy = cuda_calls._input(y, layout)
        calls.append((layout, trans[tx], trans[ty], m, n, k, float(alpha), x.pointer, ldx, y.pointer, ldy,
                      float(beta), z.pointer, ldc))

    def enqueue(handle, stream_):
        for args in calls:
            status = lib.gemmkit_sgemm_cuda_enqueue(handle, stream_, *args)
            if status != 0:  # a launch the driver refused: the matrices before it stay enqueued (documented)
                return status
        return 0

    def measure(handle):  # the matrices run one after another on one stream: the largest need serves all
        return max(cuda_capture.size_of(lambda size: lib.gemmkit_cuda_workspace_size(handle, *args, size))
                   for args in calls)

    ops.run(context, enqueue, measure)
    return c if c is not None else [view.owner for view in vc]
