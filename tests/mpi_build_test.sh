#!/usr/bin/env bash
# mancala-mpi end to end: `mpirun -np 2` (and 3, an uneven split) builds the
# same bytes as `mancala build` for Kalah, Oware, Congkak and BrainKing; a
# run stopped part-way, or one that is asked for fewer levels first, resumes
# from the last complete level to identical files; bad input is one line on
# stderr and exit status 2 from every process; a rank holds a slice of the
# levels, not all of them.
#   mpi_build_test.sh MANCALA MANCALA_MPI MPIEXEC
set -uo pipefail
mancala=$1
mpi=$2
mpiexec=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# CI runs as root in a container: allow root, allow more processes than
# cores, keep to the shared-memory and loopback transports, and do without
# the single-copy (CMA) mechanism that containers often forbid.  -q keeps
# mpirun's own banners off stderr so that our one-line errors stay one line.
export OMPI_MCA_btl=self,vader
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1
run() {
  local np=$1; shift
  "$mpiexec" -q --allow-run-as-root --oversubscribe -np "$np" "$mpi" "$@"
}

# same_files A B K: levels 0..K exist in both and are byte-identical; no
# stray temporary files.
same_files() {
  local a=$1 b=$2 k=$3 n=0
  for ((s = 0; s <= k; s++)); do
    f=$(printf 'level_%03d.mtb' "$s")
    [ -f "$a/$f" ] && [ -f "$b/$f" ] || fail "$f missing in $a or $b"
    cmp -s "$a/$f" "$b/$f" || fail "$f differs between $a and $b"
    n=$((n + 1))
  done
  [ "$(ls "$b"/level_*.mtb | wc -l)" = "$n" ] || fail "$b holds other levels than 0..$k"
  [ -z "$(ls "$b"/*.tmp 2>/dev/null)" ] || fail "temporary files left in $b"
}

cases=(
  "kalah 4 10"
  "oware 4 8"
  "congkak 4 7"
  "brainking 3 10"
  "kalah 3 10 --empty-capture"
  "oware 3 9 --grand-slam forbidden"
)
i=0
for c in "${cases[@]}"; do
  read -r game pits k opts <<<"$c"
  i=$((i + 1))
  # shellcheck disable=SC2086
  "$mancala" build --game "$game" --pits "$pits" --max-seeds "$k" $opts --quiet --out "$work/ref$i" >/dev/null || fail "mancala build $c"
  for np in 2 3; do
    [ "$np" = 3 ] && [ "$i" -gt 2 ] && continue  # the uneven split on Kalah and Oware only
    # shellcheck disable=SC2086
    run "$np" build --game "$game" --pits "$pits" --max-seeds "$k" $opts --quiet --out "$work/mpi$i-$np" >"$work/out" 2>"$work/err" \
      || fail "mpirun -np $np mancala-mpi build $c: $(cat "$work/err")"
    same_files "$work/ref$i" "$work/mpi$i-$np" "$k"
    [ "$(wc -l <"$work/mpi$i-$np/build_times.csv")" = $((k + 1)) ] || fail "build_times.csv of $c: not one row per level"
    grep -q "on $np processes" "$work/out" || fail "summary line of $c on $np processes: $(cat "$work/out")"
    [ "$(grep -c '^total' "$work/out")" = 1 ] || fail "rank 0 alone prints: $(cat "$work/out")"
  done
done

# --json: one object, from rank 0 only, with the figures of the run.
run 2 build --game oware --pits 3 --max-seeds 6 --out "$work/json" --json >"$work/out" 2>&1 || fail "--json"
python3 - "$work/out" <<'PY' || fail "--json output: $(cat "$work/out")"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, lines
d = json.loads(lines[0])
assert d["ranks"] == 2 and d["max_seeds"] == 6 and len(d["levels"]) == 7
assert d["bytes_sent_total"] > 0 and d["peak_rss_mb_max_rank"] > 0
assert not any(l["reused"] for l in d["levels"])
PY

# Resume: fewer levels first, then all of them; the first levels are reused.
run 2 build --game oware --pits 4 --max-seeds 6 --quiet --out "$work/resume" >/dev/null || fail "partial build"
printf 'half a file' >"$work/resume/level_007.mtb.tmp"  # an interrupted write
run 2 build --game oware --pits 4 --max-seeds 8 --quiet --json --out "$work/resume" >"$work/out" || fail "resumed build"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=[l["reused"] for l in d["levels"]]; assert r == [True]*7 + [False]*2, r' \
  "$work/out" || fail "resume did not reuse exactly levels 0..6: $(cat "$work/out")"
same_files "$work/ref2" "$work/resume" 8

