#!/usr/bin/env python3
"""What a new game costs the searches after it: the bench positions as a run of games in one
engine process, each after `ucinewgame`, timed by the engine's own `time`.

    scripts/measure/newgame_cost.py ENGINE [OTHER] [--hash 256] [--depth 13] [--rounds 5]

Every position is one game: `ucinewgame`, `position fen`, `go depth DEPTH`. A round is one
engine process that plays all of them; with OTHER, the two engines take turns round by round,
so a change in the machine's load falls on both alike. Prints each round's total and, per
engine, the median total over the rounds. What `ucinewgame` does to the table shows here: a
table handed back to the OS at every clear has its pages faulted in again by each game's
search, one kept in memory does not.
"""
import argparse
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import uci  # noqa: E402
from bench_search import bench_fens  # noqa: E402


def play_round(engine, fens, hash_mb, depth):
    """The engine's `time` of its last report for each position, in one process."""
    e = uci.Engine([engine])
    e.send("uci")
    e.setoption("Hash", hash_mb)
    times = []
    for fen in fens:
        e.newgame()
        e.position(fen)
        found = e.go(f"depth {depth}")
        last = None
        for line in found.lines:
            m = re.search(r"\btime (\d+)", line)
            if m:
                last = int(m.group(1))
        if last is None:
            raise SystemExit(f"{engine}: no info line with a time for {fen}")
        times.append(last)
    e.quit()
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("other", nargs="?")
    ap.add_argument("--hash", type=int, default=256)
    ap.add_argument("--depth", type=int, default=13)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    engines = [args.engine] + ([args.other] if args.other else [])
    fens = bench_fens()
    totals = {e: [] for e in engines}
    for r in range(args.rounds):
        for e in engines:
            total = sum(play_round(e, fens, args.hash, args.depth))
            totals[e].append(total)
            print(f"round {r + 1}/{args.rounds} {e}: {total} ms", flush=True)
    for e in engines:
        print(f"{e}: {len(fens)} games, Hash {args.hash}, depth {args.depth}: median total "
              f"{statistics.median(totals[e]):.0f} ms over {args.rounds} rounds")
    if args.other:
        ratio = statistics.median(totals[args.engine]) / statistics.median(totals[args.other])
        print(f"ratio of medians, {args.engine} over {args.other}: {ratio:.3f}")


if __name__ == "__main__":
    main()
