"""CUDA device arrays of other libraries, read in place: `__cuda_array_interface__` (CuPy, Numba, PyTorch) or
DLPack with a CUDA device (`__dlpack__` / `__dlpack_device__`: PyTorch, CuPy, JAX). Each becomes a CudaView
(pointer, shape, strides in elements, device, read-only flag), and the stream a call runs on is decided here
(resolve_stream). No driver call is made but the device of a pointer a `__cuda_array_interface__` leaves
unnamed."""
import ctypes
import dataclasses
import sys

import numpy as np

from . import cuda_driver
from .device_array import DeviceArray
from .errors import GemmkitError, Status

_KDL_CUDA, _KDL_CUDA_MANAGED = 2, 13  # DLPack device types whose memory a kernel reads
_KDL_FLOAT = 2
_DLPACK_READ_ONLY = 1  # DLPACK_FLAG_BITMASK_READ_ONLY (DLPack 1.0)


@dataclasses.dataclass
class CudaView:
    name: str  # the argument's name, for messages
    pointer: int  # device address of element [0, ..., 0]
    shape: tuple
    strides: tuple  # in elements; None when some stride is not a whole number of floats
    device: int  # CUDA device ordinal; None for an empty array (any device fits)
    readonly: bool
    owner: object  # the array itself: its library allocates results, and it is what out= returns
    stream: object = None  # the stream a __cuda_array_interface__ v3 says the data is being worked on (None: none)
    keep: object = None  # a DLPack capsule, alive while its pointer is in use

    @property
    def library(self):
        return library_of(self.owner)


_libraries = {}  # type -> library_of's answer (a type's module does not change)


def library_of(array):
    """The producer's top-level module name ("torch", "cupy", "jax", "numba"...)."""
    kind = type(array)
    library = _libraries.get(kind)
    if library is None:
        root = kind.__module__.split(".")[0]
        library = _libraries[kind] = "jax" if root == "jaxlib" else root
    return library


torch_seen = [None, None]  # the torch module last looked at, and torch_cuda_tensor_type's answer for it


def torch_cuda_tensor_type():
    """torch.Tensor where PyTorch is imported and built for CUDA (not ROCm, whose tensors say is_cuda and
    are not CUDA memory to DLPack), else None: a tensor of that type with is_cuda True is a CUDA array."""
    torch = sys.modules.get("torch")
    if torch is torch_seen[0]:  # asked on every call: answered once per module
        return torch_seen[1]
    found = None
    if torch is not None and getattr(getattr(torch, "version", None), "hip", None) is None:
        found = getattr(torch, "Tensor", None)
    torch_seen[:] = [torch, found]
    return found


def is_torch_cuda(x, tensor_type):
    """x is a PyTorch CUDA tensor (tensor_type: torch_cuda_tensor_type()): its accessors describe it."""
    return tensor_type is not None and isinstance(x, tensor_type) and getattr(x, "is_cuda", False) is True


def dlpack_device(x):
    get = getattr(x, "__dlpack_device__", None)
    if get is None:
        return None
    device_type, device_id = get()
    return int(device_type), int(device_id)


def is_cuda_array(x):
    """True for an array in CUDA device memory that gemmkit reads in place; host arrays (numpy, DLPack CPU
    arrays, a PyTorch CPU tensor) and gemmkit's own DeviceArrays are not."""
    if x is None or isinstance(x, (np.ndarray, DeviceArray, int, float, list, tuple)):
        return False
    device = dlpack_device(x)
    if device is not None:
        return device[0] in (_KDL_CUDA, _KDL_CUDA_MANAGED)
    return has_interface(x)


def has_interface(x):
    """Whether x offers __cuda_array_interface__, on its class (a property: not evaluated here, it may be
    costly or raise) or as an attribute of its own."""
    return (getattr(type(x), "__cuda_array_interface__", None) is not None or
            "__cuda_array_interface__" in getattr(x, "__dict__", ()))


def describe(x):
    """x in a few words for an error message."""
    if x is None:
        return "None"
    if isinstance(x, np.ndarray):
        return "a host numpy array"
    if isinstance(x, DeviceArray):
        return "a gemmkit DeviceArray (gemmkit's own buffer)"
    device = dlpack_device(x) if hasattr(x, "__dlpack_device__") else None
    if device is not None and device[0] not in (_KDL_CUDA, _KDL_CUDA_MANAGED):
        return "a %s array on DLPack device type %d (not CUDA)" % (library_of(x), device[0])
    return "a %s %s" % (library_of(x), type(x).__name__)


