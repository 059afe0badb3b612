#!/usr/bin/env bash
# mancala-mpi end to end: `mpirun -np 2` (and 3, an uneven split) builds the
# same bytes as `mancala build` for Kalah, Oware, Congkak and BrainKing, with
# every rank writing its own slices (--files shared, what auto picks here)
# and with rank 0 alone writing (--files root); a
# run stopped part-way (every rank, rank 0 or rank 1, after a level or
# half-way through writing one), or one that is asked for fewer levels
# first, resumes from the last complete level to identical files; bad input is one line on
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
  "kalah 4 10 --compression zstd --block-size 1024"
  "oware 4 8 --compression zstd --block-size 1024"
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
    if [ "$np" = 2 ] && { [ "$i" = 1 ] || [ "$i" = 2 ] || [ "$i" = 7 ]; }; then  # rank 0 alone writing, too
      # shellcheck disable=SC2086
      run 2 build --game "$game" --pits "$pits" --max-seeds "$k" $opts --files root --quiet --json --out "$work/root$i" >"$work/root.json" \
        2>"$work/err" || fail "mpirun -np 2 mancala-mpi build $c --files root: $(cat "$work/err")"
      same_files "$work/ref$i" "$work/root$i" "$k"
      grep -q '"shared_files":false' "$work/root.json" || fail "--files root: $(cat "$work/root.json")"
    fi
    [ "$(wc -l <"$work/mpi$i-$np/build_times.csv")" = $((k + 2)) ] || fail "build_times.csv of $c: not one row per level"
    grep -q "on $np processes" "$work/out" || fail "summary line of $c on $np processes: $(cat "$work/out")"
    [ "$(grep -c '^total' "$work/out")" = 1 ] || fail "rank 0 alone prints: $(cat "$work/out")"
  done
  # Acyclic levels split both ways whatever their balance (auto picks row
  # sums for nearly all of these levels): the same files.
  if [ "$game" != oware ]; then
    for split in "2 ranks" "3 ranks" "3 row-sums"; do
      read -r np how <<<"$split"
      # shellcheck disable=SC2086
      run "$np" build --game "$game" --pits "$pits" --max-seeds "$k" $opts --split "$how" --quiet --out "$work/split$i-$np-$how" \
        >/dev/null 2>"$work/err" || fail "mpirun -np $np mancala-mpi build $c --split $how: $(cat "$work/err")"
      same_files "$work/ref$i" "$work/split$i-$np-$how" "$k"
    done
  fi
done

# A distributed build resumed from compressed levels (each rank decodes its
# slice, or rank 0 decodes them to send each rank its own) ends with the
# single-machine build's files.
for files in shared root; do
  rm -rf "$work/zresume"
  cp -r "$work/ref7" "$work/zresume"
  rm "$work/zresume/level_010.mtb" "$work/zresume/level_009.mtb"
  run 2 build --game kalah --pits 4 --max-seeds 10 --compression zstd --block-size 1024 --files "$files" --quiet --out "$work/zresume" \
    >/dev/null 2>"$work/err" || fail "resume from compressed levels (--files $files): $(cat "$work/err")"
  same_files "$work/ref7" "$work/zresume" 10
done
# Shared writes of a raw build resumed into packed files: the levels reused
# in another format are converted, the new ones written packed.
"$mancala" build --game kalah --pits 4 --max-seeds 10 --compression packed --block-size 1024 --quiet --out "$work/refp" >/dev/null ||
  fail "mancala build packed"
cp -r "$work/mpi1-2" "$work/presume"
rm "$work/presume/level_010.mtb"
run 2 build --game kalah --pits 4 --max-seeds 10 --compression packed --block-size 1024 --files shared --quiet --out "$work/presume" \
  >/dev/null 2>"$work/err" || fail "packed resume: $(cat "$work/err")"
