#!/usr/bin/env bash
# Side by side: the native solver's search options on one benchmark set, in one run.
# Each configuration is run ROUNDS times, alternating, by the same binary (or by a second
# binary given as BASE=path for a "before" column); prints nodes and the median, min and max
# of the search seconds (databases loaded beforehand, not counted).
#   scripts/bench-native.sh korf100 7-8 3 "" "--fsm 12" "--fsm 12 --dual --bpmx"
# Usage: bench-native.sh SET PDB ROUNDS CONFIG... (a config is a string of bench flags;
# prefix one with "base:" to run it with $BASE instead of target/release/tilekit).
set -euo pipefail
set_name=$1 pdb=$2 rounds=$3
shift 3
bin=${TILEKIT:-target/release/tilekit}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for r in $(seq "$rounds"); do
  i=0
  for cfg in "$@"; do
    b=$bin c=$cfg
    if [[ $cfg == base:* ]]; then b=${BASE:?BASE=path to the before binary}; c=${cfg#base:}; fi
    # shellcheck disable=SC2086
    "$b" bench "$set_name" --pdb "$pdb" $c --json 2>/dev/null | tail -1 > "$out/$i.$r.json"
    i=$((i + 1))
  done
done
echo "$set_name, pdb $pdb, $rounds rounds, $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
for cfg in "$@"; do
  python3 - "$cfg" "$out" "$i" "$rounds" <<'PY'
import json, sys, statistics
cfg, out, i, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
runs = [json.load(open(f"{out}/{i}.{r}.json"))["summary"] for r in range(1, rounds + 1)]
secs = sorted(x["wall_seconds"] for x in runs)
nodes = {x["nodes"] for x in runs}
bad = sum(x["mismatches"] + x["timeouts"] for x in runs)
print(f"{cfg or '(defaults)':32} nodes {'/'.join(str(n) for n in sorted(nodes)):>24}  "
      f"search s median {statistics.median(secs):.3f} (min {secs[0]:.3f}, max {secs[-1]:.3f})"
      f"{'  PROBLEMS: %d' % bad if bad else ''}  [{runs[0]['heuristic']}]")
PY
  i=$((i + 1))
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
