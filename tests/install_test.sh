#!/usr/bin/env bash
# cmake --install into a temporary prefix, then build and run a consumer
# project that finds the toolkit with find_package(mancala), a C program
# with pkg-config, and (when a Python interpreter is given) the installed
# Python module.
#   install_test.sh BUILD_DIR SOURCE_DIR [PYTHON]
set -euo pipefail
build_dir=$1
source_dir=$2
python=${3:-}
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

# The C interface (tables/capi): the header, libmancala.so exporting the C
# functions only, mancala.pc, and a C89 program compiled with a plain `cc`
# and pkg-config's flags, whose answers must be `mancala probe`'s.
mancala="$build_dir/bin/mancala"
prefix="$work/prefix"
[ -f "$prefix/include/mancala/probe.h" ] || { echo "the prefix's include/ has no mancala/probe.h"; exit 1; }
pc=$(find "$prefix" -path '*/pkgconfig/mancala.pc' | head -n 1)
[ -n "$pc" ] || { echo "no pkgconfig/mancala.pc in the prefix"; exit 1; }
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
libdir=$(pkg-config --variable=libdir mancala)
ls "$libdir"/libmancala.so "$libdir"/libmancala.so.* "$libdir"/libmancala.a >/dev/null ||
  { echo "libmancala.so (and its versioned names) or libmancala.a missing in $libdir"; exit 1; }
exported=$(nm -D --defined-only "$libdir/libmancala.so" | awk '{print $NF}')
echo "$exported" | grep -q '^mancala_probe$' || { echo "libmancala.so does not export mancala_probe"; exit 1; }
if echo "$exported" | grep -v '^mancala_' | grep -q .; then
  echo "libmancala.so exports more than the C interface:"; echo "$exported" | grep -v '^mancala_' | head; exit 1
fi
# shellcheck disable=SC2046  # pkg-config's flags are words
cc -std=c89 -pedantic -Wall -Wextra -Werror -o "$work/consumer_c" "$source_dir/tests/install_consumer_c/consumer.c" \
  $(pkg-config --cflags --libs mancala) -Wl,-rpath,"$libdir"

tables="$work/tables"
"$mancala" build --game kalah --pits 3 --max-seeds 8 --out "$tables" --quiet >/dev/null
# What `mancala probe --json` says of a position, in the consumer's words.
expected_of() {
  "$mancala" probe --tables "$tables" --position "$1" --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
print("value %d best %d" % (j["value"], j["best_move"] or 0))
print("moves" + "".join(" %d:%d" % (m["move"], m["value"]) for m in j["moves"]))'
}
version=$(pkg-config --modversion mancala)
positions=("2,1,1/1,0,2 1-3 n" "1,2,0/1,1,1 2-1 s" "0,3,3/2,0,0 4-0 n" "0,0,0/2,1,0 5-1 s" "1,1,1/1,1,1 0-0 s")
for p in "${positions[@]}"; do
  out=$("$work/consumer_c" "$tables" "$p")
  cli=$(expected_of "$p")
  want="${cli%%$'\n'*}
ruleset kalah pits 3 seeds 8 version $version
${cli#*$'\n'}"
  [ "$out" = "$want" ] || { printf 'consumer.c on "%s" printed\n%s\nexpected\n%s\n' "$p" "$out" "$want"; exit 1; }
done
echo "consumer.c (pkg-config): ${out%%$'\n'*} on \"$p\""
# Refusals reach the C program as messages, not crashes.
if "$work/consumer_c" "$tables" "1,1,1,1/1,1,1,1 0-0 s" 2>"$work/err"; then echo "a 4-pit position was probed"; exit 1; fi
grep -q "pits" "$work/err" || { echo "unexpected refusal: $(cat "$work/err")"; exit 1; }
if "$work/consumer_c" "$work/no-such-dir" "1,1,1/1,1,1 0-0 s" 2>"$work/err"; then echo "a missing directory was opened"; exit 1; fi

# The same C program built by CMake against mancala::c and mancala::c_static.
cmake -S "$source_dir/tests/install_consumer_c" -B "$work/consumer_c_cmake" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/consumer_c_cmake" >/dev/null
p="2,1,1/1,0,2 1-3 n"
want=$("$work/consumer_c" "$tables" "$p")
for kind in shared static; do
  out=$("$work/consumer_c_cmake/consumer_$kind" "$tables" "$p")
  [ "$out" = "$want" ] || { printf 'consumer_%s printed\n%s\nexpected\n%s\n' "$kind" "$out" "$want"; exit 1; }
done
if grep -q 'libmancala\.so' <<<"$(readelf -d "$work/consumer_c_cmake/consumer_static")"; then
  echo "consumer_static needs libmancala.so"; exit 1
fi

# The Python module from the prefix (Debian's layout, lib/python3/dist-packages),
# run away from the build tree: its values must be the command line's, and
# the man page and bash completion must be installed beside it.
[ -f "$prefix/share/bash-completion/completions/mancala" ] || { echo "no bash completion in the prefix"; exit 1; }
if [ -f "$build_dir/man/mancala.1" ]; then
  [ -f "$(find "$prefix" -path '*/man1/mancala.1' | head -n 1)" ] || { echo "no man page in the prefix"; exit 1; }
fi
if [ -n "$python" ]; then
  module_dir="$prefix/lib/python3/dist-packages"
  ls "$module_dir"/mancala*.so >/dev/null || { echo "no Python module in $module_dir"; exit 1; }
  py_out=$(cd "$work" && PYTHONPATH="$module_dir" "$python" -c '
import sys, mancala
state = mancala.Game("kalah", pits=3, seeds=2).new_initial_state()
state.apply_action(0)
tables = mancala.Tables(sys.argv[1])
print(state, mancala.solve(state, tt_mb=4).value, tables.probe("2,1,1/1,0,2 1-3 n").value, mancala.__version__)' "$tables")
  probe_value=$("$mancala" probe --tables "$tables" --position "2,1,1/1,0,2 1-3 n" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')
  [ "$py_out" = "0,3,3/2,2,2 0-0 n $expected $probe_value $version" ] ||
    { echo "the installed Python module printed '$py_out', expected '0,3,3/2,2,2 0-0 n $expected $probe_value $version'"; exit 1; }
  echo "Python module (installed): $py_out"
fi

# mancala.pc finds its prefix from its own place: a moved prefix still works.
mv "$prefix" "$work/moved"
pc=$(find "$work/moved" -path '*/pkgconfig/mancala.pc' | head -n 1)
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
libdir=$(pkg-config --variable=libdir mancala)
# shellcheck disable=SC2046
cc -std=c89 -pedantic -Wall -Wextra -Werror -o "$work/consumer_moved" "$source_dir/tests/install_consumer_c/consumer.c" \
  $(pkg-config --cflags --libs mancala) -Wl,-rpath,"$libdir"
[ "$("$work/consumer_moved" "$tables" "$p")" = "$want" ] || { echo "the consumer built against a moved prefix differs"; exit 1; }
echo "C interface: header, pkg-config, libmancala.so (exports mancala_* only), libmancala.a: ok"
