#!/usr/bin/env bash
# The checks of the distributed binaries that scripts/test.sh runs after the unit tests:
#   - the Windows x86-64-v2 build, under Wine: the same `bench` node count as the native build,
#     a scripted UCI session that plays a move, perft 5 of the start position, and uci-bench
#     (the Windows process calls: a child engine through pipes, its memory, the exe's path);
#   - on an emulated Nehalem processor (QEMU; SSE4.2, POPCNT, no AVX2/BMI2): the Linux
#     x86-64-v2 build plays, and the x86-64-v3 build prints its one line and exits with status 1.
#
#   scripts/ci/check_portable.sh [NATIVE_HORIZON]      (default build/ci/horizon)
#
# It builds the presets windows-x86-64-v2, linux-x86-64-v2 and linux-x86-64-v3 itself, at -O1
# and without LTO (what is checked is the instruction level and the platform, not the speed; -O3
# and LTO only make the build slower: a quarter more time for -O3), in build/check-<preset>,
# apart from the release files of scripts/ci/dist.sh.
# The time limits only catch hangs: Wine's first start in a new prefix can take minutes.
set -euo pipefail
# A command that fails outside a check stops the script: say where, on standard output with the
# rest, so a CI log shows it.
trap 'echo "check_portable.sh: stopped at line $LINENO (exit status $?)"' ERR
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
native=${1:-build/ci/horizon}
[ -x "$native" ] || { echo "check_portable.sh: no native build at $native" >&2; exit 2; }
wine_exe=build/check-windows-x86-64-v2/horizon.exe
wine_cmd=(scripts/ci/wine.sh "$wine_exe")
emulated=(qemu-x86_64 -cpu Nehalem)
failures=0

pass() { echo "  ok: $*"; }
fail() { echo "  FAILED: $*"; failures=$((failures + 1)); }

for preset in windows-x86-64-v2 linux-x86-64-v2 linux-x86-64-v3; do
  echo "=== $preset: configure and build"
  cmake --preset "$preset" -B "build/check-$preset" -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=OFF \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" > /dev/null
  cmake --build "build/check-$preset" --target horizon -j 2
done

# figure KEY: the number after "KEY: " on standard input (CR LF or LF lines)
# (reading all of it: a writer cut off early would fail the pipeline)
figure() { tr -d '\r' | awk -v key="$1" 'index($0, key ": ") == 1 && !n++ { print $NF }'; }

# uci_session WHAT DEPTH COMMAND...: uci, isready, a position, go depth DEPTH, waits for the
# bestmove, quit; the engine must answer each and exit with status 0 (scripts/ci/uci_session.py).
uci_session() {
  local what=$1 depth=$2 out status=0
  shift 2
  out=$(python3 scripts/ci/uci_session.py --depth "$depth" "$@") || status=$?
  if [ $status = 0 ]; then pass "$what: $out"; else fail "$what: $out"; fi
}

echo "=== Windows x86-64-v2 under Wine"
expected=$("$native" bench 2> /dev/null | figure "Nodes searched")
got=$(timeout 900 "${wine_cmd[@]}" bench 2> /dev/null | figure "Nodes searched" || true)
if [ -n "$expected" ] && [ "$got" = "$expected" ]; then
  pass "bench: $got nodes, as the native build"
else
  fail "bench: '$got' nodes, the native build '$expected'"
fi
uci_session "windows-x86-64-v2 under Wine" 8 timeout 1200 "${wine_cmd[@]}"
got=$(timeout 900 "${wine_cmd[@]}" perft --depth 5 2> /dev/null | figure "Nodes searched" || true)
[ "$got" = 4865609 ] && pass "perft --depth 5: $got" || fail "perft --depth 5: '$got', not 4865609"
# uci-bench starts the engine itself (its own path) and talks to it through pipes.
if out=$(timeout 900 "${wine_cmd[@]}" uci-bench --runs 1 --movetime 200 2>&1 | tr -d '\r'); then
  pass "uci-bench: start-up, isready, stop, movetime, memory, Hash; no response missing"
else
  fail "uci-bench under Wine:"$'\n'"$out"
fi

# Syzygy tables in a folder whose path has a space, handed over as Windows writes paths.
tb_dir="$(mktemp -d)/horizon tables"
mkdir -p "$tb_dir"
cp "$(dirname "$0")"/../../tests/data/syzygy/*.rtb[wz] "$tb_dir"/
# The Windows form of the path by Wine's drive Z:, which every prefix maps to / (winepath would
# start a prefix of its own, the user's default, which a clean machine does not have: it failed
# there and stopped this script).
win_tb="Z:${tb_dir//\//\\}"
krk="8/8/8/8/8/k7/2R5/4K3 w - - 0 1"
expected=$("$native" tbprobe --syzygy-path "$tb_dir" "$krk" 2> /dev/null)
got=$(timeout 300 "${wine_cmd[@]}" tbprobe --syzygy-path "$win_tb" "$krk" 2> /dev/null |
  tr -d '\r' || true)
said=$(printf 'setoption name SyzygyPath value %s\nquit\n' "$win_tb" |
  timeout 300 "${wine_cmd[@]}" 2> /dev/null | tr -d '\r' | grep -m1 "Syzygy" || true)
if [ -n "$expected" ] && [ "$got" = "$expected" ] &&
  [[ $said == *"found 14 WDL and 3 DTZ"* ]]; then
  pass "Syzygy tables in '$win_tb': '$got', '$said'"
else
  fail "Syzygy tables under Wine in '$win_tb': '$got' (native '$expected'), '$said'"
fi
rm -rf "$(dirname "$tb_dir")"

echo "=== Linux builds on an emulated Nehalem (QEMU)"
uci_session "linux-x86-64-v2 on Nehalem" 8 timeout 1200 "${emulated[@]}" \
  build/check-linux-x86-64-v2/horizon
status=0
v3=build/check-linux-x86-64-v3/horizon
out=$(timeout 300 "${emulated[@]}" "$v3" < /dev/null 2>&1) || status=$?
lines=$(printf '%s\n' "$out" | grep -c . || true)
if [ "$status" = 1 ] && [ "$lines" = 1 ] && [[ $out == *"needs BMI2 (x86-64-v3)"* ]] &&
  [[ $out == *"-linux-x86-64-v2 instead"* ]]; then
  pass "linux-x86-64-v3 on Nehalem: exit status 1, '$out'"
else
  fail "linux-x86-64-v3 on Nehalem: exit status $status (1 wanted, no signal), output: '$out'"
fi

if [ "$failures" -gt 0 ]; then
  echo "check_portable.sh: $failures check(s) failed"
  exit 1
fi
echo "check_portable.sh: all passed"
