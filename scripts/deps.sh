#!/usr/bin/env bash
# Installs the Debian packages Horizon builds with, when any is missing, and Fathom's source
# (scripts/ci/fathom_source.sh). Runs apt-get as root, or through sudo when not root.
set -euo pipefail
packages=(g++ make cmake catch2 libcxxopts-dev nlohmann-json3-dev
          # Syzygy tables in dynamic builds without .deps/fathom (OpenBench's `make`, a plain
          # CMake build): Debian's Fathom library; the static builds compile its source
          libfathom-dev
          # the house style check (scripts/ci/check_format.sh)
          clang-format
          # the fuzz targets (fuzz/, scripts/ci/fuzz.sh): clang with LLVM's libFuzzer
          clang-15 libfuzzer-15-dev
          # scripts/ci/pgn_agreement.sh compares Horizon's PGN reading with pgn-extract's
          pgn-extract
          # the tablebase tests: Stockfish's own Syzygy reader and Fathom's command-line
          # prober check Horizon's probes (Fathom's library itself is built from source)
          stockfish fathom
          # the Windows and portable builds (scripts/ci/dist.sh) and their checks (scripts/test.sh):
          # the MinGW-w64 cross compiler, Wine to run its .exe, QEMU to emulate an older CPU
          g++-mingw-w64-x86-64-posix wine wine64 qemu-user)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  echo "Installing: ${missing[*]}"
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}"
fi
"$(dirname "$0")/ci/fathom_source.sh"
