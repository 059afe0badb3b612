#!/usr/bin/env bash
# Reproduces the published Kalah(6,4) values (label: slow, about 2 minutes on
# 2 cores): standard rule +8, empty-capture rule +10 (Irving, Donkers &
# Uiterwijk 2000).  Each rule gets 20-seed endgame tables first.
set -euo pipefail
mancala=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check() {
  local want=$1; shift
  "$mancala" build --pits 6 --max-seeds 20 --out "$work/t$want" --quiet "$@" >/dev/null
  got=$("$mancala" solve --pits 6 --seeds 4 --tables "$work/t$want" --threads 2 --tt-mb 2048 --quiet --json "$@" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')
  [ "$got" = "$want" ] || { echo "FAIL: Kalah(6,4) $* = $got, published $want"; exit 1; }
  rm -rf "$work/t$want"
}
check 8 --game kalah
check 10 --game kalah --empty-capture
echo "1 passed, 0 failed"
