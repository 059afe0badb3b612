#!/usr/bin/env bash
# Two builds of mancala-mpi side by side, alternated, with `mancala build`
# beside them, on one table set:
#   scripts/mpi_ab.sh BEFORE_BIN_DIR AFTER_BIN_DIR GAME PITS MAX_SEEDS [PASSES]
# e.g. scripts/mpi_ab.sh ../mancala-before/build/bin build/bin kalah 6 18 2
# Each BIN_DIR holds mancala-mpi (AFTER_BIN_DIR also mancala).  Every pass
# runs `mancala build` with 1 and 2 threads, then each mancala-mpi with 1
# and 2 ranks of 1 thread, checks every level file against the first
# `mancala build` (byte for byte; a difference stops the script) and
# appends one row a run to results/mpi_build_ab.csv: the program and its
# commit (from --version), ranks, threads, wall seconds and, for
# mancala-mpi, the bytes all ranks sent, the largest peak RSS of a rank and
# the busiest rank's time inside collectives and CPU time.  Run it on a
# machine with nothing else running: the seconds are compared.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
before=$1 after=$2 game=$3 pits=$4 k=$5 passes=${6:-2}
csv="$root/results/mpi_build_ab.csv"
[ -f "$csv" ] || echo "pass,program,commit,game,pits,max_seeds,ranks,threads_per_rank,seconds,bytes_sent_total,peak_rss_mb_max_rank,comm_seconds_max_rank,cpu_seconds_max_rank" >"$csv"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_mpi_yield_when_idle=1
commit_of() { "$1" --version | sed -n 's/.*(commit \([0-9a-f+dirty]*\)).*/\1/p'; }
row() {  # pass program commit ranks threads -- command...
  local pass=$1 program=$2 commit=$3 ranks=$4 threads=$5
  shift 6
  rm -rf "$work/out"
  local t0 t1
  t0=$(date +%s.%N)
  "$@" --out "$work/out" >"$work/out.json"
  t1=$(date +%s.%N)
  if [ -d "$work/ref" ]; then
    for f in "$work"/ref/level_*.mtb; do
      cmp -s "$f" "$work/out/$(basename "$f")" || { echo "mpi_ab.sh: $(basename "$f") differs ($program $commit, $ranks ranks)" >&2; exit 1; }
    done
  else
    mv "$work/out" "$work/ref"
  fi
  python3 - "$work/out.json" "$pass" "$program" "$commit" "$game" "$pits" "$k" "$ranks" "$threads" "$t0" "$t1" >>"$csv" <<'PY'
import json, sys
path, p, program, commit, game, pits, k, ranks, threads, t0, t1 = sys.argv[1:]
try:
    d = json.load(open(path))
except ValueError:
    d = {}
extra = ','.join(str(round(d[key], 3)) if isinstance(d.get(key), float) else str(d.get(key, ''))
                 for key in ('bytes_sent_total', 'peak_rss_mb_max_rank', 'comm_seconds_max_rank', 'cpu_seconds_max_rank'))
print(f'{p},{program},{commit},{game},{pits},{k},{ranks},{threads},{float(t1) - float(t0):.2f},{extra}')
PY
  tail -1 "$csv"
}
for pass in $(seq 1 "$passes"); do
  for t in 1 2; do
    row "$pass" "mancala build" "$(commit_of "$after/mancala")" 1 "$t" -- \
      "$after/mancala" build --game "$game" --pits "$pits" --max-seeds "$k" --threads "$t" --quiet
  done
  for bin in "$before" "$after"; do
    for n in 1 2; do
      row "$pass" mancala-mpi "$(commit_of "$bin/mancala-mpi")" "$n" 1 -- \
        mpirun -q --allow-run-as-root -np "$n" "$bin/mancala-mpi" build --game "$game" --pits "$pits" --max-seeds "$k" \
        --threads 1 --json --quiet
    done
  done
done
