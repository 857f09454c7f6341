#!/usr/bin/env python3
"""Lazy SMP time to depth: one engine at two thread counts, interleaved, on the bench positions.

    scripts/smp_ttd.py ENGINE [--depth 17] [--threads 1,2] [--rounds 3] [--hash 64]

Every round searches each bench position with `go depth DEPTH` from an empty table, once per
thread count, one run straight after the other, so a change in the machine's load falls on
both alike. A position's time is the engine's `time` on its first report of a completed depth
>= DEPTH; its median over the rounds is kept. Prints, per thread count, the sum of those
medians and the nodes, and the speed-up of the second count over the first: the ratio of the
sums and the geometric mean of the per-position ratios.
"""
import argparse
import importlib.util
import statistics
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("ebf", Path(__file__).with_name("ebf.py"))
ebf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ebf)


def time_to_depth(engine, fen, depth, threads, hash_mb, limit_s):
    reached = ebf.first_at_or_beyond(ebf.search(engine, fen, depth, threads, hash_mb, limit_s), depth)
    if not reached:
        raise SystemExit(f"depth {depth} not reached with {threads} threads: {fen}")
    return reached[2], reached[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("--depth", type=int, default=17)
    ap.add_argument("--threads", default="1,2", help="the two thread counts, base first")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--limit-s", type=float, default=120.0)
    args = ap.parse_args()
    counts = [int(x) for x in args.threads.split(",")]
    if len(counts) != 2:
        ap.error("--threads takes two counts, such as 1,2")

    fens = ebf.bench_fens()
    times = {c: [[] for _ in fens] for c in counts}
    nodes = {c: [[] for _ in fens] for c in counts}
    for r in range(args.rounds):
        for i, fen in enumerate(fens):
            for c in (counts if (r + i) % 2 == 0 else counts[::-1]):
                t, n = time_to_depth(args.engine, fen, args.depth, c, args.hash, args.limit_s)
                times[c][i].append(t)
                nodes[c][i].append(n)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)

    med = {c: [statistics.median(ts) for ts in times[c]] for c in counts}
    base, other = counts
    for c in counts:
        total_nodes = sum(statistics.median(ns) for ns in nodes[c])
        print(f"threads {c}: time to depth {args.depth}, sum of per-position medians "
              f"{sum(med[c]):.0f} ms (median position {statistics.median(med[c]):.0f} ms), "
              f"nodes {total_nodes:.0f}")
    ratios = [b / o for b, o in zip(med[base], med[other]) if b > 0 and o > 0]
    print(f"speed-up of {other} threads over {base}: {sum(med[base]) / sum(med[other]):.3f} "
          f"(ratio of sums), {statistics.geometric_mean(ratios):.3f} "
          f"(geometric mean over {len(ratios)} positions), {args.rounds} rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
