#!/usr/bin/env bash
# The whole test suite, against the real solvers (installed first). Set
# TILEKIT_SKIP_SOLVERS=1 to opt out of the solver tests explicitly. Set
# TILEKIT_TEST_FEATURES (e.g. `highs`, as CI does) to run the suite with those cargo features;
# the featureless release build comes first either way, so the default build stays proven.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${TILEKIT_SKIP_SOLVERS:-0}" != 1 ]; then
  bash scripts/install-solvers.sh
fi
cargo build --release --locked
cargo test --release --locked --all-targets \
  ${TILEKIT_TEST_FEATURES:+--features "$TILEKIT_TEST_FEATURES"}
