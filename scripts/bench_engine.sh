#!/usr/bin/env bash
# Records the engine benchmark (moves applied per second on random playouts,
# one case per ruleset) into results/engine_bench.json with the command,
# commit and machine.  Run on an otherwise idle machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" "$root/build" >/dev/null
out="$root/results/engine_bench.json"
cmd=(build/bench/engine_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true --benchmark_min_time=1)
cd "$root"
"${cmd[@]}" --benchmark_format=json --benchmark_out="$out.tmp" >/dev/null
python3 scripts/record_benchmark.py "$out.tmp" "$out" "$(git rev-parse --short=12 HEAD)" "${cmd[*]}" \
  items_per_second 1e-6 "M moves/s"
rm -f "$out.tmp"
