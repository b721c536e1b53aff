#!/usr/bin/env bash
# python/tests (pytest) on the in-tree package and this build's library,
# without installing anything. Exit 77 (skipped) when PYTHON lacks numpy or
# pytest (Debian: python3-numpy python3-pytest, which install-deps.sh adds).
# Usage: python_tests.sh SOURCE_DIR LIBRARY PYTHON
set -euo pipefail
src=$1 library=$2 python=$3
if ! "$python" -c "import numpy, pytest" 2>/dev/null; then
    echo "SKIP: $python lacks numpy or pytest"; exit 77
fi
export PYTHONPATH=$src/python${PYTHONPATH:+:$PYTHONPATH} GEMMKIT_LIBRARY=$library PYTHONDONTWRITEBYTECODE=1
exec "$python" -m pytest -p no:cacheprovider -q "$src/python/tests"
