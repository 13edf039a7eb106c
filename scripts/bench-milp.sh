#!/usr/bin/env bash
# The MILP route's figures in the README ("A generous horizon at no cost"), side by side in one
# run: each instance solved by whole `tilekit solve --via milp` commands, one per configuration,
# alternating, ROUNDS times; prints the median wall seconds and what each run proved.
#   scripts/bench-milp.sh 3 "case 13 25 37 49" "--horizon 80" "--horizon 80 --step"
#   scripts/bench-milp.sh 1 "76 77 78 79 80 81" "--incumbent native" "--incumbent astar"
# Usage: bench-milp.sh ROUNDS "IDS" CONFIG... ("case" is the NEOS case study, blank-last; a
# number is an id of models/sliding/fifteen_small_by_length.txt, blank-first). Every run gets
# `--model tight --solver ${SOLVER:-highs} --time-limit ${LIMIT:-60}` and the config's flags.
set -euo pipefail
rounds=$1 ids=$2
shift 2
bin=${TILEKIT:-target/release/tilekit}
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
board() {
  if [[ $1 == case ]]; then
    cp "$here/models/sliding/neos_case_study.txt" "$out/case.txt"
  else
    awk -v id="$1" '$1 == id { print "4 4"; for (i = 4; i <= 19; i++) printf "%s%s", $i, (i % 4 == 3 ? "\n" : " ") }' \
      "$here/models/sliding/fifteen_small_by_length.txt" > "$out/$1.txt"
    [[ -s $out/$1.txt ]] || { echo "no instance $1" >&2; exit 2; }
  fi
}
for id in $ids; do board "$id"; done
echo "MILP bench, ${SOLVER:-highs}, $rounds rounds, $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for id in $ids; do
  goal=blank-first
  [[ $id == case ]] && goal=blank-last
  for r in $(seq "$rounds"); do
    i=0
    for cfg in "$@"; do
      start=$(date +%s.%N)
      # shellcheck disable=SC2086
      "$bin" solve "$out/$id.txt" --goal $goal --via milp --model tight \
        --solver "${SOLVER:-highs}" --time-limit "${LIMIT:-60}" $cfg --json 2>/dev/null | tail -1 > "$out/$id.$i.$r.json" || true
      end=$(date +%s.%N)
      echo "$start $end" > "$out/$id.$i.$r.time"
      i=$((i + 1))
    done
  done
  i=0
  for cfg in "$@"; do
    python3 - "$id" "$cfg" "$out" "$i" "$rounds" <<'PY'
import json, statistics, sys
ident, cfg, out, i, rounds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
secs, last = [], None
for r in range(1, rounds + 1):
    a, b = map(float, open(f"{out}/{ident}.{i}.{r}.time").read().split())
    secs.append(b - a)
    try:
        last = json.load(open(f"{out}/{ident}.{i}.{r}.json"))
    except ValueError:
        last = None
secs.sort()
what = "no report" if last is None else (
    f"{last['status']} {last['objective']} (bound {last['bound']}, optimal {last['optimal']}, horizon {last.get('horizon')}): {last['solver_status'][:90]}")
print(f"{ident:>5} {cfg:28} median {statistics.median(secs):7.2f} s (min {secs[0]:.2f}, max {secs[-1]:.2f})  {what}")
PY
    i=$((i + 1))
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
