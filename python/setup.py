"""`pip install ./python` builds libgemmkit from the checkout and puts it inside the package.

The package itself is pure Python (ctypes over the C library, pyproject.toml). Where the gemmkit sources are found
(GEMMKIT_SOURCE_DIR, else the folder above this one when it is a gemmkit checkout), building the package first
builds the shared library with CMake (Release, the library target alone) and copies it into the package as
gemmkit/libgemmkit.so.MAJOR, which _library.py loads before any other: no `make install`, no LD_LIBRARY_PATH. The
wheel is then platform-specific (`pip wheel ./python`: for machines of the same kind). GEMMKIT_PYTHON_NO_BUILD=1,
or no sources, gives the pure package, which finds an installed library as before.
"""
import glob
import os
import pathlib
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = pathlib.Path(__file__).resolve().parent


def _version_major():
    namespace = {}
    exec((HERE / "gemmkit" / "_version.py").read_text(), namespace)
    return int(namespace["__version__"].split(".")[0])


def _source_dir():
    """The gemmkit checkout to build, or None."""
    if os.environ.get("GEMMKIT_PYTHON_NO_BUILD") not in (None, "", "0"):
        return None
    explicit = os.environ.get("GEMMKIT_SOURCE_DIR")
    candidate = pathlib.Path(explicit) if explicit else HERE.parent
    cmake_lists = candidate / "CMakeLists.txt"
    if cmake_lists.is_file() and "project(gemmkit" in cmake_lists.read_text():
        return candidate
    if explicit:
        raise RuntimeError("GEMMKIT_SOURCE_DIR=%s is no gemmkit checkout (no CMakeLists.txt of project gemmkit)"
                           % explicit)
    return None


class BuildWithLibrary(build_py):
    """build_py, then libgemmkit built by CMake and copied into the built package."""

    def run(self):
        super().run()
        source = _source_dir()
        if source is None:
            return
        build = pathlib.Path(os.path.abspath(os.path.join(os.path.dirname(self.build_lib), "cmake-libgemmkit")))
        jobs = str(os.cpu_count() or 2)
        subprocess.check_call(["cmake", "-S", str(source), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                               "-DGEMMKIT_BLAS_SYMBOLS=OFF"])
        subprocess.check_call(["cmake", "--build", str(build), "--target", "gemmkit", "-j", jobs])
        soname = "libgemmkit.so.%d" % _version_major()
        built = sorted(glob.glob(str(build / "libgemmkit.so.*.*.*")))
        if not built:
            raise RuntimeError("CMake built no libgemmkit.so.X.Y.Z in %s" % build)
        target = pathlib.Path(self.build_lib) / "gemmkit" / soname
        shutil.copyfile(built[-1], target)


class BinaryDistribution(Distribution):
    """A wheel with the library inside is for one platform, not every one."""

    def has_ext_modules(self):
        return _source_dir() is not None


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=BinaryDistribution)
