#!/usr/bin/env bash
# Records what a random read costs on this machine by the size of the memory
# it falls in (bench/memory_latency.cpp: a dependent chase, and batches of k
# lines asked for together as a search node asks for its cluster and its
# children's level values) into results/memory_latency.json with the
# command and commit, and draws results/memory_latency.png.  Run on an
# otherwise idle machine; it takes about two minutes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" "$root/build" >/dev/null
out="$root/results/memory_latency.json"
cmd=(build/bench/memory_latency --benchmark_repetitions=3 --benchmark_report_aggregates_only=true)
cd "$root"
"${cmd[@]}" --benchmark_format=json --benchmark_out="$out.tmp" >/dev/null
python3 - "$out.tmp" "$out" "$(git rev-parse --short=12 HEAD)" "${cmd[*]}" <<'PY'
import json, sys
src, dst, commit, command = sys.argv[1:]
data = json.load(open(src))
data["recorded"] = {"command": command, "commit": commit}
json.dump(data, open(dst, "w"), indent=1)
for b in data["benchmarks"]:
    if b.get("aggregate_name") == "median":
        key = "ns_per_read" if "ns_per_read" in b else "ns_per_batch"
        print(f'{b["run_name"]:45s} {b[key] * 1e9:7.1f} {key.replace("_", " ")}')
PY
rm -f "$out.tmp"
/usr/bin/python3 scripts/plot_memory.py results/memory_latency.json results/memory_latency.png
