#!/usr/bin/env bash
# One large 6-pit table build on every core, then its independent
# verification: wall times, peak memory, and the per-level statistics with
# payload hashes (so that anyone can check a rebuild).
#   scripts/tables_large.sh GAME MAX_SEEDS DIR
# Appends a row to results/tables_large.csv and writes
# results/tables_<GAME>_6pits_<MAX_SEEDS>.json.  DIR must have room for the
# tables (about one byte per position: 1.25 GB at 24 seeds).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: scripts/tables_large.sh GAME MAX_SEEDS DIR" >&2; exit 2; }
game=$1 k=$2 dir=$3
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" "$root/build" >/dev/null
cd "$root"
mancala=build/bin/mancala
commit=$(git rev-parse --short=12 HEAD)
threads=$(nproc)
out=results/tables_large.csv
[ -f "$out" ] || echo "ruleset,pits,max_seeds,threads,positions,build_seconds,positions_per_second,peak_rss_mib,verify_seconds,verify_peak_rss_mib,total_minutes,command,commit" > "$out"
rm -rf "$dir"
build_cmd="mancala build --game $game --pits 6 --max-seeds $k --out DIR --json --quiet"
tmp=$(mktemp -d)
/usr/bin/time -f "%M" -o "$tmp/rss" $mancala build --game "$game" --pits 6 --max-seeds "$k" --out "$dir" --json --quiet > "$tmp/build.json"
/usr/bin/time -f "%e %M" -o "$tmp/verify" $mancala verify "$dir" --quiet > /dev/null
python3 - "$tmp" "$game" "$k" "$threads" "$build_cmd; mancala verify DIR" "$commit" >> "$out" <<'PY'
import json, sys
tmp, game, k, threads, cmd, commit = sys.argv[1:]
b = json.load(open(f"{tmp}/build.json"))
rss = int(open(f"{tmp}/rss").read().split()[-1]) // 1024
vsec, vrss = open(f"{tmp}/verify").read().split()[-2:]
total = (b["seconds"] + float(vsec)) / 60
print(f'{game},6,{k},{threads},{b["positions"]},{b["seconds"]:.1f},{int(b["positions"] / b["seconds"])},{rss},'
      f'{float(vsec):.1f},{int(vrss) // 1024},{total:.1f},{cmd},{commit}')
PY
$mancala info "$dir" --json | python3 -c 'import json,sys; d=json.load(sys.stdin); d["recorded"]={"command":sys.argv[1],"commit":sys.argv[2]}; json.dump(d, open(sys.argv[3],"w"), indent=1)' \
  "mancala build --game $game --pits 6 --max-seeds $k --out DIR; mancala info DIR --json" "$commit" "results/tables_${game}_6pits_${k}.json"
rm -rf "$tmp"
tail -1 "$out"
