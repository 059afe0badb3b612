#!/usr/bin/env python3
"""Draws results/values.csv as PNG figures in results/:
values.png (game value by board size, one panel per ruleset) and
solve_time.png (solve time against board size).  Needs python3-matplotlib
(Debian's; scripts/setup.sh installs it)."""
import csv
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_values.py: needs matplotlib (apt-get install python3-matplotlib; run with /usr/bin/python3)")
    path = os.path.join(ROOT, "results", "values.csv")
    rows = [r for r in csv.DictReader(open(path)) if r["status"] == "solved"]
    rulesets = list(dict.fromkeys(r["ruleset"] for r in rows))
    fig, axes = plt.subplots(1, len(rulesets), figsize=(4 * len(rulesets), 3.6), squeeze=False)
    for ax, rs in zip(axes[0], rulesets):
        sub = [r for r in rows if r["ruleset"] == rs]
        pits = sorted({int(r["pits"]) for r in sub})
        seeds = sorted({int(r["seeds"]) for r in sub})
        grid = [[float("nan")] * len(seeds) for _ in pits]
        for r in sub:
            grid[pits.index(int(r["pits"]))][seeds.index(int(r["seeds"]))] = int(r["value"])
        im = ax.imshow(grid, cmap="RdBu", vmin=-12, vmax=12, origin="lower")
        for i, _ in enumerate(pits):
            for j, _ in enumerate(seeds):
                if grid[i][j] == grid[i][j]:
                    ax.text(j, i, f"{grid[i][j]:+.0f}", ha="center", va="center", fontsize=8)
        ax.set_xticks(range(len(seeds)), seeds)
        ax.set_yticks(range(len(pits)), pits)
        ax.set_xlabel("seeds per pit")
        ax.set_ylabel("pits per side")
        ax.set_title(rs, fontsize=9)
    fig.colorbar(im, ax=axes[0].tolist(), shrink=0.8, label="value for the first player")
    fig.savefig(os.path.join(ROOT, "results", "values.png"), dpi=110, bbox_inches="tight")

    fig, ax = plt.subplots(figsize=(6, 4))
    for rs in rulesets:
        sub = sorted((int(r["pits"]) * int(r["seeds"]) * 2, float(r["seconds"])) for r in rows if r["ruleset"] == rs)
        ax.plot([s for s, _ in sub], [max(t, 1e-3) for _, t in sub], "o", label=rs, alpha=0.7)
    ax.set_yscale("log")
    ax.set_xlabel("seeds on the board at the start")
    ax.set_ylabel("solve time (s), 2 threads")
    ax.legend(fontsize=7)
    fig.savefig(os.path.join(ROOT, "results", "solve_time.png"), dpi=110, bbox_inches="tight")


if __name__ == "__main__":
    main()
