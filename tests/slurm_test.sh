#!/usr/bin/env bash
# scripts/slurm/ on a real single-node Slurm started by this test
# (scripts/slurm/local_slurm.sh: munged, slurmctld and slurmd from Debian 12's
# munge, slurmctld, slurmd, slurm-client, with a private configuration, key,
# state and ports in a temporary directory), stopped at the end.  Runs an experiment grid through
# submit_grid.sh (a job array, one bad line among them), collects it, and a
# table build through build.sbatch with srun (plain `mancala` standing in for
# mancala-mpi: same options, one rank), submitted twice to check that it
# resumes.  Needs root (the daemons run as root); exits 77 (skipped) when the
# packages are missing or not root.  Label `slurm`: scripts/test.sh --slurm.
# With MANCALA_MPI (mancala-mpi built), also a 2-task build.sbatch job of
# the real mancala-mpi, cancelled mid-build and submitted again.
#   tests/slurm_test.sh MANCALA_BINARY SOURCE_DIR [MANCALA_MPI]
set -uo pipefail
mancala=$1
src=$2
mpi=${3:-}
slurm=$src/scripts/slurm
for tool in munged mungekey slurmctld slurmd sbatch squeue sinfo srun; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed (scripts/setup.sh --slurm)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP: the test's Slurm daemons run as root"; exit 77; }
work=$(mktemp -d)
fail() {
  echo "FAIL: $*"
  for log in "$work"/cluster/slurmctld.log "$work"/cluster/slurmd.log; do [ -f "$log" ] && { echo "--- $log"; tail -n 20 "$log"; }; done
  exit 1
}
trap '"$slurm/local_slurm.sh" stop "$work/cluster"; rm -rf "$work"' EXIT
unset SLURM_ARRAY_TASK_ID SLURM_JOB_ID MANCALA MANCALA_MPI MANCALA_BATCH_ARGS MANCALA_LAUNCHER MANCALA_LAUNCHER_ARGS
"$slurm/local_slurm.sh" start "$work/cluster" >/dev/null || fail "local_slurm.sh start"
export SLURM_CONF=$work/cluster/slurm.conf

wait_job() {  # waits until job $1 (all its array tasks) has left the queue
  for _ in $(seq 240); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
    sleep 0.5
  done
  fail "job $1 still queued or running: $(squeue)"
}

# --- an experiment grid as a job array
cat >"$work/grid.txt" <<'EOF'
# three boards and a typo
solve --game kalah --pits 2 --seeds 2 --tt-mb 16
solve --game kalah --pits 3 --seeds 1 --tt-mb 16
solve --game kalah --pits 3 --seedz 2
solve --game oware --pits 2 --seeds 1 --tt-mb 16
EOF
cd "$work" || fail "cd"
MANCALA=$mancala "$slurm/submit_grid.sh" grid.txt runs --cpus-per-task=1 --time=00:05:00 >submit.out || fail "submit_grid.sh: $(cat submit.out)"
job=$(sed -n 's/^submitted job array \([0-9]*\):.*/\1/p' submit.out)
[ -n "$job" ] || fail "no job id: $(cat submit.out)"
grep -q ": 4 tasks (0-3)" submit.out || fail "submit_grid.sh: $(cat submit.out)"
wait_job "$job"
[ "$(cd runs && ls task_*.jsonl | sort | tr '\n' ' ')" = "task_0.jsonl task_1.jsonl task_2.jsonl task_3.jsonl " ] \
  || fail "task files: $(ls runs)"
grep -q "line 4: unrecognised option '--seedz'" runs/slurm-"${job}"_2.out || fail "the bad line's task log: $(cat runs/slurm-"${job}"_2.out)"
python3 "$slurm/collect.py" --manifest grid.txt --out results/grid.csv runs 2>collect.err
[ $? = 1 ] || fail "collect: exit status (one command failed): $(cat collect.err)"
grep -q "1 of 4 commands failed: manifest lines 4" collect.err || fail "collect: $(cat collect.err)"
python3 - results/grid.csv "$mancala" "$(hostname)" <<'PY' || fail "collected CSV"
import csv, json, subprocess, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["index"] for r in rows] == ["0", "1", "2", "3"], rows
for r in rows:
    assert r["host"] == sys.argv[3], r
    if r["index"] == "2":
        assert r["exit_status"] == "2" and "seedz" in r["error"] and r["value"] == "", r
        continue
    direct = json.loads(subprocess.run([sys.argv[2], *r["command"].split(), "--json"], capture_output=True, text=True, check=True).stdout)
    assert r["exit_status"] == "0" and int(r["value"]) == direct["value"], (r, direct)
