#!/usr/bin/env bash
# The figure scripts run on the committed results and write readable PNGs
# (plot_solver.py also without the girving comparison);
# plot_tables.py adds the MPI ranks panel exactly when an MPI scaling CSV
# (columns: results/README.md) is there, and refuses one without the needed
# columns.  Skipped (77) when Debian's python3 has no matplotlib.
# plot_move_order_tuning.py draws a tuning's trials.
# search_stats.py records a solve's counts (the table directory written as
# T, never its path) and draws the committed records.
#   tests/plots_test.sh SOURCE_DIR MANCALA
set -uo pipefail
src=$1
mancala=$2
py=/usr/bin/python3
"$py" -c 'import matplotlib' 2>/dev/null || { echo "SKIP: /usr/bin/python3 has no matplotlib (scripts/setup.sh)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && [ "$(stat -c %s "$1")" -gt 20000 ]; }

"$py" "$src/scripts/plot_values.py" --out-dir "$work" 2>"$work/err" || fail "plot_values.py: $(cat "$work/err")"
for f in values.png solve_time.png; do is_png "$work/$f" || fail "$f is not a PNG"; done

# Without MPI results: the threads panel only.
mkdir "$work/res" && cp "$src"/results/tables_build.csv "$src"/results/tables_large.csv "$src"/results/tables_*_6pits_2*.json "$work/res/"
rm -f "$work/res/mpi_build_scaling.csv"
"$py" "$src/scripts/plot_tables.py" --results "$work/res" 2>"$work/err" || fail "plot_tables.py: $(cat "$work/err")"
grep -qx "plot_tables.py: table_throughput.png: threads" "$work/err" || fail "without MPI results: $(cat "$work/err")"
grep -qx "plot_tables.py: level_values.png: tables_kalah_6pits_24.json, tables_oware_6pits_27.json" "$work/err" || fail "levels: $(cat "$work/err")"
for f in table_throughput.png level_values.png; do is_png "$work/res/$f" || fail "$f is not a PNG"; done
one_panel=$(stat -c %s "$work/res/table_throughput.png")

# With them (found in the results directory): threads and ranks.
cat >"$work/res/mpi_build_scaling.csv" <<'CSV'
game,pits,max_seeds,ranks,threads_per_rank,positions,seconds,bytes_sent_per_rank,peak_rss_mb_per_rank,commit,command,comm_seconds_per_rank,cpu_seconds_per_rank
kalah,6,18,1,1,86493225,20.0,0,90,test,"mpirun -np 1 mancala-mpi build --game kalah --pits 6 --max-seeds 18 --out DIR --threads 1",0.01,19.5
kalah,6,18,2,1,86493225,11.0,43246612,90,test,"mpirun -np 2 mancala-mpi build --game kalah --pits 6 --max-seeds 18 --out DIR --threads 1",1.2,10.1
CSV
"$py" "$src/scripts/plot_tables.py" --results "$work/res" 2>"$work/err" || fail "plot_tables.py with MPI results: $(cat "$work/err")"
grep -qx "plot_tables.py: table_throughput.png: threads, ranks" "$work/err" || fail "with MPI results: $(cat "$work/err")"
is_png "$work/res/table_throughput.png" || fail "table_throughput.png with ranks is not a PNG"
[ "$(stat -c %s "$work/res/table_throughput.png")" -gt "$one_panel" ] || fail "the ranks panel did not grow the figure"

# The committed results, as scripts/mpi_scaling.sh writes them, are read too
# (producer and plot must agree on the columns).
mkdir "$work/committed"
cp "$src"/results/*.csv "$src"/results/*.json "$work/committed/"
"$py" "$src/scripts/plot_tables.py" --results "$work/committed" 2>"$work/err" || fail "committed results: $(cat "$work/err")"
grep -qx "plot_tables.py: table_throughput.png: threads, ranks" "$work/err" || fail "committed results: $(cat "$work/err")"

# plot_solver.py on the committed results: both figures, a panel per board
# of the girving comparison; without that CSV, only the scaling figure.
"$py" "$src/scripts/plot_solver.py" --out-dir "$work" 2>"$work/err" || fail "plot_solver.py: $(cat "$work/err")"
grep -q "solver_vs_girving.png: 2 panels$" "$work/err" || fail "plot_solver.py girving panels: $(cat "$work/err")"
grep -q "solver_scaling.png: 4 boards$" "$work/err" || fail "plot_solver.py scaling: $(cat "$work/err")"
for f in solver_vs_girving.png solver_scaling.png; do is_png "$work/$f" || fail "$f is not a PNG"; done
mkdir "$work/solver" && cp "$src"/results/solver_scaling.csv "$work/solver/"
"$py" "$src/scripts/plot_solver.py" --results "$work/solver" 2>"$work/err" || fail "plot_solver.py without the comparison: $(cat "$work/err")"
[ ! -e "$work/solver/solver_vs_girving.png" ] && is_png "$work/solver/solver_scaling.png" || fail "plot_solver.py without the comparison: $(cat "$work/err")"

# The girving ratios are taken within a run, never between runs: run a's
# machine was slow for both programs, run b's fast.  Each program's best
# over both runs (girving's 20 s of run b against our 8 s on two threads of
# run a) would give 2.50x on two threads; within run a it is 5.00x, and run
# b has no two-thread row.  Rows of another commit, and rows without a run
# name (one run of their commit), are kept apart.
cp "$src"/results/solver_scaling.csv "$work/solver/"
cat >"$work/solver/girving_comparison.csv" <<'CSV'
program,pits,seeds,table_seeds,threads,value,table_seconds,solve_seconds,total_seconds,nodes,command,commit,run
girving/kalah@x,6,4,17,1,10,1,1,1,1,printf x | generator eg.dat; kalah-s -t 24 -e 17 -E eg.dat s 4,old111,
mancala,6,4,15,1,10,1,9,10,1,mancala build --tt-mb 64 x; mancala solve --tt-mb 64 x,old111,
girving/kalah@x,6,4,17,1,10,5,35,40,1,printf x | generator eg.dat; kalah-s -t 24 -e 17 -E eg.dat s 4,new222,a
mancala,6,4,15,1,10,2,14,16,1,mancala build --tt-mb 64 x; mancala solve --tt-mb 64 x,new222,a
mancala,6,4,15,2,10,1,7,8,1,mancala build --tt-mb 64 x; mancala solve --tt-mb 64 x,new222,a
girving/kalah@x,6,4,17,1,10,3,17,20,1,printf x | generator eg.dat; kalah-s -t 24 -e 17 -E eg.dat s 4,new222,b
mancala,6,4,15,1,10,1,7,8,1,mancala build --tt-mb 64 x; mancala solve --tt-mb 64 x,new222,b
mancala,5,6,24,1,2,1,9,10,1,mancala build --tt-mb 256 x; mancala solve --tt-mb 256 x,old111,
girving/kalah@x,5,6,20,1,2,5,95,100,1,printf x | generator eg.dat; kalah-s -t 28 -e 20 -E eg.dat s 6,old111,
mancala,5,6,24,2,2,1,4,5,1,mancala build --tt-mb 256 x; mancala solve --tt-mb 256 x,old111,
CSV
"$py" "$src/scripts/plot_solver.py" --results "$work/solver" 2>"$work/err" || fail "plot_solver.py runs: $(cat "$work/err")"
grep -qx "Kalah(6,4) run a: 1 thr 2.50x, 2 thr 5.00x" "$work/err" || fail "run a's ratios: $(cat "$work/err")"
grep -qx "Kalah(6,4) run b: 1 thr 2.50x" "$work/err" || fail "run b's ratio: $(cat "$work/err")"
[ "$(grep -c '^Kalah(6,4) run' "$work/err")" = 2 ] || fail "another commit's rows taken as a run: $(cat "$work/err")"
grep -qx "Kalah(5,6) run (unnamed): 1 thr 10.00x, 2 thr 20.00x" "$work/err" || fail "an unnamed run: $(cat "$work/err")"
is_png "$work/solver/solver_vs_girving.png" || fail "solver_vs_girving.png of the runs is not a PNG"

# plot_congkak.py on the committed Congkak opening results.
"$py" "$src/scripts/plot_congkak.py" --results "$src/results" --out "$work/congkak_opening.png" >/dev/null 2>"$work/err" ||
  fail "plot_congkak.py: $(cat "$work/err")"
is_png "$work/congkak_opening.png" || fail "congkak_opening.png is not a PNG"

# An MPI CSV without the needed columns is refused, naming them.
printf 'game,pits,ranks\nkalah,6,2\n' >"$work/bad.csv"
"$py" "$src/scripts/plot_tables.py" --results "$work/res" --mpi "$work/bad.csv" 2>"$work/err" && fail "bad MPI CSV accepted"
grep -q "lacks the columns max_seeds, threads_per_rank, positions, seconds" "$work/err" || fail "bad MPI CSV: $(cat "$work/err")"
# search_stats.py: a record of a small solve with tables (its directory
# written as T), a second label kept beside it and the same label replaced;
# the committed records drawn; a file without records refused.
"$mancala" build --pits 3 --max-seeds 4 --out "$work/t3" --quiet >/dev/null || fail "mancala build"
stats=$work/stats.json
for label in a b a; do
  "$py" "$src/scripts/search_stats.py" record "$label" "$stats" "$mancala" solve --pits 3 --seeds 3 --tables "$work/t3" --threads 1 --tt-mb 4 \
    >"$work/out" 2>"$work/err" || fail "search_stats.py record: $(cat "$work/err")"
done
grep -q "^a: [0-9]* nodes; interior" "$work/out" || fail "search_stats.py record's summary: $(cat "$work/out")"
"$py" - "$stats" "$work" <<'PY' || fail "search_stats.py record's file"
import json, sys
records = json.load(open(sys.argv[1]))["records"]
assert [r["label"] for r in records] == ["b", "a"], [r["label"] for r in records]
r = records[-1]
assert r["command"] == "mancala solve --pits 3 --seeds 3 --tables T --threads 1 --tt-mb 4 --search-stats --json", r["command"]
assert sys.argv[2] not in json.dumps(records), "a path of the machine recorded"
s = r["search_stats"]
kinds = ["terminal", "from_tables", "horizon", "repetition", "settled_by_entry", "interior", "abandoned"]
assert sum(s[k] for k in kinds) == r["nodes"], (s, r["nodes"])
assert r["level_tables"] == 4 and r["value"] is not None
PY
"$py" "$src/scripts/search_stats.py" record c "$stats" "$mancala" show 2>"$work/err" && fail "search_stats.py record of another command"
grep -q "must be MANCALA solve" "$work/err" || fail "search_stats.py record of another command: $(cat "$work/err")"
"$py" "$src/scripts/search_stats.py" plot "$src/results/search_stats.json" "$work/search_stats.png" 2>"$work/err" || fail "search_stats.py plot: $(cat "$work/err")"
is_png "$work/search_stats.png" || fail "search_stats.png is not a PNG"
echo '{"records": []}' >"$work/no_stats.json"
"$py" "$src/scripts/search_stats.py" plot "$work/no_stats.json" "$work/none.png" 2>"$work/err" && fail "a file without records drawn"
grep -q "no records" "$work/err" || fail "a file without records: $(cat "$work/err")"
# plot_move_order_tuning.py on the committed Congkak tuning; a file that is
# no tuning CSV is refused with one line, status 2.
"$py" "$src/scripts/plot_move_order_tuning.py" "$src/results/congkak_move_order_tuning.csv" "$work/tuning.png" 2>"$work/err" \
  || fail "plot_move_order_tuning.py: $(cat "$work/err")"
is_png "$work/tuning.png" || fail "congkak_move_order_tuning.png is not a PNG"
"$py" "$src/scripts/plot_move_order_tuning.py" "$src/results/girving_comparison.csv" "$work/x.png" 2>"$work/err"
[ $? -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] || fail "a CSV that is not a tuning's: $(cat "$work/err")"
echo "1 passed, 0 failed"
