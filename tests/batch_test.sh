#!/usr/bin/env bash
# `mancala batch` end to end: a manifest run whole, as single array tasks
# (--index and SLURM_ARRAY_TASK_ID), appending with --out, manifest errors
# reported with their line numbers (exit 2, the other lines' results kept),
# lines refused before they run (NUL byte, over-long, --help), timeouts (also
# of commands that finish just as the timeout falls due), and batch's own bad
# input (one line on stderr, exit 2).
#   tests/batch_test.sh MANCALA_BINARY SOURCE_DIR
set -uo pipefail
mancala=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
unset SLURM_ARRAY_TASK_ID  # the test sets it itself
py() { python3 -c "$@"; }

# A manifest of 4 commands among comments and blank lines.
cat >"$work/grid.txt" <<'EOF'
# Kalah 3x2 and friends

show --pits 3 --seeds 2
   # an indented comment
solve --game kalah --pits 3 --seeds 2 --threads 2 --tt-mb 16
mancala perft --depth 2 --position "1,2,3/3,2,1 3-4 n"   # a comment after the command
analyze --game oware --pits 2 --seeds 2 --tt-mb 16 --json
EOF

[ "$("$mancala" batch --manifest "$work/grid.txt" --count)" = 4 ] || fail "--count"

# --- the whole manifest
"$mancala" batch --manifest "$work/grid.txt" >"$work/all.jsonl" 2>"$work/all.err" || fail "whole run exit status $?"
[ ! -s "$work/all.err" ] || fail "stderr of a clean run: $(cat "$work/all.err")"
want_commit=unknown
if sha=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null); then want_commit=$sha; fi
direct=$("$mancala" solve --game kalah --pits 3 --seeds 2 --tt-mb 16 --json | py 'import json,sys; print(json.load(sys.stdin)["value"])')
WANT_COMMIT=$want_commit WANT_HOST=$(hostname) DIRECT=$direct NPROC=$(nproc) py '
import json, os, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 4, len(rows)
assert [r["index"] for r in rows] == [0, 1, 2, 3]
assert [r["line"] for r in rows] == [3, 5, 6, 7], [r["line"] for r in rows]
assert rows[0]["command"] == "show --pits 3 --seeds 2"
assert rows[2]["command"].startswith("mancala perft --depth 2")
for r in rows:
    assert r["exit_status"] == 0 and "error" not in r, r
    assert r["commit"].split("+")[0] == os.environ["WANT_COMMIT"], (r["commit"], os.environ["WANT_COMMIT"])
    assert r["host"] == os.environ["WANT_HOST"], r["host"]
    assert isinstance(r["seconds"], float) and r["seconds"] >= 0
    assert r["peak_rss_mib"] > 0
    assert list(r)[:3] == ["command", "line", "index"]
# the command results themselves
assert rows[0]["position"] == "2,2,2/2,2,2 0-0 s" and rows[0]["legal_moves"] == [1, 2, 3]
assert rows[1]["value"] == int(os.environ["DIRECT"]) and rows[1]["threads"] == 2
assert "result_seconds" in rows[1]  # the solver s own time, next to the wall time
assert rows[0]["threads"] == 1
assert rows[3]["threads"] == int(os.environ["NPROC"]), rows[3]["threads"]  # analyze: --threads 0, every core
assert rows[2]["counts"] == [3, 6] and rows[2]["position"] == "1,2,3/3,2,1 3-4 n"
assert rows[3]["value"] == rows[3]["moves"][0]["value"]
' "$work/all.jsonl" || fail "whole run output"

# --- one command per array task: --index, SLURM_ARRAY_TASK_ID, --index wins
strip='import json,sys
for l in sys.stdin:
    r = json.loads(l)
    for k in ("seconds", "result_seconds", "peak_rss_mib", "started", "nodes", "tests", "test_log"): r.pop(k, None)
    print(json.dumps(r, sort_keys=True))'
