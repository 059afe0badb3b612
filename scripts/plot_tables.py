#!/usr/bin/python3
"""Draws the endgame-table results as PNG figures in results/:

  table_throughput.png  table-build throughput (positions per second) against
                        threads (tables_build.csv: the same build with 1 and
                        2 threads; tables_large.csv: the large builds) and,
                        when results/mpi_build_scaling.csv exists, against
                        MPI ranks (its columns: results/README.md).
  level_values.png      per-level value distributions from `mancala info DIR
                        --json` files: for every level (seeds on the board)
                        the share of each board value for the player to move,
                        and the win/draw/loss shares.

  /usr/bin/python3 scripts/plot_tables.py [--results DIR] [--out-dir DIR]
      [--mpi FILE] [--levels tables_kalah_6pits_24.json tables_oware_6pits_27.json]

Needs Debian's python3-matplotlib (scripts/setup.sh installs it); run it with
/usr/bin/python3 when another python3 comes first on PATH.  Prints the
figures and panels it drew on stderr.
"""
import argparse
import csv
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMAND = "scripts/plot_tables.py"
DEFAULT_LEVELS = ["tables_kalah_6pits_24.json", "tables_oware_6pits_27.json"]
MPI_REQUIRED = ["game", "pits", "max_seeds", "ranks", "threads_per_rank", "positions", "seconds"]


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def footnote(fig, text):
    fig.text(0.005, 0.002, f"{COMMAND} from {text}", fontsize=6.5, color="0.4", ha="left", va="bottom")


def throughput(plt, results, mpi_path, out_dir):
    builds = read_csv(os.path.join(results, "tables_build.csv"))
    large = read_csv(os.path.join(results, "tables_large.csv"))
    mpi = read_csv(mpi_path) if mpi_path else []
    if mpi:
        missing = [c for c in MPI_REQUIRED if c not in mpi[0]]
        if missing:
            sys.exit(f"plot_tables.py: {mpi_path} lacks the columns {', '.join(missing)}")
        # As scripts/mpi_scaling.sh writes it: the ruleset digest is `game`.
        for r in mpi:
            r["ruleset"] = r["game"]
            r["positions_per_second"] = float(r["positions"]) / float(r["seconds"])
    panels = ["threads"] + (["ranks"] if mpi else [])
    fig, axes = plt.subplots(1, len(panels), figsize=(6.2 * len(panels), 4.4), squeeze=False)
    ax = axes[0][0]
    colors = {"kalah": "tab:blue", "oware": "tab:red", "kalah+empty-capture": "tab:cyan", "brainking": "tab:green",
              "congkak": "tab:purple"}
    groups = {}
    for r in builds:
        groups.setdefault((r["ruleset"], int(r["pits"]), int(r["max_seeds"])), []).append(r)
    max_threads = 1
    for (rs, pits, k), rows in sorted(groups.items()):
        rows.sort(key=lambda r: int(r["threads"]))
        t = [int(r["threads"]) for r in rows]
        p = [float(r["positions_per_second"]) / 1e6 for r in rows]
        max_threads = max(max_threads, *t)
        color = colors.get(rs, "0.3")
        ax.plot(t, p, "o-", color=color, label=f"{rs} {pits} pits, levels 0..{k}")
        ax.plot(t, [p[0] * x / t[0] for x in t], ":", color=color, lw=1)
    for r in large:
        color = colors.get(r["ruleset"], "0.3")
        ax.plot([int(r["threads"])], [float(r["positions_per_second"]) / 1e6], "s", color=color, mfc="white", ms=8,
                label=f"{r['ruleset']} {r['pits']} pits, levels 0..{r['max_seeds']} (large build)")
    ax.plot([], [], ":", color="0.3", lw=1, label="linear in threads from 1 thread")
    ax.set_xlabel("threads (one process)")
    ax.set_ylabel("million positions per second")
    ax.set_xticks(range(1, max_threads + 1))
    ax.set_xlim(0.7, max_threads + 0.3)
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="upper left")
    ax.set_title("mancala build: threads", fontsize=10)
    sources = ["tables_build.csv", "tables_large.csv"]
    if mpi:
        ax = axes[0][1]
        # One line per tables and commit (the csv keeps every version's rows):
        # the newest commit solid, with its linear extrapolation, the one
        # before it dashed and faded, older ones left out.
        mgroups = {}
        for r in mpi:
            key = (r["ruleset"], int(r["pits"]), int(r["max_seeds"]), int(r["threads_per_rank"]))
            mgroups.setdefault(key, {}).setdefault(r.get("commit", ""), []).append(r)
        max_ranks = 1
        for (rs, pits, k, tpr), by_commit in sorted(mgroups.items()):
            commits = list(by_commit)  # in the csv's order: the newest last
            color = colors.get(rs, "0.3")
            for age, commit in enumerate(reversed(commits[-2:])):
                rows = sorted(by_commit[commit], key=lambda r: int(r["ranks"]))
                x = [int(r["ranks"]) for r in rows]
                y = [float(r["positions_per_second"]) / 1e6 for r in rows]
                max_ranks = max(max_ranks, *x)
                label = f"{rs} {pits} pits, levels 0..{k}, {tpr} threads a rank ({commit[:7]})"
                if age == 0:
                    ax.plot(x, y, "o-", color=color, label=label)
                    ax.plot(x, [y[0] * v / x[0] for v in x], ":", color=color, lw=1)
                else:
                    ax.plot(x, y, "o--", color=color, alpha=0.4, label=label + ", before")
        ax.plot([], [], ":", color="0.3", lw=1, label="linear in ranks from the fewest")
        ax.set_xlabel("MPI ranks (mancala-mpi build; ranks beyond the cores share them)")
        ax.set_ylabel("million positions per second")
        ax.set_xticks(sorted({int(r["ranks"]) for r in mpi}))
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, loc="upper left")
        ax.set_title("mancala-mpi build: ranks", fontsize=10)
        sources.append(os.path.basename(mpi_path))
    fig.suptitle("Endgame-table build throughput (positions of all built levels / build seconds)", fontsize=10)
    fig.tight_layout(rect=(0, 0.03, 1, 0.95))
    footnote(fig, ", ".join(sources) + " (commands and commits in their rows)")
    fig.savefig(os.path.join(out_dir, "table_throughput.png"), dpi=110, metadata={"Software": COMMAND})
    plt.close(fig)
    print(f"plot_tables.py: table_throughput.png: {', '.join(panels)}", file=sys.stderr)


