#!/usr/bin/env bash
# How far the edge MaxSAT route goes on the META 2010 instances, against the MILP (filter +
# fix) and clique routes: `bash scripts/experiments/maxsat_reach.sh [LIMIT] [FIRST] [LAST]`
# (defaults 60 s, 3, 8), one thread, one run per cell, from the repository root after
# `cargo build --release`. Prints one tab-separated line per run: size, route, solver, status,
# unmatched seams (the verified board's), optimal, seconds. A size whose every run ended at
# the time limit without a proof is the last one tried. The README's MaxSAT table came from it.
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=${1:-60}
first=${2:-3}
last=${3:-8}
tk=target/release/tilekit
runs=(
  "maxsat rc2" "maxsat evalmaxsat" "maxsat uwrmaxsat" "maxsat open-wbo" "maxsat clasp"
  "milp cbc --filter --fix-corner" "milp highs --filter --fix-corner" "clique cliquer"
)
printf 'size\troute\tsolver\tstatus\tunmatched\toptimal\tseconds\n'
for n in $(seq "$first" "$last"); do
  inst=$(printf 'models/edge-matching/meta2010/pieces_%02dx%02d.txt' "$n" "$n")
  proved=0
  for r in "${runs[@]}"; do
    set -- $r
    via=$1 solver=$2
    shift 2
    start=$(date +%s.%N)
    json=$("$tk" solve "$inst" --via "$via" --solver "$solver" "$@" --time-limit "$limit" \
      --threads 1 --json --quiet 2>/dev/null || true)
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    line=$(python3 -c '
import json, sys
try:
    v = json.loads(sys.argv[1])
except ValueError:
    print("error\t-\tfalse"); sys.exit()
o = v.get("objective")
u = "-" if o is None or not v.get("verified") else str(int(o))
status = v.get("status") or "error: " + str(v.get("error"))
print(status + "\t" + u + "\t" + str(v.get("optimal", False)).lower())
' "$json")
    printf '%sx%s\t%s\t%s\t%s\t%.1f\n' "$n" "$n" "$via" "$solver" "$line" "$secs"
    case "$line" in *true) proved=1 ;; esac
  done
  [ "$proved" = 1 ] || break
done
