#!/usr/bin/env bash
# SIGINT and SIGTERM stop a solve or an analyze: it prints what it has
# proven (bounds containing the value, complete false) and exits with status
# 4.  Other commands keep exiting with 128 + signal.
set -uo pipefail
# Job control: background jobs of a non-interactive shell ignore SIGINT
# otherwise (and mancala keeps an ignored SIGINT ignored).
set -m
mancala=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Kalah(6,4) on one thread runs for many seconds: the signal lands mid-solve.
for sig in INT TERM; do
  "$mancala" solve --threads 1 --tt-mb 64 --json >"$work/out" 2>"$work/err" &
  pid=$!
  sleep 1.5
  kill -s "$sig" "$pid"
  wait "$pid"
  rc=$?
  [ "$rc" = 4 ] || fail "solve stopped by SIG$sig exited with $rc, not 4 ($(cat "$work/err"))"
  python3 - "$work/out" "SIG$sig" <<'PY' || fail "solve stopped by SIG$sig printed $(cat "$work/out")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["complete"] is False and j["stopped_by"] == sys.argv[2], j
assert -48 <= j["lower"] <= j["upper"] <= 48, j
PY
done

# analyze, in text.
"$mancala" analyze --pits 6 --seeds 4 --threads 1 --tt-mb 64 >"$work/out" 2>"$work/err" &
pid=$!
sleep 1.5
kill -s INT "$pid"
wait "$pid"
rc=$?
[ "$rc" = 4 ] || fail "analyze stopped by SIGINT exited with $rc, not 4"
grep -q "stopped by SIGINT" "$work/out" || fail "analyze printed $(cat "$work/out")"

# Any other command: 128 + signal, one line.
"$mancala" perft --depth 40 >"$work/out" 2>"$work/err" &
pid=$!
sleep 0.5
kill -s INT "$pid"
wait "$pid"
rc=$?
[ "$rc" = 130 ] || fail "perft interrupted by SIGINT exited with $rc, not 130"
grep -q "interrupted by SIGINT" "$work/err" || fail "perft said $(cat "$work/err")"
echo "ok"
