#!/usr/bin/env python3
"""Solves Congkak as played for a grid of boards and writes
results/congkak_opening.csv (the simultaneous opening against South simply
moving first) and results/congkak_match.csv (multi-round matches, both
openings).

Every row records the exact command and the commit that produced it.  A board
that does not finish within --timeout seconds is recorded as 'timeout' and
the larger seed counts of the same width as 'skipped' (they are harder
still); rows of other boards are kept from the existing file, so the grid can
be grown a part at a time.

  scripts/congkak.py [--what opening|match|both] [--pits 1-7] [--seeds 1-7]
                     [--timeout S] [--threads T] [--tt-mb MB] [--binary PATH]
"""
import argparse
import csv
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES = [
    ("congkak", []),
    ("congkak+capture=needs-opposite", ["--capture", "needs-opposite"]),
]
OPENING_FIELDS = ["ruleset", "pits", "seeds", "value", "value_exact", "sequential_value", "saddle_point",
                  "south_strategy", "north_strategy", "opening_states", "simultaneous_decisions",
                  "positions_solved", "nodes", "seconds", "threads", "status", "command", "commit"]
MATCH_FIELDS = ["ruleset", "pits", "seeds", "opening", "value", "value_exact", "states", "south_wins", "draws",
                "north_wins", "line_rounds", "line_end", "passes", "round_searches", "nodes", "seconds", "status",
                "command", "commit"]


def commit():
    try:
        sha = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True,
                             check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)results"],
                               capture_output=True, text=True).stdout.strip()
        return sha + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def span(text):
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def run(binary, cmd, timeout):
    """(json or None, status)"""
    try:
        out = subprocess.run([binary, *cmd[1:]], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    if out.returncode != 0:
        return None, "error: " + out.stderr.strip()
    return json.loads(out.stdout), "solved"


def load(path, fields):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return [row for row in csv.DictReader(f)]


def save(path, fields, rows, key):
    rows.sort(key=key)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def opening_row(r):
    return {
        "value": r["value"], "value_exact": r["value_exact"], "sequential_value": r["sequential_value"],
        "saddle_point": "" if r["saddle_point"] is None else f"{r['saddle_point'][0]};{r['saddle_point'][1]}",
        "south_strategy": ";".join(r["south_strategy_exact"]), "north_strategy": ";".join(r["north_strategy_exact"]),
        **{k: r[k] for k in ("opening_states", "simultaneous_decisions", "positions_solved", "nodes", "seconds")},
    }


def match_row(r):
    values = [s["value"] for s in r["states"]]
    return {
        "value": r["value"], "value_exact": r["value_exact"], "states": len(values),
        "south_wins": values.count(1), "draws": values.count(0), "north_wins": values.count(-1),
        "line_rounds": len(r["line"]), "line_end": r["line_end"],
        **{k: r[k] for k in ("passes", "round_searches", "nodes", "seconds")},
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--what", choices=["opening", "match", "both"], default="both")
    ap.add_argument("--pits", default="1-7")
    ap.add_argument("--seeds", default="1-7")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--tt-mb", type=int, default=2048)
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "bin", "mancala"))
    ap.add_argument("--results", default=os.path.join(ROOT, "results"))
    args = ap.parse_args()
    sha = commit()
    jobs = []
    if args.what in ("opening", "both"):
        jobs.append(("opening", None))
    if args.what in ("match", "both"):
        jobs += [("match", "sequential"), ("match", "simultaneous")]
    for kind, opening in jobs:
        path = os.path.join(args.results, f"congkak_{kind}.csv")
        fields = OPENING_FIELDS if kind == "opening" else MATCH_FIELDS
        rows = load(path, fields)
        for digest, flags in RULES:
            for m in span(args.pits):
                given_up = False
                for n in span(args.seeds):
                    if 2 * m * n > 255:
                        continue
                    if kind == "opening":
                        cmd = ["mancala", "opening", "--game", "congkak", *flags, "--pits", str(m), "--seeds", str(n),
                               "--threads", str(args.threads), "--tt-mb", str(args.tt_mb), "--quiet", "--json"]
                    else:
                        cmd = ["mancala", "match", "--game", "congkak", *flags, "--pits", str(m), "--seeds", str(n),
                               "--opening", opening, "--quiet", "--json"]
                    row = {"ruleset": digest, "pits": m, "seeds": n, "command": " ".join(cmd), "commit": sha}
                    if kind == "opening":
                        row["threads"] = args.threads
                    else:
                        row["opening"] = opening
                    same = lambda old: (old["ruleset"], int(old["pits"]), int(old["seeds"]), old.get("opening")) == (
                        digest, m, n, row.get("opening"))
                    rows = [old for old in rows if not same(old)]
                    if given_up:
                        row["status"] = "skipped"
                        rows.append(row)
                        continue
                    r, status = run(args.binary, cmd, args.timeout)
                    row["status"] = status
                    if r is not None:
                        row.update(opening_row(r) if kind == "opening" else match_row(r))
                    else:
                        given_up = status == "timeout"
                    rows.append(row)
                    print(f"{kind} {opening or ''} {digest} {m}x{n}: {status} {row.get('value_exact', '')} "
                          f"{row.get('seconds', '')}", file=sys.stderr)
                    save(path, fields, rows, key=lambda x: (x["ruleset"], x.get("opening") or "", int(x["pits"]), int(x["seeds"])))


if __name__ == "__main__":
    main()
