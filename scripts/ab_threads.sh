#!/usr/bin/env bash
# Side-by-side timing of two mancala binaries on the issue boards' solves
# with several threads (where the node count moves from run to run, so
# only many alternated runs say anything), A and B in turn so that the
# machine's noise falls on both alike:
#   scripts/ab_threads.sh A_BINARY B_BINARY RUNS TABLES_6PIT TABLES_5PIT > results/SOMETHING.csv
# TABLES_6PIT: `mancala build --game kalah --empty-capture --pits 6
# --max-seeds 15` or 16 (Kalah(6,4), 64 MiB); TABLES_5PIT: the same with
# --pits 5 --max-seeds 23..25 (Kalah(5,6), 256 MiB).  Environment: THREADS
# (default 2).  Prints CSV: binary, board, tables, threads, run, seconds,
# nodes, value, and the nodes of the solve's largest test.
set -euo pipefail
[ $# -eq 5 ] || { echo "usage: scripts/ab_threads.sh A_BINARY B_BINARY RUNS TABLES_6PIT TABLES_5PIT" >&2; exit 2; }
a=$1 b=$2 runs=$3 t6=$4 t5=$5 threads=${THREADS:-2}
summary() {
  python3 -c 'import json,sys
d = json.load(sys.stdin)
print(round(d["seconds"], 2), d["nodes"], d["value"], max(t["nodes"] for t in d["test_log"]), sep=",")'
}
echo "binary,board,tables,threads,run,seconds,nodes,value,largest_test_nodes"
for run in $(seq 1 "$runs"); do
  for side in A B; do
    bin=$a; [ $side = B ] && bin=$b
    r=$("$bin" solve --game kalah --empty-capture --pits 6 --seeds 4 --tables "$t6" --tt-mb 64 --threads "$threads" --quiet --json | summary)
    echo "$side,kalah_6_4_empty_capture,$(basename "$t6"),$threads,$run,$r"
    r=$("$bin" solve --game kalah --empty-capture --pits 5 --seeds 6 --tables "$t5" --tt-mb 256 --threads "$threads" --quiet --json | summary)
    echo "$side,kalah_5_6_empty_capture,$(basename "$t5"),$threads,$run,$r"
  done
done
