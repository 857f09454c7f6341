#!/usr/bin/env bash
# The builds a stranger makes, from a clean copy of the tree (tracked files only: no .deps, no
# build folders), each checked against a reference binary's `bench` node count:
#   1. OpenBench's way, `make EXE=horizon-ob CXX=g++`: Fathom from Debian's libfathom-dev when it
#      is installed (scripts/deps.sh installs it), else no tablebase support;
#   2. Fathom absent, `-DHORIZON_FATHOM=OFF` (unoptimised, the cheapest build that benches): it
#      must bench the same and answer `setoption name SyzygyPath` with an info string saying
#      the build has no tablebase support.
# Each build benches twice (the same count both times). Prints a line per check; exits 1 on any
# failure.
#
#   scripts/ci/check_build_routes.sh build/ci/horizon
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ref=${1:?usage: scripts/ci/check_build_routes.sh REFERENCE_BINARY}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
pass() { echo "ok: $1"; }
fail() {
  echo "FAILED: $1"
  failed=1
}
bench_nodes() { "$1" bench 2> /dev/null | tail -1 | awk '$2 == "nodes" { print $1 }'; }

expected=$(bench_nodes "$ref")
[ -n "$expected" ] || { echo "check_build_routes: no bench count from $ref" >&2; exit 1; }
echo "reference: $ref benches $expected nodes"

# The tree as a clone has it (the files git knows, and new ones not ignored).
mkdir "$work/tree"
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
  tar --null -T - --ignore-failed-read -cf - 2> /dev/null) | tar -xf - -C "$work/tree"
[ ! -e "$work/tree/.deps" ] || { echo "check_build_routes: .deps was copied" >&2; exit 1; }

check_binary() { # NAME BINARY
  local a b
  a=$(bench_nodes "$2")
  b=$(bench_nodes "$2")
  if [ "$a" = "$expected" ] && [ "$b" = "$expected" ]; then
    pass "$1: bench $a nodes, twice"
  else
    fail "$1: bench '$a' then '$b', not $expected"
  fi
}

start=$SECONDS
if (cd "$work/tree" && make EXE=horizon-ob CXX=g++ > "$work/make.log" 2>&1); then
  route=$(grep -m1 -o "Syzygy tablebases: .*" "$work/make.log" || true)
  pass "make EXE=horizon-ob CXX=g++ in $((SECONDS - start)) s (${route:-no route said})"
  check_binary "make EXE=horizon-ob" "$work/tree/horizon-ob"
else
  tail -20 "$work/make.log"
  fail "make EXE=horizon-ob CXX=g++ on a clean copy"
fi

start=$SECONDS
off="$work/tree/build/no-fathom"
if cmake -S "$work/tree" -B "$off" -DHORIZON_FATHOM=OFF -DHORIZON_TESTS=OFF \
  -DCMAKE_BUILD_TYPE= > "$work/off.log" 2>&1 &&
  cmake --build "$off" --target horizon -j 2 >> "$work/off.log" 2>&1; then
  pass "HORIZON_FATHOM=OFF builds in $((SECONDS - start)) s"
  grep -q "this build has no Syzygy tablebase support" "$work/off.log" &&
    pass "configure says the build has no tablebase support" ||
    fail "configure did not say the build has no tablebase support"
  check_binary "HORIZON_FATHOM=OFF" "$off/horizon"
  said=$(printf 'setoption name SyzygyPath value %s\nquit\n' "$root/tests/data/syzygy" |
    "$off/horizon" | grep -m1 "Syzygy" || true)
  [[ $said == "info string "*"this build has no Syzygy tablebase support"* ]] &&
    pass "SyzygyPath: '$said'" || fail "SyzygyPath answered '$said'"
else
  tail -20 "$work/off.log"
  fail "the build with HORIZON_FATHOM=OFF"
fi
exit $failed
