#!/usr/bin/env bash
# Games with mistakes in them, for the figures of `horizon analyze --explain` and `--puzzles`:
# Horizon against itself with UCI_LimitStrength at UCI_Elo 1350, 1500 and 1700 (a round robin,
# each pairing with both colours from each opening), 40 ms a move, at most 80 moves a side,
# openings drawn in order from the shared book. Resumable: run it again with the same folder.
#
#   scripts/measure/weak_games.sh [-n GAMES] [-b HORIZON] [-p BOOK] [-s START] [-c CONC] DIR
#
#   -n GAMES   about this many games (a multiple of 6; default 162)
#   -b HORIZON the binary (default build/release/horizon)
#   -p BOOK    openings, EPD (default ../shared/openings/random8-balanced.epd beside the checkout)
#   -s START   the book's line to start from (default 1: another run takes other openings)
#   -c CONC    concurrent games (default 1)
# Writes DIR/games.pgn (SAN) and DIR/fastchess.out.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
games=162
horizon=$root/build/release/horizon
book=$root/../shared/openings/random8-balanced.epd
conc=1
start=1
while getopts "n:b:p:s:c:" opt; do
  case $opt in
    n) games=$OPTARG ;; b) horizon=$OPTARG ;; p) book=$OPTARG ;; s) start=$OPTARG ;;
    c) conc=$OPTARG ;;
    *) sed -n '2,14p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { sed -n '2,14p' "$0"; exit 2; }
out=$1
[ -x "$horizon" ] || { echo "no Horizon binary at $horizon" >&2; exit 2; }
[ -f "$book" ] || { echo "no opening book at $book (give one with -p)" >&2; exit 2; }
# shellcheck source=../match/opponents.sh
. "$root/scripts/match/opponents.sh"
find_fastchess || exit 2
mkdir -p "$out"
state=$out/fastchess-state.json
if [ -f "$state" ]; then
  exec "$FASTCHESS_BIN" -config file="$state" >>"$out/fastchess.out" 2>&1
fi
engines=()
for elo in 1350 1500 1700; do
  engines+=(-engine cmd="$horizon" name="Horizon $elo" option.UCI_LimitStrength=true
            option.UCI_Elo=$elo)
done
# Three pairings of two games (colours swapped) a round.
"$FASTCHESS_BIN" "${engines[@]}" \
  -each proto=uci tc=inf st=0.04 option.Threads=1 option.Hash=16 \
  -openings file="$book" format=epd order=sequential start="$start" \
  -rounds $(((games + 5) / 6)) -games 2 -repeat -concurrency "$conc" -maxmoves 80 \
  -pgnout file="$out/games.pgn" notation=san \
  -config outname="$state" -autosaveinterval 2 >"$out/fastchess.out" 2>&1
echo "$(grep -c '^\[Result' "$out/games.pgn") games in $out/games.pgn"
