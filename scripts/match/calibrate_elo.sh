#!/usr/bin/env bash
# Measures Horizon's UCI_Elo scale: Horizon with UCI_LimitStrength at ELO against Stockfish with
# UCI_LimitStrength at the same UCI_Elo (or against Horizon at another UCI_Elo), fastchess,
# pentanomial statistics, openings from ../shared/openings, one thread and 16 MiB each.
#
#   scripts/match/calibrate_elo.sh [-e HORIZON_BIN] [-n GAMES] [-t TC] [-c CONC] [-d DIR] ELO
#   scripts/match/calibrate_elo.sh ... -H OTHER_ELO ELO  (Horizon at ELO against Horizon at OTHER)
#   scripts/match/calibrate_elo.sh ... -S SF_ELO ELO     (Horizon at ELO against Stockfish at
#                                                   SF_ELO; ELO "full" plays Horizon unlimited)
#   scripts/match/calibrate_elo.sh ... -R "NODES LINES TEMP LOSS" ELO
#                  (Horizon plays that row of the strength table instead of its own level for ELO,
#                   through horizon --strength-override ROW: how a row is fitted without a rebuild)
#   scripts/match/calibrate_elo.sh ... -H OTHER_ELO -Q "NODES LINES TEMP LOSS" ELO
#                  (the other Horizon plays that row instead of its own level for OTHER_ELO)
#
# Defaults: 100 games, 10+0.1, 2 concurrent games, DIR
# /tmp/horizon-elo.<ELO>[r<ROW>]-vs-<sf<SF_ELO> or h<OTHER>[r<OTHER_ROW>]>-<TC>.
# A stopped run resumes from DIR/state.json. Prints the requested Elo, the measured difference
# (Horizon minus its opponent) with its 95 % error over the finished pairs of games, the games,
# and Horizon's illegal moves and time forfeits (all from DIR/games.pgn, so also after a stop).
# fastchess is $FASTCHESS, else on PATH, else a usual place (scripts/match/opponents.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$root/build/release/horizon"
games=100
tc=10+0.1
conc=2
out=""
other=""
sf_elo=""
row=""
other_row=""
while getopts "e:n:t:c:d:H:S:R:Q:" opt; do
  case $opt in
    e) bin=$OPTARG ;; n) games=$OPTARG ;; t) tc=$OPTARG ;; c) conc=$OPTARG ;;
    d) out=$OPTARG ;; H) other=$OPTARG ;; S) sf_elo=$OPTARG ;; R) row=$OPTARG ;;
    Q) other_row=$OPTARG ;; *) sed -n '2,21p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { sed -n '2,21p' "$0"; exit 2; }
[ -z "$other_row" ] || [ -n "$other" ] || { echo "-Q needs -H" >&2; exit 2; }
elo=$1
sf_elo=${sf_elo:-$elo}
[ -x "$bin" ] || { echo "Horizon binary $bin not found; build it first" >&2; exit 2; }
bin=$(realpath "$bin")
# Checks a trial row with the engine itself (a row it refuses, it refuses to start with) and
# prints it with commas, one word for fastchess's args=.
checked_row() {
  local said
  said=$("$bin" --strength-override "$2" < /dev/null 2>&1 || true)
  if [ -n "$said" ]; then echo "$1 '$2': $said" >&2; return 2; fi
  tr ', \t' '\n\n\n' <<< "$2" | grep -v '^$' | paste -sd, -
}
if [ -n "$row" ]; then
  [ "$elo" != full ] || { echo "-R plays a limited level: give an ELO, not full" >&2; exit 2; }
  row=$(checked_row -R "$row")
fi
[ -z "$other_row" ] || other_row=$(checked_row -Q "$other_row")
# shellcheck source=opponents.sh
. "$root/scripts/match/opponents.sh"
find_fastchess || exit 2
fastchess=$FASTCHESS_BIN
if [ -n "$other" ]; then against=h$other${other_row:+r$other_row}; else against=sf$sf_elo; fi
out=${out:-/tmp/horizon-elo.$elo${row:+r$row}-vs-$against-$tc}
mkdir -p "$out"
cd "$out"
# The binary is copied once, so that a rebuild cannot change a resumed run.
[ -f horizon ] || cp "$bin" horizon

limited=(option.UCI_LimitStrength=true option.Threads=1 option.Hash=16)
if [ "$elo" = full ]; then
  mine=(option.UCI_LimitStrength=false option.Threads=1 option.Hash=16)
else
  mine=("${limited[@]}" option.UCI_Elo="$elo")
  [ -z "$row" ] || mine+=(args="--strength-override=$row")
fi
if [ -n "$other" ]; then
  # At the same Elo (two rows of one level) the other side needs a name of its own.
  other_name=Horizon-$other
  [ "$other" != "$elo" ] || other_name=Horizon-$other-other
  opponent=(cmd="$out/horizon" name="$other_name" "${limited[@]}" option.UCI_Elo="$other")
  [ -z "$other_row" ] || opponent+=(args="--strength-override=$other_row")
else
  opponent=(cmd=/usr/games/stockfish name="Stockfish-$sf_elo" "${limited[@]}"
            option.UCI_Elo="$sf_elo")
fi
set +e
if [ -f state.json ]; then
  "$fastchess" -config file=state.json > fastchess.out 2>&1
else
  "$fastchess" \
    -engine cmd="$out/horizon" name="Horizon-$elo" "${mine[@]}" \
    -engine "${opponent[@]}" \
    -each tc="$tc" \
    -openings file="$root/../shared/openings/random8-balanced.epd" format=epd order=random \
    -rounds $(((games + 1) / 2)) -repeat -concurrency "$conc" -recover -autosaveinterval 2 \
    -pgnout file="$out/games.pgn" -config outname=state.json > fastchess.out 2>&1
fi
rc=$?
set -e
# Every finished game, also those after fastchess's last summary (a run stopped early), as
# scripts/match/pgn_score.py reads them from games.pgn.
score=$(python3 "$root/scripts/match/pgn_score.py" games.pgn "Horizon-$elo" 2> /dev/null || true)
played=$(sed -nE 's/^[^:]+: ([0-9]+) games.*score ([0-9.]+) %$/\1 \2/p' <<< "$score")
diff=$(sed -nE 's/^pairs ([0-9]+) .*Elo ([-+0-9.]+) \+\/- ([0-9.]+)$/\1 \2 \3/p' <<< "$score")
read -r n pct <<< "${played:-0 nan}"
read -r pairs d e <<< "${diff:-0 nan nan}"
horizon_side() { # the count of games in games.pgn whose end names Horizon-$elo's colour
  awk -v me="Horizon-$elo" -v what="$1" '
    /^\[White "/ { w = ($0 ~ "\"" me "\"") } /^\[Black "/ { b = ($0 ~ "\"" me "\"") }
    $0 ~ what { if (($0 ~ /White/ && w) || ($0 ~ /Black/ && b)) c++ }
    END { print c + 0 }' games.pgn 2>/dev/null || echo 0
}
echo "requested $elo${row:+ (row $row)}" \
  "against ${other:+Horizon }${other:-Stockfish $sf_elo}${other_row:+ (row $other_row)}, $tc:" \
  "measured $d +/- $e Elo over $pairs pairs (Horizon's score $pct %), games $n"
echo "Horizon: illegal moves $(horizon_side 'illegal move')," \
  "time forfeits $(horizon_side 'loses on time') (fastchess exit $rc; details in $out)"
