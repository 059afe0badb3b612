#!/usr/bin/env bash
# scripts/slurm/ without a Slurm cluster: the array logic of grid.sbatch run
# task by task through SLURM_ARRAY_TASK_ID, collect.py merging the task files
# into a CSV, submit_grid.sh against a stand-in sbatch that records its
# arguments, build.sbatch rerun (resume) with a plain `mancala` in place
# of mancala-mpi (same options), and, when MPI is built, build.sbatch with
# the real mancala-mpi under mpirun -np 2, found as a checkout's
# build/bin/mancala-mpi.  tests/slurm_test.sh runs them on a real
# single-node Slurm.
#   tests/slurm_scripts_test.sh MANCALA_BINARY SOURCE_DIR [MANCALA_MPI MPIEXEC]
set -uo pipefail
mancala=$1
src=$2
mpi=${3:-}
mpiexec=${4:-}
slurm=$src/scripts/slurm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
unset SLURM_ARRAY_TASK_ID SLURM_JOB_ID SLURM_SUBMIT_DIR SLURM_NTASKS SLURM_CPUS_PER_TASK MANCALA_BATCH_ARGS \
  MANCALA_MPI MANCALA_LAUNCHER MANCALA_LAUNCHER_ARGS
export MANCALA=$mancala

cat >"$work/grid.txt" <<'EOF'
# a small values grid
solve --game kalah --pits 2 --seeds 2 --tt-mb 16
solve --game kalah --pits 3 --seeds 1 --tt-mb 16

solve --game oware --pits 2 --seeds 1 --tt-mb 16
EOF

# --- grid.sbatch, one array task at a time
for i in 0 1 2; do
  SLURM_ARRAY_TASK_ID=$i SLURM_JOB_ID=7 bash "$slurm/grid.sbatch" "$work/grid.txt" "$work/runs" || fail "grid task $i"
done
[ "$(ls "$work/runs")" = "$(printf 'task_0.jsonl\ntask_1.jsonl\ntask_2.jsonl')" ] || fail "task files: $(ls "$work/runs")"
for i in 0 1 2; do
  python3 -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; assert len(r)==1 and r[0]["index"]==int(sys.argv[2]), r' \
    "$work/runs/task_$i.jsonl" "$i" || fail "task_$i.jsonl holds command $i only"
done
out=$(bash "$slurm/grid.sbatch" "$work/grid.txt" "$work/runs" 2>&1) && fail "grid.sbatch outside an array task succeeded"
printf '%s' "$out" | grep -q "not an array task" || fail "grid.sbatch outside an array: $out"
# A rerun task replaces its file (no duplicate records).
SLURM_ARRAY_TASK_ID=1 bash "$slurm/grid.sbatch" "$work/grid.txt" "$work/runs" || fail "rerun of task 1"
[ "$(wc -l <"$work/runs/task_1.jsonl")" = 1 ] || fail "rerun task appended instead of replacing"

# --- collect.py: one row per command in index order, stable columns
python3 "$slurm/collect.py" --manifest "$work/grid.txt" --out "$work/results/grid.csv" "$work/runs" 2>"$work/collect.err" \
  || fail "collect: $(cat "$work/collect.err")"
python3 - "$work/results/grid.csv" "$mancala" <<'PY' || fail "collected CSV"
import csv, json, subprocess, sys
rows = list(csv.DictReader(open(sys.argv[1])))
header = open(sys.argv[1]).readline().strip().split(",")
assert header[:10] == ["index", "line", "command", "exit_status", "commit", "host", "threads", "seconds", "peak_rss_mib", "started"], header
rest = header[10:]
assert rest == sorted(rest) and "value" in rest and "pv" in rest, rest
assert [r["index"] for r in rows] == ["0", "1", "2"] and [r["line"] for r in rows] == ["2", "3", "5"]
for r in rows:
    direct = json.loads(subprocess.run([sys.argv[2], *r["command"].split(), "--json"], capture_output=True, text=True, check=True).stdout)
    assert int(r["value"]) == direct["value"], (r, direct)
    assert json.loads(r["pv"]) == direct["pv"]
PY
# Collecting twice gives the same file.
python3 "$slurm/collect.py" --manifest "$work/grid.txt" --out "$work/again.csv" "$work/runs" 2>/dev/null || fail "collect again"
cmp -s "$work/results/grid.csv" "$work/again.csv" || fail "collect is not deterministic"
# A missing task is reported (exit 1), the CSV is still written.
rm "$work/runs/task_1.jsonl"
python3 "$slurm/collect.py" --manifest "$work/grid.txt" --out "$work/partial.csv" "$work/runs" 2>"$work/collect.err"
[ $? = 1 ] || fail "collect with a missing task: exit status"
grep -q "1 of 3 commands have no record: indices 1" "$work/collect.err" || fail "missing task not named: $(cat "$work/collect.err")"
[ "$(wc -l <"$work/partial.csv")" = 3 ] || fail "partial CSV"
printf 'not json\n' >"$work/runs/junk.jsonl"
python3 "$slurm/collect.py" --out "$work/x.csv" "$work/runs" 2>"$work/collect.err"
[ $? = 2 ] && grep -q "junk.jsonl line 1: not JSON" "$work/collect.err" || fail "collect of a bad file: $(cat "$work/collect.err")"
rm "$work/runs/junk.jsonl"

