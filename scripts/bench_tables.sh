#!/usr/bin/env bash
# Table-build figures, measured side by side in one run: each ruleset's
# 6-pit levels 0..K built with 1 thread and with 2 threads (wall time, peak
# memory, byte-identical check), then verified with as many threads, and the
# per-level statistics of the build (positions, win/draw/loss, histogram, payload hash) as JSON.
#   scripts/bench_tables.sh [KALAH_K] [OWARE_K] [TMPDIR]
# Writes results/tables_build.csv and results/tables_<ruleset>_6pits.json.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kalah_k=${1:-18}
oware_k=${2:-14}
tmp=${3:-$(mktemp -d)}
mkdir -p "$tmp"
"$root/scripts/build.sh" "$root/build" >/dev/null
cd "$root"
mancala=build/bin/mancala
commit=$(git rev-parse --short=12 HEAD)
out=results/tables_build.csv
echo "ruleset,pits,max_seeds,threads,positions,seconds,positions_per_second,peak_rss_mib,verify_seconds,identical_to_1_thread,command,commit" > "$out"
for spec in "kalah $kalah_k" "oware $oware_k"; do
  set -- $spec
  game=$1 k=$2
  for threads in 1 2; do
    dir="$tmp/${game}_t$threads"
    rm -rf "$dir"
    cmd="mancala build --game $game --pits 6 --max-seeds $k --out DIR --threads $threads --json --quiet"
    run=${cmd/DIR/$dir}
    /usr/bin/time -f "%M" -o "$tmp/rss" $mancala ${run#mancala } > "$tmp/build.json"
    positions=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["positions"])' "$tmp/build.json")
    seconds=$(python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["seconds"],2))' "$tmp/build.json")
    rate=$(python3 -c "print(int($positions/$seconds) if $seconds > 0 else 0)")
    rss=$(( $(tail -1 "$tmp/rss") / 1024 ))
    vstart=$(date +%s.%N)
    $mancala verify "$dir" --threads "$threads" --quiet >/dev/null
    vsec=$(python3 -c "import time; print(round(time.time()-$vstart,2))")
    same=yes
    if [ "$threads" = 2 ]; then
      for f in "$tmp/${game}_t1"/level_*.mtb; do cmp -s "$f" "$dir/$(basename "$f")" || same=no; done
    fi
    echo "$game,6,$k,$threads,$positions,$seconds,$rate,$rss,$vsec,$same,$cmd,$commit" >> "$out"
  done
  $mancala info "$tmp/${game}_t1" --json | python3 -c 'import json,sys; d=json.load(sys.stdin); d["recorded"]={"command":sys.argv[1],"commit":sys.argv[2]}; json.dump(d, open(sys.argv[3],"w"), indent=1)' \
    "mancala build --game $game --pits 6 --max-seeds $k --out DIR; mancala info DIR --json" "$commit" "results/tables_${game}_6pits.json"
done
column -s, -t < "$out" | cut -c1-150
