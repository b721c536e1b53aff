"""What every routine does around its C call: the options struct, and
which context the call runs on."""
import ctypes

from ._library import OptionsStruct
from .context import default_context
from .device_array import DeviceArray
from .math_modes import math_code


def options(kernel=None, params=None, math=None):
    """A pointer to a gemmkit_options for the call, or None (the defaults)
    when nothing is asked for. math: a mode name, None = the context's."""
    code = math_code(math)
    if kernel is None and params is None and not code:
        return None
    return ctypes.byref(OptionsStruct(kernel=kernel.encode() if kernel else None,
                                      params=params.encode() if params else None, math=code))


def on_device(arrays):
    """True when the call runs on DeviceArrays (then all must be), and their context."""
    given = [x for x in arrays if x is not None]
    device = [x for x in given if isinstance(x, DeviceArray)]
    if not device:
        return False, None
    if len(device) != len(given):
        raise TypeError("gemmkit: mix of DeviceArrays and host arrays; pass all on the device or all on the host")
    context = device[0].context
    if any(x.context is not context for x in device):
        raise ValueError("gemmkit: DeviceArrays of different contexts in one call")
    return True, context


def pick_context(given, arrays_context):
    if arrays_context is not None and given is not None and given is not arrays_context:
        raise ValueError("gemmkit: context= differs from the DeviceArrays' context")
    return arrays_context or given or default_context()
