#!/usr/bin/env bash
# The Python package as a user installs it, offline: `cmake --install` into a
# prefix in the build tree, `pip install ./python` into a virtual environment
# that sees the system's numpy (--system-site-packages; Debian's own python
# refuses pip outside one), then README.md's Python example, run outside the
# checkout, must find that installed library (through pkg-config) and print
# only True. Exit 77 (skipped) without numpy (the package's one dependency,
# which offline pip cannot fetch) or venv/pip.
# Usage: python_pip_install.sh SOURCE_DIR BUILD_DIR PYTHON
set -euo pipefail
src=$1 build=$2 python=$3
if ! "$python" -c "import numpy" 2>/dev/null; then
    echo "SKIP: $python lacks numpy (Debian: apt-get install python3-numpy)"; exit 77
fi
work=$build/python-install-test
rm -rf "$work"
mkdir -p "$work/run"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
if ! "$python" -m venv --system-site-packages "$work/venv" >"$work/venv.log" 2>&1; then
    cat "$work/venv.log"; echo "SKIP: $python -m venv failed (Debian: apt-get install python3-venv)"; exit 77
fi
# The venv sees the system's site-packages, not a user's (~/.local): numpy must be there.
if ! "$work/venv/bin/python" -c "import numpy" 2>/dev/null; then
    echo "SKIP: no numpy in $python's system site-packages (Debian: apt-get install python3-numpy)"; exit 77
fi
# No network here: build with the system's setuptools rather than fetch one.
# From a copy: setuptools writes build/ and *.egg-info beside the sources.
cp -r "$src/python" "$work/python"
"$work/venv/bin/pip" install --quiet --no-build-isolation --no-index "$work/python"
awk '/^```python$/{on=1; next} /^```$/{if(on) exit} on' "$src/README.md" >"$work/run/example.py"
[[ -s $work/run/example.py ]] || { echo "FAIL: README.md has no python block"; exit 1; }
cd "$work/run"
export PKG_CONFIG_PATH=$(dirname "$(find "$prefix" -name gemmkit.pc)")
unset GEMMKIT_LIBRARY
where=$("$work/venv/bin/python" -c "import gemmkit; print(gemmkit.__file__, gemmkit.library_path)")
echo "$where"
[[ $where == "$work/venv/"*" $prefix/"* ]] || { echo "FAIL: not the venv's package on the installed library"; exit 1; }
out=$("$work/venv/bin/python" example.py)
echo "$out"
[[ $out == *True* && $out != *False* ]] || { echo "FAIL: README's example"; exit 1; }
echo "PASS python_pip_install"
