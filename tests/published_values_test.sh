#!/usr/bin/env bash
# Reproduces the published Kalah(6,n) values under both capture rules (label:
# slow).  Each rule gets endgame tables first.
#   published_values_test.sh MANCALA 4   Kalah(6,4): standard +8, empty capture
#                                        +10 (Irving, Donkers & Uiterwijk 2000);
#                                        20-seed tables, about 2 minutes on 2 cores
#   published_values_test.sh MANCALA 5   Kalah(6,5): standard +10, empty capture
#                                        +12; 24-seed tables (1.2 GB on disk each)
#                                        and an 8 GiB transposition table, about
#                                        an hour on 2 cores
set -euo pipefail
mancala=$1
seeds=${2:-4}
case $seeds in
  4) table_seeds=20 tt=2048 want_standard=8 want_empty=10 ;;
  5) table_seeds=24 tt=8192 want_standard=10 want_empty=12 ;;
  *) echo "published_values_test.sh: no published value for Kalah(6,$seeds)" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check() {
  local want=$1; shift
  "$mancala" build --pits 6 --max-seeds "$table_seeds" --out "$work/t$want" --quiet "$@" >/dev/null
  got=$("$mancala" solve --pits 6 --seeds "$seeds" --tables "$work/t$want" --threads 2 --tt-mb "$tt" --quiet --json "$@" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')
  [ "$got" = "$want" ] || { echo "FAIL: Kalah(6,$seeds) $* = $got, published $want"; exit 1; }
  rm -rf "$work/t$want"
}
check "$want_standard" --game kalah
check "$want_empty" --game kalah --empty-capture
echo "1 passed, 0 failed"