PY

# --- a table build through build.sbatch and srun, then the same job again
build() {
  MANCALA_MPI=$mancala sbatch --wait --parsable -n 1 --cpus-per-task=1 --time=00:05:00 --output="$work/build-%j.out" \
    "$slurm/build.sbatch" kalah 3 8 "$work/tables" --quiet
}
first=$(build) || fail "build.sbatch job: $(cat "$work"/build-*.out)"
second=$(build) || fail "build.sbatch rerun: $(cat "$work"/build-*.out)"
"$mancala" verify "$work/tables" --quiet >/dev/null || fail "verify of the tables built under Slurm"
python3 - "$work/tables/slurm_builds.jsonl" <<'PY' || fail "slurm_builds.jsonl: $(cat "$work/tables/slurm_builds.jsonl")"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 2 and rows[0]["job_id"] != rows[1]["job_id"], rows
for r in rows:
    assert r["exit_status"] == 0 and r["ranks"] == 1 and r["threads_per_rank"] == 1, r
    assert r["command"].startswith("srun "), r
PY
[ "$(grep -c reused "$work/build-$first.out")" = 0 ] || fail "the first build job reused levels"
[ "$(grep -c reused "$work/build-$second.out")" = 9 ] || fail "the second build job did not resume: $(cat "$work/build-$second.out")"

# --- the real mancala-mpi (when built): 2 tasks through mpirun inside the
# allocation, the job cancelled once mid-build (scancel, as a time limit
# ends a job) and submitted again, ending with mancala build's files.
if [ -n "$mpi" ]; then
  export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
  mpi_job() {
    MANCALA_MPI=$mpi MANCALA_LAUNCHER=mpirun MANCALA_LAUNCHER_ARGS="-q --allow-run-as-root --oversubscribe" \
      sbatch --parsable -n 2 --cpus-per-task=1 --time=00:10:00 --output="$work/mpi-%j.out" \
      "$slurm/build.sbatch" kalah 5 17 "$work/mpitables" "$@"
  }
  "$mancala" build --game kalah --pits 5 --max-seeds 17 --quiet --out "$work/reference" >/dev/null || fail "mancala build kalah 5 17"
  job=$(mpi_job --quiet) || fail "sbatch of the mancala-mpi job"
  # Cancelled once a few levels are written, well before the last.
  for _ in $(seq 600); do
    [ -f "$work/mpitables/level_012.mtb" ] && break
    sleep 0.1
  done
  [ -f "$work/mpitables/level_012.mtb" ] || fail "the mancala-mpi job did not reach level 12: $(cat "$work"/mpi-*.out)"
  scancel "$job"
  for _ in $(seq 300); do
    [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
    sleep 0.2
  done
  [ ! -f "$work/mpitables/level_017.mtb" ] || fail "the cancelled job finished before it was cancelled"
  job=$(mpi_job --quiet --json) || fail "sbatch of the resubmitted job"
  for _ in $(seq 1200); do
    [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
    sleep 0.5
  done
  for ((k = 0; k <= 17; k++)); do
    f=$(printf 'level_%03d.mtb' "$k")
    cmp -s "$work/reference/$f" "$work/mpitables/$f" || fail "$f of the resubmitted mancala-mpi job differs from mancala build's: $(cat "$work"/mpi-*.out)"
  done
  python3 - "$work/mpi-$job.out" <<'PY' || fail "the resubmitted job: $(cat "$work/mpi-$job.out")"
import json, sys
d = json.loads([l for l in open(sys.argv[1]) if l.startswith("{")][-1])
assert d["ranks"] == 2, d
reused = [l["reused"] for l in d["levels"]]
assert reused[0] and not reused[-1], reused  # resumed after the complete levels
PY
fi
echo "1 passed, 0 failed"
