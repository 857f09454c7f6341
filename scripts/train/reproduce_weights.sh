#!/usr/bin/env bash
# Makes engine.json again and checks that it comes out the same: the recipe of the weights, as
# a command. The weights were made in five rounds (1, 2, 3, 6 and 7; 4 and 5 were not adopted).
#
#   scripts/train/reproduce_weights.sh [-w WORKDIR] [-j THREADS] [-b DATA_BUILD] [-n POSITIONS]
#                                      [-s SEED] [-p GAMES.pgn]... [-P GAMES.pgn]... [-2|-3|-6|-7]
#
# -2: round 2 alone (steps 6 and 7), with -p; -3: round 3 alone (steps 8 and 9), with -P;
# -6: round 6 alone (steps 10 to 12), -7: round 7 alone (steps 13 and 14); neither needs
# anything but this repository.
#
# Round 1 (from nothing but this repository):
# 1. Builds commit DATA_BUILD (default 35c8730, the build that played the games, with the
#    hand-set weights it had then) in WORKDIR/build-<commit>, a detached git worktree.
# 2. Plays the self-play games with it: datagen, POSITIONS positions (default 2000000), 5000
#    nodes a move, seed SEED (default 1), THREADS workers (default: every core). Each game
#    depends on (seed, game number) alone and the file is written in game order, so the file
#    does not depend on THREADS. Resumable: run the script again after a stop.
# 3. Prints the data file's SHA-256; for the default recipe it must be DATA_SHA256 below.
# 4. Fits the weights with the build of ROUND1_BUILD (a988b86, the last with round 1's
#    terms) from its tuning/handset.json: 100 epochs, lambda 0.5, min-count 2000, two threads
#    always (the gradient is summed in per-thread slices, so the thread count fixes the
#    rounding).
# 5. Compares them with round 1's weights, tuning/round1.json (a988b86's engine.json with the
#    terms added since, twenty, at weight 0): bit for bit.
# Round 2 (needs the games, which are not in the repository; only with -p):
# 6. Turns the games (-p, repeated, in the order below) into training positions with this
#    checkout's build (datagen --from-pgn) and checks the file's SHA-256 (ROUND2_SHA256).
# 7. Fits from tuning/round1.json with the build of ROUND2_BUILD (b59fe5f, the last with round
#    2's terms): 100 epochs, lambda 0.5, min-count 2000, one thread. Compares the result with
#    tuning/round2.json (round 2's engine.json with round 3's terms at 0), value for value,
#    leaving out the terms added since (the mop-up terms, set by hand: they must be as
#    tuning/handset.json has them); if they differ, prints how (weights that differ, the
#    largest difference, `bench` with each file).
# Round 3 (needs its games too; only with -P):
# 8. Turns them (-P, repeated, in the order below) into training positions with this
#    checkout's build and checks the file's SHA-256 (ROUND3_SHA256).
# 9. Fits from tuning/round2.json with the build of ROUND3_BUILD (fe851bf, the last with round
#    3's terms): 100 epochs, lambda 0.5, min-count 2000, two threads, every term but the
#    mop-up ones (which more data no longer keeps out of the fit by --min-count, and which
#    then run away). Compares the result with tuning/round3.json (round 3's engine.json), as
#    step 7 does.
# Round 6 (its data is in tuning/games; runs unless -2, -3 or -7 is given):
# 10. Unpacks the self-play positions tuning/games/2026-12-05-selfplay-seed6-10000n.txt.xz
#     (datagen --games 12389 --nodes 10000 --seed 6 with 6319667) and checks their SHA-256.
# 11. Turns the Horizon games kept in tuning/games (the SPSA games, then both parts of the
#     time-use SPRT) into positions with this checkout's build and checks the SHA-256.
# 12. Fits from tuning/round3.json with the build of ROUND6_BUILD (84958db): both files, 100
#     epochs, lambda 0.5, min-count 2000, two threads, --l2 0.0001 (a pull towards the start),
#     every term but the mop-up ones. Compares the result with tuning/round6.json (round 6's
#     engine.json), as step 7 does.
# Round 7 (its data is in tuning/games; runs unless -2, -3 or -6 is given):
# 13. Unpacks round 6's positions scored anew by Stockfish 15.1 on its classical evaluation,
#     tuning/games/2026-12-05-round6-positions-sfclassical-5000n.txt.xz, and checks their
#     SHA-256. (They were made from step 10's and step 11's files, one after the other, by
#     scripts/train/relabel.py at 5,000 nodes, then --rescale 1.6388: that takes
#     Stockfish and half an hour, and is not repeated here.)
# 14. Fits from tuning/round6.json with the build of ROUND7_BUILD (7104668): 100 epochs,
#     lambda 0.25, min-count 2000, two threads, --l2 0.0001, every term but the mop-up ones.
#     Compares the result with engine.json, as step 7 does.
#
# Round 2's games: the PGN files of six SPRT runs played here with scripts/match/sprt.sh (Horizon
# against Horizon, 25,000 nodes a move or 5+0.05), 5,888 games, in this order:
#   b1 (1,030 games), b2 (1,640), c2 (1,041), tc1 (562), tm1 (612), tm2 (1,003).
#
# Round 3's games: 19,080 in 14 PGN files, Horizon against Horizon: the SPRT runs b4, bc,
# cc1, cx1, eg1, fp2, hd1, mop, np1, r3, sh1, tp1 and tm4 (scripts/match/sprt.sh, 25,000 nodes a
# move or 5+0.05), then the first 5,876 games of the SPSA run in tuning/spsa (scripts/match/spsa.py,
# 25,000 nodes a move).
#
# About 70-80 minutes of two idle cores for round 1's default recipe, nearly all of it
# datagen; rounds 2, 3, 6 and 7 take a few minutes each, most of it a build. WORKDIR defaults to
# /tmp/horizon-weights (about 150 MB, and 100 MB more for round 3).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=/tmp/horizon-weights
threads=$(nproc)
data_build=35c8730
positions=2000000
seed=1
# The data file of the default recipe (build 35c8730, seed 1, 2,000,000 positions: 2,000,015
# positions from 25,547 games).
DATA_SHA256=15a63e591e01f849a573ee6b68bcc915db27fa38c9553d4ccfc6abd3468d3d20
round1_build=a988b86
round2_build=b59fe5f
# Round 2's data file, made from the six PGN files above in that order.
ROUND2_SHA256=b640496a88030fea04717e3de5a555318a73553621c21754f07c2ef15cd56aa3
round3_build=fe851bf
# Round 3's data file, made from the fourteen PGN files above in that order.
ROUND3_SHA256=de616bb36bc772288b13dedbcfc2ed5af44d7280de8b809b00182b8337caec7c
# The terms round 3 added: the builds of earlier rounds do not know them.
ROUND3_TERMS="blocked_pawn doubled_isolated trapped_rook weak_queen queen_infiltration
  unsafe_check king_blockers knight_defender complexity"