# A run stopped part-way (SIGTERM to mpirun, which stops every process) and
# run again ends with the same bytes as an uninterrupted single-machine
# build.  Each stop comes as soon as a given level's file appears, so it
# always lands in the middle of the run.
big="--game kalah --pits 5 --max-seeds 17 --quiet"
# shellcheck disable=SC2086
"$mancala" build $big --out "$work/ref-big" >/dev/null || fail "mancala build kalah 5 17"
next=12
for stop in 1 2; do
  # Stop as soon as a level this run has yet to write appears (SIGTERM may
  # take a level or two to land, so the second stop waits for one past what
  # the first left).
  level=$(printf '%03d' "$next")
  # mpirun itself in the background (not through `run`, whose subshell
  # would take the signal and leave mpirun building on beside the rerun);
  # the forked shell drops the EXIT trap first, so a signal that lands
  # before the exec cannot run it.
  # shellcheck disable=SC2086
  (trap - EXIT; exec "$mpiexec" -q --allow-run-as-root --oversubscribe -np 2 "$mpi" build $big --out "$work/stopped") >/dev/null 2>>"$work/stop.err" &
  pid=$!
  while kill -0 "$pid" 2>/dev/null && [ ! -f "$work/stopped/level_$level.mtb" ]; do sleep 0.05; done
  kill -TERM "$pid" 2>/dev/null
  status=0
  wait "$pid" 2>/dev/null || status=$?
  echo "stop $stop after level $level: exit status $status" >>"$work/stop.err"
  [ ! -f "$work/stopped/level_017.mtb" ] || fail "the run stopped after level $level finished: $(cat "$work/stop.err")"
  next=$(($(ls "$work"/stopped/level_*.mtb | wc -l) + 1))
  [ "$next" -le 16 ] || break
done
have=$(ls "$work"/stopped/level_*.mtb | wc -l)
[ "$have" -ge 13 ] || fail "the stops left only $have levels: $(cat "$work/stop.err")"
# shellcheck disable=SC2086
run 2 build $big --json --out "$work/stopped" >"$work/out" || fail "build after stops"
python3 -c 'import json,sys; n=int(sys.argv[2]); r=[l["reused"] for l in json.load(open(sys.argv[1]))["levels"]]; assert r == [True]*n + [False]*(18-n), r' \
  "$work/out" "$have" || fail "the rerun did not resume after the $have complete levels: $(cat "$work/out")"
same_files "$work/ref-big" "$work/stopped" 17

# Memory: a rank holds its slice of every level, not the levels.  The same
# tables with 1 and 3 ranks: the values a rank holds at its peak (its slices,
# plus the level being built) are all of them with 1 rank and about a third
# with 3 (each slice is at most size/3 + 1, one a level).
# shellcheck disable=SC2086
run 1 build $big --json --out "$work/mem1" >"$work/mem1.json" || fail "1-rank build"
# shellcheck disable=SC2086
run 3 build $big --json --out "$work/mem3" >"$work/mem3.json" || fail "3-rank build"
same_files "$work/ref-big" "$work/mem3" 17
python3 - "$work/mem1.json" "$work/mem3.json" <<'PY' || fail "values held per rank: $(cat "$work/mem1.json" "$work/mem3.json")"
import json, sys
one, three = (json.load(open(f)) for f in sys.argv[1:])
total = one["positions"]
assert one["max_resident_values_per_rank"] == total, one["max_resident_values_per_rank"]
held = three["max_resident_values_per_rank"]
assert total / 3 <= held <= total / 3 + 18, (held, total)
assert len(three["peak_rss_mb_per_rank"]) == 3 and min(three["peak_rss_mb_per_rank"]) > 0
assert three["values_requested_total"] > 0 and one["values_requested_total"] == 0
PY

# Bad input: one line on stderr (from rank 0 only), exit status 2.
expect() {
  local want=$1 words=$2; shift 2
  err=$(run 2 "$@" 2>&1 >/dev/null); rc=$?
  [ "$rc" = "$want" ] || fail "exit $rc (want $want): $*: $err"
  [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "not one line: $err"
  printf '%s' "$err" | grep -q -- "$words" || fail "message lacks '$words': $err"
}
expect 2 "unknown game 'nope'" build --game nope --pits 4 --max-seeds 3 --out "$work/x"
expect 2 "unrecognised option '--bogus'" build --pits 4 --max-seeds 3 --out "$work/x" --bogus
expect 2 "max-seeds" build --pits 4 --out "$work/x"
expect 2 "built for ruleset 'kalah'" build --game oware --pits 4 --max-seeds 10 --out "$work/ref1"
expect 2 "unknown command" frobnicate
cp -r "$work/ref2" "$work/corrupt"
printf '\x7f' | dd of="$work/corrupt/level_005.mtb" bs=1 seek=100 conv=notrunc 2>/dev/null
expect 2 "level_005.mtb" build --game oware --pits 4 --max-seeds 8 --out "$work/corrupt"
run 2 build --help | grep -q "^Usage: mpirun -np N mancala-mpi build" || fail "--help"
echo "1 passed, 0 failed"
