#!/usr/bin/env bash
# The table commands against what needs processes side by side (the other
# bad-directory cases are in table_robustness_test.cpp):
#  - two builds into one directory: the second refuses at once (one line,
#    exit status 2) while the first runs on to the same bytes as a lone build;
#  - a level file truncated by another program while `verify` has it mapped:
#    one line naming the file and exit status 2, not a bus error;
#  - a rename into place that fails (a directory put where the level file
#    goes while it is being built): an input error naming the file;
#  - a small file system (root only: a private tmpfs in a mount namespace):
#    a build refused for disk creates no directory and prints figures that
#    can be compared; a resumed build counts only the levels it lacks;
#  - mancala-mpi build, when given: the lock, a FIFO and a symlink loop in
#    place of a level file, a file as --out.
#   table_robustness_test.sh MANCALA [MANCALA_MPI MPIEXEC]
set -uo pipefail
mancala=$1
mpi=${2:-}
mpiexec=${3:-}
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

# expect STATUS WORDS COMMAND...: exit status STATUS within 60 s (a hang is a
# failure, not a stuck test), one line on stderr, "<program>: error: " and WORDS.
expect() {
  local want=$1 words=$2; shift 2
  err=$(timeout 60 "$@" 2>&1 >/dev/null); rc=$?
  [ "$rc" = "$want" ] || fail "exit $rc (want $want): $*: $err"
  [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "not one line: $*: $err"
  printf '%s' "$err" | grep -Eq -- "^mancala(-mpi)?: error: " || fail "no error prefix: $*: $err"
  printf '%s' "$err" | grep -q -- "$words" || fail "message lacks '$words': $*: $err"
}

# mpirun as root in a container (as tests/mpi_build_test.sh).
export OMPI_MCA_btl=self,vader
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1
run_mpi=("$mpiexec" -q --allow-run-as-root --oversubscribe -np 2 "$mpi")

# A build of a few seconds (levels 18 and 19 take about 1 s each on one
# thread; slower on a loaded machine, which only widens the windows below).
slow=(build --game kalah --pits 5 --max-seeds 19 --threads 1 --quiet)
"$mancala" "${slow[@]}" --out "$work/ref" >/dev/null || fail "reference build"

# --- two builds into one directory -------------------------------------------
"$mancala" "${slow[@]}" --out "$work/locked" >/dev/null 2>"$work/first.err" &
first=$!
pids+=("$first")
while kill -0 "$first" 2>/dev/null && [ ! -f "$work/locked/level_000.mtb" ]; do sleep 0.02; done
# Hold the first build still while the others are refused: a fast machine
# could otherwise finish it first and leave nothing to test. A stopped
# process keeps its lock.
kill -STOP "$first" 2>/dev/null || fail "the first build ended before it could be paused: nothing was tested"
t0=$(date +%s%N)
expect 2 "is being built by another process" "$mancala" "${slow[@]}" --out "$work/locked"
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$ms" -lt 3000 ] || fail "the second build took $ms ms to refuse, not at once"
if [ -n "$mpi" ]; then
  expect 2 "is being built by another process" "${run_mpi[@]}" "${slow[@]}" --out "$work/locked"
fi
kill -0 "$first" 2>/dev/null || fail "the first build ended before the second was refused: nothing was tested"
kill -CONT "$first"
wait "$first" || fail "the first build failed: $(cat "$work/first.err")"
for f in "$work"/ref/level_*.mtb; do
  cmp -s "$f" "$work/locked/$(basename "$f")" || fail "$(basename "$f") differs from a lone build's"
done
[ -z "$(ls "$work"/locked/*.tmp 2>/dev/null)" ] || fail "temporary files left behind"
# The lock goes with the process: a third build finds every level and reuses it.
grep -q '"reused":false' <<<"$("$mancala" "${slow[@]}" --out "$work/locked" --json)" && fail "a rerun rebuilt a level"

# --- a level file truncated while mapped ----------------------------------------
cp -r "$work/ref" "$work/bus"
"$mancala" verify "$work/bus" --quiet >/dev/null 2>"$work/bus.err" &
pid=$!
pids+=("$pid")
# Truncate the top level once verify has mapped it (it then reads it for a
# second or so: its payload hash, then every position).
while kill -0 "$pid" 2>/dev/null && ! grep -q "bus/level_019.mtb" "/proc/$pid/maps" 2>/dev/null; do sleep 0.01; done
truncate -s 0 "$work/bus/level_019.mtb"
status=0
wait "$pid" || status=$?
err=$(cat "$work/bus.err")
[ "$status" = 2 ] || fail "verify of a file truncated under it: exit status $status (want 2): $err"
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "not one line: $err"
printf '%s' "$err" | grep -q "^mancala: error: table file $work/bus/level_019.mtb: changed while in use" \
  || fail "the message should name the file: $err"

# --- a rename into place that fails ---------------------------------------------
mkdir "$work/rename"
for ((k = 0; k <= 17; k++)); do cp "$work/ref/$(printf 'level_%03d.mtb' "$k")" "$work/rename/"; done
"$mancala" "${slow[@]}" --out "$work/rename" >/dev/null 2>"$work/rename.err" &
pid=$!
pids+=("$pid")
# Level 19 was looked for just after level 18 was written; it takes about a
# second to build, so a directory put in its place now is there at the rename.
while kill -0 "$pid" 2>/dev/null && [ ! -f "$work/rename/level_018.mtb" ]; do sleep 0.02; done
sleep 0.3
# Paused while the directory goes in, so that the build cannot rename first
# between the check and the mkdir.
kill -STOP "$pid" 2>/dev/null || fail "the build ended before level 19's rename could be blocked: nothing was tested"
[ ! -e "$work/rename/level_019.mtb" ] || fail "level 19 was built within 0.3 s: nothing was tested"
mkdir -p "$work/rename/level_019.mtb/in_the_way"
kill -CONT "$pid"
status=0
wait "$pid" || status=$?
err=$(cat "$work/rename.err")
[ "$status" = 2 ] || fail "a failed rename: exit status $status (want 2): $err"
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "not one line: $err"
printf '%s' "$err" | grep -q "^mancala: error: table file $work/rename/level_019.mtb: cannot rename" \
  || fail "the message should name the file: $err"

# --- a small file system ---------------------------------------------------------
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
  # A 4 MiB tmpfs of our own, gone with the namespace.  Kalah 5-pit levels
  # 0..14 take 1961256 bytes, level 15 1307504 more, 0..17 7 MB.
  unshare -m bash -s "$mancala" "$work" <<'EOS' || fail "small file system checks"
set -uo pipefail
mancala=$1 work=$2
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$work/small"
mount -t tmpfs -o size=4m tmpfs "$work/small" || fail "mount tmpfs"
# Refused for disk: no directory created, figures in bytes that compare.
err=$("$mancala" build --pits 5 --max-seeds 17 --quiet --out "$work/small/new" 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] || fail "exit $rc (want 2): $err"
[ ! -e "$work/small/new" ] || fail "a build refused for disk created its directory"
need=$(printf '%s' "$err" | sed -n 's/.*need \([0-9]*\) bytes.*/\1/p')
have=$(printf '%s' "$err" | sed -n 's/.* has \([0-9]*\) bytes.*free.*/\1/p')
[ -n "$need" ] && [ -n "$have" ] && [ "$need" -gt "$have" ] || fail "the figures do not show the shortage: $err"
# A resumed build needs room for the levels it lacks, not for all of them.
"$mancala" build --pits 5 --max-seeds 14 --quiet --out "$work/small/res" >/dev/null || fail "levels 0..14"
out=$("$mancala" build --pits 5 --max-seeds 15 --quiet --out "$work/small/res" 2>&1) || fail "level 15 on top: $out"
cmp -s "$work/ref/level_015.mtb" "$work/small/res/level_015.mtb" || fail "level 15 differs"
# Out of room mid-build (no inode left for the next level's file, which the
# up-front check cannot see): one line naming the file, exit status 2, every
# level written before intact, and a resume once there is room ends with
# the files of an uninterrupted build.
mkdir "$work/tiny"
mount -t tmpfs -o size=4m,nr_inodes=8 tmpfs "$work/tiny" || fail "mount tmpfs with 8 inodes"
err=$("$mancala" build --pits 5 --max-seeds 15 --quiet --out "$work/tiny/t" 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] || fail "out of inodes mid-build: exit $rc (want 2): $err"
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "out of inodes: not one line: $err"
grep -q "level_0[0-9][0-9].mtb.tmp: cannot create: No space left on device" <<<"$err" || fail "out of inodes: $err"
n=0
for f in "$work/tiny/t"/level_*.mtb; do
  cmp -s "$f" "$work/ref/$(basename "$f")" || fail "$(basename "$f") written before the failure differs"
  n=$((n + 1))
done
[ "$n" -ge 2 ] && [ "$n" -le 15 ] || fail "the failure did not land mid-build ($n levels)"
mount -o remount,nr_inodes=1000 "$work/tiny" || fail "remount"
"$mancala" build --pits 5 --max-seeds 15 --quiet --out "$work/tiny/t" >/dev/null || fail "the resume after the failure"
for k in $(seq -w 0 15); do
  cmp -s "$work/ref/level_0$k.mtb" "$work/tiny/t/level_0$k.mtb" || fail "level $k differs after the resume"
done
EOS
else
  echo "SKIP: the small file system checks need root and unshare -m"
fi

# --- mancala-mpi ------------------------------------------------------------------
if [ -n "$mpi" ]; then
  small=(build --game kalah --pits 3 --max-seeds 8 --quiet)
  "$mancala" "${small[@]}" --out "$work/m3" >/dev/null || fail "3-pit build"
  cp -r "$work/m3" "$work/mfifo"
  rm "$work/mfifo/level_003.mtb" && mkfifo "$work/mfifo/level_003.mtb"
  expect 2 "level_003.mtb: not a regular file" "${run_mpi[@]}" "${small[@]}" --out "$work/mfifo"
  cp -r "$work/m3" "$work/mloop"
  rm "$work/mloop/level_003.mtb" && ln -s level_003.mtb "$work/mloop/level_003.mtb"
  expect 2 "level_003.mtb: cannot access" "${run_mpi[@]}" "${small[@]}" --out "$work/mloop"
  expect 2 "/etc/passwd is not a directory" "${run_mpi[@]}" "${small[@]}" --out /etc/passwd
  expect 2 "cannot create table directory /etc/passwd/x" "${run_mpi[@]}" "${small[@]}" --out /etc/passwd/x
fi
echo "1 passed, 0 failed"
