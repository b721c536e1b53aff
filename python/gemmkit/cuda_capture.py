"""Calls on CUDA arrays made while their stream is being captured into a CUDA graph (torch.cuda.graph, CuPy's
Stream.begin_capture). Such a call is recorded, not run: its kernels run at every replay, long after it
returned. So during the call nothing may wait, query a stream's progress or allocate through the driver (the
driver refuses them while a capture is under way, and the capture is lost), and no event of an eager call may
be waited for (an event recorded outside the capture cannot be). After it, the context's scratch event must
still be one recorded outside any capture, or the next eager call on another stream could not wait for it.

And the call's scratch must outlive the graph and never be handed to eager calls: the context's own cached
scratch is neither (a larger eager call frees it and allocates more). So a captured call that needs scratch
runs on a capture workspace (gemmkit_cuda_set_workspace for that one call), allocated through the operands'
library (PyTorch allocates from the graph's pool during its capture) and kept with the context for the
process's life, since the graphs captured before may replay from it at any time. Graphs share it: replay the
graphs of one device one at a time (or on one stream), as cuBLAS asks of graphs sharing its workspace."""
import ctypes
import threading

from . import cuda_arrays, cuda_driver, cuda_results
from ._library import lib
from .errors import GemmkitError, Status, check

_ALIGN = 256  # gemmkit_cuda_set_workspace's alignment (cuMemAlloc's)


class CaptureWorkspace:
    """A context's scratch for captured calls: the arrays allocated for it, all kept (graphs may use any)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.blocks = []  # (aligned pointer, usable bytes, the library's array), the largest last

    def get(self, like, needed):
        """An aligned pointer to at least `needed` bytes, allocated like `like` (a CudaView) when none is."""
        with self.lock:
            if self.blocks and self.blocks[-1][1] >= needed:
                return self.blocks[-1][0]
            array = cuda_results.empty_like(like, ((needed + 2 * _ALIGN) // 4,))
            base = _pointer(array, like)
            pointer = -(-base // _ALIGN) * _ALIGN
            self.blocks.append((pointer, needed, array))
            return pointer


def _pointer(array, like):
    if like.library == "torch":
        return array.data_ptr()
    interface = cuda_arrays.interface_of(array, "the capture workspace")
    if interface is None:
        raise GemmkitError(Status.UNSUPPORTED_BACKEND, "a captured call needs scratch, and %s's arrays give no "
                           "__cuda_array_interface__ to place it in" % like.library)
    return int(interface["data"][0])


_workspaces = {}  # id(gemmkit Context) -> (the Context, its CaptureWorkspace)
_workspaces_lock = threading.Lock()


def workspace_of(context):
    with _workspaces_lock:
        entry = _workspaces.get(id(context))
        if entry is None or entry[0] is not context:
            entry = _workspaces[id(context)] = (context, CaptureWorkspace())
        return entry[1]


def check_producers(views, stream, cu_context):
    """A captured call can follow only streams of its own capture: the stream a __cuda_array_interface__
    names must be the call's or one being captured with it (a fork of the capture)."""
    for view in views:
        producer = view.stream
        if producer is None or cuda_driver.same_stream(int(producer), stream):
            continue
        if not cuda_driver.is_capturing(int(producer), cu_context):
            raise GemmkitError(Status.INVALID_ARGUMENT, "%s names stream 0x%x, which is not being captured while "
                               "the call's stream 0x%x is: a graph cannot wait for work outside its capture "
                               "(make %s on the capturing stream)" % (view.name, int(producer), stream, view.name))
        cuda_driver.order_after(stream, int(producer), cu_context)


def enqueue(context, scratch, stream, like, run, measure):
    """run(handle, stream) recorded into the capture: on a capture workspace when measure(handle) (the
    call's gemmkit_cuda_*workspace_size) asks for scratch; the scratch's event and stream left as the last
    eager call left them. `scratch` is the context's cuda_calls._Scratch (its lock orders this call against
    the context's other calls: the workspace is set for this call alone)."""
    handle = context.handle
    with scratch.lock:
        needed = measure(handle) if measure is not None else 0
        if needed == 0:
            check(run(handle, stream))
            return
        pointer = workspace_of(context).get(like, needed)
        check(lib.gemmkit_cuda_set_workspace(handle, pointer, needed))
        try:
            check(run(handle, stream))
        finally:
            check(lib.gemmkit_cuda_set_workspace(handle, 0, 0))  # eager calls: the context's own scratch again


def size_of(query):
    """The bytes a gemmkit_cuda_*workspace_size query (given its out-parameter) reports."""
    size = ctypes.c_size_t()
    check(query(ctypes.byref(size)))
    return size.value
