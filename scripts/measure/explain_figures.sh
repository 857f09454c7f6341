#!/usr/bin/env bash
# The figures of `horizon analyze --explain` and `--puzzles` (docs/analysis.md) on one PGN file:
# the same analysis twice, with --explain off and then with explanations and puzzles; the
# summary lines of both (what the ? and ?? were explained by, how many puzzles), the ratio of
# their times (wall clock and CPU), and the puzzles checked by another engine, deeper.
#
#   scripts/measure/explain_figures.sh [-b HORIZON] [-d DEPTH] [-e ENGINE] [-D CHECK_DEPTH] \
#       GAMES.pgn OUT_DIR
#
#   -b HORIZON      the binary (default build/release/horizon)
#   -d DEPTH        analysis depth (default 9)
#   -e ENGINE       the engine that checks the puzzles (default stockfish, on PATH or /usr/games)
#   -D CHECK_DEPTH  its depth (default 18)
# OUT_DIR gets off.pgn, on.pgn, puzzles.epd, puzzles.pgn, the two runs' summaries and stderr,
# and check.txt.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
horizon=$root/build/release/horizon
depth=9
engine=stockfish
check_depth=18
while getopts "b:d:e:D:" opt; do
  case $opt in
    b) horizon=$OPTARG ;; d) depth=$OPTARG ;; e) engine=$OPTARG ;; D) check_depth=$OPTARG ;;
    *) sed -n '2,14p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || { sed -n '2,14p' "$0"; exit 2; }
games=$1
out=$2
[ -x "$horizon" ] || { echo "no Horizon binary at $horizon" >&2; exit 2; }
mkdir -p "$out"
if ! command -v "$engine" >/dev/null 2>&1 && [ -x "/usr/games/$engine" ]; then
  engine=/usr/games/$engine
fi

# Runs analyze with the given flags; prints "wall cpu" seconds.
timed() {
  local name=$1
  shift
  local start end cpu
  start=$(date +%s.%N)
  /usr/bin/time -o "$out/$name.time" -f "%U %S" "$horizon" analyze "$games" --depth "$depth" \
    --threads 1 "$@" -o "$out/$name.pgn" >"$out/$name.summary" 2>"$out/$name.stderr"
  end=$(date +%s.%N)
  cpu=$(tail -n 1 "$out/$name.time")
  awk -v s="$start" -v e="$end" -v c="$cpu" \
    'BEGIN { split(c, p, " "); printf "%.2f %.2f\n", e - s, p[1] + p[2] }'
}

read -r off_wall off_cpu < <(timed off --explain off)
read -r on_wall on_cpu < <(timed on --puzzles "$out/puzzles")
echo "explain off: $(grep 'games analysed' "$out/off.stderr")"
echo "explain on:  $(grep 'games analysed' "$out/on.stderr")"
grep -E 'explained in|puzzle' "$out/on.stderr" | sed 's/^/             /'
awk -v a="$off_wall" -v b="$off_cpu" -v c="$on_wall" -v d="$on_cpu" 'BEGIN {
  printf "time: off %.1f s wall, %.1f s CPU; on %.1f s wall, %.1f s CPU;", a, b, c, d
  printf " ratio %.2f wall, %.2f CPU\n", c / a, d / b }'
if [ -s "$out/puzzles.epd" ]; then
  python3 "$root/scripts/measure/check_puzzles.py" "$out/puzzles.epd" --engine "$engine" \
    --depth "$check_depth" | tee "$out/check.txt" | tail -n 3
else
  echo "no puzzles written"
fi
