#!/usr/bin/env python3
"""Merges the JSON lines of `mancala batch` (e.g. the task_<I>.jsonl files of
a grid) into one CSV, one row per manifest command, in index order.

  scripts/slurm/collect.py [--manifest MANIFEST] [--all-runs] --out results/NAME.csv INPUT...

INPUT is a .jsonl file or a directory whose *.jsonl files are read.  Columns:
index, line, command, exit_status, error, commit, host, threads, seconds,
peak_rss_mib, started, then every other key in alphabetical order (the same
set of rows gives the same columns); lists and objects are written as JSON.
A command run more than once (a rerun task) keeps its latest record unless
--all-runs.  With --manifest, commands without a record are listed on
stderr.  Exit status: 0; 1 when records are missing or a command failed
(the CSV is written all the same); 2 on bad input.
"""
import argparse
import csv
import glob
import json
import os
import sys

LEADING = ["index", "line", "command", "exit_status", "error", "commit", "host", "threads", "seconds",
           "peak_rss_mib", "started"]


def fail(message):
    print(f"collect.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def input_files(inputs):
    files = []
    for item in inputs:
        if os.path.isdir(item):
            files += sorted(glob.glob(os.path.join(item, "*.jsonl")))
        elif os.path.isfile(item):
            files.append(item)
        else:
            fail(f"'{item}' is neither a file nor a directory")
    return files


def read_records(files):
    records = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            for number, text in enumerate(f, 1):
                if not text.strip():
                    continue
                try:
                    record = json.loads(text)
                except json.JSONDecodeError as e:
                    fail(f"{path} line {number}: not JSON ({e.msg})")
                if not isinstance(record, dict) or "index" not in record or "command" not in record:
                    fail(f"{path} line {number}: not a `mancala batch` record (no index or command)")
                records.append(record)
    return records


def manifest_commands(path):
    """The command lines of a manifest, counted as `mancala batch` does."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = [line.strip() for line in f]
    except OSError as e:
        fail(f"cannot read manifest '{path}': {e.strerror}")
    return [text for text in lines if text and not text.startswith("#")]


def cell(value):
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value, separators=(",", ":"))
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+", metavar="INPUT")
    ap.add_argument("--out", required=True, help="CSV file to write ('-': stdout)")
    ap.add_argument("--manifest", help="report commands of this manifest that have no record")
    ap.add_argument("--all-runs", action="store_true", help="keep every record of a command run more than once")
    args = ap.parse_args()

    files = input_files(args.inputs)
    if not files:
        fail("no .jsonl files in " + " ".join(args.inputs))
    records = read_records(files)
    # Latest first by start time; among equal times the later file/line wins.
    order = sorted(range(len(records)), key=lambda i: (records[i]["index"], records[i].get("started") or "", i))
    records = [records[i] for i in order]
    if not args.all_runs:
        latest = {}
        for r in records:
            latest[(r["index"], r["command"])] = r
        records = sorted(latest.values(), key=lambda r: r["index"])

    keys = set().union(*(r.keys() for r in records)) if records else set()
    columns = [k for k in LEADING if k in keys] + sorted(keys - set(LEADING))
    out = sys.stdout if args.out == "-" else None
    if out is None:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        out = open(args.out, "w", newline="", encoding="utf-8")
    with out:
        w = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
        w.writeheader()
        for r in records:
            w.writerow({k: cell(r.get(k)) for k in columns})

    status = 0
    failed = [r for r in records if r.get("error") is not None or r.get("exit_status") not in (0,)]
    if failed:
        print(f"collect.py: {len(failed)} of {len(records)} commands failed: manifest lines "
              + ", ".join(str(r.get("line")) for r in failed), file=sys.stderr)
        status = 1
    if args.manifest:
        commands = manifest_commands(args.manifest)
        have = {r["index"] for r in records if 0 <= r["index"] < len(commands) and r["command"] == commands[r["index"]]}
        missing = [i for i in range(len(commands)) if i not in have]
        if missing:
            shown = ", ".join(map(str, missing[:20])) + (", ..." if len(missing) > 20 else "")
            print(f"collect.py: {len(missing)} of {len(commands)} commands have no record: indices {shown}", file=sys.stderr)
            status = 1
    print(f"collect.py: {len(records)} rows, {len(columns)} columns -> {args.out}", file=sys.stderr)
    sys.exit(status)


if __name__ == "__main__":
    main()