for i in 0 1 2 3; do
  SLURM_ARRAY_TASK_ID=$i "$mancala" batch --manifest "$work/grid.txt" >>"$work/tasks.jsonl" || fail "array task $i"
done
[ "$(wc -l <"$work/tasks.jsonl")" = 4 ] || fail "array tasks: one line each"
diff <(py "$strip" <"$work/all.jsonl") <(py "$strip" <"$work/tasks.jsonl") >/dev/null || fail "array tasks 0..3 differ from the whole run"
"$mancala" batch --manifest "$work/grid.txt" --index 2 | py 'import json,sys; r=[json.loads(l) for l in sys.stdin]; assert len(r)==1 and r[0]["index"]==2 and r[0]["line"]==6' \
  || fail "--index 2"
SLURM_ARRAY_TASK_ID=3 "$mancala" batch --manifest "$work/grid.txt" --index 0 | py 'import json,sys; r=[json.loads(l) for l in sys.stdin]; assert [x["index"] for x in r]==[0]' \
  || fail "--index over SLURM_ARRAY_TASK_ID"
SLURM_ARRAY_TASK_ID=3 "$mancala" batch --manifest "$work/grid.txt" --all | py 'import json,sys; assert len(sys.stdin.readlines())==4' \
  || fail "--all over SLURM_ARRAY_TASK_ID"

# --- --out appends; nothing on stdout
"$mancala" batch --manifest "$work/grid.txt" --index 0 --out "$work/out.jsonl" >"$work/stdout" || fail "--out"
"$mancala" batch --manifest "$work/grid.txt" --index 1 --out "$work/out.jsonl" >>"$work/stdout" || fail "--out again"
[ ! -s "$work/stdout" ] || fail "--out also wrote stdout"
py 'import json,sys; assert [json.loads(l)["index"] for l in open(sys.argv[1])]==[0,1]' "$work/out.jsonl" || fail "--out appends"

# --- manifest errors: reported with their line number, exit 2, other lines kept
cat >"$work/bad.txt" <<'EOF'
show --pits 3 --seeds 2
frobnicate --pits 3
solve --position '2,2,2/2,2,2 0-0 s
# comment
batch --manifest grid.txt
show --pits 3 --no-such-option
show --pits 99
perft --depth 1 --pits 3 --seeds 2
EOF
"$mancala" batch --manifest "$work/bad.txt" >"$work/bad.jsonl" 2>"$work/bad.err"
rc=$?
[ "$rc" = 2 ] || fail "manifest errors: exit $rc, want 2"
[ "$(wc -l <"$work/bad.err")" = 5 ] || fail "one stderr line per bad line: $(cat "$work/bad.err")"
for want in "bad.txt line 2: unknown command 'frobnicate'" "bad.txt line 3: unterminated ' quote" \
            "bad.txt line 5: batch cannot run inside" "bad.txt line 6: .*no-such-option" "bad.txt line 7: .*pits"; do
  grep -q "^mancala: error: .*$want" "$work/bad.err" || fail "stderr lacks '$want': $(cat "$work/bad.err")"
done
py '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [r["line"] for r in rows] == [1, 2, 3, 5, 6, 7, 8], [r["line"] for r in rows]
assert [r["index"] for r in rows] == list(range(7))
ok = [r for r in rows if "error" not in r]
assert [r["line"] for r in ok] == [1, 8], ok
assert ok[0]["position"] == "2,2,2/2,2,2 0-0 s" and ok[1]["counts"] == [3]
for r in rows:
    if "error" in r:
        assert r["exit_status"] == 2 and r["error"] and "\n" not in r["error"], r
        assert "value" not in r and "position" not in r, r
