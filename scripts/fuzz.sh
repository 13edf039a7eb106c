#!/usr/bin/env bash
# Fuzz tilekit's parsers with AFL++ through cargo-afl (stable Rust; installed here on first
# use), one target after another, and report each one's executions and findings.
#
#   bash scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#
# SECONDS_PER_TARGET defaults to 60; the targets are fuzz/src/bin/*.rs (all by default), whose
# bodies, fuzz/src/targets/*.rs, the test suite also runs over the committed corpus.
# FUZZ_EXECS=N runs each target until it has made about N executions instead (AFL's -E), with
# SECONDS_PER_TARGET still a ceiling: `FUZZ_EXECS=10000000 bash scripts/fuzz.sh 3600`. Each
# starts from its seeds in fuzz/corpus/TARGET and writes AFL's state to fuzz/out/TARGET
# (FUZZ_OUT overrides fuzz/out; it is emptied first). A target's process may use 2048 MB of
# address space (-m; FUZZ_MEM_MB overrides): an allocation past that bound aborts it and
# counts as a crash. An input that runs longer than FUZZ_TIMEOUT_MS (default 5000) is a hang:
# the slowest input found that the parsers' own bounds allow, a DIMACS header declaring
# MAX_PARSE_VARS (2^24) variables, takes about 2.2 s and 0.9 GB in the instrumented build.
#
# FUZZ_MERGE=1 then minimises each clean target's corpus (its seeds plus what AFL found) with
# afl-cmin into fuzz/corpus/TARGET, new files named by content hash: how the committed corpus
# grows. (cargo afl cmin runs AFL++'s Python afl-cmin, which records no coverage from these
# persistent-mode targets here, so the shell version next to afl-fuzz is used.)
#
# Exits 1 when any target saved a crash or a hang (their inputs are listed: reproduce one
# with `fuzz/target/PROFILE/TARGET < FILE`), 2 on a usage error or a missing tool.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-60}
[ "$#" -gt 0 ] && shift
case "$secs" in
  '' | *[!0-9]*) echo "usage: $0 [SECONDS_PER_TARGET] [TARGET...]" >&2; exit 2 ;;
esac
all=$(cd fuzz/src/bin && ls -- *.rs | sed 's/\.rs$//')
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || mapfile -t targets <<<"$all"
for t in "${targets[@]}"; do
  if ! grep -qx -- "$t" <<<"$all"; then
    echo "fuzz.sh: no target $t; the targets are:" $all >&2
    exit 2
  fi
done
# cargo-afl, AFL++ for Rust on stable, installed on first use for the user who runs the fuzzer
# (not with sudo): `cargo afl config --build` compiles AFL++ (about a minute; a C compiler and
# make) into that user's ~/.local/share/afl.rs, where cargo-afl looks. The version matches the
# `afl` crate that fuzz/Cargo.lock pins.
if ! cargo afl --version >/dev/null 2>&1; then
  echo "fuzz.sh: installing cargo-afl 0.18.2 (first use)" >&2
  cargo install --locked --quiet cargo-afl --version 0.18.2 ||
    { echo "fuzz.sh: cargo install cargo-afl failed" >&2; exit 2; }
fi
if ! afl_out=$(cargo afl config --build 2>&1) && ! grep -q "already built" <<<"$afl_out"; then
  echo "$afl_out" >&2
  echo "fuzz.sh: building AFL++ for cargo-afl failed" >&2
  exit 2
fi

# FUZZ_PROFILE=smoke (CI's short runs) builds with fuzz/Cargo.toml's quicker `smoke` profile.
profile=${FUZZ_PROFILE:-release}
case "$profile" in
  release | smoke) ;;
  *) echo "fuzz.sh: FUZZ_PROFILE is release or smoke, not $profile" >&2; exit 2 ;;
esac
(cd fuzz && cargo afl build --profile "$profile" --locked)
bindir=fuzz/target/$profile

