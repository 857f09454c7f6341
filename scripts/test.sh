#!/usr/bin/env bash
# Checks the house style (scripts/ci/check_format.sh), then builds and runs the whole test
# suite: a Release build (PEXT lookups, warnings as errors); a clang ASan+UBSan build
# (magic-bitboard lookups) that runs the tests and the libFuzzer targets, each target over its
# committed corpus and then briefly on mutated inputs (fuzz/); a ThreadSanitizer build that runs
# the threaded tests (Lazy SMP, the search thread against stop/ponderhit/isready/quit); then the
# distributed binaries: the Windows build under Wine and the portable Linux builds on an
# emulated older processor (scripts/ci/check_portable.sh). After the Release tests, the builds a
# stranger makes from a clean copy of the tree: OpenBench's `make EXE=` and a build without
# Fathom, each benching the Release count (scripts/ci/check_build_routes.sh).
#
# Nothing here needs a file outside the clone: the tablebase tests read tests/data/syzygy. The
# one test that wants the whole 3- and 4-piece set (../shared/syzygy beside the clone) is listed
# by ctest as not run where it is missing, and fails under CI (CI=true), which has it.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage's wall time is printed as it ends, and all of them at the end: where CI's time goes.
stage_start=$SECONDS
stage_times=()
stage_done() {
  stage_times+=("$1: $((SECONDS - stage_start)) s")
  echo "--- $1 took $((SECONDS - stage_start)) s"
  stage_start=$SECONDS
}
scripts/deps.sh
echo "=== house style"
scripts/ci/check_format.sh
stage_done "dependencies and house style"
for preset in ci ci-sanitize ci-tsan; do
  echo "=== $preset: configure and build"
  cmake --preset "$preset" > /dev/null
  cmake --build --preset "$preset"
  stage_done "$preset build"
  echo "=== $preset: test"
  ctest --preset "$preset"
  stage_done "$preset tests"
  if [ "$preset" = ci ]; then
    echo "=== the builds a stranger makes: OpenBench's make on a clean copy, no Fathom"
    scripts/ci/check_build_routes.sh build/ci/horizon
    stage_done "build routes"
  fi
done
scripts/ci/check_portable.sh build/ci/horizon
stage_done "portable builds and their checks"
echo "=== stage times (total $SECONDS s)"
printf '  %s\n' "${stage_times[@]}"
