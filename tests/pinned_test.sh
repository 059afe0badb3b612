#!/usr/bin/env bash
# Guards of "no functional change" (label unit):
#   pinned_test.sh MANCALA SOURCE_DIR [--with-published]
# 1. `mancala bench`'s node signature equals tests/pinned/bench_signature
#    (one thread; any change to the search's order or pruning moves it);
# 2. the payload hash of every level file of small Kalah, BrainKing, Oware
#    and Congkak builds equals tests/pinned/table_hashes.txt (any change to a
#    rule, the index or the value encoding moves one; the builders' code for
#    5- and 6-pit boards, compiled for their width, has builds of its own);
# 3. with --with-published (release builds only: minutes under the
#    sanitizers), Kalah(6,4) has its published values, +8 and +10 under the
#    empty-capture rule (Irving, Donkers & Uiterwijk 2000), from 15-seed tables.
# A change meant to move one of them updates the file in the same commit and
# says why.  To regenerate: MANCALA_PIN_WRITE=1 pinned_test.sh MANCALA SOURCE_DIR
set -euo pipefail
mancala=$1
src=$2
published=${3:-}
pinned="$src/tests/pinned"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

signature=$("$mancala" bench --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["signature"])')
if [ -n "${MANCALA_PIN_WRITE:-}" ]; then
  echo "$signature" >"$pinned/bench_signature"
elif [ "$signature" != "$(cat "$pinned/bench_signature")" ]; then
  echo "FAIL: bench signature $signature, pinned $(cat "$pinned/bench_signature")"
  fail=1
fi

# ruleset options | pits | max seeds
builds=(
  "--game kalah|4|12"
  "--game kalah --empty-capture|3|12"
  "--game kalah --empty-capture|6|9"
  "--game kalah|5|10"
  "--game brainking|4|11"
  "--game oware|4|10"
  "--game oware --grand-slam forbidden|3|10"
  "--game oware --grand-slam capture-all|3|10"
  "--game oware|6|8"
  "--game oware --grand-slam forbidden|5|8"
  "--game congkak|4|11"
  "--game congkak --capture needs-opposite|3|12"
)
: >"$work/hashes"
for b in "${builds[@]}"; do
  IFS='|' read -r opts pits seeds <<<"$b"
  dir="$work/t"
  rm -rf "$dir"
  # shellcheck disable=SC2086
  "$mancala" build $opts --pits "$pits" --max-seeds "$seeds" --out "$dir" --quiet >/dev/null
  "$mancala" info "$dir" --json | python3 -c '
import json, sys
info = json.load(sys.stdin)
for level in info["levels"]:
    print(sys.argv[1], sys.argv[2], level["seeds"], level["payload_fnv1a64"])' "$opts" "$pits" >>"$work/hashes"
done
if [ -n "${MANCALA_PIN_WRITE:-}" ]; then
  cp "$work/hashes" "$pinned/table_hashes.txt"
elif ! diff "$pinned/table_hashes.txt" "$work/hashes" >"$work/diff"; then
  echo "FAIL: table payload hashes differ from tests/pinned/table_hashes.txt:"
  cat "$work/diff"
  fail=1
fi

if [ "$published" = "--with-published" ]; then
  for rule in "8|" "10|--empty-capture"; do
    IFS='|' read -r want opt <<<"$rule"
    rm -rf "$work/k"
    # shellcheck disable=SC2086
    "$mancala" build --game kalah $opt --pits 6 --max-seeds 15 --out "$work/k" --threads 2 --quiet >/dev/null
    # shellcheck disable=SC2086
    got=$("$mancala" solve --game kalah $opt --pits 6 --seeds 4 --tables "$work/k" --threads 2 --quiet --json |
          python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')
    if [ "$got" != "$want" ]; then
      echo "FAIL: Kalah(6,4) $opt = $got, published $want"
      fail=1
    fi
  done
fi
[ $fail -eq 0 ] && echo "pinned: bench signature $signature, $(wc -l <"$work/hashes") level hashes${published:+, Kalah(6,4) published values} as pinned"
exit $fail
