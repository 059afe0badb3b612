#!/usr/bin/env python3
"""Tune the search's move order on node counts: a coordinate search over the
16 weights of `mancala solve --move-order` (mancala/solver/move_order.hpp),
scored on a training set of solves and checked on held-out ones.

    scripts/tune_move_order.py --train TRAIN [--held-out HELD] [--mancala M]
        [--start tuned|W] [--rounds N] [--only NAME,...] [--csv OUT] [--json] [--quiet]

TRAIN and HELD hold one solve a line: `mancala solve` options, shell-quoted,
for one ruleset (the order's weights mean something only within one); `#`
starts a comment.  Each is solved on one thread (`--threads 1`, whose node
count is the same on every run and machine), so a line must not set
--threads, --move-order or --time-limit.  A score is the geometric mean,
over the training lines, of a solve's nodes under the order tried against
its nodes under the start order (1.0 at the start; lower is better).

The search: for each weight in turn (all 16, or those named by --only, e.g.
level_cut.per_reply), try a few values near the current one (halved,
doubled, a quarter up or down, 0; an extra turn also at 65536, first at any
gain) and keep the best if it lowers the score; repeat for --rounds rounds
or until a round changes nothing.  The order landscape is rough (one weight
off by a little can move a solve by tens of per cent), so the held-out
lines are the check that a kept order is better beyond its training set;
results/README.md records how the tuned orders were found and checked.

Every solve's value must be the start order's: the order never changes a
value, so a difference is a solver bug (exit status 3).  Exit status 2: bad
input (a missing file, a bad line, a solve that refused its options).

Prints the start and best orders with their scores and every line's nodes
(text, or one JSON object with --json); --csv writes every trial (round,
weight, order, score) for scripts/plot_move_order_tuning.py.  Progress on
stderr when it is a terminal, unless --quiet.
"""
import argparse
import csv
import json
import math
import os
import shlex
import subprocess
import sys

KINDS = ["level_fail_low", "level_cut", "behind_fail_low", "behind_cut"]
FIELDS = ["extra_turn", "per_reply", "per_seed_of_material", "per_pit"]
NAMES = [f"{k}.{f}" for k in KINDS for f in FIELDS]
MAX_EXTRA_TURN = 1 << 16  # kMaxExtraTurnWeight
MAX_WEIGHT = 4096  # kMaxOrderWeight
FORBIDDEN = ("--threads", "--move-order", "--time-limit")


class BadInput(Exception):
    pass


class ValueChanged(Exception):
    pass


def read_lines(path, what):
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise BadInput(f"{what} file {path}: {e.strerror}")
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            args = shlex.split(line)
        except ValueError as e:
            raise BadInput(f"{what} line {number}: {e}")
        for a in args:
            if a.split("=", 1)[0] in FORBIDDEN:
                raise BadInput(f"{what} line {number}: sets {a.split('=', 1)[0]}, which the tuner sets itself")
        lines.append((f"{what} line {number}", args))
    if not lines:
        raise BadInput(f"{what} file {path} holds no solve")
    return lines


def parse_order(text):
    fields = text.split(",")
    if len(fields) != 16:
        raise BadInput(f"--start '{text}': {len(fields)} weights, expected 16")
    try:
        return tuple(int(x) for x in fields)
    except ValueError:
        raise BadInput(f"--start '{text}': a weight is not an integer")


def order_text(order):
    return ",".join(str(x) for x in order)


class Solves:
    """Runs the solves of a set under an order; remembers every result."""

    def __init__(self, mancala, lines):
        self.mancala, self.lines, self.cache = mancala, lines, {}
        self.values = None
        self.commit = None

    def nodes(self, order):
        if order in self.cache:
            return self.cache[order]
        counts, values = [], []
        for name, args in self.lines:
            cmd = [self.mancala, "solve", *args, "--threads", "1", "--quiet", "--json"]
            if order is not None:
                cmd += ["--move-order", order_text(order)]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode == 2:
                raise BadInput(f"{name}: {r.stderr.strip()}")
            if r.returncode != 0:
                raise RuntimeError(f"{name}: mancala solve exited {r.returncode}: {r.stderr.strip()}")
            d = json.loads(r.stdout)
            counts.append(d["nodes"])
            values.append(d["value"])
            self.commit = d.get("commit")
            if order is None:
                self.start_order = parse_order(d["move_order"])
        if self.values is None:
            self.values = values
        elif values != self.values:
            bad = [n for (n, _), a, b in zip(self.lines, values, self.values) if a != b]
            raise ValueChanged(f"{bad[0]}: the value changed under the order {order_text(order)}: a solver bug")
        self.cache[order] = counts
        return counts


def score(counts, base):
    return math.exp(sum(math.log(c / b) for c, b in zip(counts, base)) / len(base))


