#!/usr/bin/env bash
# The Python bindings as a new user meets them: a fresh venv, `pip install ./python`
# (maturin, fetched by pip as the build backend, compiles the extension in release mode),
# then the pytest suite in python/tests against scipy (matplotlib too when it installs)
# and, in test_differential.py, against SuiteSparse:GraphBLAS through python-graphblas.
# VENV=DIR reuses a venv folder (default: a temporary one, removed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ -n "${VENV:-}" ]; then
    venv=$VENV
else
    venv=$(mktemp -d)/venv
    trap 'rm -rf "$(dirname "$venv")"' EXIT
fi
"$PY" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet pytest scipy numpy
"$venv/bin/python" -m pip install --quiet matplotlib || echo "matplotlib did not install: its test skips"
# The differential test's reference (pulls the suitesparse-graphblas wheel); a test-only dependency.
"$venv/bin/python" -m pip install --quiet python-graphblas ||
    echo "python-graphblas did not install: test_differential.py skips"
"$venv/bin/python" -m pip install ./python
# Run from the tests folder, so that `import edgeblas` finds the installed package and
# not python/edgeblas (which has no compiled extension).
cd python/tests
"$venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
