#!/usr/bin/env bash
# Side-by-side timing of two mancala binaries (a change meant to be "no
# functional change" against its parent), alternating A and B so that the
# machine's noise falls on both alike:
#   scripts/ab_binaries.sh A_BINARY B_BINARY [RUNS] > results/SOMETHING.csv
# Tasks: the bench set on one thread (node signature and nodes/s), a
# Kalah(5,4) solve on one and two threads without level tables, and a
# 15-seed Kalah 6-pit table build on one thread.  Prints CSV: binary, task,
# run, seconds, nodes (or the signature), payload (the build's last level
# payload hash: identical files give identical hashes).
set -euo pipefail
a=$1 b=$2 runs=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
json() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(*[d[k] for k in sys.argv[1:]], sep=",")' "$@"; }
echo "binary,task,run,seconds,nodes,payload"
for run in $(seq 1 "$runs"); do
  for side in A B; do
    bin=$a; [ $side = B ] && bin=$b
    r=$("$bin" bench --json | json seconds signature)
    echo "$side,bench,$run,$r,"
    for t in 1 2; do
      r=$("$bin" solve --pits 5 --seeds 4 --threads $t --level-tables 0 --quiet --json | json seconds nodes)
      echo "$side,solve_kalah_5_4_t$t,$run,$r,"
    done
    rm -rf "$work/t"
    seconds=$("$bin" build --pits 6 --max-seeds 15 --threads 1 --out "$work/t" --quiet --json |
              python3 -c 'import json,sys; print(round(sum(l["seconds"] for l in json.load(sys.stdin)["levels"]), 3))')
    hash=$("$bin" info "$work/t" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["levels"][-1]["payload_fnv1a64"])')
    echo "$side,build_kalah_6_15_t1,$run,$seconds,,$hash"
  done
done
