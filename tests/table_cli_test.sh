#!/usr/bin/env bash
# The table commands end to end: a build killed with SIGKILL at several
# moments and rerun ends with the same bytes as an uninterrupted build;
# verify, info and probe on good and bad directories.
set -uo pipefail
mancala=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
build() { "$mancala" build --game kalah --pits 5 --max-seeds 17 --quiet "$@"; }

build --out "$work/clean" >/dev/null || fail "clean build"
for delay in 0.3 0.8 1.3; do
  # The binary itself in the background, not the shell function: $! must be
  # the build's own pid, or kill -9 hits a subshell and the build runs on
  # next to the following ones.
  "$mancala" build --game kalah --pits 5 --max-seeds 17 --quiet --out "$work/killed" >/dev/null &
  pid=$!
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
done
build --out "$work/killed" >/dev/null || fail "resumed build"
for f in "$work"/clean/level_*.mtb; do
  cmp -s "$f" "$work/killed/$(basename "$f")" || fail "$(basename "$f") differs after kill and resume"
done
[ -z "$(ls "$work"/killed/*.tmp 2>/dev/null)" ] || fail "temporary files left behind"

"$mancala" verify "$work/clean" --quiet >/dev/null || fail "verify of a good directory"
"$mancala" info "$work/clean" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["max_seeds"] == 17 and len(d["levels"]) == 18
assert all(l["build_seconds"] is not None and l["build_seconds"] >= 0 for l in d["levels"])
assert all(sum(l["histogram"].values()) == l["positions"] for l in d["levels"])' || fail "info --json"
"$mancala" info "$work/clean" | grep -q "^level 17 .* build [0-9.e-]* s$" || fail "info: build time of level 17"
# Without build_times.csv (files copied elsewhere) the time is unrecorded, not invented.
mkdir "$work/copied" && cp "$work"/clean/level_*.mtb "$work/copied/"
"$mancala" info "$work/copied" --json | python3 -c 'import json,sys; assert all(l["build_seconds"] is None for l in json.load(sys.stdin)["levels"])' \
  || fail "info without build_times.csv"
# probe agrees with solve on a position inside the tables.
pos="2,0,3,1,0/1,2,0,0,4 9-7 s"
pv=$("$mancala" probe --tables "$work/clean" --position "$pos" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')
sv=$("$mancala" solve --position "$pos" --json --quiet --tt-mb 16 | python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')
[ "$pv" = "$sv" ] || fail "probe $pv != solve $sv"
st=$("$mancala" solve --position "$pos" --tables "$work/clean" --json --quiet --tt-mb 16 | python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')
[ "$st" = "$sv" ] || fail "solve --tables $st != solve $sv"

# Bad directories: one line on stderr naming the problem; verify exits 1, the
# others 2.
expect() {
  local want=$1 words=$2; shift 2
  err=$("$@" 2>&1 >/dev/null); rc=$?
  [ "$rc" = "$want" ] || fail "exit $rc (want $want): $*: $err"
  [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "not one line: $err"
  printf '%s' "$err" | grep -q -- "$words" || fail "message lacks '$words': $err"
}
cp -r "$work/clean" "$work/bad"
printf '\x7f' | dd of="$work/bad/level_012.mtb" bs=1 seek=500 conv=notrunc 2>/dev/null
expect 1 "level_012.mtb" "$mancala" verify "$work/bad" --quiet
expect 2 "built for ruleset 'kalah'" "$mancala" probe --tables "$work/clean" --game oware --position "$pos"
expect 2 "pits a side" "$mancala" solve --tables "$work/clean" --position "1,1,1/1,1,1 0-0 s" --quiet
expect 2 "does not exist" "$mancala" verify "$work/nowhere"
expect 2 "reach" "$mancala" probe --tables "$work/clean" --position "9,9,9,9,9/1,0,0,0,0 0-0 s"
truncate -s 100 "$work/bad/level_016.mtb"
expect 2 "level_016.mtb" "$mancala" info "$work/bad"
echo "1 passed, 0 failed"
