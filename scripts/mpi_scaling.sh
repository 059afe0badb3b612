#!/usr/bin/env bash
# Measures mancala-mpi builds for the scaling model (results/scaling_model.md):
#   scripts/mpi_scaling.sh GAME PITS MAX_SEEDS "RANKS..." [THREADS_PER_RANK]
# e.g. scripts/mpi_scaling.sh kalah 6 16 "1 2 4" 1
# For each rank count, builds levels 0..MAX_SEEDS into a fresh directory with
# mpirun -np N (--oversubscribe: more processes than cores is allowed),
# checks every file against a `mancala build` of the same tables (byte for
# byte; a difference stops the script), and appends one row to
# results/mpi_build_scaling.csv: positions, wall seconds, the payload bytes
# the busiest process sent, the largest peak RSS of a process, the commit and
# the command, then (extra columns) the largest time a process spent inside
# collectives and the largest CPU time (user + system) of a process.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
game=$1 pits=$2 k=$3 ranks=$4 threads=${5:-1}
"$root/scripts/build.sh" >/dev/null
mancala="$root/build/bin/mancala"
mpi="$root/build/bin/mancala-mpi"
[ -x "$mpi" ] || { echo "mpi_scaling.sh: mancala-mpi was not built (is Open MPI installed?)" >&2; exit 2; }
csv="$root/results/mpi_build_scaling.csv"
[ -f "$csv" ] || echo "game,pits,max_seeds,ranks,threads_per_rank,positions,seconds,bytes_sent_per_rank,peak_rss_mb_per_rank,commit,command,comm_seconds_per_rank,cpu_seconds_per_rank" >"$csv"
commit=$(git -C "$root" rev-parse --short=12 HEAD)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_mpi_yield_when_idle=1
"$mancala" build --game "$game" --pits "$pits" --max-seeds "$k" --threads "$threads" --quiet --out "$work/ref" >/dev/null
for n in $ranks; do
  command="mpirun -np $n --oversubscribe mancala-mpi build --game $game --pits $pits --max-seeds $k --threads $threads --json --quiet --out DIR"
  mpirun -q --allow-run-as-root --oversubscribe -np "$n" "$mpi" build --game "$game" --pits "$pits" --max-seeds "$k" \
    --threads "$threads" --json --quiet --out "$work/n$n" >"$work/out.json"
  for f in "$work"/ref/level_*.mtb; do
    cmp -s "$f" "$work/n$n/$(basename "$f")" || { echo "mpi_scaling.sh: $(basename "$f") differs with $n ranks" >&2; exit 1; }
  done
  python3 - "$work/out.json" "$game" "$pits" "$k" "$n" "$threads" "$commit" "$command" >>"$csv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
game, pits, k, n, threads, commit, command = sys.argv[2:]
print(f'{game},{pits},{k},{n},{threads},{d["positions"]},{d["seconds"]:.3f},{d["bytes_sent_max_rank"]},'
      f'{d["peak_rss_mb_max_rank"]:.1f},{commit},"{command}",{d["comm_seconds_max_rank"]:.3f},{d["cpu_seconds_max_rank"]:.3f}')
PY
  tail -1 "$csv"
  rm -rf "$work/n$n"
done