same_files "$work/refp" "$work/presume" 10
# A corrupt block in a rank's slice of a level being resumed: that rank
# finds it, and every rank stops with its one line.
cp -r "$work/mpi1-2" "$work/badslice"
rm "$work/badslice/level_010.mtb"
f="$work/badslice/level_009.mtb"
printf '\x55' | dd of="$f" bs=1 seek=$(($(stat -c %s "$f") - 10)) conv=notrunc 2>/dev/null
err=$(run 2 build --game kalah --pits 4 --max-seeds 10 --quiet --out "$work/badslice" 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] || fail "a corrupt block of rank 1's slice: exit status $rc: $err"
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && grep -q "level_009.mtb: block .* checksum mismatch" <<<"$err" || fail "a corrupt block of rank 1's slice: $err"

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
assert d["shared_files"] is True, "auto did not pick shared writes on one machine"
PY

# Resume: fewer levels first, then all of them; the first levels are reused.
run 2 build --game oware --pits 4 --max-seeds 6 --quiet --out "$work/resume" >/dev/null || fail "partial build"
printf 'half a file' >"$work/resume/level_007.mtb.tmp"  # an interrupted write
run 2 build --game oware --pits 4 --max-seeds 8 --quiet --json --out "$work/resume" >"$work/out" || fail "resumed build"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=[l["reused"] for l in d["levels"]]; assert r == [True]*7 + [False]*2, r' \
  "$work/out" || fail "resume did not reuse exactly levels 0..6: $(cat "$work/out")"
same_files "$work/ref2" "$work/resume" 8

# A run stopped part-way and run again ends with the same bytes as an
# uninterrupted single-machine build.  The stops are the hidden test options
# (build_options.hpp): the process (every rank, or the one of
# --test-stop-rank) ends with _exit(75) exactly at the point asked for, as a
# kill there would, and mpirun ends the others and exits 75 too.  Each stop
# must land mid-build: that status, and the top level not written.
big="--game kalah --pits 5 --max-seeds 17 --quiet"
# shellcheck disable=SC2086
"$mancala" build $big --out "$work/ref-big" >/dev/null || fail "mancala build kalah 5 17"
stopped=$work/stopped
stop() {
  # shellcheck disable=SC2086
  run 2 build $big --out "$stopped" "$@" >/dev/null 2>>"$work/stop.err"
  local rc=$?
  [ "$rc" = 75 ] || fail "mpirun -np 2 mancala-mpi build $*: exit status $rc, not the test stop's 75: $(cat "$work/stop.err")"
  [ ! -e "$stopped/level_017.mtb" ] || fail "mancala-mpi build $* wrote the top level: the stop did not land mid-build"
}
# holds N [TMP]: $stopped holds exactly levels 0..N-1, no temporary file but
# TMP, and one build_times.csv row a level (two for a level built twice: a
# resume that ignored a complete file).
holds() {
  local n=$1 tmp=${2:-}
  [ "$(ls "$stopped" | grep -c '^level_[0-9]*\.mtb$')" = "$n" ] || fail "$stopped holds $(ls "$stopped" | tr '\n' ' '), not levels 0..$((n - 1))"
  for ((k = 0; k < n; k++)); do [ -f "$(printf '%s/level_%03d.mtb' "$stopped" "$k")" ] || fail "level $k missing in $stopped"; done
  [ "$(ls "$stopped"/*.tmp 2>/dev/null)" = "$tmp" ] || fail "temporary files in $stopped: $(ls "$stopped"/*.tmp 2>/dev/null), not '$tmp'"
  [ "$(tail -n +2 "$stopped/build_times.csv" | cut -d, -f3 | tr '\n' ' ')" = "$(seq -s ' ' 0 $((n - 1))) " ] \
    || fail "build_times.csv lists levels $(tail -n +2 "$stopped/build_times.csv" | cut -d, -f3 | tr '\n' ' '), not 0..$((n - 1)) once each"
}
stop --test-stop-after-level 5  # every rank
holds 6
# Rank 0 alone (the writer): rank 1 is left in level 11's collectives.
stop --test-stop-after-level 10 --test-stop-rank 0
holds 11
# Rank 0 half-way through writing level 13 from the slices (its own, then
# rank 1's): the resume must rebuild it, not take the partial file.
stop --test-stop-mid-level 13 --files root
tmp=$stopped/level_013.mtb.tmp
size=$(stat -c %s "$tmp" 2>/dev/null || echo 0) full=$(stat -c %s "$work/ref-big/level_013.mtb")
[ "$size" -gt 100 ] && [ "$size" -lt "$full" ] || fail "$tmp holds $size bytes, not part of level 13's $full"
holds 13 "$tmp"
# With shared writes: every rank's blocks written, the header not yet (the
# .tmp is at its full size, its header still zeros).
rm "$tmp"
stop --test-stop-mid-level 13 --files shared
size=$(stat -c %s "$tmp" 2>/dev/null || echo 0)
[ "$size" = "$full" ] || fail "$tmp holds $size bytes, not level 13's $full"
[ "$(head -c 8 "$tmp" | od -An -tx1 | tr -d ' ')" = 0000000000000000 ] || fail "$tmp has its header before the stop"
holds 13 "$tmp"
# Rank 1 alone: rank 0, which writes the files, is left in level 17's.
stop --test-stop-after-level 16 --test-stop-rank 1
holds 17
# The resume, on 3 processes: the files depend on neither split.
# shellcheck disable=SC2086
run 3 build $big --json --out "$stopped" >"$work/out" || fail "build after stops"
python3 -c 'import json,sys; r=[l["reused"] for l in json.load(open(sys.argv[1]))["levels"]]; assert r == [True]*17 + [False], r' \
  "$work/out" || fail "the rerun did not resume after the 17 complete levels: $(cat "$work/out")"
