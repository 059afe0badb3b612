#!/usr/bin/env bash
# Builds endgame tables up to TABLE_SEEDS seeds, then solves the start
# position of a board with them, and appends a row (value, the published value
# where one exists, table and solve times) to results/kalah_published.csv.
#   scripts/solve_with_tables.sh GAME PITS SEEDS TABLE_SEEDS DIR [THREADS [TT_MB]] [-- rule flags...]
# A DIR that already holds complete levels is resumed (their build time is
# then not counted: use a fresh DIR for a full timing).
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: scripts/solve_with_tables.sh GAME PITS SEEDS TABLE_SEEDS DIR [THREADS [TT_MB]] [-- rule flags...]" >&2; exit 2; }
game=$1 m=$2 n=$3 k=$4 dir=$5
shift 5
threads=2 tt=8192
if [ $# -gt 0 ] && [ "$1" != "--" ]; then threads=$1; shift; fi
if [ $# -gt 0 ] && [ "$1" != "--" ]; then tt=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" "$root/build" >/dev/null
cd "$root"
mancala=build/bin/mancala
commit=$(git rev-parse --short=12 HEAD)
out=results/kalah_published.csv
[ -f "$out" ] || echo "ruleset,pits,seeds,value,published,source,table_max_seeds,table_build_seconds,solve_seconds,nodes,threads,command,commit" > "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
$mancala build --game "$game" "$@" --pits "$m" --max-seeds "$k" --out "$dir" --threads "$threads" --json --quiet > "$tmp/build.json"
$mancala solve --game "$game" "$@" --pits "$m" --seeds "$n" --tables "$dir" --threads "$threads" --tt-mb "$tt" --json --quiet > "$tmp/solve.json"
python3 - "$tmp/build.json" "$tmp/solve.json" "$m" "$n" "$k" "$threads" \
  "mancala build --game $game ${*:+$* }--pits $m --max-seeds $k --out T --threads $threads; mancala solve --game $game ${*:+$* }--pits $m --seeds $n --tables T --threads $threads --tt-mb $tt --json" \
  "$commit" >> "$out" <<'PY'
import json, sys
b, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
m, n, k, threads, cmd, commit = sys.argv[3:]
# Published start values (final store difference for the first player).
published = {
    ("kalah", "6", "4"): (8, "standard-rule solutions after Irving et al."),
    ("kalah", "6", "5"): (10, "standard-rule solutions after Irving et al."),
    ("kalah+empty-capture", "6", "4"): (10, "Irving, Donkers & Uiterwijk 2000"),
    ("kalah+empty-capture", "6", "5"): (12, "Irving, Donkers & Uiterwijk 2000"),
}
pub, source = published.get((s["ruleset"], m, n), ("", ""))
# Only levels built by this run count as build time.
built = sum(l["seconds"] for l in b["levels"] if not l.get("reused"))
print(f'{s["ruleset"]},{m},{n},{s["value"]},{pub},"{source}",{k},{built:.1f},{s["seconds"]:.1f},{s["nodes"]},{threads},{cmd},{commit}')
PY
tail -1 "$out"
