#!/usr/bin/env python3
"""Nodes of a set of Kalah solves by iterative-deepening depth (and any other
`mancala solve` options), one thread, to weigh a change of the search's
first guess: how far the deepening's guess is from the value, and what the
deepening and each exact test cost.

    scripts/deepening_sweep.py MANCALA TABLES_6PIT_EMPTY_CAPTURE [--deepening D ...] > out.csv

The set: the start positions of Kalah 3..6 pits with 3..6 seeds, and the
positions after one or two moves of Kalah(6,3) and Kalah(5,4), each in the
standard and the empty-capture rule.  Six-pit empty-capture solves read
TABLES (mancala build --game kalah --empty-capture --pits 6 --max-seeds 16);
the others build their own level tables.  Nodes on one thread do not depend
on the machine, so the sweep may run beside other work.  Prints CSV: case,
value, guess (the first exact test's bound), nodes, deepening_nodes, tests
(at_least:holds:nodes, space-separated), options, commit.
"""
import csv
import json
import subprocess
import sys


def cases():
    for pits, seeds in [(4, 4), (4, 5), (4, 6), (5, 3), (5, 4), (5, 5), (6, 3), (4, 3), (3, 4), (3, 5), (3, 6)]:
        yield pits, seeds, ""
    for moves in ["1", "2", "3", "4", "5", "6", "3,1", "3,2", "1,1", "2,5", "6,6", "5,2"]:
        yield 6, 3, moves
    for moves in ["1", "2", "3", "4", "5", "5,5", "1,3"]:
        yield 5, 4, moves


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: deepening_sweep.py MANCALA TABLES [mancala solve options...]")
    binary, tables, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    out = csv.writer(sys.stdout)
    out.writerow(["case", "value", "guess", "nodes", "deepening_nodes", "tests", "options", "commit"])
    for pits, seeds, moves in cases():
        for empty_capture in (False, True):
            cmd = [binary, "solve", "--game", "kalah", "--pits", str(pits), "--seeds", str(seeds), "--threads", "1",
                   "--tt-mb", "64", "--json"] + extra
            if empty_capture:
                cmd.append("--empty-capture")
                if pits == 6:
                    cmd += ["--tables", tables]
            if moves:
                cmd += ["--moves", moves]
            d = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
            exact = [t for t in d["test_log"] if t["depth"] == "exact"]
            deep = [t for t in d["test_log"] if t["depth"] != "exact"]
            name = f"{'kalah+empty-capture' if empty_capture else 'kalah'} {pits},{seeds}" + (f" moves {moves}" if moves else "")
            out.writerow([name, d["value"], exact[0]["at_least"], d["nodes"], sum(t["nodes"] for t in deep),
                          " ".join(f"{t['at_least']}:{int(t['holds'])}:{t['nodes']}" for t in exact), " ".join(extra), d["commit"]])
            sys.stdout.flush()


if __name__ == "__main__":
    main()
