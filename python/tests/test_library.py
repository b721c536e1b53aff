"""The package and the library it loads: same version as include/gemmkit.h
(when run from the checkout), and GEMMKIT_LIBRARY obeyed strictly."""
import os
import pathlib
import re
import subprocess
import sys

import pytest

import gemmkit

HEADER = pathlib.Path(__file__).resolve().parents[2] / "include" / "gemmkit.h"


@pytest.mark.skipif(not HEADER.exists(), reason="not run from a gemmkit checkout")
def test_versions_agree_with_the_header():
    numbers = dict(re.findall(r"^#define GEMMKIT_VERSION_(MAJOR|MINOR|PATCH) (\d+)$", HEADER.read_text(), re.M))
    header = (int(numbers["MAJOR"]), int(numbers["MINOR"]), int(numbers["PATCH"]))
    assert gemmkit.library_version() == header
    assert gemmkit.__version__ == "%d.%d.%d" % header


def test_gemmkit_library_is_the_only_place_looked_at():
    env = dict(os.environ, GEMMKIT_LIBRARY="/nonexistent/libgemmkit.so.0")
    run = subprocess.run([sys.executable, "-c", "import gemmkit"], env=env, capture_output=True, text=True)
    assert run.returncode != 0
    assert "/nonexistent/libgemmkit.so.0" in run.stderr and "GEMMKIT_LIBRARY" in run.stderr


def struct_members(name):
    """The member names of `typedef struct NAME {...} NAME;` in the header, in order."""
    body = re.search(r"typedef struct %s \{(.*?)\} %s;" % (name, name), HEADER.read_text(), re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    return [re.search(r"(\w+)(\[[^]]*\])?\s*$", decl.strip()).group(1) for decl in body.split(";") if decl.strip()]


@pytest.mark.skipif(not HEADER.exists(), reason="not run from a gemmkit checkout")
@pytest.mark.parametrize("c_name, struct", [("gemmkit_options", gemmkit._library.OptionsStruct),
                                             ("gemmkit_device_info", gemmkit._library.DeviceInfoStruct)])
def test_structs_match_the_header(c_name, struct):
    # A field added in C but not here shifts or leaves garbage in what the library reads.
    assert [field[0] for field in struct._fields_] == struct_members(c_name)
