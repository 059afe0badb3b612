#!/usr/bin/env bash
# Submits an experiment grid: one Slurm array task per command of MANIFEST
# (tasks 0..N-1, N as counted by `mancala batch --count`), each writing
# OUTDIR/task_<I>.jsonl; prints the job id and how to collect the results.
#
#   scripts/slurm/submit_grid.sh MANIFEST OUTDIR [sbatch options...]
#   e.g. scripts/slurm/submit_grid.sh grid.txt runs/grid --time=02:00:00 --cpus-per-task=4 --mem=8G
#
# Environment: MANCALA (the binary; default build/bin/mancala of this
# checkout, else mancala on PATH), MANCALA_ARRAY_THROTTLE (at most this many
# tasks at once: --array=0-(N-1)%T), MANCALA_BATCH_ARGS (passed to the tasks).
# Grids larger than the cluster's MaxArraySize (often 1001) must be split.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: submit_grid.sh MANIFEST OUTDIR [sbatch options...]" >&2; exit 2; }
manifest=$1
outdir=$2
shift 2
mancala=${MANCALA:-}
if [ -z "$mancala" ]; then
  if [ -x "$root/build/bin/mancala" ]; then mancala=$root/build/bin/mancala
  else mancala=$(command -v mancala) || { echo "submit_grid.sh: no mancala binary; set MANCALA" >&2; exit 2; }
  fi
fi
n=$("$mancala" batch --manifest "$manifest" --count) || exit 2
array="0-$((n - 1))"
[ -z "${MANCALA_ARRAY_THROTTLE:-}" ] || array="$array%$MANCALA_ARRAY_THROTTLE"
mkdir -p "$outdir"
# Absolute paths: the tasks may start in another directory; every task runs
# the same binary.
MANCALA=$(realpath "$mancala")
export MANCALA
manifest=$(realpath "$manifest")
outdir=$(realpath "$outdir")
job=$(sbatch --parsable --array="$array" --output="$outdir/slurm-%A_%a.out" "$@" "$here/grid.sbatch" "$manifest" "$outdir")
echo "submitted job array $job: $n tasks ($array) of $manifest"
echo "when done: $here/collect.py --manifest $manifest --out results/NAME.csv $outdir"
