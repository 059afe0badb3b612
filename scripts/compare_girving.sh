#!/usr/bin/env bash
# Side by side with Irving's Kalah solver (github.com/girving/kalah, the code
# behind Irving, Donkers & Uiterwijk 2000; empty-capture rule), in one run on
# one machine: its single-threaded endgame-table generator and solver against
# `mancala build` + `mancala solve` with 1 and with 2 threads, with tables of
# TABLE_SEEDS and of each of OUR_TABLE_SEEDS (default: TABLE_SEEDS).  Both
# transposition tables are 256 MiB by default (girving's -t 24).
#   scripts/compare_girving.sh GIRVING_DIR SEEDS TABLE_SEEDS [OUR_TABLE_SEEDS] [TMPDIR]
# Environment: PITS (default 6; girving's PITS is a compile-time constant,
# so GIRVING_DIR must be compiled for it), GIRVING_TT (its -t, default 24),
# TT_MB (ours, default 256), DEEPENING (ours, --deepening: unset for the
# default; its best depth differs by board, like girving's -t, so a
# best-against-best run sweeps it), TABLES_IN_MEMORY (ours,
# --tables-in-memory: unset for the default, auto; a solve that follows its
# build may do better reading the files' pages in place than copying the
# levels into fresh memory, so a best-against-best run sweeps it too),
# THREADS (ours, default "1 2"), SKIP_PEER (set:
# only our rows, to add a setting to a run whose peer row is recorded),
# SKIP_OURS (set: only the peer's row, e.g. at another GIRVING_TT), RUN
# (the run's name in the rows, default the UTC time the script starts: a
# ratio is only ever taken between rows of one run, so give two calls that
# make up one run, such as a peer row at another setting, the same RUN).
# GIRVING_DIR holds its `generator` and `kalah-s`, compiled by the user
# outside this repository (nothing here builds or ships it).  Appends rows
# to results/girving_comparison.csv.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: scripts/compare_girving.sh GIRVING_DIR SEEDS TABLE_SEEDS [OUR_TABLE_SEEDS] [TMPDIR]" >&2; exit 2; }
g=$(cd "$1" && pwd) n=$2 k=$3
pits=${PITS:-6} girving_tt=${GIRVING_TT:-24} tt_mb=${TT_MB:-256} thread_counts=${THREADS:-1 2}
solve_options=${DEEPENING:+ --deepening $DEEPENING}${TABLES_IN_MEMORY:+ --tables-in-memory $TABLES_IN_MEMORY}
ours=${4:-$k}
tmp=${5:-$(mktemp -d)}
mkdir -p "$tmp"
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" "$root/build" >/dev/null
cd "$root"
mancala=$root/build/bin/mancala
commit=$(git rev-parse --short=12 HEAD)
peer_commit=$(git -C "$g" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
out=results/girving_comparison.csv
run=${RUN:-$(date -u +%Y%m%dT%H%M%SZ)}
[ -f "$out" ] || echo "program,pits,seeds,table_seeds,threads,value,table_seconds,solve_seconds,total_seconds,nodes,command,commit,run" > "$out"
now() { date +%s.%N; }
secs() { python3 -c "print(round($2 - $1, 2))"; }

# girving/kalah: generator reads its commands on stdin (4-bit entries, fill
# to k seeds, quit); kalah-s prints the value as "r <value>".
if [ -z "${SKIP_PEER:-}" ]; then
  rm -f "$tmp/eg.dat"
  t0=$(now); (cd "$tmp" && printf '4\nc %s\nq\n' "$k" | "$g/generator" eg.dat >/dev/null); t1=$(now)
  "$g/kalah-s" -t "$girving_tt" -e "$k" -E "$tmp/eg.dat" s "$n" > "$tmp/girving.txt"; t2=$(now)
  value=$(sed -n 's/.*, r \(-\{0,1\}[0-9]*\),.*/\1/p' "$tmp/girving.txt" | tail -1)
  nodes=$(awk '/Nodes searched/ {print $3}' "$tmp/girving.txt")
  echo "girving/kalah@$peer_commit,$pits,$n,$k,1,$value,$(secs $t0 $t1),$(secs $t1 $t2),$(secs $t0 $t2),$nodes,printf '4\\nc $k\\nq\\n' | generator eg.dat; kalah-s -t $girving_tt -e $k -E eg.dat s $n,$commit,$run" >> "$out"
  rm -f "$tmp/eg.dat"
fi

[ -n "${SKIP_OURS:-}" ] && ours=""
for ok in $ours; do
  for threads in $thread_counts; do
    rm -rf "$tmp/t"
    t0=$(now)
    "$mancala" build --game kalah --empty-capture --pits "$pits" --max-seeds "$ok" --out "$tmp/t" --threads "$threads" --quiet >/dev/null
    t1=$(now)
    "$mancala" solve --game kalah --empty-capture --pits "$pits" --seeds "$n" --tables "$tmp/t" --threads "$threads" --tt-mb "$tt_mb"$solve_options --quiet --json > "$tmp/ours.json"
    t2=$(now)
    read -r value nodes < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["value"], d["nodes"])' "$tmp/ours.json")
    echo "mancala,$pits,$n,$ok,$threads,$value,$(secs $t0 $t1),$(secs $t1 $t2),$(secs $t0 $t2),$nodes,mancala build --game kalah --empty-capture --pits $pits --max-seeds $ok --out T --threads $threads; mancala solve --game kalah --empty-capture --pits $pits --seeds $n --tables T --threads $threads --tt-mb $tt_mb$solve_options --json,$commit,$run" >> "$out"
  done
done
rm -rf "$tmp/t"
tail -n $((1 + $(echo $thread_counts | wc -w) * $(echo $ours | wc -w))) "$out" | column -s, -t | cut -c1-120
