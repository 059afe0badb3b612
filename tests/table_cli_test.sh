#!/usr/bin/env bash
# The table commands end to end: a build stopped at chosen points and
# resumed ends with the same bytes as an uninterrupted build (1 and 2
# threads); so does one killed with SIGKILL part-way; verify, info and probe
# on good and bad directories.
set -uo pipefail
mancala=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
top=17
build() { "$mancala" build --game kalah --pits 5 --max-seeds "$top" --quiet "$@"; }
level() { printf '%s/level_%03d.mtb' "$1" "$2"; }

build --out "$work/clean" >/dev/null || fail "clean build"

# holds DIR N [TMP]: DIR holds exactly the level files 0..N-1 and no
# temporary file but TMP, and build_times.csv has one row for each level: a
# level built twice (a resume that ignored a complete file) would have two.
holds() {
  local dir=$1 n=$2 tmp=${3:-}
  [ "$(ls "$dir" | grep -c '^level_[0-9]*\.mtb$')" = "$n" ] || fail "$dir holds $(ls "$dir" | tr '\n' ' '), not levels 0..$((n - 1))"
  for ((k = 0; k < n; k++)); do [ -f "$(level "$dir" "$k")" ] || fail "$(level "$dir" "$k") missing"; done
  [ "$(ls "$dir"/*.tmp 2>/dev/null)" = "$tmp" ] || fail "temporary files in $dir: $(ls "$dir"/*.tmp 2>/dev/null), not '$tmp'"
  [ "$(head -n 1 "$dir/build_times.csv")" = "ruleset,pits_per_side,level,positions,seconds,passes,threads,commit" ] \
    || fail "build_times.csv of $dir starts with $(head -n 1 "$dir/build_times.csv"), not its header row"
  [ "$(tail -n +2 "$dir/build_times.csv" | cut -d, -f3 | tr '\n' ' ')" = "$(seq -s ' ' 0 $((n - 1))) " ] \
    || fail "build_times.csv of $dir lists levels $(tail -n +2 "$dir/build_times.csv" | cut -d, -f3 | tr '\n' ' '), not 0..$((n - 1)) once each"
}
# same_as_clean DIR: every level file of the clean build, byte for byte.
same_as_clean() {
  holds "$1" $((top + 1))
  for ((k = 0; k <= top; k++)); do
    cmp -s "$(level "$work/clean" "$k")" "$(level "$1" "$k")" || fail "$(basename "$(level "$1" "$k")") differs after stops and resume"
  done
}
# resumed DIR N: the last run reused exactly levels 0..N-1 (its --json in DIR.json).
resumed() {
  python3 -c 'import json,sys; n=int(sys.argv[2]); t=int(sys.argv[3]); r=[l["reused"] for l in json.load(open(sys.argv[1]))["levels"]]; assert r == [True]*n + [False]*(t+1-n), r' \
    "$1.json" "$2" "$top" || fail "the resume in $1 did not reuse exactly levels 0..$(($2 - 1)): $(cat "$1.json")"
}

# Deterministic stops: the hidden test options end the build with status 75
# exactly at the point asked for, leaving the files as a SIGKILL there
# would.  Each stop must land mid-build (status 75 and the top level not
# there), so the resume after it always has something to resume.
for threads in 1 2; do
  dir=$work/stopped$threads
  stop() {
    build --threads "$threads" --out "$dir" "$@" >/dev/null 2>>"$work/stop.err"
    local rc=$?
    [ "$rc" = 75 ] || fail "build --threads $threads $*: exit status $rc, not the test stop's 75: $(cat "$work/stop.err")"
    [ ! -e "$(level "$dir" "$top")" ] || fail "build --threads $threads $* wrote the top level: the stop did not land mid-build"
  }
  stop --test-stop-after-level 0
  holds "$dir" 1
  # Half of level 9 written to its .tmp: the resume must rebuild it, not
  # take the partial file for a level.
  stop --test-stop-mid-level 9
  tmp=$(level "$dir" 9).tmp
  [ -f "$tmp" ] && [ ! -e "$(level "$dir" 9)" ] || fail "no partial $tmp (or level 9 complete): $(ls "$dir")"
  size=$(stat -c %s "$tmp") full=$(stat -c %s "$(level "$work/clean" 9)")
  # (The values go out a block at a time: half a level of one block is
  # not written yet, only the header's placeholder.)
  [ "$size" -gt 50 ] && [ "$size" -lt "$full" ] || fail "$tmp holds $size bytes, not part of level 9's $full"
  holds "$dir" 9 "$tmp"
  stop --test-stop-after-level $((top - 1))
  holds "$dir" "$top"
  # The resume, on the other thread count: the files do not depend on it.
  build --threads $((3 - threads)) --json --out "$dir" >"$dir.json" || fail "resume after the stops (threads $threads)"
  resumed "$dir" "$top"
  same_as_clean "$dir"
