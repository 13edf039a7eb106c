#!/usr/bin/env bash
# The test suite, against the real solvers (installed first). Two tiers:
#
#   bash scripts/test.sh          the quick tier, what CI runs: every test but those below,
#                                 with the installed solvers (feature solver-tests)
#   bash scripts/test.sh --full   adds the embedded HiGHS engine (`--features highs`, HiGHS's
#                                 C++ built from source: 5 minutes on 2 idle cores, far more on
#                                 a slow machine), the slow tier (feature slow-tests: CBC on the
#                                 case study's faithful model, the large pattern databases, ...)
#                                 and the benchmarks' builds
#
# Every test left out of a tier shows as ignored with its reason, never as passing. Set
# TILEKIT_SKIP_SOLVERS=1 to opt out of the solver tests explicitly: no install and no features,
# so the tests that need an installed program show as ignored (as under a plain `cargo test`).
# TILEKIT_TEST_FEATURES overrides the feature list (empty: none). The tests that need a licensed
# GAMS run only when GAMS's licence is valid (feature test-gams, below).
#
# Every parser's fuzz target runs over its committed corpus inside the suite
# (tests/fuzz_corpus.rs: the AFL++ binaries' own bodies, no instrumented build).
# TILEKIT_FUZZ_SECONDS=N adds an AFL++ run of N seconds per target before the tests
# (scripts/fuzz.sh, which installs cargo-afl on first use and fails on any crash or hang): the
# instrumented build of the whole crate it needs cost CI more than its few seconds of mutation
# found, so it is a developer's run, not CI's.
#
# The tests run against a real single-node Slurm cluster (scripts/slurm-cluster.sh), started
# in a fresh directory just before `cargo test` and stopped when this script exits, however it
# exits; the Slurm executor's tests find it through SLURM_CONF. Not with TILEKIT_SKIP_SOLVERS=1.
set -euo pipefail
cd "$(dirname "$0")/.."
full=0
for a in "$@"; do
  case "$a" in
    --full) full=1 ;;
    *) echo "usage: bash scripts/test.sh [--full]" >&2; exit 2 ;;
  esac
done
if [ "${TILEKIT_SKIP_SOLVERS:-0}" != 1 ]; then
  bash scripts/install-solvers.sh
fi
# TILEKIT_LINT=1 (CI) lints the crate while it builds for the tests: its own code is compiled
# by scripts/lint-rustc (clippy-driver, warnings denied), so the tests' build is also the lint
# of every target with the tests' features, and no separate `cargo clippy` compiles it again.
if [ "${TILEKIT_LINT:-0}" = 1 ]; then
  export RUSTC_WORKSPACE_WRAPPER="$PWD/scripts/lint-rustc"
fi
# The quick tier builds no feature but solver-tests, which changes only which tests are
# ignored: the library and binary are the default build, which so needs nothing but cargo.
# Opting out of the solvers opts out of every feature.
targets=(--lib --bins --tests --examples)
default_features=solver-tests
if [ "$full" = 1 ]; then
  targets=(--all-targets)
  default_features=highs,slow-tests,solver-tests
fi
[ "${TILEKIT_SKIP_SOLVERS:-0}" != 1 ] || default_features=
FEATURES="${TILEKIT_TEST_FEATURES-$default_features}"
# Every test target and the binary, built before the GAMS check below needs the binary, by
# `cargo test --no-run` rather than `cargo build`: the dev-dependencies change the features of
# some shared dependencies (getrandom, once_cell), so a `cargo build` here would compile the
# library once for itself and again for the tests.
cargo test --release --locked --no-run "${targets[@]}" ${FEATURES:+--features "$FEATURES"}
if [ -n "${TILEKIT_FUZZ_SECONDS:-}" ]; then
  FUZZ_PROFILE=smoke bash scripts/fuzz.sh "$TILEKIT_FUZZ_SECONDS"
fi
# GAMS's licence, checked once, here: the demo licence that PyPI's GAMS carries is time-limited.
# The tests that run GAMS need a valid one and run only with the test-gams feature, turned on
# unless GAMS says its licence stops it; then they show as ignored, and this says why. A GAMS
# that fails for another reason, or is missing, leaves them on, to fail loudly.
if [ "${TILEKIT_SKIP_SOLVERS:-0}" != 1 ]; then
  gams_licence=$("${CARGO_TARGET_DIR:-target}/release/tilekit" solvers --json | python3 -c '
import json, sys
row = next((r for r in json.load(sys.stdin) if r["name"] == "gams"), {})
licence = row.get("licence") or {}
print(licence.get("problem", "") if licence.get("state") == "invalid" else "")')
  if [ -n "$gams_licence" ]; then
    echo "test.sh: the tests that need a licensed GAMS show as ignored: $gams_licence"
  else
    FEATURES="${FEATURES:+$FEATURES,}test-gams"
  fi
fi
if [ "${TILEKIT_SKIP_SOLVERS:-0}" != 1 ]; then
  # Under /tmp, not $TMPDIR: slurmd puts Unix sockets in it, and their paths are limited.
  SLURM_DIR=$(mktemp -d /tmp/tilekit-slurm.XXXXXX)
  # Keep the cluster's logs when the run failed; they are in the directory.
  stop_slurm() {
    local rc=$?
    bash scripts/slurm-cluster.sh stop "$SLURM_DIR" || true
    if [ "$rc" = 0 ]; then rm -rf "$SLURM_DIR"; else echo "test.sh: Slurm's logs are in $SLURM_DIR" >&2; fi
  }
  trap stop_slurm EXIT
  # Assigned before eval: `eval "$(start)"` would run an empty string when start fails and
  # carry on, as eval's status, not start's, is what set -e sees.
  slurm_env=$(bash scripts/slurm-cluster.sh start "$SLURM_DIR")
  eval "$slurm_env"
fi
cargo test --release --locked "${targets[@]}" ${FEATURES:+--features "$FEATURES"}
# The target lists leave out the doctests: the library's examples run here.
cargo test --release --locked --doc ${FEATURES:+--features "$FEATURES"}
