#!/usr/bin/env python3
"""Predictions of results/scaling_model.md from the measured inputs.

    scripts/scaling_model.py [RESULTS_DIR]

Reads results/mpi_build_scaling.csv (mancala-mpi runs with 1, 2, 4 ranks)
results/level_edges.jsonl (bench/level_edges: moves, exits and in-level
moves per position of single levels) and results/oware_rounds.csv (frontier
rounds per Oware level), prints the fitted inputs and the
tables of predicted memory, communication and wall time per node for the
48-seed Awari database and Kalah 6-pit tables to 40 seeds on clusters of
16, 64 and 256 nodes.  The model and its assumptions are explained in
scaling_model.md; the cluster constants are the NODE dict below.
"""
import csv
import json
import math
import os
import sys
from math import comb

results = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "results")

# Assumed cluster node (stated in scaling_model.md).
NODE = {
    "cores": 64,
    "memory_gb": 256,
    "net_gbytes_per_s": 6.25,   # 100 Gb/s link, half of it achieved by all-to-all traffic
    "latency_s": 20e-6,         # per all-to-all step, times log2(nodes)
    "disk_gbytes_per_s": 5.0,   # the parallel file system, all nodes together
}
# Per-core cost of a position in a large single-machine build (results/tables_large.csv,
# 24 seeds, 2 threads): cache misses to big levels included.
LARGE = {"oware": (24, 1251677700, 325.9, 2), "kalah": (24, 1251677700, 245.5, 2)}
PITS = 6


def level_size(k):
    return comb(k + 2 * PITS - 1, 2 * PITS - 1)


def total_size(K):
    return comb(K + 2 * PITS, 2 * PITS)


