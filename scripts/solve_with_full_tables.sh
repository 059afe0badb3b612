#!/usr/bin/env bash
# Solves a start position by first building the endgame tables of every level
# up to its seed total, so that the solve is a single table lookup (Oware
# boards whose search above the solver's automatic tables is too long).
#   scripts/solve_with_full_tables.sh GAME PITS SEEDS DIR [extra rule flags...]
# Appends a row to results/values_full_tables.csv.
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: scripts/solve_with_full_tables.sh GAME PITS SEEDS DIR [rule flags...]" >&2; exit 2; }
game=$1 m=$2 n=$3 dir=$4
shift 4
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" "$root/build" >/dev/null
cd "$root"
mancala=build/bin/mancala
commit=$(git rev-parse --short=12 HEAD)
k=$((2 * m * n))
out=results/values_full_tables.csv
[ -f "$out" ] || echo "ruleset,pits,seeds,value,result,best_move,positions,table_seconds,solve_seconds,threads,command,commit" > "$out"
$mancala build --game "$game" "$@" --pits "$m" --max-seeds "$k" --out "$dir" --json --quiet > "$dir.build.json"
$mancala solve --game "$game" "$@" --pits "$m" --seeds "$n" --tables "$dir" --json --quiet > "$dir.solve.json"
python3 - "$dir.build.json" "$dir.solve.json" "$m" "$n" "$(nproc)" \
  "mancala build --game $game ${*:+$* }--pits $m --max-seeds $k --out DIR; mancala solve --game $game ${*:+$* }--pits $m --seeds $n --tables DIR --json" \
  "$commit" >> "$out" <<'PY'
import json, sys
b, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
m, n, threads, cmd, commit = sys.argv[3:]
print(f'{s["ruleset"]},{m},{n},{s["value"]},{s["result"]},{s["best_move"]},{b["positions"]},{b["seconds"]:.1f},{s["seconds"]:.2f},{threads},{cmd},{commit}')
PY
rm -f "$dir.build.json" "$dir.solve.json"
tail -1 "$out"
