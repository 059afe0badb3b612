#!/usr/bin/env bash
# Builds everything and runs the test suite (not the tests labelled `slow`
# or `slurm`).
#   scripts/test.sh              Release build in build/
#   scripts/test.sh --sanitize   AddressSanitizer + UndefinedBehaviorSanitizer build in build-asan/
#   scripts/test.sh --slow       also run the tests labelled slow
#   scripts/test.sh --slurm      also run the test labelled slurm (installs Debian's
#                                Slurm and munge; starts a private single-node
#                                Slurm as root for the test and stops it)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/build"
cmake_args=()
setup_args=()
excluded=(slow slurm)
for arg in "$@"; do
  case "$arg" in
    --sanitize) dir="$root/build-asan"; cmake_args+=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DMANCALA_SANITIZE=address,undefined -DMANCALA_BUILD_BENCH=OFF) ;;
    --slow) excluded=("${excluded[@]/slow}") ;;
    --slurm) excluded=("${excluded[@]/slurm}"); setup_args+=(--slurm) ;;
    *) echo "test.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done
"$root/scripts/setup.sh" "${setup_args[@]}"
pattern=$(printf '%s\n' "${excluded[@]}" | grep . | paste -sd'|' || true)
ctest_args=()
[ -z "$pattern" ] || ctest_args=(-LE "^($pattern)\$")
"$root/scripts/build.sh" "$dir" "${cmake_args[@]}"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cd "$dir" && ctest --output-on-failure --parallel "$(nproc)" "${ctest_args[@]}"
