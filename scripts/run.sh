#!/usr/bin/env bash
# The main job on a small default: installs what is missing, builds, and
# solves Kalah(4,3) exactly (value, best move, principal variation), then the
# value of every opening move.  Pass other `mancala solve` options to change
# the board, e.g. scripts/run.sh --game oware --pits 4 --seeds 2
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$root/build" >/dev/null
mancala="$root/build/bin/mancala"
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--game kalah --pits 4 --seeds 3)
"$mancala" show "${args[@]}"
"$mancala" solve "${args[@]}"
"$mancala" analyze "${args[@]}"
