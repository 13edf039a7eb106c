#!/usr/bin/env bash
# The Python package as a user installs it: a fresh virtual environment, `pip install .` (the
# build backend, maturin, comes from PyPI and builds the `tilekit` binary with cargo), then the
# test dependencies and pytest over the API (python/tests: the case study by SAT and MILP, the
# tight model solved by highspy and SciPy, an edge board verified, bad inputs, an interrupted
# solve, and every docstring's example).
#
# The build goes to $CARGO_TARGET_DIR when it is set (CI's, whose dependency builds it
# reuses), else to target/ as a plain `cargo build` does. The environment is removed
# afterwards, however the script ends.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"
venv=$(mktemp -d "${TMPDIR:-/tmp}/tilekit-venv.XXXXXX")
trap 'rm -rf "$venv"' EXIT
"$python" -m venv "$venv"
start=$SECONDS
"$venv/bin/pip" install --quiet --disable-pip-version-check .
echo "test-python.sh: pip install . took $((SECONDS - start)) s"
"$venv/bin/tilekit" --version
"$venv/bin/pip" install --quiet --disable-pip-version-check pytest highspy numpy scipy pandas
# From the checkout's root, so that the examples find models/; the package imported is the
# installed one (python/ is not on the path). Nothing is written into the checkout.
PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" -m pytest -q -p no:cacheprovider python/tests
