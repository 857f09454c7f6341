#!/usr/bin/env bash
# Games that the Debian engines play among themselves, as training data for the evaluation
# (horizon datagen --from-pgn): a fastchess round robin, resumable.
#
#   scripts/match/engine_games.sh -d OUT_DIR [-n GAMES] [-t TC | -N NODES] [-c CONC] [-e ENGINES]
#
# -e: comma-separated names of scripts/match/opponents.sh (default ethereal,sfclassical,toga2):
#     every pair plays, both colours of each opening (random8-balanced), GAMES in all (default 2000,
#     rounded up to whole rounds). -t: time control (default 2+0.02); -N: nodes a move instead.
# -c: concurrent games (default 2: one per core). Run the same command again after a stop: it
# goes on from OUT_DIR/fastchess-state.json. Games: OUT_DIR/games.pgn; then
#   build/release/horizon datagen --from-pgn OUT_DIR/games.pgn --out FILE
# fastchess is $FASTCHESS, else on PATH, else a usual place (scripts/match/opponents.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=""
games=2000
tc=2+0.02
nodes=""
conc=2
engines=ethereal,sfclassical,toga2
while getopts "d:n:t:N:c:e:" opt; do
  case $opt in
    d) out=$OPTARG ;; n) games=$OPTARG ;; t) tc=$OPTARG ;; N) nodes=$OPTARG ;;
    c) conc=$OPTARG ;; e) engines=$OPTARG ;;
    *) sed -n '2,13p' "$0"; exit 2 ;;
  esac
done
[ -n "$out" ] || { sed -n '2,13p' "$0"; exit 2; }
# shellcheck source=opponents.sh
. "$root/scripts/match/opponents.sh"
find_fastchess || exit 2
fastchess=$FASTCHESS_BIN
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$out"
if [ -f "$out/fastchess-state.json" ]; then
  "$fastchess" -config file="$out/fastchess-state.json" >> "$out/fastchess.out" 2>&1 || true
else
  args=()
  IFS=, read -ra names <<< "$engines"
  [ "${#names[@]}" -ge 2 ] || { echo "engine_games: name two engines or more" >&2; exit 2; }
  for name in "${names[@]}"; do
    debian_engine "$name" || { echo "engine_games: unknown engine $name" >&2; exit 2; }
    args+=(-engine "${ENGINE_ARGS[@]}")
  done
  pairs=$(( ${#names[@]} * (${#names[@]} - 1) / 2 ))
  rounds=$(( (games + 2 * pairs - 1) / (2 * pairs) ))
  limit=(tc="$tc")
  [ -n "$nodes" ] && limit=(tc=inf nodes="$nodes")
  "$fastchess" "${args[@]}" -each "${limit[@]}" \
    -openings file="$root/../shared/openings/random8-balanced.epd" format=epd order=random \
    -rounds "$rounds" -games 2 -repeat -concurrency "$conc" -recover \
    -config outname="$out/fastchess-state.json" \
    -pgnout file="$out/games.pgn" > "$out/fastchess.out" 2>&1 || true
fi
grep -A20 "Results of\|Rank" "$out/fastchess.out" | tail -8 || true
echo "games in $out/games.pgn: $(grep -c '^\[Result ' "$out/games.pgn" || echo 0)"
