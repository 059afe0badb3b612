#!/usr/bin/env python3
"""The checksum list of a table directory (the format of `mancala info DIR
--checksums`, read by `mancala verify DIR --checksums FILE`) from a recorded
`mancala info DIR --json` object, for builds whose directory is gone but
whose info was kept in results/.

    scripts/checksum_list.py INFO_JSON > results/checksums/NAME.txt
"""
import json
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: checksum_list.py INFO_JSON")
    with open(sys.argv[1]) as f:
        info = json.load(f)
    for key in ("ruleset", "pits_per_side", "levels"):
        if key not in info:
            sys.exit(f"checksum_list.py: {sys.argv[1]} has no '{key}': not the output of mancala info --json")
    print("# mancala table checksums: the FNV-1a 64 of each level's values in rank order (any file format)")
    print(f"# from {sys.argv[1].split('/')[-1]} (mancala info --json of the build recorded there)")
    print(f"ruleset {info['ruleset']}")
    print(f"pits_per_side {info['pits_per_side']}")
    for level in sorted(info["levels"], key=lambda l: l["seeds"]):
        print(f"level_{level['seeds']:03d}.mtb {level['positions']} {level['payload_fnv1a64']}")


if __name__ == "__main__":
    main()
