#!/usr/bin/env bash
# Regenerates the table_file seed corpus (corpus/table_file/<ruleset>_<pits>p_level_<k>.mtb)
# with `mancala build`: tiny valid level files of every ruleset.  The files
# are byte-identical from build to build (table_file.hpp), so running this
# again changes nothing unless the format changes.
#   tests/fuzz/make_table_corpus.sh [MANCALA_BINARY]   (default: build/bin/mancala)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mancala=${1:-"$here/../../build/bin/mancala"}
out="$here/corpus/table_file"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# name | pits | max seeds | game options
while read -r name pits max options; do
  # shellcheck disable=SC2086 # options are words
  "$mancala" build $options --pits "$pits" --max-seeds "$max" --out "$work/${name}_$pits" --threads 1 --quiet >/dev/null
  for f in "$work/${name}_$pits"/level_*.mtb; do
    level=$(basename "$f" .mtb)
    cp "$f" "$out/${name}_${pits}p_${level}.mtb"
  done
done <<'LIST'
kalah 2 3 --game kalah
kalah 6 1 --game kalah
kalah 16 1 --game kalah
kalah-empty-capture 2 2 --game kalah --empty-capture
brainking 2 2 --game brainking
oware 2 3 --game oware
oware-forbidden 2 2 --game oware --grand-slam forbidden
oware-capture-all 2 2 --game oware --grand-slam capture-all
congkak 2 3 --game congkak
congkak-needs-opposite 2 2 --game congkak --capture needs-opposite
LIST
