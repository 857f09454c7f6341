#!/usr/bin/env bash
# Checks the house style (scripts/check_format.sh), then builds and runs the whole test
# suite: a Release build (PEXT lookups, warnings as errors); a clang ASan+UBSan build
# (magic-bitboard lookups) that runs the tests and the libFuzzer targets, each target over its
# committed corpus and then briefly on mutated inputs (fuzz/); a ThreadSanitizer build that runs
# the threaded tests (Lazy SMP, the search thread against stop/ponderhit/isready/quit); then the
# distributed binaries: the Windows build under Wine and the portable Linux builds on an
# emulated older processor (scripts/check_portable.sh).
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
scripts/check_format.sh
stage_done "dependencies and house style"
for preset in ci ci-sanitize ci-tsan; do
  echo "=== $preset: configure and build"
  cmake --preset "$preset" > /dev/null
  cmake --build --preset "$preset"
  stage_done "$preset build"
  echo "=== $preset: test"
  ctest --preset "$preset"
  stage_done "$preset tests"
done
scripts/check_portable.sh build/ci/horizon
stage_done "portable builds and their checks"
echo "=== stage times (total $SECONDS s)"
printf '  %s\n' "${stage_times[@]}"