def candidates(order, i):
    x = order[i]
    if i % 4 == 0:
        vals = {x // 2, x * 3 // 4, x * 4 // 3, x * 2, MAX_EXTRA_TURN, 0}
        lo, hi = 0, MAX_EXTRA_TURN
    else:
        step = max(1, abs(x) // 4)
        vals = {x - step, x + step, 0, 2 * x, x // 2}
        lo, hi = -MAX_WEIGHT, MAX_WEIGHT
    out = []
    for v in sorted(vals):
        v = min(max(v, lo), hi)
        if v != x and v not in out:
            out.append(v)
    return [order[:i] + (v,) + order[i + 1:] for v in out]


class Parser(argparse.ArgumentParser):
    """argparse's, with its errors on one line."""

    def error(self, message):
        print(f"tune_move_order.py: {message}", file=sys.stderr)
        sys.exit(2)


def main():
    ap = Parser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--train", required=True, help="file of training solves (mancala solve options, one a line)")
    ap.add_argument("--held-out", help="file of held-out solves, to check the kept order on")
    ap.add_argument("--mancala", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "bin", "mancala"),
                    help="the mancala binary (default: build/bin/mancala of this checkout)")
    ap.add_argument("--start", default="tuned", help="the order to start from: tuned (the ruleset's own) or 16 integers")
    ap.add_argument("--rounds", type=int, default=2, help="rounds over the weights (default 2)")
    ap.add_argument("--only", help="comma-separated weights to tune (default: all 16), e.g. level_cut.per_reply")
    ap.add_argument("--csv", help="write every trial to this CSV")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    a = ap.parse_args()
    try:
        if not 1 <= a.rounds <= 100:
            raise BadInput(f"--rounds must be between 1 and 100, got {a.rounds}")
        only = list(range(16))
        if a.only:
            names = a.only.split(",")
            unknown = [n for n in names if n not in NAMES]
            if unknown:
                raise BadInput(f"--only: unknown weight '{unknown[0]}' (one of {', '.join(NAMES)})")
            only = [NAMES.index(n) for n in names]
        if not os.access(a.mancala, os.X_OK):
            raise BadInput(f"--mancala {a.mancala}: not an executable")
        train = Solves(a.mancala, read_lines(a.train, "train"))
        held = Solves(a.mancala, read_lines(a.held_out, "held-out")) if a.held_out else None
        start = None if a.start == "tuned" else parse_order(a.start)
        base = train.nodes(start)
        if start is None:
            start = train.start_order
            train.cache[start] = base
        progress = sys.stderr.isatty() and not a.quiet
        trials = [(0, "start", order_text(start), 1.0, True)]
        best, best_score = start, 1.0
        for rnd in range(1, a.rounds + 1):
            changed = False
            for n, i in enumerate(only):
                tried = [(score(train.nodes(c), base), c) for c in candidates(best, i)]
                s, c = min(tried)
                keep = s < best_score
                for ts, tc in tried:
                    trials.append((rnd, NAMES[i], order_text(tc), ts, keep and tc == c))
                if keep:
                    best, best_score, changed = c, s, True
                if progress:
                    print(f"\rtune: round {rnd} of {a.rounds}, weight {n + 1} of {len(only)} ({NAMES[i]}), "
                          f"{len(trials)} trials, best score {best_score:.4f}   ", end="", file=sys.stderr, flush=True)
            if not changed:
                break
        if progress:
            print(file=sys.stderr)
        result = {"mancala_commit": train.commit, "start": order_text(start), "best": order_text(best),
                  "rounds": rnd, "trials": len(trials) - 1,
                  "train": {"score": best_score,
                            "lines": [{"solve": shlex.join(args), "value": v, "start_nodes": s, "best_nodes": b}
                                      for (_, args), v, s, b in zip(train.lines, train.values, base, train.nodes(best))]}}
        if held:
            hs, hb = held.nodes(start), held.nodes(best)
            result["held_out"] = {"score": score(hb, hs),
                                  "lines": [{"solve": shlex.join(args), "value": v, "start_nodes": s, "best_nodes": b}
                                            for (_, args), v, s, b in zip(held.lines, held.values, hs, hb)]}
        if a.csv:
            with open(a.csv, "w", newline="") as f:
                w = csv.writer(f, lineterminator="\n")
                w.writerow(["trial", "round", "weight", "order", "score", "kept"])
                for t, (rnd_, name, order, s, kept) in enumerate(trials):
                    w.writerow([t, rnd_, name, order, f"{s:.6f}", int(kept)])
    except BadInput as e:
        print(f"tune_move_order.py: {e}", file=sys.stderr)
        return 2
    except ValueChanged as e:
        print(f"tune_move_order.py: {e}", file=sys.stderr)
        return 3
    if a.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"start    {result['start']}\nbest     {result['best']}\n"
          f"train    score {best_score:.4f} (geometric mean of nodes against the start's), {result['trials']} trials")
    for line in result["train"]["lines"]:
        print(f"  {line['start_nodes']:>12} -> {line['best_nodes']:>12}  {line['solve']}")
    if held:
        print(f"held-out score {result['held_out']['score']:.4f}")
        for line in result["held_out"]["lines"]:
            print(f"  {line['start_nodes']:>12} -> {line['best_nodes']:>12}  {line['solve']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