def row_sums_balanced(k, nodes):
    """Whether mancala-mpi splits Kalah level k by row-sum classes on `nodes`
    processes (RowSumClasses::balanced, row_sum_classes.hpp): the classes
    {a, k-a} dealt largest first to the least loaded process, the largest
    share within 5% of the mean, or a level under 2^16 positions."""
    rows = lambda s: comb(s + PITS - 1, PITS - 1)  # noqa: E731
    size = level_size(k)
    if size < 1 << 16:
        return True
    classes = sorted(range(k // 2 + 1), key=lambda a: -(rows(a) * rows(k - a) * (1 if 2 * a == k else 2)))
    load = [0] * nodes
    for a in classes:
        q = load.index(min(load))
        load[q] += rows(a) * rows(k - a) * (1 if 2 * a == k else 2)
    return max(load) * 100 <= size * 105 // nodes


def load_runs():
    with open(os.path.join(results, "mpi_build_scaling.csv")) as f:
        return list(csv.DictReader(f))


def load_edges():
    with open(os.path.join(results, "level_edges.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


def fit_overhead(runs, game, threads=1):
    """CPU per process = (t + c) * S / P: t the work of a position (1 rank),
    c the extra work a position costs when the level is split (asking for
    and answering the children held elsewhere, dealing out a Phi bucket's
    work), per position of the process's own share.  From the rows of the
    newest commit in the csv."""
    rows = [r for r in runs if r["game"] == game and int(r["threads_per_rank"]) == threads]
    latest = rows[-1]["commit"]  # the newest measurements (the csv keeps every version's rows)
    rows = [r for r in rows if r["commit"] == latest]
    one = [r for r in rows if int(r["ranks"]) == 1][0]
    S = int(one["positions"])
    t = float(one["cpu_seconds_per_rank"]) / S
    cs = []
    for r in rows:
        P = int(r["ranks"])
        if P > 1:
            cs.append(float(r["cpu_seconds_per_rank"]) * P / S - t)
    bytes_per_pos = {int(r["ranks"]): int(r["bytes_sent_per_rank"]) / S for r in rows if int(r["ranks"]) > 1}
    return t, sum(cs) / len(cs), bytes_per_pos, S


def fit_line(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return lambda k: my + b * (k - mx)


def fit_rounds():
    """Frontier rounds of an Oware level (results/oware_rounds.csv, the
    build_times.csv of a single-machine build), a line over levels >= 10."""
    with open(os.path.join(results, "oware_rounds.csv")) as f:
        rows = [r for r in csv.DictReader(f) if int(r["seeds"]) >= 10]
    return fit_line([int(r["seeds"]) for r in rows], [int(r["rounds"]) for r in rows])


def per_position(edges, game):
    """Moves, exits and in-level moves per position against seeds, fitted as
    a line over the measured levels and capped at the m moves a position has."""
    pts = sorted((e["seeds"], e) for e in edges if e["ruleset"] == game and e["pits_per_side"] == PITS)
    xs = [k for k, _ in pts]

    def line(key):
        f = fit_line(xs, [e[key] / e["positions"] for _, e in pts])
        return lambda k: min(PITS, max(0.0, f(k)))

    moves, exits, stays = line("moves"), line("exits_to_lower_levels"), line("in_level_moves")
    # Exits and in-level moves are fitted separately; share moves(k) between
    # them in the fitted proportion so that they never add up to more.
    share = lambda k: exits(k) / (exits(k) + stays(k))  # noqa: E731
    return moves, (lambda k: moves(k) * share(k)), (lambda k: moves(k) * (1 - share(k))), pts


def kalah_state(k, nodes):
    """Bytes a position of a process's share of level k while it is built:
    row sums, the classes' values and moves, the values sent and the slice
    received (4, on up to 5% over a share) and request batches (2); ranks, the
    slice, its Phi order, in-level moves and request batches."""
    return 4 * 1.05 + 2 if row_sums_balanced(k, nodes) else 1 + 4 + 1 + 2


def predict(game, K, nodes, t_large, moves, exits, in_level, rounds):
    """Owner-computes cluster build: every level in `nodes` slices, one
    process a node with NODE['cores'] threads, exits and in-level
    successors (Kalah) / predecessor updates (Oware) exchanged in batches."""
    k_large = LARGE[game][0]
    cores = NODE["cores"]
    mem = comm = compute = latency = 0.0
    db = total_size(K)
    for k in range(K + 1):
        N = level_size(k)
        t = t_large * moves(k) / moves(k_large)
        compute += N * t / (nodes * cores)
        remote = (nodes - 1) / nodes
        if game == "oware":
            per_pos = 9 * exits(k) + 8 * in_level(k)   # exit lookup: 8-byte rank out, 1-byte value back; update: 8 bytes
            steps = rounds(k) * 2
        elif row_sums_balanced(k, nodes):
            # row-sum classes: exits looked up at their owners (9 bytes a remote
            # exit), in-level chains walked locally, then every value to its rank
            # slice (1 byte); rounds of at most 2^20 positions, two steps each
            per_pos = 9 * exits(k) + 1
            steps = 2 * math.ceil(N * 1.05 / nodes / (1 << 20)) + 1
        else:
            # ranks and Phi: both looked up at their owners, 9 bytes a remote
            # child; a bucket's surplus dealt out (8-byte rank and exit out,
            # value back: 10 bytes, about 15% of the positions, measured on 2 ranks)
            per_pos = 9 * (exits(k) + in_level(k)) + 10 * 0.15
            # a Phi bucket (k*PITS+1 of them): sizes gathered, ranks and exits
            # dealt out, keys, answers, values returned
            steps = (k * PITS + 1) * 6
        comm_k = N / nodes * per_pos * remote
        comm += comm_k
        latency += steps * NODE["latency_s"] * max(1, math.log2(nodes))
    NK = level_size(K)
    if game == "oware":
        state = NK / nodes * (4 + 2)                  # cells; frontier and update batches (bounded)
    else:
        state = NK / nodes * kalah_state(K, nodes)
    mem = db / nodes + state
    disk = db / (NODE["disk_gbytes_per_s"] * 1e9)
    seconds = compute + comm / NODE["net_gbytes_per_s"] / 1e9 + latency + disk
    return {"disk_s": disk, "memory_gb": mem / 1e9, "comm_tb": comm / 1e12, "comm_total_tb": comm * nodes / 1e12, "compute_s": compute,
            "net_s": comm / NODE["net_gbytes_per_s"] / 1e9, "latency_s": latency, "seconds": seconds}


def main():
    runs = load_runs()
    edges = load_edges()
    print("## Fitted inputs\n")
    fits = {}
    for game in ("kalah", "oware"):
        t, c, bpp, S = fit_overhead(runs, game)
        fits[game] = (t, c)
        print(f"- {game}: t = {t * 1e9:.0f} ns CPU a position (1 rank, 1 thread), "
              f"split overhead c = {c * 1e9:.0f} ns a position of a rank's share, "
              f"bytes sent by the busiest rank a position of the tables: "
              + ", ".join(f"{v:.2f} at {P} ranks" for P, v in sorted(bpp.items())))
    print()
    oware_rounds = fit_rounds()
    for game, K in (("oware", 48), ("kalah", 40)):
        moves, exits, in_level, pts = per_position(edges, game)
        k_large, positions, seconds, threads = LARGE[game]
        t_large = seconds * threads / positions
        print(f"## {game} 6-pit, levels 0..{K}: {total_size(K):.3e} positions, top level {level_size(K):.3e}\n")
        if game == "oware":
            print(f"frontier rounds at {K} seeds (line over levels 10..17): {oware_rounds(K):.0f}\n")
        print(f"per position at {K} seeds (extrapolated from levels {pts[0][0]}..{pts[-1][0]}): "
              f"{moves(K):.2f} moves, {exits(K):.2f} exits, {in_level(K):.2f} in-level; "
              f"CPU {t_large * 1e9:.0f} ns a position at {k_large} seeds, scaled by moves\n")
        print("| nodes | memory/node GB | sent/node TB | sent, all nodes TB | compute s | network s | latency s | disk s | wall h |")
        print("|---|---|---|---|---|---|---|---|---|")
        for n in (16, 64, 256):
            p = predict(game, K, n, t_large, moves, exits, in_level, oware_rounds)
            note = "" if p["memory_gb"] <= NODE["memory_gb"] else " (does not fit)"
            print(f"| {n} | {p['memory_gb']:.0f}{note} | {p['comm_tb']:.2f} | {p['comm_total_tb']:.1f} | {p['compute_s']:.0f} | "
                  f"{p['net_s']:.0f} | {p['latency_s']:.0f} | {p['disk_s']:.0f} | {p['seconds'] / 3600:.2f} |")
        print()
    for K in (30, 40):
        print(f"Kalah 6-pit levels split by row sums (the rest by ranks) on 4 / 8 / 16 processes, of levels 0..{K}: "
              + " / ".join(str(sum(row_sums_balanced(k, n) for k in range(K + 1))) for n in (4, 8, 16))
              + f"; level {K}: " + " / ".join("row sums" if row_sums_balanced(K, n) else "ranks" for n in (4, 8, 16)) + "\n")
    print("## This version (a slice of every level a process), one process a node\n")
    print("| tables | positions | nodes | memory/process GB | compute s | split overhead s | network s | wall s | speed-up over 1 node |")
    print("|---|---|---|---|---|---|---|---|---|")
    for game, K in (("kalah", 30), ("oware", 30), ("kalah", 40), ("oware", 48)):
        t, c = fits[game]
        S, NK = total_size(K), level_size(K)
        moves, exits, in_level, _ = per_position(edges, game)
        base = None
        for n in (1, 4, 8, 16, 64, 256) if game == "kalah" else (1, 16, 64, 256):
            # Kalah: the top level's working state (kalah_state); Oware: cells and update batches
            mem = S / n + NK / n * (kalah_state(K, n) if game == "kalah" else (4 + 2))
            compute = S * t / (n * NODE["cores"])
            overhead = S * c / (n * NODE["cores"]) if n > 1 else 0.0
            p = predict(game, K, n, t, moves, exits, in_level, oware_rounds)
            net = p["net_s"] if n > 1 else 0.0
            wall = compute + overhead + net
            base = base or wall
            if n > 1:
                fits_note = "" if mem <= NODE["memory_gb"] * 1e9 else " (does not fit)"
                print(f"| {game} 0..{K} | {S:.2e} | {n} | {mem / 1e9:.1f}{fits_note} | {compute:.0f} | {overhead:.0f} | {net:.0f} | "
                      f"{wall:.0f} | {base / wall:.1f} |")
    print()


if __name__ == "__main__":
    main()
