#!/usr/bin/env bash
# scripts/tune_move_order.py on tiny boards: a round over two weights keeps
# no order that scores worse than the start, reports every line's nodes
# (the start's as `mancala solve` counts them) and the held-out check, and
# writes every trial to its CSV, which plot_move_order_tuning.py draws.
# Bad input exits 2 with one line; a solve whose value changes with the
# order (a fake mancala) exits 3.
#   tests/tune_move_order_test.sh SOURCE_DIR MANCALA
set -uo pipefail
src=$1
mancala=$2
tune="$src/scripts/tune_move_order.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
py() { python3 -c "$@"; }

cat >"$work/train" <<'LINES'
# two tiny empty-capture boards
--game kalah --empty-capture --pits 4 --seeds 3 --tt-mb 16
--game kalah --empty-capture --pits 3 --seeds 4 --tt-mb 16   # and a comment
LINES
echo "--game kalah --empty-capture --pits 4 --seeds 4 --tt-mb 16" >"$work/held"

python3 "$tune" --mancala "$mancala" --train "$work/train" --held-out "$work/held" --rounds 1 \
  --only level_cut.per_reply,behind_cut.extra_turn --csv "$work/trials.csv" --json >"$work/out.json" 2>"$work/err" \
  || fail "tuning: $(cat "$work/err")"
tuned=$("$mancala" solve --game kalah --empty-capture --pits 4 --seeds 3 --tt-mb 16 --threads 1 --json --quiet)
py '
import json, sys
r = json.load(open(sys.argv[1])); solve = json.loads(sys.argv[2])
assert r["start"] == solve["move_order"], (r["start"], solve["move_order"])
assert r["train"]["score"] <= 1.0, r["train"]["score"]
lines = r["train"]["lines"]
assert len(lines) == 2, lines
assert lines[0]["start_nodes"] == solve["nodes"] and lines[0]["value"] == solve["value"], (lines[0], solve)
changed = [i for i, (a, b) in enumerate(zip(r["start"].split(","), r["best"].split(","))) if a != b]
assert set(changed) <= {5, 12}, changed  # only the two weights named
assert len(r["held_out"]["lines"]) == 1 and r["held_out"]["score"] > 0, r["held_out"]
assert r["trials"] > 0
' "$work/out.json" "$tuned" || fail "tuning result: $(cat "$work/out.json")"
rows=$(($(wc -l <"$work/trials.csv") - 1))
[ "$rows" -eq "$(py 'import json,sys; print(json.load(open(sys.argv[1]))["trials"] + 1)' "$work/out.json")" ] \
  || fail "the CSV has $rows trials"
head -1 "$work/trials.csv" | grep -qx "trial,round,weight,order,score,kept" || fail "CSV header: $(head -1 "$work/trials.csv")"
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  /usr/bin/python3 "$src/scripts/plot_move_order_tuning.py" "$work/trials.csv" "$work/t.png" || fail "plot"
  [ "$(head -c 8 "$work/t.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "the plot is not a PNG"
fi

# Bad input: one line on stderr, status 2.
expect2() {
  local name=$1 want=$2; shift 2
  python3 "$tune" --mancala "$mancala" "$@" >"$work/o" 2>"$work/e"
  local rc=$?
  [ $rc -eq 2 ] || fail "$name: status $rc, want 2: $(cat "$work/e")"
  [ "$(wc -l <"$work/e")" -eq 1 ] || fail "$name: not one line: $(cat "$work/e")"
  grep -q -- "$want" "$work/e" || fail "$name: '$want' not in: $(cat "$work/e")"
}
expect2 "no train file" "No such file" --train "$work/none"
expect2 "unknown option" "--bogus" --train "$work/train" --bogus
expect2 "unknown weight" "unknown weight 'level_cut.per_foo'" --train "$work/train" --only level_cut.per_foo
expect2 "zero rounds" "--rounds" --train "$work/train" --rounds 0
expect2 "bad start" "16" --train "$work/train" --start 1,2,3
echo "# nothing" >"$work/empty"
expect2 "empty train file" "holds no solve" --train "$work/empty"
echo "--game kalah --pits 3 --seeds 3 --threads 2" >"$work/threads"
expect2 "a line setting --threads" "train line 1: sets --threads" --train "$work/threads"
echo "--game chess --pits 3" >"$work/chess"
expect2 "a line mancala refuses" "train line 1:.*chess" --train "$work/chess"
expect2 "mancala not executable" "not an executable" --train "$work/train" --mancala "$work/none"

# A value that changes with the order is a solver bug: status 3.
cat >"$work/fake" <<'FAKE'
#!/usr/bin/env bash
case "$*" in
  *--move-order*) echo '{"nodes": 90, "value": 4, "move_order": "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"}' ;;
  *) echo '{"nodes": 100, "value": 2, "move_order": "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1"}' ;;
esac
FAKE
chmod +x "$work/fake"
python3 "$tune" --mancala "$work/fake" --train "$work/train" --only level_cut.per_reply >/dev/null 2>"$work/e"
rc=$?
[ $rc -eq 3 ] || fail "a changed value: status $rc, want 3: $(cat "$work/e")"
grep -q "value changed" "$work/e" || fail "a changed value: $(cat "$work/e")"
echo "ok"