done

# A SIGKILL at an arbitrary moment (not one of the chosen points): sent as
# soon as level 13 appears, which leaves several levels to go; the run must
# not have finished first, or this would test nothing.  The binary itself
# in the background, not the shell function: $! must be the build's own
# pid, or kill -9 hits a subshell and the build runs on.
"$mancala" build --game kalah --pits 5 --max-seeds "$top" --quiet --threads 1 --out "$work/killed" >/dev/null &
pid=$!
while kill -0 "$pid" 2>/dev/null && [ ! -e "$(level "$work/killed" 13)" ]; do sleep 0.01; done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ ! -e "$(level "$work/killed" "$top")" ] || fail "the SIGKILL landed after the build had finished"
have=$(ls "$work"/killed/level_*.mtb | wc -l)
build --json --out "$work/killed" >"$work/killed.json" || fail "resumed build after SIGKILL"
resumed "$work/killed" "$have"
# A kill between a level's rename and its build_times.csv row leaves the
# level without a row: compare the files only.
for ((k = 0; k <= top; k++)); do
  cmp -s "$(level "$work/clean" "$k")" "$(level "$work/killed" "$k")" || fail "level $k differs after SIGKILL and resume"
done
[ -z "$(ls "$work"/killed/*.tmp 2>/dev/null)" ] || fail "temporary files left behind after SIGKILL and resume"

# The test options are hidden from --help, and refused out of range (a stop
# past the top level could never happen).
grep -q test-stop <<<"$("$mancala" build --help)" && fail "build --help lists the test-only options"
"$mancala" verify "$work/clean" --quiet >/dev/null || fail "verify of a good directory"
"$mancala" info "$work/clean" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["max_seeds"] == 17 and len(d["levels"]) == 18
assert all(l["build_seconds"] is not None and l["build_seconds"] >= 0 for l in d["levels"])
assert all(sum(l["histogram"].values()) == l["positions"] for l in d["levels"])' || fail "info --json"
grep -q "^level 17 .* build [0-9.e-]* s$" <<<"$("$mancala" info "$work/clean")" || fail "info: build time of level 17"
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

# A search above the tables reads the same values whether the levels are
# copied into memory first or read from the files (raw or compressed): the
# same value and the same nodes, and the value of a solve without tables.
above="3,3,3,2,0/2,3,3,3,0 0-0 s"
solve_above() {
  "$mancala" solve --position "$above" --json --quiet --tt-mb 16 --threads 1 "$@" |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["value"], d["nodes"])'
}
cp -r "$work/clean" "$work/zstd"
"$mancala" convert "$work/zstd" --compression zstd --block-size 4096 --quiet >/dev/null || fail "convert to zstd"
plain=$(solve_above | cut -d' ' -f1)
raw_no=$(solve_above --tables "$work/clean" --tables-in-memory no)
[ "${raw_no% *}" = "$plain" ] || fail "solve above the tables: $raw_no, without tables $plain"
for dir in clean zstd; do
  for mode in yes auto no; do
    got=$(solve_above --tables "$work/$dir" --tables-in-memory $mode)
    [ "$got" = "$raw_no" ] || fail "solve above the $dir tables, --tables-in-memory $mode: $got, read from the raw files $raw_no"
  done
done

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
expect 2 "tables-in-memory must be yes, no or auto" "$mancala" solve --tables "$work/clean" --position "$above" --tables-in-memory maybe --quiet
# A corrupt compressed block is found when the level is copied into memory.
size=$(stat -c %s "$work/zstd/level_015.mtb")
printf '\x5a\x5a\x5a\x5a' | dd of="$work/zstd/level_015.mtb" bs=1 seek=$((size - 300)) conv=notrunc 2>/dev/null
expect 2 "level_015.mtb" "$mancala" solve --tables "$work/zstd" --position "$above" --tables-in-memory yes --quiet
truncate -s 100 "$work/bad/level_016.mtb"
expect 2 "level_016.mtb" "$mancala" info "$work/bad"
expect 2 "test-stop-after-level must be between 0 and 17" build --out "$work/x" --test-stop-after-level 18
expect 2 "test-stop-mid-level must be between 0 and 17" build --out "$work/x" --test-stop-mid-level -1
[ ! -e "$work/x" ] || fail "a refused test stop created the directory"
echo "1 passed, 0 failed"