# --- a bad manifest line inside a task: its record names the error, exit 2
printf 'show --pits 2 --seeds 1\nfrobnicate\n' >"$work/bad.txt"
SLURM_ARRAY_TASK_ID=1 bash "$slurm/grid.sbatch" "$work/bad.txt" "$work/badruns" 2>"$work/bad.err"
[ $? = 2 ] || fail "bad line in a task: exit status"
grep -q "line 2: unknown command 'frobnicate'" "$work/bad.err" || fail "bad line in a task: stderr"
python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).read()); assert r["line"]==2 and r["exit_status"]==2 and "frobnicate" in r["error"]' \
  "$work/badruns/task_1.jsonl" || fail "bad line in a task: record"
# An index past the end writes nothing.
SLURM_ARRAY_TASK_ID=2 bash "$slurm/grid.sbatch" "$work/bad.txt" "$work/badruns" 2>/dev/null && fail "task past the end succeeded"
[ ! -e "$work/badruns/task_2.jsonl" ] && [ -z "$(ls "$work/badruns" | grep tmp)" ] || fail "task past the end left a file"

# --- submit_grid.sh with a stand-in sbatch
mkdir "$work/bin"
cat >"$work/bin/sbatch" <<'EOF'
#!/usr/bin/env bash
printf '%s\n' "$@" >"$FAKE_SBATCH_LOG"
echo "MANCALA=$MANCALA" >>"$FAKE_SBATCH_LOG"
echo 4242
EOF
chmod +x "$work/bin/sbatch"
(cd "$work" && PATH="$work/bin:$PATH" FAKE_SBATCH_LOG="$work/sbatch.log" "$slurm/submit_grid.sh" grid.txt runs2 --time=00:10:00) >"$work/submit.out" \
  || fail "submit_grid.sh"
grep -qx -- "--array=0-2" "$work/sbatch.log" || fail "submit_grid.sh: --array=0-2 not passed: $(cat "$work/sbatch.log")"
grep -qx -- "--time=00:10:00" "$work/sbatch.log" || fail "submit_grid.sh: sbatch options not passed"
grep -qx -- "$work/grid.txt" "$work/sbatch.log" || fail "submit_grid.sh: manifest not absolute"
grep -qx -- "$slurm/grid.sbatch" "$work/sbatch.log" || fail "submit_grid.sh: script"
grep -qx -- "MANCALA=$(realpath "$mancala")" "$work/sbatch.log" || fail "submit_grid.sh: binary not exported"
grep -q "job array 4242: 3 tasks" "$work/submit.out" || fail "submit_grid.sh output: $(cat "$work/submit.out")"
(cd "$work" && PATH="$work/bin:$PATH" FAKE_SBATCH_LOG="$work/sbatch.log" MANCALA_ARRAY_THROTTLE=2 "$slurm/submit_grid.sh" grid.txt runs2) >/dev/null \
  || fail "submit_grid.sh with throttle"
grep -qx -- "--array=0-2%2" "$work/sbatch.log" || fail "submit_grid.sh: throttle"
(cd "$work" && PATH="$work/bin:$PATH" FAKE_SBATCH_LOG="$work/sbatch.log" "$slurm/submit_grid.sh" missing.txt runs2) 2>/dev/null \
  && fail "submit_grid.sh with a missing manifest succeeded"

# --- build.sbatch: a build, then a rerun that resumes (every level reused)
run_build() {
  MANCALA_LAUNCHER=none MANCALA_MPI=$mancala bash "$slurm/build.sbatch" kalah 3 8 "$work/tables" --quiet
}
run_build >"$work/build1.out" || fail "build.sbatch"
run_build >"$work/build2.out" || fail "build.sbatch rerun"
[ "$(grep -c reused "$work/build1.out")" = 0 ] || fail "first build reused levels"
[ "$(grep -c reused "$work/build2.out")" = 9 ] || fail "rerun did not resume: $(cat "$work/build2.out")"
"$mancala" verify "$work/tables" --quiet >/dev/null || fail "verify of the build.sbatch tables"
python3 - "$work/tables/slurm_builds.jsonl" "$mancala" <<'PY' || fail "slurm_builds.jsonl"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 2, rows
for r in rows:
    assert r["exit_status"] == 0 and r["ranks"] == 1 and r["threads_per_rank"] == 0 and r["seconds"] >= 0, r
    assert r["command"] == sys.argv[2] + " build --game kalah --pits 3 --max-seeds 8 --out " + sys.argv[1].rsplit("/", 1)[0] + " --threads 0 --quiet", r["command"]
