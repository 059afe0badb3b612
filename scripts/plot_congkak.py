#!/usr/bin/python3
"""Draws results/congkak_opening.csv as results/congkak_opening.png: for every
solved board (pits a side x seeds a hole), the value of Congkak's
simultaneous opening (expected final store difference for South under
optimal mixed strategies) against the value when South simply moves first,
one panel per capture rule (boards of fewer than 9 holes x seeds unlabelled).  Filled circles: the root decision has a saddle
point (pure first holes); open squares: both players must mix at the root.
Points below the diagonal are boards where moving at once takes away some
of the first player's advantage.

  /usr/bin/python3 scripts/plot_congkak.py [--results DIR] [--out FILE]

Needs Debian's python3-matplotlib (scripts/setup.sh installs it).
"""
import argparse
import csv
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=os.path.join(ROOT, "results"))
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = os.path.join(args.results, "congkak_opening.csv")
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "solved"]
    rules = [("congkak", "capture always"), ("congkak+capture=needs-opposite", "capture needs-opposite")]
    fig, axes = plt.subplots(1, 2, figsize=(13, 6.2))
    for ax, (digest, title) in zip(axes, rules):
        mine = [r for r in rows if r["ruleset"] == digest]
        lo = min([0.0] + [min(float(r["value"]), float(r["sequential_value"])) for r in mine]) - 3
        hi = max([1.0] + [max(float(r["value"]), float(r["sequential_value"])) for r in mine]) + 3
        ax.plot([lo, hi], [lo, hi], color="0.7", lw=1, zorder=0, label="equal values")
        for saddle, marker, face, label in ((True, "o", None, "saddle point at the root"),
                                            (False, "s", "none", "mixed strategies at the root")):
            pts = [r for r in mine if bool(r["saddle_point"]) == saddle]
            ax.scatter([float(r["sequential_value"]) for r in pts], [float(r["value"]) for r in pts], marker=marker,
                       facecolors=face if face else "tab:blue", edgecolors="tab:blue", s=36, label=label)
            for r in pts:  # the small boards crowd around 0; their labels would hide each other
                if int(r["pits"]) * int(r["seeds"]) < 9:
                    continue
                ax.annotate(f"{r['pits']}x{r['seeds']}", (float(r["sequential_value"]), float(r["value"])),
                            textcoords="offset points", xytext=(4, 3), fontsize=7)
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.set_title(f"Congkak, {title}: {len(mine)} boards")
        ax.set_xlabel("value with South moving first (final store difference)")
        ax.set_ylabel("value of the simultaneous opening (expected, South)")
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left", fontsize=8)
    fig.suptitle("Congkak: the simultaneous opening (lock-step model) against a sequential start; label = pits x seeds")
    fig.tight_layout()
    out = args.out or os.path.join(args.results, "congkak_opening.png")
    fig.savefig(out, dpi=110)
    print(out)


if __name__ == "__main__":
    main()
