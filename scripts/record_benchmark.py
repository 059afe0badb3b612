#!/usr/bin/env python3
"""Records a Google Benchmark JSON output with the command and commit that
produced it, and prints each median: the recording step shared by the
scripts/bench_*.sh that run a bench/ program.

  scripts/record_benchmark.py SRC DST COMMIT COMMAND FIELD SCALE UNIT [FIELD SCALE UNIT ...]

Writes SRC's JSON to DST with "recorded": {"command", "commit"} added.  For
every median row, prints its name and the first FIELD it has, times SCALE,
followed by UNIT.
"""
import json
import sys


def main(src, dst, commit, command, *fields):
    shown = [(fields[i], float(fields[i + 1]), fields[i + 2]) for i in range(0, len(fields), 3)]
    data = json.load(open(src))
    data["recorded"] = {"command": command, "commit": commit}
    json.dump(data, open(dst, "w"), indent=1)
    for b in data["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        for field, scale, unit in shown:
            if field in b:
                print(f'{b["run_name"]:45s} {b[field] * scale:8.1f} {unit}')
                break


if __name__ == "__main__":
    if len(sys.argv) < 8 or (len(sys.argv) - 5) % 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
