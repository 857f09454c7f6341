#!/bin/sh
# The figure of issue 8 for `horizon analyze`: how long annotating a 40-move game takes at
# --movetime 100 on one thread (the requirement: under 10 s), and what share of that time is
# spent in the search. Also checks that the annotated PGN reads back without an error, by
# Horizon and by pgn-extract (when installed).
#
#   scripts/measure/analyze_figure.sh [HORIZON] [GAME.pgn]
#   (defaults: build/release/horizon, tests/data/analyze/game40.pgn: Byrne-Fischer 1956, 41 moves)
#   MOVETIME=5 scripts/measure/analyze_figure.sh   only checks that the script works (the figure
#                                                  is at 100)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
horizon=${1:-$root/build/release/horizon}
game=${2:-$root/tests/data/analyze/game40.pgn}
[ -x "$horizon" ] || { echo "no Horizon binary at $horizon" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

start=$(date +%s.%N)
"$horizon" analyze "$game" --movetime "${MOVETIME:-100}" --threads 1 -o "$work/annotated.pgn" \
    --plot "$work" >"$work/summary" 2>"$work/stderr"
end=$(date +%s.%N)

cat "$work/summary"
# "horizon analyze: 1 games analysed, 0 left out; 83 positions in 8.31 s, 8.20 s (98.7%) of it
#  in the search"
tail -n 1 "$work/stderr"
awk -v s="$start" -v e="$end" \
  'BEGIN { printf "wall clock of the whole command (start-up included): %.2f s\n", e - s }'

if "$horizon" pgn "$work/annotated.pgn" >/dev/null 2>"$work/readback"; then
    echo "read back by horizon pgn: $(tail -n 1 "$work/readback")"
else
    echo "horizon pgn could not read the annotated file:" >&2
    cat "$work/readback" >&2
    exit 1
fi
if command -v pgn-extract >/dev/null 2>&1 || [ -x /usr/games/pgn-extract ]; then
    extract=$(command -v pgn-extract || echo /usr/games/pgn-extract)
    "$extract" -r "$work/annotated.pgn" >"$work/extract" 2>&1 || true
    if grep -q "Line number" "$work/extract"; then
        echo "pgn-extract reports errors:" >&2
        cat "$work/extract" >&2
        exit 1
    fi
    echo "read back by pgn-extract without errors: $(tail -n 1 "$work/extract")"
fi
