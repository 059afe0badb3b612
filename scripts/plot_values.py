#!/usr/bin/python3
"""Draws the game values of results/values.csv as PNG figures in results/:

  values.png      the value of every start position by board size (pits a
                  side x seeds a pit), one panel per ruleset; boards solved
                  only with endgame tables (values_full_tables.csv,
                  kalah_published.csv) are marked *, boards that did not
                  finish are marked t/o (timeout), skip (a smaller board of
                  the row timed out) or tbl (needs full endgame tables).
  solve_time.png  solve time against board size, one panel per ruleset, one
                  line per board width.

  /usr/bin/python3 scripts/plot_values.py [--results DIR] [--out-dir DIR]

Needs Debian's python3-matplotlib (scripts/setup.sh installs it); run it with
/usr/bin/python3 when another python3 comes first on PATH.
"""
import argparse
import csv
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMAND = "scripts/plot_values.py"


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def footnote(fig, sources):
    fig.text(0.005, 0.002, f"{COMMAND} from {', '.join(sources)} (commands and commits in their rows)",
             fontsize=6.5, color="0.4", ha="left", va="bottom")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=os.path.join(ROOT, "results"), help="where the CSV files are")
    ap.add_argument("--out-dir", help="where to write the PNG files (default: --results)")
    args = ap.parse_args()
    out_dir = args.out_dir or args.results
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.colors import SymLogNorm
    except ImportError:
        sys.exit("plot_values.py: needs matplotlib (apt-get install python3-matplotlib; run with /usr/bin/python3)")
    meta = {"Software": COMMAND}

    rows = read_csv(os.path.join(args.results, "values.csv"))
    if not rows:
        sys.exit(f"plot_values.py: no rows in {os.path.join(args.results, 'values.csv')}")
    # Values solved with endgame tables outside the grid's plain solves.
    extra = {}
    for r in read_csv(os.path.join(args.results, "values_full_tables.csv")):
        extra[(r["ruleset"], int(r["pits"]), int(r["seeds"]))] = int(r["value"])
    for r in read_csv(os.path.join(args.results, "kalah_published.csv")):
        extra[(r["ruleset"], int(r["pits"]), int(r["seeds"]))] = int(r["value"])
    sources = ["values.csv"] + [f for f in ("values_full_tables.csv", "kalah_published.csv")
                                if os.path.exists(os.path.join(args.results, f))]

    rulesets = list(dict.fromkeys(r["ruleset"] for r in rows))
    cols = 3
    nrows = math.ceil(len(rulesets) / cols)
    cmap = plt.get_cmap("RdBu")
    # Shares run from -1 to 1 but most lie within +-0.2: a symmetric log scale
    # keeps both Kalah's small and Congkak's large shares apart.
    norm = SymLogNorm(linthresh=0.05, linscale=0.5, vmin=-1, vmax=1, base=10)
    fig, axes = plt.subplots(nrows, cols, figsize=(4.3 * cols, 4.0 * nrows), squeeze=False)
    for ax in axes.flat[len(rulesets):]:
        ax.set_visible(False)
    for ax, rs in zip(axes.flat, rulesets):
        sub = [r for r in rows if r["ruleset"] == rs]
        pits = sorted({int(r["pits"]) for r in sub})
        seeds = sorted({int(r["seeds"]) for r in sub})
        ax.set_xlim(-0.5, len(seeds) - 0.5)
        ax.set_ylim(-0.5, len(pits) - 0.5)
        for r in sub:
            m, n = int(r["pits"]), int(r["seeds"])
            x, y = seeds.index(n), pits.index(m)
            status = r["status"]
            value = int(r["value"]) if status == "solved" else extra.get((rs, m, n))
            if value is not None:
                share = value / (2 * m * n)  # net share of all the seeds
                color = cmap(norm(share))
                ax.add_patch(plt.Rectangle((x - 0.5, y - 0.5), 1, 1, color=color))
                star = "*" if status != "solved" else ""
                ax.text(x, y, f"{value:+d}{star}", ha="center", va="center", fontsize=8,
                        color="white" if abs(norm(share) - 0.5) > 0.32 else "black")
            else:
                label = {"timeout": "t/o", "skipped": "skip"}.get(status, "tbl")
                ax.add_patch(plt.Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor="0.85", edgecolor="white", hatch="///"))
                ax.text(x, y, label, ha="center", va="center", fontsize=7, color="0.25")
        ax.set_xticks(range(len(seeds)), seeds)
        ax.set_yticks(range(len(pits)), pits)
        ax.set_xlabel("seeds per pit")
        ax.set_ylabel("pits per side")
        ax.set_title(rs, fontsize=10)
        ax.set_aspect("equal")
    sm = plt.cm.ScalarMappable(norm=norm, cmap=cmap)
    bar = fig.colorbar(sm, ax=axes.ravel().tolist(), shrink=0.6,
                       label="value / seeds on the board (colour)\nnumber: value for the first player")
    ticks = [-1, -0.5, -0.2, -0.1, -0.05, 0, 0.05, 0.1, 0.2, 0.5, 1]
    bar.set_ticks(ticks, labels=[f"{t:+g}" if t else "0" for t in ticks])
    fig.suptitle("Exact values of the start positions (South to move; final store difference under perfect play)\n"
                 "* solved with endgame tables; t/o: timeout; skip: not tried after a timeout; tbl: needs full tables",
                 fontsize=10)
    footnote(fig, sources)
    fig.savefig(os.path.join(out_dir, "values.png"), dpi=110, bbox_inches="tight", metadata=meta)
    plt.close(fig)

    # Solve time against board size.
    solved = [r for r in rows if r["status"] == "solved" and r["seconds"]]
    top = max(float(r["seconds"]) for r in solved) * 4
    fig, axes = plt.subplots(nrows, cols, figsize=(4.3 * cols, 3.4 * nrows), squeeze=False, sharey=True)
    for ax in axes.flat[len(rulesets):]:
        ax.set_visible(False)
    width_cmap = plt.get_cmap("viridis")
    all_pits = sorted({int(r["pits"]) for r in rows})
    for ax, rs in zip(axes.flat, rulesets):
        for m in all_pits:
            sub = sorted((int(r["seeds"]), r) for r in rows if r["ruleset"] == rs and int(r["pits"]) == m)
            if not sub:
                continue
            color = width_cmap(all_pits.index(m) / max(1, len(all_pits) - 1))
            pts = [(n, max(float(r["seconds"]), 1e-4)) for n, r in sub if r["status"] == "solved"]
            if pts:
                ax.plot([n for n, _ in pts], [t for _, t in pts], "o-", color=color, label=f"{m} pits", ms=4, lw=1.2)
            timeouts = [n for n, r in sub if r["status"] == "timeout"]
            if timeouts:
                ax.plot(timeouts, [top] * len(timeouts), "^", color=color, ms=8, mec="black")
        ax.set_yscale("log")
        ax.set_title(rs, fontsize=10)
        ax.set_xlabel("seeds per pit")
        ax.grid(True, which="major", alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_ylabel("solve time (s)")
    handles = [plt.Line2D([], [], marker="o", color=width_cmap(i / max(1, len(all_pits) - 1)), ms=4)
               for i, _ in enumerate(all_pits)]
    labels = [f"{m} pits a side" for m in all_pits]
    handles.append(plt.Line2D([], [], marker="^", ls="", color="0.5", mec="black", ms=8))
    labels.append("timeout\n(did not finish)")
    fig.legend(handles, labels, loc="center left", fontsize=8, bbox_to_anchor=(0.9, 0.5))
    threads = sorted({r["threads"] for r in solved})
    fig.suptitle(f"Solve time of the start positions by board size ({', '.join(threads)} threads, plain search "
                 "with the automatic level tables)", fontsize=10)
    fig.tight_layout(rect=(0, 0.02, 0.9, 0.95))
    footnote(fig, ["values.csv"])
    fig.savefig(os.path.join(out_dir, "solve_time.png"), dpi=110, metadata=meta)
    plt.close(fig)
    print("plot_values.py: values.png, solve_time.png", file=sys.stderr)


if __name__ == "__main__":
    main()
