#!/usr/bin/env bash
# Install the real solvers tilekit's tests drive: CBC, GLPK, CaDiCaL, MiniSat, cliquer (apt);
# HiGHS (highsbox), Kissat (passagemath-kissat) and the GAMS compiler (gamspy-base) from PyPI
# into /opt/solvers, linked into /usr/local/bin; the DRAT proof checker rate (crates.io, built
# with cargo into /opt/solvers). Idempotent: re-running skips what is there.
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

need_apt=0
for b in cbc glpsol cadical minisat cliquer; do command -v "$b" >/dev/null 2>&1 || need_apt=1; done
if [ "$need_apt" = 1 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq coinor-cbc glpk-utils cadical minisat cliquer >/dev/null
fi

V=/opt/solvers
if [ ! -x "$V/bin/python" ]; then
  $SUDO python3 -m venv "$V"
fi
PY="$V/bin/python"
if ! "$PY" -c 'import highsbox' 2>/dev/null; then
  $SUDO "$V/bin/pip" install -q highsbox==1.15.1
fi
if ! "$PY" -c 'import gamspy_base' 2>/dev/null; then
  $SUDO "$V/bin/pip" install -q gamspy-base
fi
PURE=$("$PY" -c 'import sysconfig;print(sysconfig.get_paths()["purelib"])')
if [ ! -x "$PURE/sage_wheels/bin/kissat" ]; then
  $SUDO "$V/bin/pip" install -q --no-deps passagemath-kissat
fi
# highsbox's binary looks for its libraries in ../lib64 (RPATH) but ships them in ../lib.
D=$("$PY" -c 'import highsbox;print(highsbox.highs_dist_dir())')
[ -e "$D/lib64" ] || $SUDO ln -sfn lib "$D/lib64"
$SUDO ln -sf "$D/bin/highs" /usr/local/bin/highs
$SUDO ln -sf "$PURE/sage_wheels/bin/kissat" /usr/local/bin/kissat
G=$("$PY" -c 'import gamspy_base;print(gamspy_base.directory)')
$SUDO ln -sf "$G/gams" /usr/local/bin/gams

# rate: the independent DRAT checker behind `tilekit solve --via sat --certify` (~40 s build).
if [ ! -x "$V/bin/rate" ]; then
  $SUDO env "PATH=$PATH" cargo install --locked --quiet rate --version 0.3.0 --root "$V"
fi
$SUDO ln -sf "$V/bin/rate" /usr/local/bin/rate

for b in cbc glpsol highs cadical minisat kissat cliquer gams rate; do
  command -v "$b" >/dev/null || { echo "install-solvers: $b is still missing" >&2; exit 1; }
done
echo "install-solvers: cbc glpsol highs cadical minisat kissat cliquer gams rate are installed"
