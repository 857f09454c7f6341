#!/usr/bin/env bash
# Checks the house style (scripts/check_format.sh), then builds and runs the whole test
# suite: a Release build (PEXT lookups, warnings as errors), an ASan+UBSan build
# (magic-bitboard lookups), and a ThreadSanitizer build that runs the threaded tests (Lazy
# SMP, the search thread against stop/ponderhit/isready/quit); the libFuzzer targets (clang,
# ASan + UBSan), each over its committed corpus and then briefly on mutated inputs (fuzz/); then
# the distributed binaries: the Windows build under Wine and the portable Linux builds on an
# emulated older processor (scripts/check_portable.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
echo "=== house style"
scripts/check_format.sh
for preset in ci ci-sanitize ci-tsan fuzz; do
  echo "=== $preset: configure and build"
  cmake --preset "$preset" > /dev/null
  cmake --build --preset "$preset"
  echo "=== $preset: test"
  ctest --preset "$preset"
done
scripts/check_portable.sh build/ci/horizon
