"""Finds and loads libgemmkit with ctypes and declares the C signatures.

Where the library is looked for, first hit wins:
  1. GEMMKIT_LIBRARY (a path), and then only there: an explicit choice that
     fails should say so, not fall back to another build;
  2. the package's own copy, which `pip install ./python` builds and puts
     beside this file (python/setup.py);
  3. the checkout's build tree, when this package runs from python/ in it;
  4. the loader's own search (LD_LIBRARY_PATH, the ldconfig cache: /usr/lib,
     /usr/local/lib after `sudo ldconfig`);
  5. <sys.prefix>/lib (a library installed into the virtual environment);
  6. pkg-config's libdir for gemmkit (PKG_CONFIG_PATH covers other prefixes).
"""
import ctypes
import os
import pathlib
import shutil
import subprocess
import sys

from ._version import __version__

_MAJOR = int(__version__.split(".")[0])
SONAME = "libgemmkit.so.%d" % _MAJOR


def _pkg_config_libdir():
    if not shutil.which("pkg-config"):
        return None
    try:
        out = subprocess.run(["pkg-config", "--variable=libdir", "gemmkit"], capture_output=True,
                             text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else None


def _candidates():
    explicit = os.environ.get("GEMMKIT_LIBRARY")
    if explicit:
        yield explicit
        return
    packaged = pathlib.Path(__file__).resolve().parent / SONAME
    if packaged.exists():
        yield str(packaged)
    checkout_build = pathlib.Path(__file__).resolve().parent.parent.parent / "build" / "libgemmkit.so"
    if checkout_build.exists():
        yield str(checkout_build)
    yield SONAME
    yield os.path.join(sys.prefix, "lib", SONAME)
    libdir = _pkg_config_libdir()
    if libdir:
        yield os.path.join(libdir, SONAME)


def _load():
    tried = []
    for candidate in _candidates():
        try:
            lib = ctypes.CDLL(candidate)
        except OSError as error:
            tried.append("%s (%s)" % (candidate, error))
            continue
        if not hasattr(lib, "gemmkit_version"):
            tried.append("%s (older than gemmkit 0.1: no gemmkit_version)" % candidate)
            continue
        return lib, candidate
    raise ImportError("gemmkit: libgemmkit not found; tried:\n  " + "\n  ".join(tried) +
                      "\nInstall the package from a gemmkit checkout (`pip install ./python` builds the library into it), "
                      "install the library (`make install`, then `sudo ldconfig` for /usr/local) or set "
                      "GEMMKIT_LIBRARY=/path/to/libgemmkit.so")


class DeviceInfoStruct(ctypes.Structure):
    """gemmkit_device_info, field for field (include/gemmkit.h)."""
    _fields_ = [
        ("backend", ctypes.c_char * 16),
        ("platform", ctypes.c_char * 128),
        ("name", ctypes.c_char * 128),
        ("vendor", ctypes.c_char * 128),
        ("driver_version", ctypes.c_char * 128),
        ("is_gpu", ctypes.c_int),
        ("compute_units", ctypes.c_int),
        ("clock_mhz", ctypes.c_int),
        ("lanes_per_unit", ctypes.c_int),
        ("local_mem_bytes", ctypes.c_size_t),
        ("max_work_group_size", ctypes.c_size_t),
        ("global_mem_bytes", ctypes.c_size_t),
        ("max_alloc_bytes", ctypes.c_size_t),
        ("peak_gflops", ctypes.c_double),
    ]


class OptionsStruct(ctypes.Structure):
    """gemmkit_options, field for field (include/gemmkit.h; test_library checks the names and order)."""
    _fields_ = [
        ("kernel", ctypes.c_char_p),
        ("params", ctypes.c_char_p),
        ("kernel_ms", ctypes.POINTER(ctypes.c_double)),
        ("total_ms", ctypes.POINTER(ctypes.c_double)),
        ("device_only", ctypes.c_int),
        ("math", ctypes.c_int),  # gemmkit_math: 0 = the context's mode
    ]


_int, _i64, _size, _f32, _ptr = ctypes.c_int, ctypes.c_int64, ctypes.c_size_t, ctypes.c_float, ctypes.c_void_p
_u64 = ctypes.c_uint64
_options = ctypes.POINTER(OptionsStruct)

# name: (restype, argtypes). Handles (contexts, buffers) and host arrays are
# plain addresses (c_void_p); enums are ints.
_SIGNATURES = {
    "gemmkit_version": (ctypes.c_char_p, [ctypes.POINTER(_int)] * 3),
    "gemmkit_strerror": (ctypes.c_char_p, [_int]),
    "gemmkit_last_error_message": (ctypes.c_char_p, []),
    "gemmkit_last_build_log": (ctypes.c_char_p, []),
    "gemmkit_device_count": (_int, [_int, ctypes.POINTER(_int)]),
    "gemmkit_device_get_info": (_int, [_int, _int, ctypes.POINTER(DeviceInfoStruct)]),
    "gemmkit_context_create_ex": (_int, [ctypes.POINTER(_ptr), _int, ctypes.c_char_p]),
    "gemmkit_context_destroy": (None, [_ptr]),
    "gemmkit_context_device_info": (_int, [_ptr, ctypes.POINTER(DeviceInfoStruct)]),
    "gemmkit_context_warnings": (ctypes.c_char_p, [_ptr]),
    "gemmkit_sgemm_ex": (_int, [_ptr, _options, _int, _int, _int, _i64, _i64, _i64, _f32, _ptr, _i64, _ptr,
                                _i64, _f32, _ptr, _i64]),
    "gemmkit_buffer_create": (_int, [_ptr, _size, ctypes.POINTER(_ptr)]),
    "gemmkit_buffer_destroy": (None, [_ptr]),
    "gemmkit_buffer_write": (_int, [_ptr, _ptr, _size, _size, _ptr]),
    "gemmkit_buffer_read": (_int, [_ptr, _ptr, _size, _size, _ptr]),
    "gemmkit_sgemm_buffers": (_int, [_ptr, _options, _int, _int, _int, _i64, _i64, _i64, _f32, _ptr, _size,
                                     _i64, _ptr, _size, _i64, _f32, _ptr, _size, _i64]),
    "gemmkit_sgemm_strided_batched": (_int, [_ptr, _options, _int, _int, _int, _i64, _i64, _i64, _f32, _ptr,
                                              _i64, _i64, _ptr, _i64, _i64, _f32, _ptr, _i64, _i64, _i64]),
    "gemmkit_context_set_math": (_int, [_ptr, _int]),
    "gemmkit_context_get_math": (_int, [_ptr, ctypes.POINTER(_int)]),
    "gemmkit_somatcopy": (_int, [_ptr, _int, _int, _i64, _i64, _f32, _ptr, _i64, _ptr, _i64]),
    "gemmkit_somatcopy_buffers": (_int, [_ptr, _options, _int, _int, _i64, _i64, _f32, _ptr, _size, _i64,
                                         _ptr, _size, _i64]),
    # gemmkit_cuda.h: CUcontext and CUstream are addresses, CUdeviceptr a 64-bit integer (_u64).
    "gemmkit_context_create_cuda": (_int, [_ptr, ctypes.POINTER(_ptr)]),
    "gemmkit_sgemm_cuda_enqueue": (_int, [_ptr, _ptr, _int, _int, _int, _i64, _i64, _i64, _f32, _u64, _i64, _u64,
                                          _i64, _f32, _u64, _i64]),
    "gemmkit_sgemm_strided_batched_cuda_enqueue": (_int, [_ptr, _ptr, _int, _int, _int, _i64, _i64, _i64, _f32,
                                                          _u64, _i64, _i64, _u64, _i64, _i64, _f32, _u64, _i64,
                                                          _i64, _i64]),
    "gemmkit_somatcopy_cuda_enqueue": (_int, [_ptr, _ptr, _int, _int, _i64, _i64, _f32, _u64, _i64, _u64, _i64]),
    "gemmkit_cuda_workspace_size": (_int, [_ptr, _int, _int, _int, _i64, _i64, _i64, _f32, _u64, _i64, _u64, _i64,
                                           _f32, _u64, _i64, ctypes.POINTER(_size)]),
    "gemmkit_cuda_strided_batched_workspace_size": (_int, [_ptr, _int, _int, _int, _i64, _i64, _i64, _f32, _u64,
                                                           _i64, _i64, _u64, _i64, _i64, _f32, _u64, _i64, _i64,
                                                           _i64, ctypes.POINTER(_size)]),
    "gemmkit_cuda_set_workspace": (_int, [_ptr, _u64, _size]),
}

lib, path = _load()
for _name, (_restype, _argtypes) in _SIGNATURES.items():
    _function = getattr(lib, _name)
    _function.restype = _restype
    _function.argtypes = _argtypes


def library_version():
    """The loaded library's (major, minor, patch)."""
    numbers = [ctypes.c_int() for _ in range(3)]
    lib.gemmkit_version(*[ctypes.byref(n) for n in numbers])
    return tuple(n.value for n in numbers)


if library_version()[0] != _MAJOR:
    raise ImportError("gemmkit: %s is version %s; this package (%s) needs %d.x" %
                      (path, ".".join(map(str, library_version())), __version__, _MAJOR))