holds 18
same_files "$work/ref-big" "$stopped" 17
# Memory: a rank holds its slice of every level, not the levels.  The same
# tables with 1 and 3 ranks: the values a rank holds at its peak (its slices,
# plus the level being built: its row-sum classes, at most 5% over a third,
# and the slice they go to) are all of them and the last level again with 1
# rank, and about a third with 3 (each slice is at most size/3 + 1, one a
# level).
# shellcheck disable=SC2086
run 1 build $big --json --out "$work/mem1" >"$work/mem1.json" || fail "1-rank build"
# shellcheck disable=SC2086
run 3 build $big --json --out "$work/mem3" >"$work/mem3.json" || fail "3-rank build"
same_files "$work/ref-big" "$work/mem3" 17
python3 - "$work/mem1.json" "$work/mem3.json" <<'PY' || fail "values held per rank: $(cat "$work/mem1.json" "$work/mem3.json")"
import json, sys
from math import comb
one, three = (json.load(open(f)) for f in sys.argv[1:])
total = one["positions"]
last = comb(17 + 9, 9)
assert one["max_resident_values_per_rank"] == total + last, one["max_resident_values_per_rank"]
held = three["max_resident_values_per_rank"]
# Slices are whole blocks of 2^16 values: rank r holds from floor(S r / 3)
# rounded down to a block (slice_begin, cyclic_slice.hpp), of every level.
def begin(size, r):
    return size if r == 3 else size * r // 3 // 65536 * 65536
sizes = [comb(k + 9, 9) for k in range(18)]
expected = max(sum(begin(s, r + 1) - begin(s, r) for s in sizes) for r in range(3))
assert expected <= held <= expected + last * 105 // 300 + 1, (held, expected, total)
assert held < (total + last) / 2, (held, total)  # 1 rank holds total + last
assert len(three["peak_rss_mb_per_rank"]) == 3 and min(three["peak_rss_mb_per_rank"]) > 0
assert three["values_requested_total"] > 0 and one["values_requested_total"] == 0
PY

