#!/usr/bin/env bash
# cmake --install into a temporary prefix, then build and run a consumer
# project that finds the toolkit with find_package(mancala).
set -euo pipefail
build_dir=$1
source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
cmake -S "$source_dir/tests/install_consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/consumer" >/dev/null
out=$("$work/consumer/consumer")
echo "$out"
# Kalah(3,2) after south's pit 1: 0,3,3/2,2,2 0-0 n.  The value is checked
# against the CLI's solve of the same position.
expected=$("$build_dir/bin/mancala" solve --position "0,3,3/2,2,2 0-0 n" --json --tt-mb 4 | sed 's/.*"value":\(-\?[0-9]*\).*/\1/')
[ "$out" = "0,3,3/2,2,2 0-0 n value $expected" ] || { echo "unexpected output: $out (expected value $expected)"; exit 1; }
