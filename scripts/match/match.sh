#!/usr/bin/env bash
# Plays a fastchess match of Horizon against a Debian engine and summarises what went wrong.
#
#   scripts/match/match.sh [-e HORIZON_BIN] [-o OPPONENT] [-n GAMES] [-t TC] [-d OUT_DIR] [-c CONC]
#                          [-u NAME=VALUE]... [-x "FASTCHESS ARGS"]
#
# -u: a UCI option for Horizon alone (repeatable), e.g. -u SyzygyPath=/path/to/syzygy against
#     -o horizon:<the same binary> for tables against no tables.
# -r: only summarise the games already in OUT_DIR (no new games). A match stopped part way goes
#     on from OUT_DIR/fastchess-state.json when run again with the same OUT_DIR. The state is
#     saved every 2 games, and the games finished after the last save are played again.
# OPPONENT: sf<ELO> (Stockfish with UCI_LimitStrength, e.g. sf1350), stockfish, sfclassical
#           (Stockfish on its hand-crafted evaluation, Use NNUE false), glaurung, toga2,
#           gnuchess, ethereal, or horizon:<path> (another Horizon build, for SPRT-less A/B).
# fastchess is looked up as $FASTCHESS, then on PATH, then in the usual places that
# scripts/match/opponents.sh names; it is built outside this repository (docs/measuring.md,
# "Matches").
# Prints the fastchess result and counts of illegal moves, time forfeits, disconnects/stalls
# and fastchess warnings about either engine; exits 1 if Horizon had any of those.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$root/build/release/horizon"
opponent=sf1350
games=20
tc=5+0.05
conc=2
out=""
extra=()
mine=()
report_only=0
while getopts "e:o:n:t:d:c:x:u:r" opt; do
  case $opt in
    e) bin=$OPTARG ;; o) opponent=$OPTARG ;; n) games=$OPTARG ;; t) tc=$OPTARG ;;
    d) out=$OPTARG ;; c) conc=$OPTARG ;; x) extra+=($OPTARG) ;; r) report_only=1 ;;
    u) mine+=("option.$OPTARG") ;;
    *) sed -n '2,18p' "$0"; exit 2 ;;
  esac
done
# shellcheck source=opponents.sh
. "$root/scripts/match/opponents.sh"
find_fastchess || exit 2
fastchess=$FASTCHESS_BIN
out=${out:-$(mktemp -d /tmp/horizon-match.XXXXXX)}
mkdir -p "$out"
resuming=0
[ -f "$out/fastchess-state.json" ] && resuming=1
if [ "$report_only" = 0 ] && [ "$resuming" = 0 ]; then
  [ -x "$bin" ] || { echo "Horizon binary $bin not found; build it first" >&2; exit 2; }
  # Copy the binary so a rebuild during the match cannot touch it.
  cp "$bin" "$out/horizon"
fi
openings="$root/../shared/openings/random8-balanced.epd"

case $opponent in
  horizon:*) [ "$resuming" = 1 ] || cp "${opponent#horizon:}" "$out/horizon-base"
             opp=(cmd="$out/horizon-base" name=Horizon-base) ;;
  *) debian_engine "$opponent" || { echo "unknown opponent $opponent" >&2; exit 2; }
     opp=("${ENGINE_ARGS[@]}") ;;
esac

rounds=$(( (games + 1) / 2 ))
rc=0
if [ "$report_only" = 0 ]; then
set +e
cd "$out"
if [ "$resuming" = 1 ]; then
  # A match that was stopped goes on where it was, with the binaries already in OUT_DIR.
  "$fastchess" -config file="$out/fastchess-state.json" >> "$out/fastchess.out" 2>&1
else
  "$fastchess" -engine cmd="$out/horizon" name=Horizon option.Hash=16 option.Threads=1 \
    "${mine[@]}" \
    -engine "${opp[@]}" \
    -each tc="$tc" \
    -openings file="$openings" format=epd order=random \
    -rounds "$rounds" -repeat -concurrency "$conc" -recover \
    -config outname="$out/fastchess-state.json" -autosaveinterval 2 \
    -pgnout file="$out/games.pgn" \
    -log file="$out/fastchess.log" level=warn engine=true \
    "${extra[@]}" > "$out/fastchess.out" 2>&1
fi
rc=$?
set -e
fi
grep -E "Results of|Elo:|LOS|Games:|Ptnml" "$out/fastchess.out" | tail -5 || true
# Attribute each abnormal ending to the engine that caused it (the side named in the comment).
read -r illegal forfeit opp_forfeit stall < <(awk '
  /^\[White "/ { white = $0 } /^\[Black "/ { black = $0 }
  /loses on time|illegal move|disconnect|stall/ {
    side = ($0 ~ /White (loses|makes|disconnects|stalls)/) ? white : black
    mine = (side ~ /"Horizon"/)
    if ($0 ~ /illegal move/ && mine) ill++
    else if ($0 ~ /loses on time/) { if (mine) tf++; else otf++ }
    else if (mine) st++
  }
  END { print ill+0, tf+0, otf+0, st+0 }' "$out/games.pgn")
warnings=$(grep -i "warn" "$out/fastchess.out" "$out/fastchess.log" 2>/dev/null |
  grep -ci "from Horizon" || true)
echo "fastchess exit $rc"
# The games and the score: a resumed match plays again the games finished after fastchess's
# last save, and pgn_score.py counts each round and colour once, the later game.
python3 "$root/scripts/match/pgn_score.py" "$out/games.pgn" Horizon || true
echo "Horizon: illegal moves: $illegal, time forfeits: $forfeit, disconnects/stalls: $stall," \
  "fastchess warnings: $warnings"
echo "opponent time forfeits: $opp_forfeit"
echo "details: $out"
[ "$illegal$forfeit$stall$warnings" = "0000" ]