def level_values(plt, results, names, out_dir):
    from matplotlib.collections import PatchCollection
    from matplotlib.colors import LogNorm
    from matplotlib.patches import Rectangle
    data = []
    for name in names:
        path = name if os.path.isabs(name) or os.path.exists(name) else os.path.join(results, name)
        with open(path) as f:
            data.append((os.path.basename(path), json.load(f)))
    fig, axes = plt.subplots(len(data), 2, figsize=(13, 4.8 * len(data)), squeeze=False,
                             gridspec_kw={"width_ratios": [2.2, 1]})
    norm = LogNorm(1e-6, 1)
    cmap = plt.get_cmap("magma_r")
    for row, (name, d) in enumerate(data):
        levels = d["levels"]
        span = max(abs(int(v)) for l in levels for v in l["histogram"])
        # Kalah, BrainKing and Congkak values have the parity of the seeds on
        # the board: every other value is impossible, so each drawn cell
        # spans two values there instead of leaving a checkerboard.
        parity = all((int(v) - l["seeds"]) % 2 == 0 for l in levels for v in l["histogram"])
        width = 2 if parity else 1
        cells, shares = [], []
        for l in levels:
            for v, count in l["histogram"].items():
                if count:
                    cells.append(Rectangle((int(v) - width / 2, l["seeds"] - 0.5), width, 1))
                    shares.append(count / l["positions"])
        ax = axes[row][0]
        patches = PatchCollection(cells, cmap=cmap, norm=norm, linewidth=0)
        patches.set_array(shares)
        ax.add_collection(patches)
        ax.set_xlim(-span - 1, span + 1)
        ax.set_ylim(-0.5, len(levels) - 0.5)
        ax.set_xlabel("board value for the player to move (seeds it still gains net)"
                      + ("; values have the parity of the level" if parity else ""))
        ax.set_ylabel("level (seeds on the board)")
        positions = sum(l["positions"] for l in levels)
        ax.set_title(f"{d['ruleset']}, {d['pits_per_side']} pits a side, levels 0..{d['max_seeds']} "
                     f"({positions:,} positions): share of each level's positions by value", fontsize=10)
        ax.set_facecolor("white")
        ax.grid(True, alpha=0.2)
        fig.colorbar(patches, ax=ax, label="share of the level's positions", pad=0.01)
        ax = axes[row][1]
        seeds = [l["seeds"] for l in levels]
        wins = [l["wins"] / l["positions"] for l in levels]
        draws = [l["draws"] / l["positions"] for l in levels]
        losses = [l["losses"] / l["positions"] for l in levels]
        ax.barh(seeds, wins, color="tab:blue", label="win", height=0.85)
        ax.barh(seeds, draws, left=wins, color="0.75", label="draw", height=0.85)
        ax.barh(seeds, losses, left=[w + x for w, x in zip(wins, draws)], color="tab:red", label="loss", height=0.85)
        ax.axvline(0.5, color="black", lw=0.6, ls=":")
        ax.set_xlim(0, 1)
        ax.set_ylim(-0.5, len(levels) - 0.5)
        ax.set_xlabel("share of positions, for the player to move")
        ax.set_ylabel("level (seeds on the board)")
        ax.set_title("win / draw / loss by level", fontsize=10)
        ax.legend(fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.06), ncol=3, frameon=False)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    footnote(fig, ", ".join(name for name, _ in data)
             + " (mancala info DIR --json; each file records the build command and commit)")
    fig.savefig(os.path.join(out_dir, "level_values.png"), dpi=100, metadata={"Software": COMMAND})
    plt.close(fig)
    print(f"plot_tables.py: level_values.png: {', '.join(name for name, _ in data)}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=os.path.join(ROOT, "results"), help="where the CSV and JSON files are")
    ap.add_argument("--out-dir", help="where to write the PNG files (default: --results)")
    ap.add_argument("--mpi", help="MPI scaling CSV (default: RESULTS/mpi_build_scaling.csv when it exists)")
    ap.add_argument("--levels", nargs="+", default=DEFAULT_LEVELS, help="`mancala info --json` files (in RESULTS)")
    args = ap.parse_args()
    out_dir = args.out_dir or args.results
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_tables.py: needs matplotlib (apt-get install python3-matplotlib; run with /usr/bin/python3)")
    mpi = args.mpi
    if mpi is None and os.path.exists(os.path.join(args.results, "mpi_build_scaling.csv")):
        mpi = os.path.join(args.results, "mpi_build_scaling.csv")
    if mpi and not os.path.exists(mpi):
        sys.exit(f"plot_tables.py: {mpi} does not exist")
    throughput(plt, args.results, mpi, out_dir)
    level_values(plt, args.results, args.levels, out_dir)


if __name__ == "__main__":
    main()