# The terms added after round 3 (at 0 in the weights files of rounds 1 to 3).
LATER_TERMS="imbalance"
round6_build=84958db
# Round 6's two data files: the self-play positions as kept, and the kept games' positions.
ROUND6_SELFPLAY_SHA256=a27e55472bce28144aee7439d8252b13988ce9526fad08c0ac6f48b027898eb9
ROUND6_KEPT_SHA256=d0fb8320eadca9f5a66686b2dfd358defb14a3f180585af336b192769dc338ec
round7_build=7104668
# Round 7's data file: round 6's positions with Stockfish's scores, rescaled.
ROUND7_SHA256=6cc60ebed1d185aab0b59f57600cd385e4f432f289ef021fe1b1100625cebb16
pgns=()
pgns3=()
only=0
while getopts "w:j:b:n:s:p:P:2367" opt; do
  case $opt in
    w) work=$OPTARG ;; j) threads=$OPTARG ;; b) data_build=$OPTARG ;;
    n) positions=$OPTARG ;; s) seed=$OPTARG ;; p) pgns+=("$OPTARG") ;;
    P) pgns3+=("$OPTARG") ;; 2) only=2 ;; 3) only=3 ;; 6) only=6 ;; 7) only=7 ;;
    *) sed -n '2,73p' "$0"; exit 2 ;;
  esac
