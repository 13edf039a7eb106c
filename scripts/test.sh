#!/usr/bin/env bash
# The whole test suite, against the real solvers (installed first). Set
# TILEKIT_SKIP_SOLVERS=1 to opt out of the solver tests explicitly.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${TILEKIT_SKIP_SOLVERS:-0}" != 1 ]; then
  bash scripts/install-solvers.sh
fi
cargo build --release --locked
cargo test --release --locked --all-targets