def interface_of(x, name):
    try:
        return x.__cuda_array_interface__
    except AttributeError:
        return None
    except Exception as error:
        if hasattr(x, "__dlpack__"):  # an interface this array cannot give (JAX's on some arrays): try DLPack
            return None
        # (PyTorch refuses tensors that require grad through both: its DLPack error says so)
        raise TypeError("gemmkit: %s (%s) does not export its memory: %s" % (name, describe(x), error)) from None


def _float32_only(name, x, what):
    raise TypeError("gemmkit: %s: float32 arrays only (SGEMM), not %s; convert it first (torch: .float(), "
                    "CuPy/JAX: .astype(float32))" % (name, what))


def _contiguous(shape):
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= max(extent, 1)
    return tuple(reversed(strides))


def from_interface(x, name, interface, device=None):
    """A CudaView of an object's __cuda_array_interface__ (versions 0-3): strides in bytes (None:
    C-contiguous), data (pointer, read-only), the optional v3 stream. device: the ordinal when the caller
    knows it (from __dlpack_device__), else asked of the driver from the pointer."""
    typestr = interface.get("typestr")
    if typestr not in ("<f4", "=f4"):
        _float32_only(name, x, "typestr %r" % (typestr,))
    if interface.get("mask") is not None:
        raise TypeError("gemmkit: %s has a mask; masked arrays are not supported" % name)
    shape = tuple(int(n) for n in interface["shape"])
    pointer, readonly = interface["data"]
    pointer = int(pointer or 0)
    byte_strides = interface.get("strides")
    if byte_strides is None:
        strides = _contiguous(shape)
    elif all(int(s) % 4 == 0 for s in byte_strides):
        strides = tuple(int(s) // 4 for s in byte_strides)
    else:
        strides = None
    empty = any(n == 0 for n in shape)
    if empty:
        device = None
    elif device is None:
        device = cuda_driver.pointer_device(pointer)
    return CudaView(name, pointer, shape, strides, device, bool(readonly), x, stream=interface.get("stream"))


def from_torch(x, name):
    """A CudaView of a PyTorch CUDA tensor, from its own accessors: what its __cuda_array_interface__ gives
    (strides already in elements), at a fraction of that property's cost, which is paid on every call."""
    torch = sys.modules["torch"]
    if x.dtype is not torch.float32:
        _float32_only(name, x, str(x.dtype))
    if x.requires_grad:  # as the interface and DLPack refuse them: autograd would not see gemmkit's product
        raise TypeError("gemmkit: %s requires grad; gemmkit's calls are not recorded by autograd: pass %s.detach()"
                        % (name, name))
    if x.is_neg() or x.is_conj():
        raise TypeError("gemmkit: %s is a lazily negated view; resolve it first (.resolve_neg())" % name)
    shape = tuple(x.shape)
    device = None if x.numel() == 0 else x.get_device()
    return CudaView(name, x.data_ptr(), shape, tuple(x.stride()), device, False, x)


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


class _DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64), ("dl_tensor", _DLTensor)]


_capsule_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_name.restype, _capsule_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype, _capsule_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]


def from_capsule(x, name, capsule):
    """A CudaView of a DLPack capsule (DLPack 1.x "dltensor_versioned" or 0.x "dltensor"). The capsule is
    not consumed: it stays the producer's and frees nothing while the view keeps it."""
    kind = _capsule_name(capsule)
    if kind not in (b"dltensor_versioned", b"dltensor"):
        raise TypeError("gemmkit: %s: __dlpack__ gave a capsule named %r, not a DLPack tensor" % (name, kind))
    address = _capsule_pointer(capsule, kind)
    if kind == b"dltensor_versioned":
        managed = _DLManagedTensorVersioned.from_address(address)
        tensor, readonly = managed.dl_tensor, bool(managed.flags & _DLPACK_READ_ONLY)
    else:
        tensor, readonly = _DLManagedTensor.from_address(address).dl_tensor, False
    dtype = tensor.dtype
    if (dtype.code, dtype.bits, dtype.lanes) != (_KDL_FLOAT, 32, 1):
        _float32_only(name, x, "DLPack dtype (code %d, %d bits, %d lanes)" % (dtype.code, dtype.bits, dtype.lanes))
    shape = tuple(tensor.shape[i] for i in range(tensor.ndim))
    strides = tuple(tensor.strides[i] for i in range(tensor.ndim)) if tensor.strides else _contiguous(shape)
    if tensor.byte_offset % 4:
        strides = None
    pointer = (tensor.data or 0) + tensor.byte_offset
    return CudaView(name, pointer, shape, strides, int(tensor.device.device_id), readonly, x, keep=capsule)