PY
MANCALA_LAUNCHER=bogus MANCALA_MPI=$mancala bash "$slurm/build.sbatch" kalah 3 8 "$work/tables" 2>/dev/null && fail "bad launcher accepted"
MANCALA_LAUNCHER=none MANCALA_LAUNCHER_ARGS=-q MANCALA_MPI=$mancala bash "$slurm/build.sbatch" kalah 3 8 "$work/tables" 2>/dev/null \
  && fail "launcher arguments without a launcher accepted"
bash "$slurm/build.sbatch" kalah 3 2>/dev/null && fail "build.sbatch without DIR succeeded"

# --- build.sbatch with the real mancala-mpi, as a job would run it: no
# MANCALA_MPI, so it must find the binary as build/bin/mancala-mpi of the
# submit directory (here a directory laid out like a checkout, the binary a
# symlink), and run it with `mpirun -np $SLURM_NTASKS`.  The mpirun flags
# and settings of tests/mpi_build_test.sh (root, more processes than cores,
# container-safe transports) go through MANCALA_LAUNCHER_ARGS and the
# environment.
if [ -z "$mpi" ]; then
  echo "SKIP: build.sbatch with mancala-mpi (MPI not built)"
else
  [ -x "$mpi" ] && [ -x "$mpiexec" ] || fail "mancala-mpi '$mpi' or mpiexec '$mpiexec' not executable"
  mkdir -p "$work/checkout/build/bin" "$work/mpibin"
  ln -s "$(realpath "$mpi")" "$work/checkout/build/bin/mancala-mpi"
  ln -s "$mpiexec" "$work/mpibin/mpirun"  # the mpirun CMake found, by the name build.sbatch calls
  launcher_args="-q --allow-run-as-root --oversubscribe"
  (
    cd "$work" || exit 1
    export PATH="$work/mpibin:$PATH" SLURM_SUBMIT_DIR="$work/checkout" SLURM_NTASKS=2 SLURM_CPUS_PER_TASK=1 SLURM_JOB_ID=99
    export MANCALA_LAUNCHER=mpirun MANCALA_LAUNCHER_ARGS=$launcher_args
    export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1 \
      OMPI_MCA_mpi_yield_when_idle=1
    # Open MPI keeps allocations until exit by design; under ASan only the
    # leak check is off, for the MPI run alone (as for tests/mpi_build_test.sh).
    export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
    exec bash "$slurm/build.sbatch" oware 3 8 "$work/mpi-tables" --quiet
  ) >"$work/mpi.out" 2>"$work/mpi.err" || fail "build.sbatch with mancala-mpi: $(cat "$work/mpi.out" "$work/mpi.err")"
  grep -q "on 2 processes" "$work/mpi.out" || fail "build.sbatch did not run 2 processes: $(cat "$work/mpi.out")"
  "$mancala" build --game oware --pits 3 --max-seeds 8 --quiet --out "$work/ref-tables" >/dev/null || fail "mancala build oware 3 8"
  for f in "$work"/ref-tables/level_*.mtb; do
    cmp -s "$f" "$work/mpi-tables/$(basename "$f")" || fail "$(basename "$f") of build.sbatch with mancala-mpi differs from mancala build's"
  done
  [ "$(ls "$work"/mpi-tables/level_*.mtb | wc -l)" = 9 ] || fail "build.sbatch with mancala-mpi: $(ls "$work/mpi-tables")"
  python3 - "$work/mpi-tables/slurm_builds.jsonl" "$work" "$launcher_args" <<'PY' || fail "slurm_builds.jsonl of the mancala-mpi run: $(cat "$work/mpi-tables/slurm_builds.jsonl")"
import json, sys
path, work, launcher_args = sys.argv[1:]
rows = [json.loads(l) for l in open(path)]
assert len(rows) == 1, rows
r = rows[0]
assert r["exit_status"] == 0 and r["ranks"] == 2 and r["threads_per_rank"] == 1 and r["job_id"] == "99" and r["seconds"] > 0, r
want = (f"mpirun {launcher_args} -np 2 {work}/checkout/build/bin/mancala-mpi build --game oware --pits 3 --max-seeds 8"
        f" --out {work}/mpi-tables --threads 1 --quiet")
assert r["command"] == want, (r["command"], want)
PY
fi
echo "1 passed, 0 failed"
