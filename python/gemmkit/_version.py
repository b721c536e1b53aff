# The package's version: the C library's (include/gemmkit.h), checked by
# tests/test_library.py. The loaded library must have the same MAJOR.
__version__ = "0.1.0"