done
default_recipe=0
if [ "$(git -C "$root" rev-parse "$data_build^{commit}")" = \
  "$(git -C "$root" rev-parse "35c8730^{commit}")" ] && [ "$positions" = 2000000 ] &&
  [ "$seed" = 1 ]; then
  default_recipe=1
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)

# The horizon binary of commit $1, built once in a detached worktree under WORKDIR.
# Fathom's source (.deps, not in git) is copied in for the builds that probe tables.
build_commit() {
  local src="$work/build-$1"
  if [ ! -d "$src" ]; then
    git -C "$root" worktree add --detach "$src" "$1" > /dev/null
  fi
  if [ -d "$root/.deps" ] && [ ! -d "$src/.deps" ]; then cp -r "$root/.deps" "$src/"; fi
  if [ ! -x "$src/build/release/horizon" ]; then
    if ! (cd "$src" && cmake --preset release > /dev/null &&
      cmake --build --preset release --target horizon -j "$threads" > /dev/null); then
      echo "FAILED: could not build $1 in $src" >&2
      return 1
    fi
  fi
  echo "$src/build/release/horizon"
}

# Prints how two weight files differ and `bench` with each; returns 1.
explain_difference() {
  python3 - "$1" "$2" << 'EOF'
import json, sys
made, shipped = (json.load(open(p)) for p in sys.argv[1:3])
def leaves(x, path=""):
    if isinstance(x, dict):
        for k, v in x.items():
            yield from leaves(v, f"{path}.{k}" if path else k)
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from leaves(v, f"{path}[{i}]")
    else:
        yield path, x
a, b = dict(leaves(made)), dict(leaves(shipped))
differ = [(k, a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
print(f"{len(differ)} of {len(b)} values differ")
numeric = [abs(x - y) for _, x, y in differ
           if isinstance(x, (int, float)) and isinstance(y, (int, float))]
if numeric:
    print(f"largest difference {max(numeric):g}")
for k, x, y in differ[:10]:
    print(f"  {k}: made {x}, shipped {y}")
EOF
  for f in "$1" "$2"; do
    echo "bench with $f: $("$bin" bench --eval-file "$f" 2>&1 | tail -1)"
  done
  return 1
}

bin="$root/build/release/horizon"
# Built every time (a no-op when up to date), so that a stale binary never runs a fit.
(cd "$root" && cmake --preset release > /dev/null &&
  cmake --build --preset release --target horizon -j "$threads" > /dev/null)

if [ "$only" = 0 ]; then
echo "=== round 1, 1. build $data_build (the games' build) in $work/build-$data_build"
old_bin=$(build_commit "$data_build") || exit 1

echo "=== round 1, 2. datagen: $positions positions, 5000 nodes a move, seed $seed," \
  "$threads threads"
data="$work/data.txt"
"$old_bin" datagen --out "$data" --positions "$positions" --nodes 5000 --seed "$seed" \
  --threads "$threads"

echo "=== round 1, 3. the data file"
sha=$(sha256sum "$data" | cut -d' ' -f1)
echo "sha256 $sha  $data ($(grep -vc '^#' "$data") positions)"
if [ "$default_recipe" = 1 ] && [ "$sha" != "$DATA_SHA256" ]; then
  echo "FAILED: the default recipe's data file should have sha256 $DATA_SHA256" >&2
  exit 1
fi

echo "=== round 1, 4. tune with the build of $round1_build"
tune_bin=$(build_commit "$round1_build") || exit 1
round1="$work/round1.json"
"$tune_bin" tune --data "$data" --start "$work/build-$round1_build/tuning/handset.json" \
  --out "$round1" --epochs 100 --threads 2 --lambda 0.5 --min-count 2000

echo "=== round 1, 5. compare with tuning/round1.json (its newer terms at 0 left out)"
python3 - "$round1" "$root/tuning/round1.json" << 'EOF' || exit 1
import json, sys
made, shipped = (json.load(open(p)) for p in sys.argv[1:3])
extra = [k for k in shipped["eval"] if k not in made["eval"]]
if any(w != [0, 0] for k in extra for w in shipped["eval"][k]):
    sys.exit("FAILED: a term that round 1 did not have is not 0 in tuning/round1.json")
for k in extra:
    del shipped["eval"][k]
if made != shipped:
    bad = [k for k in shipped["eval"] if made["eval"].get(k) != shipped["eval"][k]]
    sys.exit(f"FAILED: round 1 differs from tuning/round1.json in {bad[:10]} "
             f"or the WDL model ({made['wdl'] == shipped['wdl']})")
print(f"ok: round 1 is tuning/round1.json, value for value ({len(extra)} newer terms at 0)")
EOF
fi

# Compares the weights made ($1) with the file shipped ($2): value for value, leaving out the
# terms the file has and the fit did not (set by hand: as tuning/handset.json has them, or 0
# for round 3's terms in round 2's file); on a difference, says how and fails.
compare_weights() {
  if python3 - "$1" "$2" "$root/tuning/handset.json" "$ROUND3_TERMS $LATER_TERMS" << 'EOF'
import json, sys
made, shipped, handset = (json.load(open(p)) for p in sys.argv[1:4])
later = sys.argv[4].split()
extra = [k for k in shipped["eval"] if k not in made["eval"]]
for k in extra:
    want = [[0, 0]] * len(shipped["eval"][k]) if k in later else handset["eval"][k]
    if shipped["eval"][k] != want:
        sys.exit(f"FAILED: {k}, which this round did not fit, is not as it should be")
for k in extra:
    del shipped["eval"][k]
sys.exit(0 if made == shipped else 1)
EOF
  then
    echo "ok: $1 is $2, value for value (the terms it did not fit set by hand or 0)"
    return 0
  fi
  explain_difference "$1" "$2" || true
  echo "FAILED: the weights made differ from $2" >&2
  exit 1
}

# Writes weights file $1 as $2 without the terms named in $3 (for a build that predates them).
strip_terms() {
  python3 - "$1" "$2" "$3" << 'EOF'
import json, sys
start = json.load(open(sys.argv[1]))
for k in sys.argv[3].split():
    del start["eval"][k]
json.dump(start, open(sys.argv[2], "w"))
EOF
}

# The terms a fit of weights file $1 takes, for tune --only: every term but the mop-up ones
# (set by hand).
fitted_terms() {
  python3 -c 'import json, sys
print(",".join(k for k in json.load(open(sys.argv[1]))["eval"] if not k.startswith("mop_up")))' \
    "$1"
}

# Prints data file $1's SHA-256 and fails unless it is $2 (what: $3).
check_sha256() {
  local sha
  sha=$(sha256sum "$1" | cut -d' ' -f1)
  echo "sha256 $sha  $1"
  if [ "$sha" != "$2" ]; then
    echo "FAILED: $3 should have sha256 $2" >&2
    exit 1
  fi
}

# Unpacks tuning/games/$1 into $2 and fails unless its SHA-256 is $3 (what: $4).
unpack_data() {
  "$root/scripts/train/restore_data.sh" "tuning/games/$1" > /dev/null
  xz -dc "$root/tuning/games/$1" > "$2"
  check_sha256 "$2" "$3" "$4"
}

# Fits weights file $2 to data $3 (files joined by commas) with the build of commit $1, into
# $4 with lambda $5: 100 epochs, two threads, min-count 2000, --l2 0.0001, every term but the
# mop-up ones; then compares the result with weights file $6.
fit_and_compare() {
  local fit_bin
  fit_bin=$(build_commit "$1") || exit 1
  "$fit_bin" tune --data "$3" --start "$2" --out "$4" --epochs 100 --threads 2 --lambda "$5" \
    --min-count 2000 --l2 0.0001 --only "$(fitted_terms "$2")"
  compare_weights "$4" "$6"
}

# Round $1's training positions ($2) from the PGN files that follow $3, with this checkout's
# build; the file's SHA-256 must be $3.
positions_from_games() {
  local round=$1 data=$2 want=$3 f
  shift 3
  local from=()
  for f in "$@"; do from+=(--from-pgn "$f"); done
  rm -f "$data"
  "$bin" datagen "${from[@]}" --out "$data"
  check_sha256 "$data" "$want" "round $round's data file"
}

if [ "$only" = 0 ] || [ "$only" = 2 ]; then
if [ "${#pgns[@]}" -eq 0 ]; then
  echo "=== round 2 skipped: give the six PGN files with -p (see the top of this script)"
else
echo "=== round 2, 6. training positions from ${#pgns[@]} PGN files"
round2_data="$work/round2.txt"
positions_from_games 2 "$round2_data" "$ROUND2_SHA256" "${pgns[@]}"

echo "=== round 2, 7. tune from tuning/round1.json with the build of $round2_build"
round2_bin=$(build_commit "$round2_build") || exit 1
tuned="$work/engine.json"
# That build knows round 2's terms only: the start without the terms added since.
strip_terms "$root/tuning/round1.json" "$work/round2-start.json" \
  "mop_up_edge mop_up_kings mop_up_corner $ROUND3_TERMS $LATER_TERMS"
"$round2_bin" tune --data "$round2_data" --start "$work/round2-start.json" --out "$tuned" \
  --epochs 100 --threads 1 --lambda 0.5 --min-count 2000
compare_weights "$tuned" "$root/tuning/round2.json"
fi
fi

if [ "$only" != 0 ] && [ "$only" != 3 ]; then
  :
elif [ "${#pgns3[@]}" -eq 0 ]; then
  echo "=== round 3 skipped: give the fourteen PGN files with -P (see the top of this script)"
else
echo "=== round 3, 8. training positions from ${#pgns3[@]} PGN files"
round3_data="$work/round3.txt"
positions_from_games 3 "$round3_data" "$ROUND3_SHA256" "${pgns3[@]}"

echo "=== round 3, 9. tune from tuning/round2.json with the build of $round3_build"
round3_bin=$(build_commit "$round3_build") || exit 1
# That build knows round 3's terms only: the start without the terms added since.
strip_terms "$root/tuning/round2.json" "$work/round3-start.json" "$LATER_TERMS"
fit=$(fitted_terms "$work/round3-start.json")
tuned3="$work/engine3.json"
"$round3_bin" tune --data "$round3_data" --start "$work/round3-start.json" --out "$tuned3" \
  --epochs 100 --threads 2 --lambda 0.5 --min-count 2000 --only "$fit"
compare_weights "$tuned3" "$root/tuning/round3.json"
fi

if [ "$only" = 0 ] || [ "$only" = 6 ]; then
echo "=== round 6, 10. the self-play positions (tuning/games)"
selfplay="$work/round6-selfplay.txt"
unpack_data 2026-12-05-selfplay-seed6-10000n.txt.xz "$selfplay" "$ROUND6_SELFPLAY_SHA256" \
  "round 6's self-play file"

echo "=== round 6, 11. training positions from the Horizon games kept in tuning/games"
kept=()
for f in 2026-12-02-spsa-25000n 2026-12-04-timeman-sprt-5+0.05 \
  2026-12-04-timeman-sprt-5+0.05-part2; do
  "$root/scripts/train/restore_data.sh" "tuning/games/$f.pgn.xz" > /dev/null
  xz -dc "$root/tuning/games/$f.pgn.xz" > "$work/$f.pgn"
  kept+=("$work/$f.pgn")
done
positions_from_games 6 "$work/round6-kept.txt" "$ROUND6_KEPT_SHA256" "${kept[@]}"

echo "=== round 6, 12. tune from tuning/round3.json with the build of $round6_build"
fit_and_compare "$round6_build" "$root/tuning/round3.json" "$selfplay,$work/round6-kept.txt" \
  "$work/engine6.json" 0.5 "$root/tuning/round6.json"
fi

if [ "$only" = 0 ] || [ "$only" = 7 ]; then
echo "=== round 7, 13. round 6's positions with Stockfish's scores (tuning/games)"
round7_data="$work/round7.txt"
unpack_data 2026-12-05-round6-positions-sfclassical-5000n.txt.xz "$round7_data" \
  "$ROUND7_SHA256" "round 7's data file"

echo "=== round 7, 14. tune from tuning/round6.json with the build of $round7_build"
fit_and_compare "$round7_build" "$root/tuning/round6.json" "$round7_data" "$work/engine7.json" \
  0.25 "$root/engine.json"
fi
