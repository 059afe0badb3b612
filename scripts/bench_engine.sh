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
python3 - "$out.tmp" "$out" "$(git rev-parse --short=12 HEAD)" "${cmd[*]}" <<'PY'
import json, sys
src, dst, commit, command = sys.argv[1:]
data = json.load(open(src))
data["recorded"] = {"command": command, "commit": commit}
json.dump(data, open(dst, "w"), indent=1)
for b in data["benchmarks"]:
    if b.get("aggregate_name") == "median":
        print(f'{b["run_name"]:40s} {b["items_per_second"]/1e6:8.1f} M moves/s')
PY
rm -f "$out.tmp"
