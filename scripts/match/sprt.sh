#!/usr/bin/env bash
# SPRT of one Horizon revision against another with fastchess (pentanomial statistics).
#
#   scripts/match/sprt.sh [options] BASE_REV [NEW_REV]
#
# NEW_REV defaults to the work tree as it is (uncommitted changes included).
#   -t TC        time control (default 5+0.05); -n NODES plays at fixed nodes per move instead
#   -e ELO1      SPRT elo1 bound (default 5), -l ELO0 its elo0 bound (default 0; e.g. -l -5 -e 0
#                asks only that a change loses nothing), -a/-b alpha/beta (default 0.05)
#   -g GAMES     the most games to play (default 20000); given on a resumed run, it replaces
#                the number the run was saved with
#   -c CONC      concurrent games (default 2: one per core); given on a resumed run, it
#                replaces the concurrency the run was saved with
#   -o OPTS      extra UCI options for both engines, e.g. "Threads=1 Hash=16"
#   -d DIR       output folder (default /tmp/horizon-sprt.<base>-<new>); a run that was
#                stopped resumes from DIR/fastchess-state.json
#   -f           fixed-games match, no SPRT (with -g: e.g. 400 games for an Elo figure)
#   -A           no adjudication (by default games end early as SELFPLAY_ADJUDICATION in
#                scripts/match/opponents.sh says: resign at 6 pawns, draw at 0.2 from move 34)
#   -B BIN, -N BIN  use these built binaries as BASE_REV's and NEW_REV's instead of building
#                them (each must be a build of its revision: the bench signature is its own)
#   -p BOOK      openings, EPD (.xz is unpacked into DIR); default tuning/openings'
#                20,000 (README there): at fixed nodes a pair from an opening played before
#                repeats move for move, so a run should not play more pairs than BOOK has lines
# Prints the verdict, Elo +- error, the pentanomial counts and both `Bench:` signatures.
# fastchess is $FASTCHESS, else on PATH, else a usual place (scripts/match/opponents.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tc=5+0.05
nodes=""
elo1=5
elo0=0
alpha=0.05
beta=0.05
games=20000
games_given=0
conc=2
conc_given=0
base_bin=""
new_bin=""
opts=""
out=""
fixed=0
adjudicate=1
book=$root/tuning/openings/random8-horizon-20k.epd.xz
while getopts "t:n:e:l:a:b:g:c:o:d:fAB:N:p:" opt; do
  case $opt in
    t) tc=$OPTARG ;; n) nodes=$OPTARG ;; e) elo1=$OPTARG ;; l) elo0=$OPTARG ;; a) alpha=$OPTARG ;;
    b) beta=$OPTARG ;; g) games=$OPTARG; games_given=1 ;; c) conc=$OPTARG; conc_given=1 ;;
    o) opts=$OPTARG ;;
    d) out=$OPTARG ;; f) fixed=1 ;; A) adjudicate=0 ;; B) base_bin=$OPTARG ;; N) new_bin=$OPTARG ;;
    p) book=$OPTARG ;;
    *) sed -n '2,25p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n '2,25p' "$0"; exit 2; }
base_rev=$1
new_rev=${2:-WORKTREE}
# shellcheck source=opponents.sh
. "$root/scripts/match/opponents.sh"
find_fastchess || exit 2
fastchess=$FASTCHESS_BIN

# Builds REV (a commit, or WORKTREE) into $2 and prints its bench signature; with a built
# binary $3, copies that instead of building.
build_rev() {
  local rev=$1 dest=$2 bin=${3:-} src
  if [ -n "$bin" ]; then
    [ -x "$bin" ] || { echo "not an executable: $bin" >&2; exit 2; }
  else
    if [ "$rev" = WORKTREE ]; then
      src=$root
    else
      src=$(mktemp -d /tmp/horizon-src.XXXXXX)
      git -C "$root" archive "$rev" | tar -x -C "$src"
      # Unpacked sources of dependencies (Fathom) are not in git: the checkout's serve.
      if [ -d "$root/.deps" ]; then cp -r "$root/.deps" "$src/"; fi
    fi
    cmake -S "$src" -B "$src/build/sprt" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=ON > /dev/null
    cmake --build "$src/build/sprt" --target horizon -j 2 > /dev/null
    bin=$src/build/sprt/horizon
  fi
  cp "$bin" "$dest"
  "$dest" bench 2>/dev/null | awk '/Nodes searched/ { print $3 }'
}

