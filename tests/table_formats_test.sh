#!/usr/bin/env bash
# Level file formats (tables/include/mancala/tables/table_file.hpp):
#   table_formats_test.sh MANCALA SOURCE_DIR
# 1. Version 1 files (tests/data/v1_kalah_3_8, written by the toolkit before
#    version 2) are read by info, verify, probe and solve --tables, with the
#    values of a fresh build, and a build resumes from them;
# 2. `mancala convert` rewrites them in version 2, raw, zstd or packed, keeping every
#    level's content hash; a raw conversion is byte for byte a fresh build,
#    and converting back and forth ends where it began;
# 3. a build with --compression zstd or packed gives the files of a raw build converted
#    (the conversion is the build's last step), for any thread count;
# 4. bad format options are one-line errors, exit status 2.
set -uo pipefail
mancala=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
hashes() { "$mancala" info "$1" --json | python3 -c '
import json, sys
for l in json.load(sys.stdin)["levels"]: print(l["seeds"], l["payload_fnv1a64"], l["format_version"], l["compression"])'; }
content() { hashes "$1" | cut -d' ' -f1,2; }
probe_all() {  # every board of 8 seeds and of 5 seeds, both sides to move, through probe's stdin
  python3 -c '
import itertools
for total in (5, 8):
    for c in itertools.product(range(total + 1), repeat=5):
        if sum(c) <= total:
            row = list(c) + [total - sum(c)]
            for side in "sn":
                print(f"{row[0]},{row[1]},{row[2]}/{row[3]},{row[4]},{row[5]} 2-1 {side}")' |
    "$mancala" probe --tables "$1"
}

cp -r "$src/tests/data/v1_kalah_3_8" "$work/v1"
"$mancala" build --game kalah --pits 3 --max-seeds 8 --out "$work/fresh" --quiet >/dev/null || fail "build"

# 1. Version 1 is read.
[ "$(hashes "$work/v1" | awk '{print $3}' | sort -u)" = 1 ] || fail "the fixture is not version 1: $(hashes "$work/v1")"
[ "$(content "$work/v1")" = "$(content "$work/fresh")" ] || fail "version 1 content hashes differ from a fresh build's"
"$mancala" verify "$work/v1" --quiet >/dev/null || fail "verify of version 1 files"
[ "$(probe_all "$work/v1")" = "$(probe_all "$work/fresh")" ] || fail "probes of version 1 files differ"
a=$("$mancala" solve --game kalah --pits 3 --seeds 3 --tables "$work/v1" --quiet --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')
b=$("$mancala" solve --game kalah --pits 3 --seeds 3 --tables "$work/fresh" --quiet --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')
[ "$a" = "$b" ] || fail "solve --tables: $a from version 1 files, $b from version 2"
cp -r "$work/v1" "$work/resumed"
"$mancala" build --game kalah --pits 3 --max-seeds 10 --out "$work/resumed" --quiet >/dev/null || fail "a build resuming from version 1 files"
"$mancala" build --game kalah --pits 3 --max-seeds 10 --out "$work/fresh10" --quiet >/dev/null || fail "build to 10"
[ "$(content "$work/resumed")" = "$(content "$work/fresh10")" ] || fail "a build resumed from version 1 files differs"
"$mancala" verify "$work/resumed" --quiet >/dev/null || fail "verify of mixed version 1 and 2 files"

# 2. convert.
cp -r "$work/v1" "$work/conv"
"$mancala" convert "$work/conv" --compression none --quiet >/dev/null || fail "convert to version 2"
for f in "$work/fresh"/level_*.mtb; do
  cmp -s "$f" "$work/conv/$(basename "$f")" || fail "converted $(basename "$f") is not the bytes of a fresh build"
done
"$mancala" convert "$work/conv" --compression zstd --block-size 1024 --quiet >/dev/null || fail "convert to zstd"
[ "$(hashes "$work/conv" | awk '{print $4}' | sort -u)" = zstd ] || fail "convert left files uncompressed"
[ "$(content "$work/conv")" = "$(content "$work/fresh")" ] || fail "zstd conversion changed a content hash"
"$mancala" verify "$work/conv" --quiet >/dev/null || fail "verify of converted zstd files"
[ "$(probe_all "$work/conv")" = "$(probe_all "$work/fresh")" ] || fail "probes of zstd files differ"
again=$("$mancala" convert "$work/conv" --compression zstd --block-size 1024 --json --quiet)
python3 -c 'import json,sys; j=json.loads(sys.argv[1]); sys.exit(any(l["rewritten"] for l in j["levels"]))' "$again" ||
  fail "converting to the format the files are in rewrote some"
"$mancala" convert "$work/conv" --compression packed --block-size 1024 --quiet >/dev/null || fail "convert zstd to packed"
[ "$(hashes "$work/conv" | awk '{print $4}' | sort -u)" = packed ] || fail "convert left files unpacked"
[ "$(content "$work/conv")" = "$(content "$work/fresh")" ] || fail "packed conversion changed a content hash"
"$mancala" verify "$work/conv" --quiet >/dev/null || fail "verify of converted packed files"
[ "$(probe_all "$work/conv")" = "$(probe_all "$work/fresh")" ] || fail "probes of packed files differ"
"$mancala" convert "$work/conv" --compression none --quiet >/dev/null || fail "convert back to raw"
for f in "$work/fresh"/level_*.mtb; do
  cmp -s "$f" "$work/conv/$(basename "$f")" || fail "raw -> zstd -> packed -> raw changed $(basename "$f")"
done

# 3. build --compression zstd = raw build converted, for 1 and 2 threads.
for t in 1 2; do
  "$mancala" build --game oware --pits 3 --max-seeds 9 --out "$work/z$t" --compression zstd --threads "$t" --quiet >/dev/null ||
    fail "build --compression zstd --threads $t"
done
"$mancala" build --game oware --pits 3 --max-seeds 9 --out "$work/r" --quiet >/dev/null || fail "raw oware build"
"$mancala" convert "$work/r" --compression zstd --quiet >/dev/null || fail "convert oware"
for f in "$work/r"/level_*.mtb; do
  for t in 1 2; do cmp -s "$f" "$work/z$t/$(basename "$f")" || fail "build --compression zstd --threads $t: $(basename "$f") differs"; done
done
# The same for packed, on both threads.
cp -r "$work/r" "$work/rp"
"$mancala" convert "$work/rp" --compression packed --quiet >/dev/null || fail "convert oware to packed"
"$mancala" build --game oware --pits 3 --max-seeds 9 --out "$work/p2" --compression packed --threads 2 --quiet >/dev/null ||
  fail "build --compression packed"
for f in "$work/rp"/level_*.mtb; do cmp -s "$f" "$work/p2/$(basename "$f")" || fail "build --compression packed: $(basename "$f") differs"; done
[ ! -e "$work/z1/.raw-levels" ] || fail "the build left its scratch directory"
# A compressed build resumed (its lower levels decoded to scratch copies) gives the same files.
rm "$work/z1/level_009.mtb" "$work/z1/level_008.mtb"
"$mancala" build --game oware --pits 3 --max-seeds 9 --out "$work/z1" --compression zstd --quiet >/dev/null || fail "resume a zstd build"
for f in "$work/r"/level_*.mtb; do cmp -s "$f" "$work/z1/$(basename "$f")" || fail "resumed zstd build: $(basename "$f") differs"; done
[ ! -e "$work/z1/.raw-levels" ] || fail "the resumed build left its scratch directory"
# A build killed while converting (some levels compressed, the rest still
# raw) converts the rest when it is run again.
cp -r "$work/r" "$work/r0"
"$mancala" convert "$work/r0" --compression none --quiet >/dev/null || fail "convert r0 back to raw"
for k in 5 6 7; do cp "$(printf '%s/level_%03d.mtb' "$work/r0" "$k")" "$work/z1/"; done
[ "$(hashes "$work/z1" | awk '$1 >= 5 && $1 <= 7 {print $4}' | sort -u)" = none ] || fail "the half-converted directory is not"
"$mancala" build --game oware --pits 3 --max-seeds 9 --out "$work/z1" --compression zstd --quiet >/dev/null || fail "rerun of a half-converted build"
for f in "$work/r"/level_*.mtb; do cmp -s "$f" "$work/z1/$(basename "$f")" || fail "half-converted rerun: $(basename "$f") differs"; done

# 5. Checksum lists: info --checksums writes one, verify --checksums compares
# (any format: the list of the raw build holds for the zstd files), a wrong
# hash or ruleset is the verdict (exit status 1) naming the level, a bad list
# is misuse (exit status 2).
"$mancala" info "$work/fresh" --checksums >"$work/list.txt" || fail "info --checksums"
[ "$(grep -c '^level_' "$work/list.txt")" = 9 ] || fail "info --checksums: $(cat "$work/list.txt")"
out=$("$mancala" verify "$work/fresh" --checksums "$work/list.txt" --quiet --json) || fail "verify --checksums of the build itself: $out"
[ "$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["checksums_compared"])' "$out")" = 9 ] || fail "compared: $out"
cp -r "$work/fresh" "$work/fz"
"$mancala" convert "$work/fz" --compression zstd --quiet >/dev/null || fail "convert fz"
"$mancala" verify "$work/fz" --checksums "$work/list.txt" --quiet >/dev/null || fail "the raw build's list does not hold for its zstd files"
"$mancala" verify "$work/v1" --checksums "$work/list.txt" --quiet >/dev/null || fail "the list does not hold for the version 1 files"
"$mancala" verify "$work/fresh10" --checksums "$work/list.txt" --quiet >/dev/null || fail "a list of fewer levels than the directory"
python3 - "$work/list.txt" "$work/wrong.txt" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
out = [l[:-1] + ("0" if l[-1] != "0" else "1") if l.startswith("level_005") else l for l in lines]
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
err=$("$mancala" verify "$work/fz" --checksums "$work/wrong.txt" --quiet 2>&1 >/dev/null)
[ $? = 1 ] || fail "a wrong hash in the list: not exit status 1"
grep -q "level_005.mtb: content hash .*, the checksum list says" <<<"$err" || fail "a wrong hash: $err"
sed 's/^ruleset kalah$/ruleset oware/' "$work/list.txt" >"$work/oware.txt"
err=$("$mancala" verify "$work/fresh" --checksums "$work/oware.txt" --quiet 2>&1 >/dev/null)
[ $? = 1 ] || fail "a list of another ruleset: not exit status 1"
grep -q "the checksum list is for oware" <<<"$err" || fail "another ruleset: $err"
bad_list() {
  local words=$1 text=$2
  printf '%b' "$text" >"$work/bad.txt"
  expect "$words" verify "$work/fresh" --checksums "$work/bad.txt"
}

# 4. Bad options.
expect() {
  local words=$1; shift
  err=$("$mancala" "$@" 2>&1 >/dev/null)
  local rc=$?
  [ "$rc" = 2 ] || fail "$*: exit status $rc, not 2"
  [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "$*: not one line: $err"
  grep -q -- "$words" <<<"$err" || fail "$*: message lacks '$words': $err"
}
b=(build --pits 3 --max-seeds 4 --out "$work/bad")
expect "unknown compression 'lz4'" "${b[@]}" --compression lz4
expect "block-size must be a power of two" "${b[@]}" --block-size 3000
expect "block-size must be between 1024 and 16777216" "${b[@]}" --block-size 512
expect "block-size must be between" "${b[@]}" --block-size 99999999999
expect "zstd-level must be between 1 and 22" "${b[@]}" --compression zstd --zstd-level 30
expect "zstd-level is for --compression zstd" "${b[@]}" --zstd-level 5
[ ! -e "$work/bad" ] || fail "a refused build created its directory"
expect "unknown compression" convert "$work/fresh" --compression gzip
expect "does not exist" convert "$work/nowhere"
expect "level_000.mtb" convert "$work"
bad_list "line 1: unknown line 'garbage'" 'garbage\n'
bad_list "lacks its ruleset" 'level_000.mtb 1 af63bd4c8601b7df\n'
bad_list "line 1: unknown ruleset 'chess'" 'ruleset chess\npits_per_side 3\n'
bad_list "line 2: expected 'pits_per_side M'" 'ruleset kalah\npits_per_side 99\n'
bad_list "line 3: expected 'level_NNN.mtb POSITIONS HASH'" 'ruleset kalah\npits_per_side 3\nlevel_000.mtb 1 xyz\n'
bad_list "line 3: 'level_0x0.mtb' is not a level file name" 'ruleset kalah\npits_per_side 3\nlevel_0x0.mtb 1 af63bd4c8601b7df\n'
bad_list "line 4: levels out of order" 'ruleset kalah\npits_per_side 3\nlevel_001.mtb 6 af63bd4c8601b7df\nlevel_000.mtb 1 af63bd4c8601b7df\n'
expect "is not a readable file" verify "$work/fresh" --checksums "$work/nowhere.txt"
mkfifo "$work/fifo.txt"
expect "is not a readable file" verify "$work/fresh" --checksums "$work/fifo.txt"
expect "leave out --json" info "$work/fresh" --checksums --json
expect "--from-level 9 is not a level of" verify "$work/fresh" --from-level 9
expect "--from-level -1 is not a level of" verify "$work/fresh" --from-level -1
expect "from-level" verify "$work/fresh" --from-level x
out=$("$mancala" verify "$work/fresh" --from-level 8 --checksums "$work/list.txt" --quiet) || fail "verify --from-level 8: $out"
grep -q "values re-derived from level 8 up; levels 0..7 by their block and content hashes" <<<"$out" || fail "--from-level 8: $out"
echo "1 passed, 0 failed"
