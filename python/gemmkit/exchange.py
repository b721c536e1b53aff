"""Arrays of other libraries: a host (CPU) array of any producer that speaks DLPack (numpy, PyTorch, JAX ...)
is read in place as a numpy view, and the result comes back in the caller's type (its module's `from_dlpack`).
A call with a CUDA array among its arguments (`__cuda_array_interface__`, or DLPack on a CUDA device) goes to
the routine's CUDA form (cuda_calls), which reads device memory in place on the caller's stream."""
import functools
import inspect
import itertools
import sys

import numpy as np

from .cuda_arrays import has_interface, is_cuda_array, torch_cuda_tensor_type, torch_seen
from .device_array import DeviceArray
from .errors import GemmkitError, Status

_CPU = 1  # DLPack's kDLCPU
_DEVICE_TYPES = {1: "CPU", 2: "CUDA", 3: "CUDA host", 4: "OpenCL", 7: "Vulkan", 8: "Metal", 9: "VPI", 10: "ROCm",
                 13: "CUDA managed", 14: "oneAPI"}


def foreign(x):
    """True for an array of another library that speaks DLPack or __cuda_array_interface__ (numpy's and
    gemmkit's own are not)."""
    return (x is not None and not isinstance(x, (np.ndarray, DeviceArray)) and
            ((hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__")) or
             has_interface(x)))


def host_view(x, name, writable=False):
    """x's memory as a numpy array, without a copy; GemmkitError for an array not on the host."""
    device_type, device_id = (int(v) for v in x.__dlpack_device__())
    if device_type != _CPU:
        raise GemmkitError(Status.INVALID_ARGUMENT,
                           "%s lives on a %s device (DLPack device %d, %d): gemmkit takes host arrays and CUDA "
                           "device arrays, and other device memory as its own DeviceArrays" %
                           (name, _DEVICE_TYPES.get(device_type, "type %d" % device_type), device_type, device_id))
    view = np.from_dlpack(x)
    if writable and not view.flags.writeable:
        # numpy's DLPack views are read-only; the producer's own numpy view (PyTorch's __array__) may share the
        # memory writably.
        alias = np.asarray(x)
        if not (alias.flags.writeable and np.shares_memory(alias, view)):
            raise TypeError("gemmkit: %s (%s) cannot be written in place: pass a writable array" %
                            (name, type(x).__name__))
        view = alias
    return view


def caller_type(result, like):
    """result (numpy) as an array of like's library, where its module has from_dlpack; else as it is."""
    module = sys.modules.get(type(like).__module__.split(".")[0])
    convert = getattr(module, "from_dlpack", None)
    return convert(result) if callable(convert) else result


def exchanges(inputs, output, cuda_call):
    """A routine taking arrays named `inputs` and writing `output` (None: a new result): a call with a CUDA
    array among its arguments is cuda_call's (the routine's CUDA form, of the same signature); foreign host
    arrays are passed as numpy views, and the result comes back as the first foreign input's type (or as the
    foreign output array itself). Calls on numpy arrays and DeviceArrays pay only the check."""
    def wrap(routine):
        signature = inspect.signature(routine)

        @functools.wraps(routine)
        def call(*args, **kwargs):
            # the common case first, torch_cuda_tensor_type's cached answer read in place (a call less)
            tensor = torch_seen[1] if sys.modules.get("torch") is torch_seen[0] else torch_cuda_tensor_type()
            if (args and tensor is not None and isinstance(args[0], tensor) and
                    getattr(args[0], "is_cuda", False) is True):
                return cuda_call(*args, **kwargs)
            if not any(foreign(v) for v in args) and not any(foreign(v) for v in kwargs.values()):
                return routine(*args, **kwargs)
            if any(is_cuda_array(v) for v in itertools.chain(args, kwargs.values())):
                return cuda_call(*args, **kwargs)
            bound = signature.bind(*args, **kwargs)
            given = bound.arguments
            like = next((given[n] for n in inputs if foreign(given.get(n))), None)
            out = given.get(output)
            for name in inputs:
                if foreign(given.get(name)):
                    given[name] = host_view(given[name], name)
            if foreign(out):
                given[output] = host_view(out, output, writable=True)
            result = routine(*bound.args, **bound.kwargs)
            if foreign(out):
                return out
            return caller_type(result, like) if like is not None and out is None else result
        return call
    return wrap