out=${FUZZ_OUT:-fuzz/out}
mem=${FUZZ_MEM_MB:-2048}
tmout=${FUZZ_TIMEOUT_MS:-5000}
mkdir -p "$out"
stop=()
if [ -n "${FUZZ_EXECS:-}" ]; then
  case "$FUZZ_EXECS" in
    *[!0-9]*) echo "fuzz.sh: FUZZ_EXECS must be a whole number of executions" >&2; exit 2 ;;
  esac
  stop=(-E "$FUZZ_EXECS")
fi
# Batch runs: no curses screen, no CPU-governor or core-dump-handler checks (containers and
# CI machines cannot change them), no pinning to a core the machine may share.
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1

stat() { sed -n "s/^$1 *: *//p" "$2/default/fuzzer_stats"; }
findings() { find "$2/default/$1" -type f ! -name README.txt 2>/dev/null; }

# afl-cmin.bash lies beside the afl-fuzz that `cargo afl config --build` built for this rustc.
merge() {
  local t=$1 dir=$2 bin min f
  bin=$(ls -d "${XDG_DATA_HOME:-$HOME/.local/share}"/afl.rs/rustc-"$(rustc -V | awk '{print $2 "-" substr($3, 2, 7)}')"/afl.rs-*/afl/bin | tail -n 1)
  min=$(mktemp -d)
  cp "fuzz/corpus/$t"/* "$dir/default/queue/"
  PATH="$bin:$PATH" "$bin/afl-cmin.bash" -i "$dir/default/queue" -o "$min/out" -m "$mem" \
    -t "$tmout" -- "$bindir/$t" >"$out/$t.cmin.log" 2>&1
  rm -rf "fuzz/corpus/$t"
  mkdir -p "fuzz/corpus/$t"
  for f in "$min/out"/*; do
    case "${f##*/}" in
      id:*) cp "$f" "fuzz/corpus/$t/$(sha1sum <"$f" | cut -c1-16)" ;;
      *) cp "$f" "fuzz/corpus/$t/" ;;
    esac
  done
  rm -rf "$min"
  echo "   $t: corpus minimised to $(ls "fuzz/corpus/$t" | wc -l) files"
}

summary=()
bad=()
for t in "${targets[@]}"; do
  dir="$out/$t"
  rm -rf "$dir"
  echo "== fuzz $t for ${secs}s${FUZZ_EXECS:+ or $FUZZ_EXECS executions, whichever comes first}"
  cargo afl fuzz -i "fuzz/corpus/$t" -o "$dir" -m "$mem" -t "$tmout" -V "$secs" "${stop[@]}" \
    -- "$bindir/$t" >"$out/$t.log" 2>&1 || {
    tail -n 30 "$out/$t.log" >&2
    echo "fuzz.sh: afl-fuzz failed on $t (log: $out/$t.log)" >&2
    exit 2
  }
  crashes=$(findings crashes "$dir" | wc -l)
  hangs=$(findings hangs "$dir" | wc -l)
  summary+=("$(printf '%-16s %12s %8s %10s %8s %6s %6s' "$t" "$(stat execs_done "$dir")" \
    "$(stat run_time "$dir")" "$(stat execs_per_sec "$dir")" "$(stat corpus_count "$dir")" \
    "$crashes" "$hangs")")
  if [ "$crashes" -gt 0 ] || [ "$hangs" -gt 0 ]; then
    bad+=("$t")
  elif [ "${FUZZ_MERGE:-0}" = 1 ]; then
    merge "$t" "$dir"
  fi
done

printf '%-16s %12s %8s %10s %8s %6s %6s\n' target executions seconds execs/s corpus crash hang
printf '%s\n' "${summary[@]}"
if [ "${#bad[@]}" -gt 0 ]; then
  for t in "${bad[@]}"; do
    echo "fuzz.sh: $t found inputs that crash or hang:" >&2
    { findings crashes "$out/$t"; findings hangs "$out/$t"; } | sed 's/^/  /' >&2
  done
  exit 1
fi
echo "fuzz.sh: ${#targets[@]} targets, no crash, no hang"
