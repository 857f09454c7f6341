#!/usr/bin/env python3
"""Whether `horizon analyze` costs time linear in a game's length: the first 50, 100 and 200
moves of one long game analysed at a tiny fixed node count, the time per ply of each.

    scripts/measure/analyze_linear.py ENGINE [OTHER] [--nodes 1] [--runs 5] [--copies 20]
                                      [--game GAME.pgn]

(default game: tests/data/analyze/game200.pgn, Horizon against itself, 200 moves). Each run is
one `ENGINE analyze PART.pgn --nodes N --threads 1 -o /dev/null` on a file holding the part
`--copies` times (so that the time is well above the process's start-up), timed by the
processor time it used (user + system: steadier than the wall clock on a machine that others
use too); with OTHER the two engines take turns run by run, so a change in the machine's load
falls on both alike. The start-up (the same command on the game's start position alone, no
move) is taken off, and what is left is divided by the plies: medians of the runs, in ms per
ply. Linear: the time per ply stays flat as the game grows; quadratic: it grows with the
length. (The game's
later positions, an ending, are searched faster than its first ones, so the time per ply of a
linear walk falls a little; with OTHER, the last column, OTHER's time per ply less ENGINE's,
shows the difference of the two walks alone.)
"""
import argparse
import re
import resource
import statistics
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LENGTHS = (50, 100, 200)


def read_game(path):
    """The tags (text) and the SAN moves of the first game of a PGN file without comments."""
    text = Path(path).read_text()
    tags = "\n".join(line for line in text.splitlines() if line.startswith("["))
    movetext = "\n".join(line for line in text.splitlines() if not line.startswith("["))
    if "{" in movetext or "(" in movetext:
        raise SystemExit(f"{path}: a game without comments or variations is needed")
    tokens = movetext.split()
    moves = [t for t in tokens if not re.fullmatch(r"\d+\.+|1-0|0-1|1/2-1/2|\*", t)]
    return tags, moves


def write_part(tags, moves, plies, copies, path):
    """The game's first `plies` plies as a PGN file, `copies` times."""
    text = []
    for i, san in enumerate(moves[:plies]):
        text.append(f"{i // 2 + 1}. {san}" if i % 2 == 0 else san)
    game = tags + "\n\n" + " ".join(text) + " *\n\n"
    Path(path).write_text(game * copies)


def run(engine, pgn, nodes):
    """Processor seconds (user + system) of one analyze run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([engine, "analyze", pgn, "--nodes", str(nodes), "--threads", "1",
                           "-o", "/dev/null"], capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or "games analysed, 0 left out" not in done.stderr:
        raise SystemExit(f"{engine} analyze {pgn} failed:\n{done.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("engine")
    ap.add_argument("other", nargs="?")
    ap.add_argument("--nodes", type=int, default=1)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--copies", type=int, default=20)
    ap.add_argument("--game", default=str(ROOT / "tests/data/analyze/game200.pgn"))
    args = ap.parse_args()
    engines = [args.engine] + ([args.other] if args.other else [])

    tags, moves = read_game(args.game)
    if len(moves) < 2 * LENGTHS[-1]:
        raise SystemExit(f"{args.game} has {len(moves)} plies, {2 * LENGTHS[-1]} are needed")
    print(f"{args.game}: its first {', '.join(map(str, LENGTHS))} moves, --nodes {args.nodes}, "
          f"1 thread, {args.copies} copies of the game a run, medians of {args.runs} runs")
    print(f"{'moves':>5} {'plies':>5}" +
          "".join(f"  {Path(e).name + ': ms/ply (total s)':>36}" for e in engines) +
          (f"  {'difference':>10}" if args.other else ""))
    with tempfile.TemporaryDirectory() as work:
        medians = {}
        for length in (0,) + LENGTHS:
            plies = 2 * length
            part = str(Path(work) / f"first-{length}.pgn")
            write_part(tags, moves, plies, args.copies, part)
            seconds = {e: [] for e in engines}
            for _ in range(args.runs):
                for e in engines:  # alternate, run by run
                    seconds[e].append(run(e, part, args.nodes))
            for e in engines:
                medians[e, length] = statistics.median(seconds[e])
            if length == 0:
                print(f"{'start-up':>11}" + "".join(
                    f"  {f'({1000 * medians[e, 0]:.1f} ms)':>36}" for e in engines))
                continue
            row = f"{length:>5} {plies:>5}"
            for e in engines:
                per_ply = 1000 * (medians[e, length] - medians[e, 0]) / (plies * args.copies)
                row += f"  {f'{per_ply:.4f} ({medians[e, length]:.3f} s)':>36}"
            if args.other:
                per_ply = [(medians[e, length] - medians[e, 0]) / (plies * args.copies)
                           for e in engines]
                row += f"  {1000 * (per_ply[1] - per_ply[0]):>10.4f}"
            print(row, flush=True)


if __name__ == "__main__":
    main()
