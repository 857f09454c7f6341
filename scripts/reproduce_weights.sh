#!/usr/bin/env bash
# Makes engine.json again from nothing but this repository, and checks that it comes out the
# same: the recipe of the weights, as a command.
#
#   scripts/reproduce_weights.sh [-w WORKDIR] [-j THREADS] [-b DATA_BUILD] [-n POSITIONS] [-s SEED]
#
# 1. Builds commit DATA_BUILD (default 35c8730, the build that played the games, with the
#    hand-set weights it had then) in WORKDIR/build-<commit>, a detached git worktree.
# 2. Plays the self-play games with it: datagen, POSITIONS positions (default 2000000), 5000
#    nodes a move, seed SEED (default 1), THREADS workers (default: every core). Each game
#    depends on (seed, game number) alone and the file is written in game order, so the file
#    does not depend on THREADS. Resumable: run the script again after a stop.
# 3. Prints the data file's SHA-256; for the default recipe it must be DATA_SHA256 below.
# 4. Fits the weights with this checkout's build (build/release, brought up to date) from
#    tuning/handset.json: 100 epochs, lambda 0.5, min-count 2000, two threads always (the
#    gradient is summed in per-thread slices, so the thread count fixes the rounding).
# 5. Compares WORKDIR/engine.json with the shipped engine.json: bit for bit; if they differ,
#    prints how (weights that differ, the largest difference, `bench` with each file) and fails.
#
# About 70-80 minutes of two idle cores for the default recipe, nearly all of it datagen.
# WORKDIR defaults to /tmp/horizon-weights; it takes about 150 MB.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=/tmp/horizon-weights
threads=$(nproc)
data_build=35c8730
positions=2000000
seed=1
# The data file of the default recipe (build 35c8730, seed 1, 2,000,000 positions: 2,000,015
# positions from 25,547 games).
DATA_SHA256=15a63e591e01f849a573ee6b68bcc915db27fa38c9553d4ccfc6abd3468d3d20
while getopts "w:j:b:n:s:" opt; do
  case $opt in
    w) work=$OPTARG ;; j) threads=$OPTARG ;; b) data_build=$OPTARG ;;
    n) positions=$OPTARG ;; s) seed=$OPTARG ;;
    *) sed -n '2,22p' "$0"; exit 2 ;;
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

echo "=== 1. build $data_build (the games' build) in $work/build-$data_build"
src="$work/build-$data_build"
if [ ! -d "$src" ]; then
  git -C "$root" worktree add --detach "$src" "$data_build" > /dev/null
fi
if [ ! -x "$src/build/release/horizon" ]; then
  (cd "$src" && cmake --preset release > /dev/null &&
    cmake --build --preset release --target horizon -j "$threads" > /dev/null)
fi
old_bin="$src/build/release/horizon"

echo "=== 2. datagen: $positions positions, 5000 nodes a move, seed $seed, $threads threads"
data="$work/data.txt"
"$old_bin" datagen --out "$data" --positions "$positions" --nodes 5000 --seed "$seed" \
  --threads "$threads"

echo "=== 3. the data file"
sha=$(sha256sum "$data" | cut -d' ' -f1)
echo "sha256 $sha  $data ($(grep -vc '^#' "$data") positions)"
if [ "$default_recipe" = 1 ] && [ "$sha" != "$DATA_SHA256" ]; then
  echo "FAILED: the default recipe's data file should have sha256 $DATA_SHA256" >&2
  exit 1
fi

echo "=== 4. tune with this checkout's build"
bin="$root/build/release/horizon"
# Built every time (a no-op when up to date), so that a stale binary never runs the fit.
(cd "$root" && cmake --preset release > /dev/null &&
  cmake --build --preset release --target horizon -j "$threads" > /dev/null)
tuned="$work/engine.json"
"$bin" tune --data "$data" --start "$root/tuning/handset.json" --out "$tuned" --epochs 100 \
  --threads 2 --lambda 0.5 --min-count 2000

echo "=== 5. compare with the shipped engine.json"
if cmp -s "$tuned" "$root/engine.json"; then
  echo "ok: $tuned is engine.json, bit for bit"
  exit 0
fi
python3 - "$tuned" "$root/engine.json" << 'EOF'
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
for f in "$tuned" "$root/engine.json"; do
  echo "bench with $f: $("$bin" bench --eval-file "$f" 2>&1 | grep "Nodes searched")"
done
echo "FAILED: the weights made differ from engine.json" >&2
exit 1
