#!/usr/bin/env bash
# Makes the PGN file that the parse figure is measured on: GAMES games (default 10,000),
# the games of the match PGNs repeated until there are enough. The file is not committed.
#
#   scripts/measure/make_pgn_bench.sh [-n GAMES] [-o OUT] [SOURCE.pgn ...]
#   build/release/horizon pgn OUT --stats --runs 3 [--moves-only]
#
# Sources default to ../matches/*/games.pgn beside the repository (fastchess output).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
games=10000
out="$root/build/pgn-bench-$games.pgn"
out_given=0
while getopts "n:o:" opt; do
  case "$opt" in
    n) games="$OPTARG" ;;
    o) out="$OPTARG"; out_given=1 ;;
    *) echo "usage: $0 [-n GAMES] [-o OUT] [SOURCE.pgn ...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [[ $out_given == 0 ]]; then out="$root/build/pgn-bench-$games.pgn"; fi
if [[ $# -eq 0 ]]; then
  shopt -s nullglob
  set -- "$root"/../matches/*/games.pgn
fi
if [[ $# -eq 0 ]]; then
  echo "$0: no source PGN files (none in ../matches/*/games.pgn; give some)" >&2
  exit 2
fi
if ! [[ "$games" =~ ^[1-9][0-9]*$ ]]; then
  echo "$0: -n needs a positive number of games" >&2
  exit 2
fi
if ! grep -q '^\[Event ' "$@"; then
  echo "$0: the sources hold no games" >&2
  exit 2
fi
mkdir -p "$(dirname "$out")"
# Every game starts at its [Event tag; copies of the sources follow each other until the
# count is reached.
awk -v want="$games" '
  BEGIN {
    n = 0
    while (n < want) {
      for (i = 1; i < ARGC && n <= want; ++i) {
        while ((getline line < ARGV[i]) > 0) {
          if (line ~ /^\[Event /) { if (++n > want) break }
          print line
        }
        close(ARGV[i])
      }
    }
  }' "$@" > "$out"
echo "$out: $(grep -c '^\[Event ' "$out") games, $(wc -c < "$out") bytes"
