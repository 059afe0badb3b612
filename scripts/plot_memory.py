#!/usr/bin/python3
"""Draws results/memory_latency.json (scripts/bench_memory.sh) as a PNG:
nanoseconds a random read by the size of the region it falls in (a
dependent chase, with and without huge pages asked for), and nanoseconds a
batch of k lines asked for together.

  /usr/bin/python3 scripts/plot_memory.py results/memory_latency.json results/memory_latency.png
"""
import json
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def medians(data):
    for b in data["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        args = dict(re.findall(r"(\w+):(\d+)", b["run_name"]))
        args = {k: int(v) for k, v in args.items()}
        if "ns_per_read" in b:
            yield "chase", args, b["ns_per_read"] * 1e9
        else:
            yield "batch", args, b["ns_per_batch"] * 1e9


def main(src, dst):
    data = json.load(open(src))
    rows = list(medians(data))
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for huge, style in ((0, "o-"), (1, "s--")):
        pts = sorted((a["MiB"], ns) for kind, a, ns in rows if kind == "chase" and a["huge"] == huge)
        left.plot([p[0] for p in pts], [p[1] for p in pts], style,
                  label="huge pages asked for" if huge else "huge pages refused")
    left.set_xscale("log", base=2)
    left.set_xlabel("region the reads fall in (MiB)")
    left.set_ylabel("ns a read (each waits for the one before)")
    left.set_title("Dependent random reads")
    left.legend()
    left.grid(alpha=0.3)
    for mib in sorted({a["MiB"] for kind, a, _ in rows if kind == "batch"}):
        pts = sorted((a["k"], ns) for kind, a, ns in rows if kind == "batch" and a["MiB"] == mib)
        right.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=f"{mib} MiB")
    right.set_xlabel("lines asked for together (k; a search node: about 7)")
    right.set_ylabel("ns a batch (the next waits for it)")
    right.set_title("Batches of independent reads, huge pages asked for")
    right.legend()
    right.grid(alpha=0.3)
    rec = data.get("recorded", {})
    fig.suptitle(f"What a random read costs on this machine (commit {rec.get('commit', '?')}, "
                 f"{data['context'].get('num_cpus', '?')} CPUs)", fontsize=10)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    main(*sys.argv[1:3])
