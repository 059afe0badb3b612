#!/usr/bin/env bash
# Solver figures, measured side by side in one run:
#  * the node-count signature and nodes/s of `mancala bench` (one thread);
#  * 1 thread against 2 threads on fixed boards, 3 repetitions each, median.
# Writes results/solver_bench.json and results/solver_scaling.csv with the
# commands and the commit.  Run on an otherwise idle machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" "$root/build" >/dev/null
cd "$root"
mancala=build/bin/mancala
commit=$(git rev-parse --short=12 HEAD)
$mancala bench --json > results/solver_bench.json.tmp
python3 - results/solver_bench.json.tmp results/solver_bench.json "$commit" <<'PY'
import json, sys
src, dst, commit = sys.argv[1:]
d = json.load(open(src))
d["recorded"] = {"command": "mancala bench --json", "commit": commit}
json.dump(d, open(dst, "w"), indent=1)
print(f'bench signature {d["signature"]}, {d["nodes_per_second"]/1e6:.2f} M nodes/s')
PY
rm -f results/solver_bench.json.tmp
out=results/solver_scaling.csv
echo "ruleset,pits,seeds,threads,repetition,value,nodes,seconds,command,commit" > "$out"
# ruleset, pits, seeds, extra options (the last board builds its 16-seed
# level tables inside the solve, with the same threads, so its time includes
# them).
for board in "kalah 5 4 --level-tables 0" "kalah 6 3 --level-tables 0" "brainking 5 4 --level-tables 0" \
             "kalah+empty-capture 6 4 --empty-capture --level-tables 16"; do
  set -- $board
  game=${1%%+*} ruleset=$1 pits=$2 seeds=$3
  shift 3
  for rep in 1 2 3; do
    for threads in 1 2; do
      cmd="mancala solve --game $game $* --pits $pits --seeds $seeds --threads $threads --tt-mb 256 --json"
      json=$($mancala ${cmd#mancala })
      python3 -c 'import json,sys; r=json.loads(sys.argv[1]); print(",".join(map(str,[sys.argv[2],sys.argv[3],sys.argv[4],sys.argv[5],sys.argv[6],r["value"],r["nodes"],round(r["seconds"],3),sys.argv[7],sys.argv[8]])))' \
        "$json" "$ruleset" "$pits" "$seeds" "$threads" "$rep" "$cmd" "$commit" >> "$out"
    done
  done
done
python3 - "$out" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
boards = sorted({(r["ruleset"], r["pits"], r["seeds"]) for r in rows})
for b in boards:
    t = {n: statistics.median(float(r["seconds"]) for r in rows if (r["ruleset"], r["pits"], r["seeds"]) == b and r["threads"] == n) for n in ("1", "2")}
    print(f"{b[0]}({b[1]},{b[2]}): 1 thread {t['1']:.2f} s, 2 threads {t['2']:.2f} s, speed-up {t['1']/t['2']:.2f}x")
PY
