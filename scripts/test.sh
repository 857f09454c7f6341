#!/usr/bin/env bash
# Builds and runs the whole test suite: a Release build (PEXT lookups, warnings as errors)
# and an ASan+UBSan build (magic-bitboard lookups).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
for preset in ci ci-sanitize; do
  echo "=== $preset: configure and build"
  cmake --preset "$preset" > /dev/null
  cmake --build --preset "$preset"
  echo "=== $preset: test"
  ctest --preset "$preset"
done
