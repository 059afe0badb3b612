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
python3 scripts/record_benchmark.py "$out.tmp" "$out" "$(git rev-parse --short=12 HEAD)" "${cmd[*]}" \
  ns_per_read 1e9 "ns a read" ns_per_batch 1e9 "ns a batch"
rm -f "$out.tmp"
/usr/bin/python3 scripts/plot_memory.py results/memory_latency.json results/memory_latency.png
