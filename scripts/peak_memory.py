#!/usr/bin/env python3
"""Runs a command and samples its memory, to tell a build's own memory from
the page cache's.

    scripts/peak_memory.py [--interval S] [--json FILE] -- COMMAND [ARGS...]

Every S seconds (default 0.5) it reads /proc/PID/status of the command (and
of its children) and keeps the peaks of:
  * RssAnon: anonymous memory, the heap and the working state: the memory a
    process has of its own, which the kernel cannot drop;
  * RssFile: pages of mapped files (table levels served from their files),
    which are the page cache's and are dropped under memory pressure;
  * VmRSS: the two together (what `time -f %M` reports as its peak).
It prints one JSON line on stderr (and to FILE with --json) when the command
ends, and exits with the command's exit status.  A sample is a sample: a
peak shorter than the interval can be missed; 0.5 s is far shorter than the
levels a build spends its memory on.
"""
import argparse
import json
import os
import subprocess
import sys
import time


def status_kib(pid):
    """The memory fields of /proc/PID/status, in KiB ({} when it is gone)."""
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                key, _, rest = line.partition(":")
                if key in ("RssAnon", "RssFile", "VmRSS"):
                    out[key] = int(rest.split()[0])
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        pass
    return out


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(c) for c in f.read().split()]
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return []


def tree(pid):
    todo, seen = [pid], []
    while todo:
        p = todo.pop()
        seen.append(p)
        todo.extend(children(p))
    return seen


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--interval", type=float, default=0.5)
    ap.add_argument("--json", help="also write the result line to this file")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error("no command given")
    if not (0.01 <= args.interval <= 60):
        ap.error("--interval must be between 0.01 and 60 seconds")
    start = time.time()
    proc = subprocess.Popen(command)
    peak = {"RssAnon": 0, "RssFile": 0, "VmRSS": 0}
    samples = 0
    while proc.poll() is None:
        total = {"RssAnon": 0, "RssFile": 0, "VmRSS": 0}
        for p in tree(proc.pid):
            for k, v in status_kib(p).items():
                total[k] += v
        for k in peak:
            peak[k] = max(peak[k], total[k])
        samples += 1
        time.sleep(args.interval)
    result = {
        "command": command,
        "exit_status": proc.returncode,
        "seconds": round(time.time() - start, 2),
        "peak_anon_mib": round(peak["RssAnon"] / 1024, 1),
        "peak_file_mib": round(peak["RssFile"] / 1024, 1),
        "peak_rss_mib": round(peak["VmRSS"] / 1024, 1),
        "samples": samples,
        "interval": args.interval,
    }
    line = json.dumps(result)
    print(line, file=sys.stderr)
    if args.json:
        with open(args.json, "w") as f:
            f.write(line + "\n")
    sys.exit(proc.returncode if proc.returncode >= 0 else 128 - proc.returncode)


if __name__ == "__main__":
    main()
