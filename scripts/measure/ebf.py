#!/usr/bin/env python3
"""Effective branching factor and time to depth of a UCI engine on Horizon's bench positions.

    scripts/measure/ebf.py ENGINE [--from 10] [--to 16] [--threads 1] [--hash 16] [--limit-s 120]

For every bench position (read from src/engine/bench.cpp) the engine searches `go depth TO`
from an empty table; the cumulative node count at the end of each depth d gives the ratio
nodes(d) / nodes(d - 1). Prints the geometric mean of those ratios over all positions and
depths FROM..TO, and the time and nodes to reach depth TO (sum and median over positions).
Any UCI engine that prints `info depth D ... nodes N ... time T` works, so two builds (or
Threads 1 against Threads 2) are compared by running this twice, side by side.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from bench_search import bench_fens, first_at_or_beyond, search  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("--from", dest="lo", type=int, default=10)
    ap.add_argument("--to", dest="hi", type=int, default=16)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--limit-s", type=float, default=120.0,
                    help="stop one position's search after this long")
    args = ap.parse_args()

    all_ratios, times, nodes = [], [], []
    fens = bench_fens()
    for i, fen in enumerate(fens, 1):
        pd = search(args.engine, fen, args.hi, args.threads, args.hash, args.limit_s)
        ratios = [pd[d][0] / pd[d - 1][0] for d in range(args.lo, args.hi + 1)
                  if d in pd and d - 1 in pd and pd[d - 1][0] > 0]
        all_ratios += ratios
        # Time to depth: the first report of a completed depth >= HI.
        hi = first_at_or_beyond(pd, args.hi)
        if hi:
            nodes.append(hi[1])
            times.append(hi[2])
        reached = max(pd) if pd else 0
        to_hi = f", depth {hi[0]} after {hi[2]} ms, {hi[1]} nodes" if hi else ""
        print(f"position {i:2}/{len(fens)}: depth {reached:2}, "
              f"ebf {statistics.geometric_mean(ratios) if ratios else float('nan'):.2f}"
              f"{to_hi}", file=sys.stderr)
    if not all_ratios:
        print("no depth pairs measured", file=sys.stderr)
        return 1
    print(f"engine {args.engine}, threads {args.threads}, hash {args.hash} MiB")
    print(f"EBF (geometric mean of nodes(d)/nodes(d-1), d = {args.lo}..{args.hi}, "
          f"{len(all_ratios)} ratios): {statistics.geometric_mean(all_ratios):.3f}")
    if times:
        print(f"depth {args.hi} reached in {len(times)}/{len(fens)} positions: "
              f"time sum {sum(times)} ms, median {statistics.median(times)} ms; "
              f"nodes sum {sum(nodes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