assert "frobnicate" in rows[1]["error"] and "quote" in rows[2]["error"] and "batch" in rows[3]["error"]
' "$work/bad.jsonl" || fail "manifest errors: records"
# A bad line as a single array task: its own record, exit 2.
"$mancala" batch --manifest "$work/bad.txt" --index 1 >"$work/one.jsonl" 2>"$work/one.err"
[ $? = 2 ] || fail "bad line as one task: exit status"
grep -q "line 2: unknown command" "$work/one.err" || fail "bad line as one task: stderr"
py 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; assert len(r)==1 and r[0]["line"]==2 and r[0]["exit_status"]==2' "$work/one.jsonl" \
  || fail "bad line as one task: record"

# --- a line that fails otherwise (timeout) exits 1, the next line still runs
printf 'perft --depth 60\nshow --pits 2 --seeds 1\n' >"$work/slow.txt"
"$mancala" batch --manifest "$work/slow.txt" --timeout 1 >"$work/slow.jsonl" 2>"$work/slow.err"
[ $? = 1 ] || fail "timeout: exit status"
grep -q "slow.txt line 1: timed out" "$work/slow.err" || fail "timeout: stderr $(cat "$work/slow.err")"
py 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; assert r[0]["exit_status"] is None and "timed out" in r[0]["error"] and r[1]["exit_status"]==0' \
  "$work/slow.jsonl" || fail "timeout: records"

# --- lines batch refuses before running them: a NUL byte (it would cut the
# line short as a C string), a line over 16384 bytes or 1024 words (beyond
# the kernel's argument limits), --help/-h/help (a help text, not a result),
# play (a dialogue on a terminal, not a result).
# Each gets its record (exit_status 2, error naming the problem) and a stderr
# line naming its line number; the good lines around them still run.
{
  printf 'show --pits 3 --seeds 1\n'
  printf 'show --pits 3\0 --seeds 9\n'
  printf 'show --position %s\n' "$(head -c 200000 /dev/zero | tr '\0' x)"
  printf 'show'; for i in $(seq 1100); do printf ' --pits 3'; done; printf '\n'
  printf 'solve --help\n'
  printf 'show -h --pits 2\n'
  printf 'help\n'
  printf 'play --pits 2 --seeds 1\n'
  printf 'perft --depth 1 --pits 3 --seeds 1\n'
} >"$work/refused.txt"
[ "$("$mancala" batch --manifest "$work/refused.txt" --count)" = 9 ] || fail "refused lines: --count"
"$mancala" batch --manifest "$work/refused.txt" >"$work/refused.jsonl" 2>"$work/refused.err"
rc=$?
[ "$rc" = 2 ] || fail "refused lines: exit $rc, want 2: $(cut -c1-300 "$work/refused.err")"
[ "$(wc -l <"$work/refused.err")" = 7 ] || fail "refused lines: one stderr line each: $(cut -c1-300 "$work/refused.err")"
for want in "line 2: .*NUL byte" "line 3: .*200016 bytes.*limit of 16384" "line 4: .*words.*limit of 1024" \
            "line 5: .*--help.*help text" "line 6: .*-h.*help text" "line 7: .*help.*help text" \
            "line 8: play is interactive"; do
  grep -q "^mancala: error: .*refused.txt $want" "$work/refused.err" || fail "refused lines: stderr lacks '$want': $(cut -c1-300 "$work/refused.err")"
done
py '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [r["line"] for r in rows] == list(range(1, 10)), [r["line"] for r in rows]
assert "error" not in rows[0] and rows[0]["position"] == "1,1,1/1,1,1 0-0 s", rows[0]
assert "error" not in rows[8] and rows[8]["counts"] == [3], rows[8]
for r in rows[1:8]:
    assert r["exit_status"] == 2 and r["seconds"] is None, r["error"]
    assert "position" not in r and "counts" not in r, r
