#!/usr/bin/python3
"""What a solve's nodes did (`mancala solve --search-stats`), recorded and drawn.

  scripts/search_stats.py record LABEL RESULTS.json MANCALA solve ARGS...
      runs `MANCALA solve ARGS... --search-stats --json --quiet` and stores its
      counts in RESULTS.json under LABEL (replacing an older record of that
      label), with the command (the --tables directory written as T), the
      commit the binary was built at and the time.  Prints the shares a reader looks at first.
  /usr/bin/python3 scripts/search_stats.py plot RESULTS.json PNG
      draws every record: interior nodes by the seeds on their board (left),
      and how the nodes were settled (right).

The counts are those of SearchStats (solver/include/mancala/solver/solver.hpp):
a node is terminal, a table probe, a horizon (the deepening's cut-off), a
repetition (Oware), settled by its transposition-table entry, interior (it
valued its children) or abandoned (a stop or a refutation elsewhere cut it
short); they add up to the solve's nodes.  A solve with --search-stats runs
a counting worker, so its time is not the solve's usual time.
"""
import datetime
import json
import os
import subprocess
import sys

KINDS = ["interior", "settled_by_entry", "horizon", "from_tables", "terminal", "repetition", "abandoned"]


def commit():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    head = subprocess.run(["git", "-C", root, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout.strip()
    return head + ("+dirty" if dirty else "") if head else "unknown"


def shown_command(args):
    """The solve's arguments as a reader can rerun them: the table directory
    (a path on the machine that ran it) written as T."""
    out = ["mancala", "solve"]
    hide = False
    for a in args:
        out.append("T" if hide else a)
        hide = a == "--tables"
    return " ".join(out + ["--search-stats", "--json"])


def summary(label, r):
    s = r["search_stats"]
    nodes = r["nodes"]
    share = lambda part, whole: f"{100.0 * part / whole:.1f}%" if whole else "-"
    all_nodes = s["interior"] - s["expected_cut"]
    return (f"{label}: {nodes} nodes; interior {share(s['interior'], nodes)}, settled by entry {share(s['settled_by_entry'], nodes)}; "
            f"expected cut {s['expected_cut']}: failed high {share(s['expected_cut_failed_high'], s['expected_cut'])}, "
            f"on the first child {share(s['expected_cut_first_child'], s['expected_cut_failed_high'])}; "
            f"expected all {all_nodes}: failed high {share(s['expected_all_failed_high'], all_nodes)}; "
            f"entry's move at {share(s['with_entry_move'], s['interior'])} of interior nodes, refuting {share(s['entry_move_failed_high'], s['with_entry_move'])}")


def record(label, path, mancala, *args):
    if not args or args[0] != "solve":
        sys.exit("search_stats.py record: the command must be MANCALA solve ...")
    out = subprocess.run([mancala, *args, "--search-stats", "--json", "--quiet"], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"search_stats.py record: the solve failed (status {out.returncode}): {out.stderr.strip()}")
    r = json.loads(out.stdout)
    if "search_stats" not in r or not r.get("complete", False):
        sys.exit("search_stats.py record: the solve did not finish with counts")
    data = json.load(open(path)) if os.path.exists(path) else {"records": []}
    data["records"] = [x for x in data["records"] if x["label"] != label]
    data["records"].append({
        "label": label,
        "command": shown_command(args[1:]),  # args[0] is "solve"
        "commit": r.get("commit") or commit(),  # the binary's own, else the checkout's
        "date": datetime.date.today().isoformat(),
        "position": r["position"],
        "ruleset": r["ruleset"],
        "value": r["value"],
        "nodes": r["nodes"],
        "threads": r["threads"],
        "level_tables": r["level_tables"],
        "seconds_with_counting": r["seconds"],
        "test_log": r["test_log"],
        "search_stats": r["search_stats"],
    })
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print(summary(label, data["records"][-1]))


def plot(path, png):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    records = json.load(open(path))["records"]
    if not records:
        sys.exit("search_stats.py plot: no records")
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.2))
    for r in records:
        by = r["search_stats"]["interior_by_seeds"]
        seeds = [k for k, n in enumerate(by) if n]
        left.plot(seeds, [by[k] for k in seeds], marker=".", label=f"{r['label']} ({r['level_tables']}-seed tables)")
    left.set_yscale("log")
    left.set_xlabel("seeds on the board")
    left.set_ylabel("interior nodes (searched their children)")
    left.set_title("Where the search's nodes are: interior nodes by seeds")
    left.grid(True, which="both", alpha=0.3)
    left.legend(fontsize=8)

    labels = [r["label"].replace(", ", "\n").replace(" empty capture", "\nempty capture") for r in records]
    bottom = [0.0] * len(records)
    for kind in KINDS:
        shares = [100.0 * r["search_stats"][kind] / r["nodes"] if r["nodes"] else 0 for r in records]
        if not any(shares):
            continue
        right.bar(labels, shares, bottom=bottom, label=kind.replace("_", " "))
        bottom = [b + s for b, s in zip(bottom, shares)]
    for i, r in enumerate(records):
        s = r["search_stats"]
        high = 100.0 * s["expected_cut_failed_high"] / s["expected_cut"] if s["expected_cut"] else 0
        first = 100.0 * s["expected_cut_first_child"] / s["expected_cut_failed_high"] if s["expected_cut_failed_high"] else 0
        right.text(i, 101, f"{r['nodes'] / 1e6:.1f} M nodes\nexpected cuts: {high:.1f}% cut,\n{first:.1f}% of those on the 1st child",
                   ha="center", va="bottom", fontsize=7)
    right.set_ylim(0, 125)
    right.set_ylabel("% of the solve's nodes")
    right.set_title("How the nodes were settled")
    right.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    right.tick_params(axis="x", labelsize=8)
    fig.suptitle("mancala solve --search-stats (" + ", ".join(sorted({r['commit'] for r in records})) + ")", fontsize=9)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "record":
        record(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "plot":
        plot(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
