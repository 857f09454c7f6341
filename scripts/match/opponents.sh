# The Debian engines as fastchess -engine arguments, for scripts that play them (sourced).
#
#   debian_engine NAME    sets the array ENGINE_ARGS; returns 1 for a name it does not know
#
# NAME: sf<ELO> (Stockfish with UCI_LimitStrength at UCI_Elo ELO, e.g. sf1350), stockfish,
# sfclassical (Stockfish on its hand-crafted evaluation, Use NNUE false), glaurung, toga2,
# gnuchess, ethereal. One thread and 16 MiB each where the engine has the options.
#
#   find_fastchess        sets FASTCHESS_BIN: $FASTCHESS, else fastchess on PATH, else the first
#                         of FASTCHESS_PLACES that is there; returns 1, with a message, if none
#                         is found

debian_engine() {
  case $1 in
    sf[0-9]*) ENGINE_ARGS=(cmd=/usr/games/stockfish name="Stockfish-${1#sf}"
                option.UCI_LimitStrength=true option.UCI_Elo="${1#sf}" option.Threads=1
                option.Hash=16) ;;
    stockfish) ENGINE_ARGS=(cmd=/usr/games/stockfish name=Stockfish option.Threads=1
                 option.Hash=16) ;;
    sfclassical) ENGINE_ARGS=(cmd=/usr/games/stockfish name=Stockfish-classical option.Threads=1
                   option.Hash=16 "option.Use NNUE=false") ;;
    glaurung) ENGINE_ARGS=(cmd=/usr/games/glaurung name=Glaurung option.Threads=1
                option.Hash=16) ;;
    toga2) ENGINE_ARGS=(cmd=/usr/games/toga2 name=Toga2 option.Hash=16) ;;
    gnuchess) ENGINE_ARGS=(cmd=/usr/games/gnuchess args=--uci name=GNUChess
                option.OwnBook=false) ;;
    ethereal) ENGINE_ARGS=(cmd=/usr/games/ethereal-chess name=Ethereal option.Threads=1
                option.Hash=16) ;;
    *) return 1 ;;
  esac
}

# Adjudication of Horizon-against-Horizon games (sprt.sh; spsa.py and the defaults of
# scripts/match/adjudication.py read it from here):
# resigned once both sides have scored one side 6 pawns or more up for 3 moves each, drawn from
# move 34 once both have scored within 0.2 pawns for 8 moves each. On the 13,162 games of ten
# SPRT runs (25,000 nodes a move or 5+0.05) this would have saved 16 % of the plies; 67 of the
# 7,990 games it resigns and 2 of the 210 it draws had ended otherwise
# (scripts/match/adjudication.py).
SELFPLAY_ADJUDICATION=(-resign movecount=3 score=600 twosided=true
                       -draw movenumber=34 movecount=8 score=20)

# Where a fastchess built from source (`make` in its folder, outside this repository) is
# looked for when neither $FASTCHESS nor PATH has it: beside the checkout, in tools/fastchess or
# fastchess; scripts/match/spsa.py looks in the same places.
_checkout=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FASTCHESS_PLACES=("$_checkout/../tools/fastchess/fastchess" "$_checkout/../fastchess/fastchess")

find_fastchess() {
  FASTCHESS_BIN=${FASTCHESS:-$(command -v fastchess || true)}
  if [ -z "$FASTCHESS_BIN" ]; then
    local place
    for place in "${FASTCHESS_PLACES[@]}"; do
      [ -x "$place" ] && { FASTCHESS_BIN=$place; break; }
    done
  fi
  [ -n "$FASTCHESS_BIN" ] && [ -x "$FASTCHESS_BIN" ] && return 0
  echo "fastchess not found: set FASTCHESS to its binary" \
    "(looked on PATH and in ${FASTCHESS_PLACES[*]})" >&2
  return 1
}