short() { [ "$1" = WORKTREE ] && echo worktree || git -C "$root" rev-parse --short "$1"; }
out=${out:-/tmp/horizon-sprt.$(short "$base_rev")-$(short "$new_rev")}
mkdir -p "$out"
if [ ! -x "$out/base" ] || [ ! -x "$out/new" ]; then
  build_rev "$base_rev" "$out/base" "$base_bin" > "$out/base.bench"
  build_rev "$new_rev" "$out/new" "$new_bin" > "$out/new.bench"
fi
echo "base $(short "$base_rev"): Bench: $(cat "$out/base.bench")"
echo "new  $(short "$new_rev"): Bench: $(cat "$out/new.bench")"

each=()
if [ -n "$nodes" ]; then each+=(tc=inf nodes="$nodes"); else each+=(tc="$tc"); fi
for o in $opts; do each+=("option.$o"); done
stat=(-sprt elo0="$elo0" elo1="$elo1" alpha="$alpha" beta="$beta" model=normalized)
[ "$fixed" = 1 ] && stat=()
adjudication=()
[ "$adjudicate" = 1 ] && adjudication=("${SELFPLAY_ADJUDICATION[@]}")
resume=()
if [ -f "$out/fastchess-state.json" ]; then
  resume=(-config file="$out/fastchess-state.json")
  # fastchess takes the concurrency and the number of games from the saved state: -c and -g
  # change them there.
  if [ "$conc_given" = 1 ] || [ "$games_given" = 1 ]; then
    python3 - "$out/fastchess-state.json" "$conc_given" "$conc" "$games_given" "$games" << 'EOF'
import json, sys
path = sys.argv[1]
conc_given, conc, games_given, games = (int(a) for a in sys.argv[2:6])
with open(path) as f:
    state = json.load(f)
if conc_given:
    state["concurrency"] = conc
if games_given:
    state["rounds"] = (games + 1) // 2
with open(path, "w") as f:
    json.dump(state, f, indent=1)
EOF
  fi
fi
openings=$book
if [ "${book%.xz}" != "$book" ]; then
  openings=$out/$(basename "${book%.xz}")
  [ -f "$openings" ] || xz -dc "$book" > "$openings"
fi
[ -s "$openings" ] || { echo "no openings in $book" >&2; exit 2; }
lines=$(grep -c . "$openings")
if [ -n "$nodes" ] && [ $(( (games + 1) / 2 )) -gt "$lines" ]; then
  echo "warning: $(( (games + 1) / 2 )) pairs from $lines openings at fixed nodes: pairs will" \
    "repeat move for move (scripts/match/pgn_score.py counts the distinct ones)" >&2
fi
cd "$out"
if [ ${#resume[@]} -gt 0 ]; then
  "$fastchess" "${resume[@]}" | tee -a "$out/fastchess.out"
else
  "$fastchess" -engine cmd="$out/new" name=new -engine cmd="$out/base" name=base \
    -each "${each[@]}" option.Threads=1 \
    -openings file="$openings" format=epd order=random \
    -rounds $(( (games + 1) / 2 )) -games 2 -repeat -concurrency "$conc" -recover \
    "${stat[@]}" "${adjudication[@]}" -report penta=true -ratinginterval 20 \
    -config outname="$out/fastchess-state.json" -autosaveinterval 2 \
    -pgnout file="$out/games.pgn" > "$out/fastchess.out" 2>&1 || true
fi
echo "--- $out"
grep -E "Elo:|LLR|Ptnml|Games:|H1 was accepted|H0 was accepted" "$out/fastchess.out" | tail -6
grep -ciE "illegal|loses on time|disconnect|stall" "$out/games.pgn" |
  sed 's/^/abnormal endings: /' || true
