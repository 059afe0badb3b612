#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (ASan + UBSan, in
# build-fuzz/) and runs each for a bounded time (README.md, "Fuzzing").
#   scripts/fuzz.sh                      every target, 20 s each
#   scripts/fuzz.sh --time S             S seconds each
#   scripts/fuzz.sh --target NAME        only that target (repeatable): position, table_file, batch_manifest, move_order
#   scripts/fuzz.sh --artifacts DIR      where crash inputs go (default build-fuzz/artifacts),
#                                        one subdirectory per target
# Seeds come from tests/fuzz/corpus/<target>/ (read only); what a run finds
# new is kept in build-fuzz/corpus/<target>/, so later runs start from it.
# Exits 1 when a target crashed, hung (over 5 s on one input), ran out of
# memory or leaked; the log's tail is printed and the input is in the
# artifacts directory.  Reproduce: build-fuzz/tests/fuzz/fuzz_<target> FILE
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/build-fuzz"
seconds=20
artifacts="$dir/artifacts"
targets=()
all_targets=(position table_file batch_manifest move_order)
while [ $# -gt 0 ]; do
  case "$1" in
    --time) seconds=${2:?--time needs seconds}; shift 2 ;;
    --target) targets+=("${2:?--target needs a name}"); shift 2 ;;
    --artifacts) artifacts=${2:?--artifacts needs a directory}; shift 2 ;;
    *) echo "fuzz.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
case "$seconds" in
  ''|*[!0-9]*) echo "fuzz.sh: --time wants whole seconds, got '$seconds'" >&2; exit 2 ;;
esac
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $t "* ]] || { echo "fuzz.sh: unknown target '$t' (${all_targets[*]})" >&2; exit 2; }
done

"$root/scripts/setup.sh" --fuzz

# Only the libraries the targets link (engine, tables) and the targets are
# built; the tests, benchmarks and MPI are left out of this build.
if [ ! -f "$dir/CMakeCache.txt" ]; then
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  CC=clang CXX=clang++ cmake -S "$root" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DMANCALA_FUZZ=ON -DMANCALA_BUILD_TESTS=OFF -DMANCALA_BUILD_BENCH=OFF -DMANCALA_MPI=OFF >/dev/null
fi
build_targets=()
for t in "${targets[@]}"; do build_targets+=("fuzz_$t"); done
cmake --build "$dir" --parallel "$(nproc)" --target "${build_targets[@]}" >&2

# Symbolized stack traces in the reports.
for s in /usr/lib/llvm-14/bin/llvm-symbolizer "$(command -v llvm-symbolizer || true)"; do
  if [ -x "$s" ]; then export ASAN_SYMBOLIZER_PATH="$s"; break; fi
done
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

failed=()
for t in "${targets[@]}"; do
  corpus="$dir/corpus/$t"
  out="$artifacts/$t"
  log="$dir/fuzz_$t.log"
  mkdir -p "$corpus" "$out"
  stamp=$(mktemp)
  echo "fuzz: $t for ${seconds} s (log $log)" >&2
  # -timeout: one input taking over 5 s is a hang; -rss_limit_mb also caps
  # a single allocation (malloc_limit_mb defaults to it).  The first corpus
  # directory is where new inputs are written.
  rc=0
  "$dir/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=4096 \
    -dict="$root/tests/fuzz/$t.dict" -artifact_prefix="$out/" -print_final_stats=1 \
    "$corpus" "$root/tests/fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
  found=$(find "$out" -type f -newer "$stamp" | sort)
  rm -f "$stamp"
  if [ "$rc" -ne 0 ] || [ -n "$found" ]; then
    echo "fuzz: $t FAILED (exit status $rc); its report:" >&2
    # From the first sanitizer, libFuzzer or FUZZ_CHECK report on.
    first=$(grep -n -m1 -E 'runtime error:|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|fuzz check failed' "$log" | cut -d: -f1 || true)
    if [ -n "$first" ]; then sed -n "${first},$((first + 80))p" "$log" >&2; else tail -n 80 "$log" >&2; fi
    [ -z "$found" ] || printf 'fuzz: input saved: %s\n' $found >&2
    failed+=("$t")
  else
    # libFuzzer's closing statistics: runs, speed, corpus.
    grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added|stat::peak_rss_mb)' "$log" |
      sed "s/^/fuzz: $t /" >&2 || true
    grep -E '^#[0-9]+.*DONE' "$log" | tail -n 1 | sed "s/^/fuzz: $t /" >&2 || true
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: ${#targets[@]} targets, failed: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets ran ${seconds} s each, no crash" >&2
