#!/usr/bin/env bash
# The main job on a small default: installs what is missing, builds, and
# shows Kalah(4,3) with its legal moves and perft counts.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$root/build" >/dev/null
mancala="$root/build/solver/mancala"
"$mancala" show --game kalah --pits 4 --seeds 3
"$mancala" moves --game kalah --pits 4 --seeds 3
"$mancala" perft --game kalah --pits 4 --seeds 3 --depth 8
