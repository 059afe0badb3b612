#!/usr/bin/env python3
"""Solves a grid of start positions and writes results/values.csv.

Every row records the exact command and the commit that produced it.  A board
that does not finish within --timeout seconds is recorded as 'timeout', and
the larger seed counts of the same ruleset and width are recorded as
'skipped' (they are harder still).

  scripts/values.py [--timeout S] [--threads T] [--tt-mb MB] [--only RULESET] [--out FILE]
                    [--max-table-positions N]

An Oware start position is out of the search's reach (its lines of play run
past the 2000-ply guard), so `mancala solve` builds its full tables (every
level up to its seeds) when they fit half of the machine's memory.  A board
whose full tables hold more than --max-table-positions positions (default
2e9: about half an hour on two cores) is not run; its row says what the
tables would need (positions, and memory as the solver counts it: a byte a
position of the levels below the top, 2 1/8 of the top level).
"""
import argparse
import math
import csv
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRID = [
    # (ruleset digest, cli flags, pits range, seeds range)
    ("kalah", ["--game", "kalah"], range(1, 7), range(1, 7)),
    ("kalah+empty-capture", ["--game", "kalah", "--empty-capture"], range(1, 7), range(1, 7)),
    ("brainking", ["--game", "brainking"], range(1, 7), range(1, 7)),
    ("oware", ["--game", "oware"], range(1, 7), range(1, 7)),
    ("congkak", ["--game", "congkak"], range(1, 8), range(1, 8)),
    ("congkak+capture=needs-opposite", ["--game", "congkak", "--capture", "needs-opposite"], range(1, 8), range(1, 8)),
]
FIELDS = ["ruleset", "pits", "seeds", "value", "result", "best_move", "nodes", "seconds", "threads", "status", "command", "commit"]


def commit():
    try:
        sha = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)results"], capture_output=True, text=True).stdout.strip()
        return sha + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def oware_full_tables(m, n):
    """Positions and bytes of the full tables of an Oware m x n start: levels
    0..2mn over 2m pits (C(S + 2m, 2m) boards in all), 1 byte a board below
    the top level and 2 1/8 bytes a board of the top (cyclic_level.hpp)."""
    pits, seeds = 2 * m, 2 * m * n
    total = math.comb(seeds + pits, pits)
    top = math.comb(seeds + pits - 1, pits - 1)
    return total, (total - top) + 2 * top + top // 8


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--tt-mb", type=int, default=2048)
    ap.add_argument("--only", help="one ruleset digest of the grid")
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "bin", "mancala"))
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "values.csv"))
    ap.add_argument("--max-table-positions", type=float, default=2e9)
    args = ap.parse_args()
    sha = commit()
    rows = []
    for digest, flags, pits_range, seeds_range in GRID:
        if args.only and digest != args.only:
            continue
        for m in pits_range:
            given_up = False
            for n in seeds_range:
                if 2 * m * n > 255:
                    continue
                cmd = ["mancala", "solve", *flags, "--pits", str(m), "--seeds", str(n),
                       "--threads", str(args.threads), "--tt-mb", str(args.tt_mb), "--json"]
                row = {"ruleset": digest, "pits": m, "seeds": n, "threads": args.threads,
                       "command": " ".join(cmd), "commit": sha}
                if given_up:
                    row["status"] = "skipped"
                    rows.append(row)
                    continue
                if digest == "oware":
                    positions, memory = oware_full_tables(m, n)
                    if positions > args.max_table_positions:
                        row["status"] = (f"not run: needs full tables of {positions} positions (levels 0..{2 * m * n} "
                                         f"over {2 * m} pits), {memory / 1e9:.1f} GB of memory")
                        rows.append(row)
                        print(f"{digest} {m}x{n}: {row['status']}", file=sys.stderr)
                        continue
                try:
                    out = subprocess.run([args.binary, *cmd[1:]], capture_output=True, text=True, timeout=args.timeout)
                except subprocess.TimeoutExpired:
                    row["status"] = "timeout"
                    given_up = True
                    rows.append(row)
                    print(f"{digest} {m}x{n}: timeout after {args.timeout:.0f} s", file=sys.stderr)
                    continue
                if out.returncode != 0:
                    row["status"] = "error: " + out.stderr.strip()
                    rows.append(row)
                    continue
                r = json.loads(out.stdout)
                row.update({k: r[k] for k in ("value", "result", "best_move", "nodes", "seconds")})
                row["status"] = "solved"
                rows.append(row)
                print(f"{digest} {m}x{n}: {r['value']} ({r['nodes']} nodes, {r['seconds']:.2f} s)", file=sys.stderr)
    # Keep the rows of rulesets not run this time, and the new rows where
    # the old ones of their ruleset were.
    if args.only and os.path.exists(args.out):
        with open(args.out, newline="") as f:
            old = list(csv.DictReader(f))
        at = next((i for i, r in enumerate(old) if r["ruleset"] == args.only), len(old))
        kept = [r for r in old if r["ruleset"] != args.only]
        at = sum(1 for r in old[:at] if r["ruleset"] != args.only)
        rows = kept[:at] + rows + kept[at:]
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow(r)


if __name__ == "__main__":
    main()
