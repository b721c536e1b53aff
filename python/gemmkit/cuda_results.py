"""New results of calls on CUDA arrays, allocated by the caller's own library on the operand's device, so
that the caller gets its own type back (torch in, torch out) and that library owns and frees the memory."""
import sys

import numpy as np


def _torch(like, shape):
    torch = sys.modules["torch"]
    return torch.empty(shape, dtype=torch.float32, device=like.device)


def _cupy(like, shape):
    cupy = sys.modules["cupy"]
    with cupy.cuda.Device(like.device.id):
        return cupy.empty(shape, dtype=cupy.float32)


def _jax(like, shape):
    # JAX arrays are immutable and carry no stream: the result is a fresh buffer of JAX's that gemmkit fills
    # (nothing else refers to it yet); it must be ready before gemmkit writes it.
    import jax
    import jax.numpy as jnp
    device = next(iter(like.devices()))
    try:
        result = jnp.zeros(shape, dtype=jnp.float32, device=device)
    except TypeError:  # a JAX before jnp.zeros(device=)
        result = jax.device_put(jnp.zeros(shape, dtype=jnp.float32), device)
    result.block_until_ready()
    return result


def _numba(like, shape):
    from numba import cuda
    return cuda.device_array(shape, dtype=np.float32)


# library name (cuda_arrays.library_of) -> allocate(like, shape): a C-ordered float32 array on like's device.
ALLOCATORS = {"torch": _torch, "cupy": _cupy, "jax": _jax, "numba": _numba}

# Libraries whose arrays cannot be written in place: out= is refused for them.
IMMUTABLE = {"jax"}


def empty_like(view, shape):
    """A new C-ordered float32 array of `shape` from the library of view's array, on its device."""
    allocate = ALLOCATORS.get(view.library)
    if allocate is None:
        raise TypeError("gemmkit: no way to allocate a result for %s (%s arrays): pass the output (c= / out=)"
                        % (view.name, view.library))
    return allocate(view.owner, tuple(int(n) for n in shape))