def dlpack_stream(stream):
    """The `stream` argument of __dlpack__ for a call on `stream`: DLPack reserves 0 (ambiguous) and calls
    the legacy default stream 1."""
    return stream or cuda_driver.LEGACY_STREAM


def export(x, name, stream):
    """A CudaView of a DLPack-only producer's array, ready on `stream` (the producer orders it there, the
    DLPack rule). DLPack 1.0 is asked for first: it carries the read-only flag."""
    try:
        capsule = x.__dlpack__(stream=dlpack_stream(stream), max_version=(1, 0))
    except TypeError:  # a producer of DLPack 0.x takes no max_version
        capsule = x.__dlpack__(stream=dlpack_stream(stream))
    return from_capsule(x, name, capsule)


def stream_handle(stream):
    """An explicit stream= as a CUstream handle: an int, or a stream object of PyTorch (.cuda_stream), CuPy
    (.ptr), Numba (.handle) or of the CUDA stream protocol (__cuda_stream__)."""
    if isinstance(stream, bool):
        raise TypeError("gemmkit: stream=%r is not a CUDA stream" % (stream,))
    if isinstance(stream, int):
        value = stream
    elif hasattr(stream, "__cuda_stream__"):
        value = stream.__cuda_stream__()[1]
    elif hasattr(stream, "cuda_stream"):
        value = stream.cuda_stream
    elif hasattr(stream, "ptr"):
        value = stream.ptr
    elif hasattr(stream, "handle"):
        handle = stream.handle
        value = getattr(handle, "value", handle)
    else:
        raise TypeError("gemmkit: stream=%r is not a CUDA stream: pass a CUstream handle (int) or a stream object "
                        "with .cuda_stream (PyTorch), .ptr (CuPy) or __cuda_stream__" % (stream,))
    value = int(value or 0)
    if value < 0:
        raise ValueError("gemmkit: stream=%d is not a CUstream handle" % value)
    return value


raw_stream = [None, None]  # the torch module, and its torch._C._cuda_getCurrentRawStream (None: it has none)


def current_torch_stream(device):
    torch = sys.modules["torch"]
    if raw_stream[0] is not torch:
        raw_stream[:] = [torch, getattr(getattr(torch, "_C", None), "_cuda_getCurrentRawStream", None)]
    raw = raw_stream[1]
    if raw is not None:  # the same handle as current_stream(device).cuda_stream, without making a Stream object
        return raw(device)
    return torch.cuda.current_stream(device).cuda_stream


def _cupy_stream(device):
    cupy = sys.modules["cupy"]
    with cupy.cuda.Device(device):
        return cupy.cuda.get_current_stream().ptr


# The libraries that keep a current stream per device: a call on their arrays runs there, after the work
# they have enqueued and before what comes next, as their own operations would.
CURRENT_STREAM = {"torch": current_torch_stream, "cupy": _cupy_stream}


def resolve_stream(explicit, library, device, interface_streams):
    """The stream a call runs on, first of: stream= (explicit); the current stream of the first device
    operand's library (PyTorch, CuPy) on its device; the first stream a __cuda_array_interface__ names;
    the legacy default stream (JAX, Numba, others)."""
    if explicit is not None:
        return stream_handle(explicit)
    current = CURRENT_STREAM.get(library)
    if current is not None and device is not None:
        return int(current(device) or 0)
    for stream in interface_streams:
        if stream is not None:
            return int(stream)
    return cuda_driver.LEGACY_STREAM


def one_device(placed, others):
    """The device every CUDA operand is on (placed: (name, device) pairs; device None for an empty array,
    which fits any). A host array or DeviceArray among the operands (others: name -> object), or operands on
    two devices, is a GemmkitError naming them."""
    first = placed[0]
    for name, x in others.items():
        raise GemmkitError(Status.INVALID_ARGUMENT, "%s is %s while %s is a CUDA array (device %s): a call on "
                           "CUDA arrays needs every operand on that device; copy %s there first" %
                           (name, describe(x), first[0], first[1], name))
    devices = {device for _, device in placed if device is not None}
    if len(devices) > 1:
        where = ", ".join("%s on CUDA device %d" % (name, device) for name, device in placed if device is not None)
        raise GemmkitError(Status.INVALID_ARGUMENT, "operands on different GPUs (%s): gemmkit runs a call on one "
                           "device; move them to one first" % where)
    return devices.pop() if devices else None