# One rank out of memory (a test-only failed allocation on rank 1 after
# level 2, while rank 0 waits in level 3's collectives): the job ends, not
# hangs, with exit status 4 and the reason.
err=$(timeout 120 "$mpiexec" -q --allow-run-as-root --oversubscribe -np 2 "$mpi" build --pits 4 --max-seeds 8 --quiet \
  --out "$work/oom" --test-out-of-memory-rank 1 2>&1 >/dev/null); rc=$?
[ "$rc" = 4 ] || fail "a rank out of memory: exit status $rc, not 4: $err"
grep -q "^mancala-mpi: error: rank 1 of 2 ran out of memory (the build needs about [0-9]* MiB a process" <<<"$err" || fail "a rank out of memory: $err"
[ -f "$work/oom/level_002.mtb" ] && [ ! -f "$work/oom/level_003.mtb" ] || fail "a rank out of memory: $(ls "$work/oom")"

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
expect 2 "('03') for option '--max-seeds'" build --pits 4 --max-seeds 03 --out "$work/x"
expect 2 "built for ruleset 'kalah'" build --game oware --pits 4 --max-seeds 10 --out "$work/ref1"
expect 2 "unknown command" frobnicate
expect 2 "--files must be auto, shared or root, not 'nfs'" build --pits 4 --max-seeds 3 --out "$work/x" --files nfs
expect 2 "--split must be auto, row-sums or ranks, not 'diagonal'" build --pits 4 --max-seeds 3 --out "$work/x" --split diagonal
expect 2 "--split row-sums keeps a board's moves in a byte: at most 8 pits a side" build --pits 9 --max-seeds 3 --out "$work/x9" --split row-sums
cp -r "$work/ref2" "$work/corrupt"
printf '\x7f' | dd of="$work/corrupt/level_005.mtb" bs=1 seek=100 conv=notrunc 2>/dev/null
expect 2 "level_005.mtb" build --game oware --pits 4 --max-seeds 8 --out "$work/corrupt"
# Test stops that could never happen are refused, not run to the end.
expect 2 "test-stop-after-level must be between 0 and 3" build --pits 4 --max-seeds 3 --out "$work/x" --test-stop-after-level 4
expect 2 "test-stop-rank must be between 0 and 1" build --pits 4 --max-seeds 3 --out "$work/x" --test-stop-after-level 1 --test-stop-rank 2
expect 2 "test-stop-rank must be 0" build --pits 4 --max-seeds 3 --out "$work/x" --test-stop-mid-level 1 --test-stop-rank 1
expect 2 "test-stop-rank needs" build --pits 4 --max-seeds 3 --out "$work/x" --test-stop-rank 0
[ ! -e "$work/x" ] || fail "a refused test stop created the directory"
# An output that cannot be written (stdout on /dev/full) is status 2 and one
# line, not 0: one process without mpirun (under mpirun, stdout is mpirun's
# pipe), with and without --json.
for opts in "--quiet" "--json"; do
  err=$("$mpi" build --game kalah --pits 3 --max-seeds 4 --out "$work/full" $opts 2>&1 >/dev/full); rc=$?
  [ "$rc" = 2 ] || fail "stdout on /dev/full ($opts): exit status $rc: $err"
  [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && grep -q "cannot write the output" <<<"$err" || fail "stdout on /dev/full ($opts): $err"
done
# Output is captured before grep reads it: `cmd | grep -q` under pipefail
# fails whenever grep exits before cmd has written its last line (SIGPIPE).
help=$(run 2 build --help)
grep -q "^Usage: mpirun -np N mancala-mpi build" <<<"$help" || fail "--help: $help"
grep -q "test-stop" <<<"$help" && fail "--help lists the test-only options"
[ "$(run 2 --version)" = "$("$mancala" --version | sed 's/^mancala /mancala-mpi /')" ] || fail "--version: $(run 2 --version)"
echo "1 passed, 0 failed"
