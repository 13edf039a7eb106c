#!/usr/bin/env bash
# Install the real solvers tilekit's tests drive: CBC, GLPK, CaDiCaL, MiniSat, cliquer and the
# MaxSAT solver clasp (apt); HiGHS (highsbox), Kissat (passagemath-kissat), SCIP (pyscipopt, run
# through scripts/scip/tilekit-scip.py), CP-SAT (ortools, through scripts/cpsat/tilekit-cpsat.py), GAMS
# (gamspy-base, unpinned, with the state of its time-limited demo licence reported) and the MaxSAT solvers RC2 (python-sat) and EvalMaxSAT, UWrMaxSat, Open-WBO
# (hermax, run through scripts/maxsat/tilekit-hermax.py) from PyPI into /opt/solvers, linked
# into /usr/local/bin; the DRAT proof checker rate (crates.io, built
# with cargo into /opt/solvers); what `cargo build --features highs` needs to build HiGHS
# from source: cmake and a C++ compiler (apt), libclang for bindgen; and
# Slurm with munge (apt: slurmctld, slurmd, slurm-client, munge), the single-node cluster that
# scripts/slurm-cluster.sh starts for the Slurm executor's tests.
# Idempotent: re-running skips what is there.
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

need_apt=0
# `script` (bsdutils) gives the progress-bar test a pseudo-terminal; Debian ships it always.
for b in cbc glpsol cadical minisat cliquer script; do command -v "$b" >/dev/null 2>&1 || need_apt=1; done
if [ "$need_apt" = 1 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq coinor-cbc glpk-utils cadical minisat cliquer bsdutils >/dev/null
fi

# clasp: the one MaxSAT solver Debian packages (reads the old `p wcnf` format). Its own line,
# without recommends: nothing else comes with it.
if ! command -v clasp >/dev/null 2>&1; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends clasp >/dev/null
fi

# The `highs` feature: highs-sys drives HiGHS's C++ build with cmake and generates its Rust
# bindings with bindgen, which loads libclang (the C library, not libclang-cpp) at build time.
# libclang1 is the shared library alone; libclang-dev would add ~240 MB of static archives
# that bindgen does not use.
# (grep without -q reads all of ldconfig's output: an early exit would SIGPIPE ldconfig and
# fail the pipeline under pipefail.)
have_libclang() {
  { ldconfig -p 2>/dev/null || /sbin/ldconfig -p; } | grep 'libclang\(-[0-9.]*\)\?\.so' >/dev/null
}
need_build=0
for b in cmake c++; do command -v "$b" >/dev/null 2>&1 || need_build=1; done
have_libclang || need_build=1
if [ "$need_build" = 1 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    cmake g++ libclang1 >/dev/null
fi

# Slurm: the daemons and client tools alone, without recommends (8 packages, ~1.5 MB); the
# slurm-wlm metapackage would pull 46 (hdf5, rocm-smi, elasticsearch... plugins we never load).
# Installs start no daemons here (no systemd; policy-rc.d refuses), slurm-cluster.sh does.
# The daemons live in /usr/sbin, which a user's PATH may lack.
need_slurm=0
for b in sbatch slurmctld slurmd munged; do
  PATH="$PATH:/usr/sbin:/sbin" command -v "$b" >/dev/null 2>&1 || need_slurm=1
done
if [ "$need_slurm" = 1 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    slurmctld slurmd slurm-client munge >/dev/null
fi

V=/opt/solvers
if [ ! -x "$V/bin/python" ]; then
  $SUDO python3 -m venv "$V"
fi
PY="$V/bin/python"
if ! "$PY" -c 'import highsbox' 2>/dev/null; then
  $SUDO "$V/bin/pip" install -q highsbox==1.15.1
fi
# GAMS: gamspy-base unpinned, because each release carries a fresh time-limited demo licence
# (see gams_state below).
if ! "$PY" -c 'import gamspy_base' 2>/dev/null; then
  $SUDO "$V/bin/pip" install -q gamspy-base
fi
PURE=$("$PY" -c 'import sysconfig;print(sysconfig.get_paths()["purelib"])')
if [ ! -x "$PURE/sage_wheels/bin/kissat" ]; then
  $SUDO "$V/bin/pip" install -q --no-deps passagemath-kissat
fi
# MaxSAT: RC2 (python-sat ships rc2.py as a script of the venv) and hermax's bundled solvers,
# which have no command line: tilekit-hermax is the wrapper, installed with the venv's Python.
if ! "$PY" -c 'import pysat, hermax' 2>/dev/null; then
  $SUDO "$V/bin/pip" install -q python-sat==1.9.dev24 hermax==1.2.10
fi
# SCIP: PySCIPOpt's wheel bundles it; tilekit-scip is the command around it.
if ! "$PY" -c 'import pyscipopt' 2>/dev/null; then
  $SUDO "$V/bin/pip" install -q pyscipopt==6.3.0
fi
HERE=$(cd "$(dirname "$0")" && pwd)
sed "1s|.*|#!$PY|" "$HERE/scip/tilekit-scip.py" | $SUDO tee "$V/bin/tilekit-scip" >/dev/null
$SUDO chmod 755 "$V/bin/tilekit-scip"
$SUDO ln -sf "$V/bin/tilekit-scip" /usr/local/bin/tilekit-scip
# gbd-tools: the Global Benchmark Database's own hash (`gbdc identify`), which the tests hold
# tilekit's to.
if ! "$PY" -c 'import gbdc' 2>/dev/null; then
  $SUDO "$V/bin/pip" install -q gbd-tools==5.3.2
fi
$SUDO ln -sf "$V/bin/gbdc" /usr/local/bin/gbdc
# CP-SAT: OR-Tools' wheel; tilekit-cpsat reads an MPS file through its model builder.
if ! "$PY" -c 'import ortools' 2>/dev/null; then
  $SUDO "$V/bin/pip" install -q ortools==9.15.6755
fi
sed "1s|.*|#!$PY|" "$HERE/cpsat/tilekit-cpsat.py" | $SUDO tee "$V/bin/tilekit-cpsat" >/dev/null
$SUDO chmod 755 "$V/bin/tilekit-cpsat"
$SUDO ln -sf "$V/bin/tilekit-cpsat" /usr/local/bin/tilekit-cpsat
sed "1s|.*|#!$PY|" "$HERE/maxsat/tilekit-hermax.py" | $SUDO tee "$V/bin/tilekit-hermax" >/dev/null
$SUDO chmod 755 "$V/bin/tilekit-hermax"
$SUDO ln -sf "$V/bin/rc2.py" /usr/local/bin/rc2.py
$SUDO ln -sf "$V/bin/tilekit-hermax" /usr/local/bin/tilekit-hermax
# highsbox's binary looks for its libraries in ../lib64 (RPATH) but ships them in ../lib.
D=$("$PY" -c 'import highsbox;print(highsbox.highs_dist_dir())')
[ -e "$D/lib64" ] || $SUDO ln -sfn lib "$D/lib64"
$SUDO ln -sf "$D/bin/highs" /usr/local/bin/highs
$SUDO ln -sf "$PURE/sage_wheels/bin/kissat" /usr/local/bin/kissat
G=$("$PY" -c 'import gamspy_base;print(gamspy_base.directory)')
# What GAMS says of a one-line compile-only run: its `***` lines joined (the status, and the
# cause when its licence stops it).
gams_state() {
  local d out
  d=$(mktemp -d)
  printf 'Set i / 1 /;\n' >"$d/probe.gms"
  out=$(cd "$d" && "$G/gams" probe.gms action=c lo=3 2>&1) || true
  rm -rf "$d"
  grep '^\*\*\*' <<<"$out" | grep -v 'License file:\|Inspect listing' | tr -s ' ' | paste -sd ' ' - || true
}
gams=$(gams_state)
if grep -q 'licensing error' <<<"$gams"; then
  # The installed release's licence has run out: a newer release, when PyPI has one, brings a
  # fresh licence. Without one (or without the network) GAMS stays as it is.
  $SUDO "$V/bin/pip" install -q -U gamspy-base || true
  G=$("$PY" -c 'import gamspy_base;print(gamspy_base.directory)')
  gams=$(gams_state)
fi
$SUDO ln -sf "$G/gams" /usr/local/bin/gams
gams_version=$("$PY" -c 'import importlib.metadata as m;print(m.version("gamspy-base"))')
if grep -q 'licensing error' <<<"$gams"; then
  echo "install-solvers: GAMS $gams_version (gamspy-base, the newest on PyPI) is installed but" \
    "its licence stops it ($gams): the tests that need a licensed GAMS will show as ignored"
else
  echo "install-solvers: GAMS $gams_version (gamspy-base) runs: ${gams:-no status line}"
fi

# rate: the independent DRAT checker behind `tilekit solve --via sat --certify` (~40 s build).
if [ ! -x "$V/bin/rate" ]; then
  $SUDO env "PATH=$PATH" cargo install --locked --quiet rate --version 0.3.0 --root "$V"
fi
$SUDO ln -sf "$V/bin/rate" /usr/local/bin/rate

for b in cbc glpsol highs cadical minisat kissat cliquer gams rate clasp rc2.py tilekit-hermax tilekit-scip tilekit-cpsat gbdc \
  cmake c++ sbatch slurmctld slurmd munged; do
  PATH="$PATH:/usr/sbin:/sbin" command -v "$b" >/dev/null ||
    { echo "install-solvers: $b is still missing" >&2; exit 1; }
done
have_libclang || {
  echo "install-solvers: libclang (for bindgen) is still missing" >&2
  exit 1
}
echo "install-solvers: cbc glpsol highs cadical minisat kissat cliquer gams rate clasp rc2.py" \
  "tilekit-hermax tilekit-scip tilekit-cpsat gbdc are installed, cmake, c++ and libclang for --features highs, and Slurm with" \
  "munge for scripts/slurm-cluster.sh"
