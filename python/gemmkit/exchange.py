"""Arrays of other libraries through DLPack (`__dlpack__`, `__dlpack_device__`): a host (CPU) array of any
producer (numpy, PyTorch, JAX ...) is read in place as a numpy view, and the result comes back in the caller's
type (its module's `from_dlpack`). Arrays on a GPU raise GemmkitError: gemmkit takes device memory through its
own DeviceArrays only, so far."""
import functools
import inspect
import sys

import numpy as np

from .device_array import DeviceArray
from .errors import GemmkitError, Status

_CPU = 1  # DLPack's kDLCPU
_DEVICE_TYPES = {1: "CPU", 2: "CUDA", 3: "CUDA host", 4: "OpenCL", 7: "Vulkan", 8: "Metal", 9: "VPI", 10: "ROCm",
                 13: "CUDA managed", 14: "oneAPI"}


def foreign(x):
    """True for an array of another library that speaks DLPack (numpy's and gemmkit's own are not)."""
    return (x is not None and not isinstance(x, (np.ndarray, DeviceArray)) and hasattr(x, "__dlpack__")
            and hasattr(x, "__dlpack_device__"))


def host_view(x, name, writable=False):
    """x's memory as a numpy array, without a copy; GemmkitError for an array not on the host."""
    device_type, device_id = (int(v) for v in x.__dlpack_device__())
    if device_type != _CPU:
        raise GemmkitError(Status.INVALID_ARGUMENT,
                           "%s lives on a %s device (DLPack device %d, %d): gemmkit takes host arrays through "
                           "DLPack, and device memory as its own DeviceArrays" %
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


def exchanges(inputs, output):
    """A routine taking arrays named `inputs` and writing `output` (None: a new result): foreign host arrays
    among them are passed as numpy views, and the result comes back as the first foreign input's type (or as
    the foreign output array itself). Calls without one pay only the check."""
    def wrap(routine):
        signature = inspect.signature(routine)

        @functools.wraps(routine)
        def call(*args, **kwargs):
            if not any(foreign(v) for v in args) and not any(foreign(v) for v in kwargs.values()):
                return routine(*args, **kwargs)
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
