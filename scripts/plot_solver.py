#!/usr/bin/python3
"""Draws the solver's speed results as PNG figures in results/:

  solver_vs_girving.png  total time (table build + solve) of girving/kalah and
                         of `mancala build` + `mancala solve`, headed by the
                         ratio of girving's fastest setting to our fastest on
                         one thread and on two, from the rows of
                         girving_comparison.csv recorded at one commit (default:
                         the newest commit that has rows of ours for the board),
                         one panel per board; the peer's rows of that commit,
                         or its newest earlier ones when none were re-run.  A
                         setting run more than once is drawn once, as its run
                         of median total time ("n=" gives the runs).  The
                         ratios are taken within each run (the CSV's `run`
                         column; rows without one count as one run of their
                         commit), never between runs, one per run, and
                         printed on stderr too.
  solver_scaling.png     1 thread against 2 threads from solver_scaling.csv:
                         median seconds of each board and the speed-up.

  /usr/bin/python3 scripts/plot_solver.py [--results DIR] [--out-dir DIR] [--commit C]

Needs Debian's python3-matplotlib (scripts/setup.sh installs it).  Prints
the figures it drew on stderr.
"""
import argparse
import csv
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def median_runs(rows):
    """One row per setting (program, threads, command): the run of median
    total time (the lower median for an even count), with "runs" added."""
    settings = {}
    for r in rows:
        settings.setdefault((r["program"], r["threads"], r["command"]), []).append(r)
    out = []
    for runs in settings.values():
        runs = sorted(runs, key=lambda r: float(r["total_seconds"]))
        out.append(dict(runs[(len(runs) - 1) // 2], runs=len(runs)))
    return out


def girving_rows(rows, pits, seeds, commit):
    """Our rows of `commit` (or of the newest commit with rows of ours) for
    the board, and the peer's rows of that commit, or for a setting not run
    at that commit its newest row before it."""
    board = [r for r in rows if r["pits"] == pits and r["seeds"] == seeds]
    ours_commits = [r["commit"] for r in board if r["program"] == "mancala"]
    if not ours_commits:
        return None, [], []
    chosen = commit or ours_commits[-1]
    ours = [r for r in board if r["program"] == "mancala" and r["commit"].startswith(chosen)]
    last = max(i for i, r in enumerate(board) if r["commit"].startswith(chosen))
    peer = {}
    for r in board[: last + 1]:
        if r["program"] != "mancala":
            peer.setdefault(r["command"], []).append(r)
    peer_rows = []
    for runs in peer.values():
        same = [r for r in runs if r["commit"].startswith(chosen)]
        peer_rows += same or runs[-1:]
    return chosen, median_runs(ours), median_runs(peer_rows)


def run_ratios(rows, pits, seeds, commit):
    """[(run, {threads: ratio})] for the board's runs at `commit`: in each
    run that has rows of both programs, girving's fastest setting against
    our fastest on that many threads, a setting repeated within the run
    counting as its median total (as drawn: median_runs).  Rows without a
    run name are one run of their commit.  Never a ratio between two runs:
    the machine's speed moves between them."""
    runs = {}
    for r in rows:
        if r["pits"] == pits and r["seeds"] == seeds and r["commit"].startswith(commit):
            runs.setdefault(r.get("run") or "", []).append(r)
    out = []
    for run, rs in runs.items():
        rs = median_runs(rs)
        peer = [float(r["total_seconds"]) for r in rs if r["program"] != "mancala"]
        ratios = {}
        for threads in ("1", "2"):
            mine = [float(r["total_seconds"]) for r in rs if r["program"] == "mancala" and r["threads"] == threads]
            if peer and mine:
                ratios[threads] = min(peer) / min(mine)
        if ratios:
            out.append((run, ratios))
    return out


def runs_label(r):
    return f"\nn={r['runs']}" if r["runs"] > 1 else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default=os.path.join(ROOT, "results"))
    ap.add_argument("--out-dir", default=None)
    ap.add_argument("--commit", default=None, help="our rows of this commit (a prefix)")
    args = ap.parse_args()
    out_dir = args.out_dir or args.results
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    comparison = read_csv(os.path.join(args.results, "girving_comparison.csv"))
    boards = [("6", "4", "Kalah(6,4)"), ("5", "6", "Kalah(5,6)")]
    fig, axes = plt.subplots(1, len(boards), figsize=(14, 4.8))
    drawn = 0
    for ax, (pits, seeds, name) in zip(axes, boards):
        commit, ours, peer = girving_rows(comparison, pits, seeds, args.commit)
        if not ours:
            ax.set_visible(False)
            continue
        bars = []
        for r in sorted(peer, key=lambda r: float(r["total_seconds"]), reverse=True):
            tt = r["command"].split("-t ")[1].split()[0] if "-t " in r["command"] else "?"
            bars.append((f"girving\n{r['table_seeds']}-seed\n-t {tt}{runs_label(r)}", r, "tab:gray"))
        for r in sorted(ours, key=lambda r: (int(r["threads"]), int(r["table_seeds"]))):
            tt = r["command"].split("--tt-mb ")[1].split()[0]
            options = f"\ndeepening\n{r['command'].split('--deepening ')[1].split()[0]}" if "--deepening " in r["command"] else ""
            if "--tables-in-memory " in r["command"]:
                options += f"\nin memory: {r['command'].split('--tables-in-memory ')[1].split()[0]}"
            bars.append((f"ours {r['threads']} thr\n{r['table_seeds']}-seed\n{tt} MB{options}{runs_label(r)}", r,
                         "tab:blue" if r["threads"] == "2" else "tab:cyan"))
        xs = range(len(bars))
        build = [float(r["table_seconds"]) for _, r, _ in bars]
        solve = [float(r["solve_seconds"]) for _, r, _ in bars]
        colors = [c for _, _, c in bars]
        ax.bar(xs, build, color="tab:orange")
        ax.bar(xs, solve, bottom=build, color=colors)
        for x, b, s in zip(xs, build, solve):
            ax.text(x, b + s, f"{b + s:.1f}", ha="center", va="bottom", fontsize=7)
        ax.set_xticks(list(xs))
        ax.set_xticklabels([label for label, _, _ in bars], fontsize=6)
        ax.set_ylabel("seconds, tables included")
        # The ratio first, best setting against best setting within a run:
        # girving's fastest total against ours on one thread, and ours on
        # two, one figure per run.
        per_run = run_ratios(comparison, pits, seeds, commit)
        ratios = []
        for threads in ("1", "2"):
            got = [f"{r[threads]:.2f}x" for _, r in per_run if threads in r]
            if got:
                ratios.append(f"{threads} thr {' / '.join(got)}")
        for run, r in per_run:
            print(f"{name} run {run or '(unnamed)'}: " + ", ".join(f"{t} thr {v:.2f}x" for t, v in sorted(r.items())), file=sys.stderr)
        runs_note = f" ({len(per_run)} runs)" if len(per_run) > 1 else ""
        headline = f"best vs best within a run{runs_note}: ours {', '.join(ratios)} faster\n" if ratios else ""
        ax.set_title(f"{headline}{name}, empty capture; ours at {commit[:7]}", fontsize=9)
        drawn += 1
    from matplotlib.patches import Patch

    axes[0].legend(handles=[Patch(color="tab:orange", label="table build"), Patch(color="tab:gray", label="girving solve"),
                            Patch(color="tab:cyan", label="our solve, 1 thread"), Patch(color="tab:blue", label="our solve, 2 threads")],
                   fontsize=7)
    fig.tight_layout()
    path = os.path.join(out_dir, "solver_vs_girving.png")
    if drawn:
        fig.savefig(path, dpi=110)
        print(f"{path}: {drawn} panels", file=sys.stderr)
    plt.close(fig)

    scaling = read_csv(os.path.join(args.results, "solver_scaling.csv"))
    boards = sorted({(r["ruleset"], r["pits"], r["seeds"]) for r in scaling})
    if boards:
        fig, ax = plt.subplots(figsize=(7, 4))
        names, one, two = [], [], []
        for b in boards:
            runs = [r for r in scaling if (r["ruleset"], r["pits"], r["seeds"]) == b]
            names.append(f"{b[0]}({b[1]},{b[2]})".replace("+empty-capture", "\nempty capture"))
            one.append(statistics.median(float(r["seconds"]) for r in runs if r["threads"] == "1"))
            two.append(statistics.median(float(r["seconds"]) for r in runs if r["threads"] == "2"))
        xs = range(len(boards))
        ax.bar([x - 0.2 for x in xs], one, width=0.4, label="1 thread", color="tab:cyan")
        ax.bar([x + 0.2 for x in xs], two, width=0.4, label="2 threads", color="tab:blue")
        for x, a, b in zip(xs, one, two):
            ax.text(x, max(a, b), f"{a / b:.2f}x", ha="center", va="bottom", fontsize=8)
        ax.set_xticks(list(xs))
        ax.set_xticklabels(names, fontsize=7)
        ax.set_yscale("log")
        ax.set_ylabel("median seconds (log)")
        ax.set_title(f"solver, 1 against 2 threads ({scaling[-1]['commit'][:7]})", fontsize=9)
        ax.legend(fontsize=7, loc="upper left")
        fig.tight_layout()
        path = os.path.join(out_dir, "solver_scaling.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        print(f"{path}: {len(boards)} boards", file=sys.stderr)


if __name__ == "__main__":
    main()
