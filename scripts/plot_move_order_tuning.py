#!/usr/bin/python3
"""Draws the trials of a move-order tuning (the CSV of
scripts/tune_move_order.py --csv) as a PNG: each trial's score (the
geometric mean of the training solves' nodes against the start order's;
lower is better) in the order tried, the kept ones marked, and the best
score so far as a line.

  /usr/bin/python3 scripts/plot_move_order_tuning.py TRIALS.csv OUT.png [TITLE]
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main():
    if len(sys.argv) not in (3, 4):
        print("usage: plot_move_order_tuning.py TRIALS.csv OUT.png [TITLE]", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], newline="") as f:
            rows = list(csv.DictReader(f))
        trials = [(int(r["trial"]), float(r["score"]), r["kept"] == "1", r["weight"]) for r in rows]
    except (OSError, KeyError, ValueError) as e:
        print(f"plot_move_order_tuning.py: {sys.argv[1]}: not a tuning CSV ({e})", file=sys.stderr)
        return 2
    if not trials:
        print(f"plot_move_order_tuning.py: {sys.argv[1]}: no trials", file=sys.stderr)
        return 2
    fig, ax = plt.subplots(figsize=(9, 4.8))
    ax.scatter([t for t, _, k, _ in trials if not k], [s for _, s, k, _ in trials if not k], s=10, color="0.6",
               label="a trial (one weight changed)")
    ax.scatter([t for t, _, k, _ in trials if k], [s for _, s, k, _ in trials if k], s=40, color="tab:red", zorder=3,
               label="kept")
    best, line = trials[0][1], []
    for t, s, k, _ in trials:
        if k:
            best = s
        line.append(best)
    ax.step([t for t, _, _, _ in trials], line, where="post", color="tab:red", label="best so far")
    ax.axhline(1.0, color="0.3", linewidth=0.8, linestyle="--")
    ax.set_xlabel("trial (each a solve of every training position, one thread)")
    ax.set_ylabel("nodes against the start order's (geometric mean)")
    ax.set_title(sys.argv[3] if len(sys.argv) == 4 else "Move-order tuning: coordinate search on node counts")
    ax.legend(loc="upper right")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main())
