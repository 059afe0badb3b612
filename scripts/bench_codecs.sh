#!/usr/bin/env bash
# The level-file codecs measured on real levels: bits a position on disk,
# order-0 entropy, encode/decode speeds and random-probe costs of every
# candidate (bench/table_codec.cpp), one CSV row each, appended to
# results/table_codecs.csv with the command and commit.
#   scripts/bench_codecs.sh TABLE_DIR LEVEL... [table_codec options, e.g. --probes 100]
# Run with nothing else on the machine: the speeds and probe costs are
# timings (compare rows of one run).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${TABLE_CODEC:-$here/build/bench/table_codec}
[ -x "$bin" ] || { echo "bench_codecs.sh: $bin not built (cmake -DMANCALA_BUILD_BENCH=ON)" >&2; exit 2; }
[ $# -ge 2 ] || { echo "usage: bench_codecs.sh TABLE_DIR LEVEL... [table_codec options]" >&2; exit 2; }
out=$here/results/table_codecs.csv
commit=$(git -C "$here" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$bin" "$@" >"$tmp"
[ -s "$out" ] || echo "$(head -1 "$tmp"),command,commit" >"$out"
# The command is quoted: a candidate list holds commas.
tail -n +2 "$tmp" | sed "s|\$|,\"table_codec DIR ${*:2}\",$commit|" >>"$out"
echo "bench_codecs.sh: $(($(wc -l <"$tmp") - 1)) rows appended to $out" >&2