assert "NUL" in rows[1]["error"] and rows[1]["command"] == "show --pits 3\u0000 --seeds 9"
assert "16384" in rows[2]["error"] and "1024" in rows[3]["error"]
assert all("help text" in r["error"] for r in rows[4:7]), [r["error"] for r in rows[4:7]]
assert "interactive" in rows[7]["error"], rows[7]
' "$work/refused.jsonl" || fail "refused lines: records"

# --- --timeout and a command that finishes just as it falls due: a child that
# has exited keeps its whole result; only a child still running is killed.
# Many trivial solves under timeouts around their running time hit both
# cases; every record must be a result or a timeout, never a lost result.
for i in $(seq 50); do echo "solve --pits 2 --seeds 1 --tt-mb 1"; done >"$work/race.txt"
for t in 0.001 0.002 0.003 0.005 0.008 0.013 0.02; do
  "$mancala" batch --manifest "$work/race.txt" --timeout "$t" >"$work/race.jsonl" 2>/dev/null
  rc=$?
  py '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 50, len(rows)
timed_out = 0
for r in rows:
    if r["exit_status"] == 0:
        assert "error" not in r and r["value"] == 2, r  # Kalah(2,1) is +2
    else:
        assert r["exit_status"] is None and r["error"].startswith("timed out"), r
        timed_out += 1
want = 1 if timed_out else 0
assert int(sys.argv[2]) == want, (sys.argv[2], timed_out)
' "$work/race.jsonl" "$rc" || fail "--timeout $t: a finished command lost its result"
done

# --- batch's own bad input: one line on stderr, nothing on stdout, exit 2
expect2() {
  local words=$1; shift
  out=$("$@" 2>"$work/err"); rc=$?
  err=$(cat "$work/err")
  [ "$rc" = 2 ] || fail "exit $rc (want 2): $*: $err"
  [ -z "$out" ] || fail "stdout not empty: $*"
  [ "$(wc -l <"$work/err")" = 1 ] || fail "not one line: $err"
  printf '%s' "$err" | grep -q -- "^mancala: error: .*$words" || fail "message lacks '$words': $err"
}
mkdir "$work/dir"
printf '\n# only comments\n\n' >"$work/empty.txt"
expect2 "unrecognised option '--frob'" "$mancala" batch --manifest "$work/grid.txt" --frob
expect2 "--manifest" "$mancala" batch
expect2 "does not exist" "$mancala" batch --manifest "$work/missing.txt"
expect2 "is a directory" "$mancala" batch --manifest "$work/dir"
expect2 "holds no commands" "$mancala" batch --manifest "$work/empty.txt"
expect2 "--index 4 is out of range.*holds 4 commands (0..3)" "$mancala" batch --manifest "$work/grid.txt" --index 4
expect2 "--index 'x' is not a command index" "$mancala" batch --manifest "$work/grid.txt" --index x
expect2 "SLURM_ARRAY_TASK_ID 4 is out of range" env SLURM_ARRAY_TASK_ID=4 "$mancala" batch --manifest "$work/grid.txt"
expect2 "SLURM_ARRAY_TASK_ID 'abc' is not a command index" env SLURM_ARRAY_TASK_ID=abc "$mancala" batch --manifest "$work/grid.txt"
expect2 "SLURM_ARRAY_TASK_ID '' is not" env SLURM_ARRAY_TASK_ID= "$mancala" batch --manifest "$work/grid.txt"
expect2 "cannot open --out" "$mancala" batch --manifest "$work/grid.txt" --out "$work/dir/no/such.jsonl"
# Unreadable: reading /proc/self/mem at offset 0 fails with EIO, also for root.
expect2 "cannot read manifest '/proc/self/mem'" "$mancala" batch --manifest /proc/self/mem
if [ "$(id -u)" != 0 ]; then  # root reads any file whatever its mode
  cp "$work/grid.txt" "$work/locked.txt" && chmod 000 "$work/locked.txt"
  expect2 "cannot read manifest" "$mancala" batch --manifest "$work/locked.txt"
fi
echo "1 passed, 0 failed"
