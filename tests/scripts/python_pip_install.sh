#!/usr/bin/env bash
# The Python package as a user installs it, offline (--no-index, --no-build-isolation: the system's setuptools and
# wheel), in virtual environments that see the system's numpy (--system-site-packages; Debian's own python refuses
# pip outside one), README.md's Python example run outside the checkout each time, printing only True:
#   1. `pip install` of the package from a checkout: it builds libgemmkit (python/setup.py) and carries it, with no
#      `make install`, no LD_LIBRARY_PATH, no pkg-config;
#   2. `pip wheel` of the same, installed into a second environment: the wheel carries the library;
#   3. GEMMKIT_PYTHON_NO_BUILD=1: the pure package on a library installed by `cmake --install`, found through
#      pkg-config.
# The package is copied first (setuptools writes build/ and *.egg-info beside the sources); GEMMKIT_SOURCE_DIR points
# the copy's build at the checkout. Exit 77 (skipped) without numpy (the package's one dependency, which offline pip
# cannot fetch), venv, pip or wheel.
# Usage: python_pip_install.sh SOURCE_DIR BUILD_DIR PYTHON
set -euo pipefail
src=$1 build=$2 python=$3
if ! "$python" -c "import numpy, wheel" 2>/dev/null; then
    echo "SKIP: $python lacks numpy or wheel (Debian: apt-get install python3-numpy python3-pip)"; exit 77
fi
work=$build/python-install-test
rm -rf "$work"
mkdir -p "$work/run"
new_venv() {
    if ! "$python" -m venv --system-site-packages "$1" >"$work/venv.log" 2>&1; then
        cat "$work/venv.log"; echo "SKIP: $python -m venv failed (Debian: apt-get install python3-venv)"; exit 77
    fi
    # The venv sees the system's site-packages, not a user's (~/.local): numpy must be there.
    "$1/bin/python" -c "import numpy" 2>/dev/null ||
        { echo "SKIP: no numpy in $python's system site-packages (Debian: apt-get install python3-numpy)"; exit 77; }
}
awk '/^```python$/{on=1; next} /^```$/{if(on) exit} on' "$src/README.md" >"$work/run/example.py"
[[ -s $work/run/example.py ]] || { echo "FAIL: README.md has no python block"; exit 1; }
# run_example VENV WANT_PREFIX: README's example in VENV, its library under WANT_PREFIX, with no variable to help.
run_example() (
    cd "$work/run"
    unset GEMMKIT_LIBRARY LD_LIBRARY_PATH
    where=$("$1/bin/python" -c "import gemmkit; print(gemmkit.__file__, gemmkit.library_path)")
    echo "$where"
    [[ $where == "$1/"*" $2"* ]] || { echo "FAIL: not the venv's package on the library wanted ($2)"; exit 1; }
    out=$("$1/bin/python" example.py)
    echo "$out"
    [[ $out == *True* && $out != *False* ]] || { echo "FAIL: README's example"; exit 1; }
)
copy_package() { # the sources alone: a build/ left by an in-tree pip install belongs to another folder
    cp -r "$src/python" "$1"
    rm -rf "$1/build" "$1"/*.egg-info
}
copy_package "$work/python"
export GEMMKIT_SOURCE_DIR=$src
pip_quiet=(--quiet --no-build-isolation --no-index)

echo "== 1. pip install: the library built into the package"
new_venv "$work/venv"
"$work/venv/bin/pip" install "${pip_quiet[@]}" "$work/python" >"$work/pip-install.log" 2>&1 ||
    { tail -30 "$work/pip-install.log"; echo "FAIL: pip install"; exit 1; }
site=$("$work/venv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['platlib'])")
PKG_CONFIG_PATH=/nonexistent run_example "$work/venv" "$site/gemmkit/libgemmkit.so."

echo "== 2. pip wheel, installed elsewhere"
"$work/venv/bin/pip" wheel "${pip_quiet[@]}" --no-deps -w "$work/wheels" "$work/python" >"$work/pip-wheel.log" 2>&1 ||
    { tail -30 "$work/pip-wheel.log"; echo "FAIL: pip wheel"; exit 1; }
wheel_file=$(ls "$work/wheels"/gemmkit-*.whl)
[[ $wheel_file == *linux* ]] || { echo "FAIL: $wheel_file is no platform wheel"; exit 1; }
# The listing whole first: grep -q stopping early would fail unzip's pipe under pipefail.
listing=$(unzip -l "$wheel_file")
grep -q 'gemmkit/libgemmkit\.so\.' <<<"$listing" || { echo "FAIL: no library in $wheel_file"; exit 1; }
new_venv "$work/venv-wheel"
"$work/venv-wheel/bin/pip" install --quiet --no-index "$wheel_file"
site=$("$work/venv-wheel/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['platlib'])")
PKG_CONFIG_PATH=/nonexistent run_example "$work/venv-wheel" "$site/gemmkit/libgemmkit.so."

echo "== 3. the pure package on an installed library"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
copy_package "$work/python-pure"
new_venv "$work/venv-pure"
GEMMKIT_PYTHON_NO_BUILD=1 "$work/venv-pure/bin/pip" install "${pip_quiet[@]}" "$work/python-pure"
PKG_CONFIG_PATH=$(dirname "$(find "$prefix" -name gemmkit.pc)") run_example "$work/venv-pure" "$prefix/"
echo "PASS python_pip_install"
