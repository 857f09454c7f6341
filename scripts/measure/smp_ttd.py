#!/usr/bin/env python3
"""Lazy SMP time to depth: one engine at two thread counts, interleaved, on the bench positions.

    scripts/measure/smp_ttd.py ENGINE [--depth 17] [--threads 1,2] [--rounds 3] [--hash 64]
                               [--second-engine OTHER] [--balance-cores] [--per-position]

Every round searches each bench position with `go depth DEPTH` from an empty table, once per
thread count, one run straight after the other, so a change in the machine's load falls on
both alike. A position's time is the engine's `time` on its first report of a completed depth
>= DEPTH; its median over the rounds is kept. Prints, per thread count, the sum of those
medians and the nodes, and the speed-up of the second count over the first: the ratio of the
sums and the geometric mean of the per-position ratios.

With --second-engine the second run uses another build: `--threads 2,2 --second-engine B`
compares two Lazy SMP versions directly (Threads 1 searches the same tree in both, so only the
Threads 2 runs differ). On a shared 2-core machine two runs of one build at Threads 2 differed
by 5-6 % over 4 rounds; use 8 rounds or more before calling a difference real.

--balance-cores is for machines whose CPUs differ in speed (on the 2-core VM here, for a while
one CPU ran Horizon at 0.75x the node rate of the other; later both were alike): a one-thread
run there is fast or slow depending on where the scheduler puts it. With the flag, a run of
fewer threads than CPUs is pinned to each CPU window in turn, round by round, so it is timed
on every CPU alike, while a run with a thread per CPU uses them all.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from bench_search import bench_fens, first_at_or_beyond, search  # noqa: E402


def time_to_depth(engine, fen, depth, threads, hash_mb, limit_s, cpus):
    per_depth = search(engine, fen, depth, threads, hash_mb, limit_s, cpus)
    reached = first_at_or_beyond(per_depth, depth)
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
    ap.add_argument("--second-engine", metavar="PATH",
                    help="run the second thread count with this engine instead (to compare two "
                         "builds, for example --threads 2,2)")
    ap.add_argument("--balance-cores", action="store_true",
                    help="pin a run with fewer threads than CPUs to each CPU window in turn, one "
                         "per round, and take the mean over windows of its per-window medians")
    ap.add_argument("--per-position", action="store_true",
                    help="also print each position's median times and speed-up")
    args = ap.parse_args()
    counts = [int(x) for x in args.threads.split(",")]
    if len(counts) != 2:
        ap.error("--threads takes two counts, such as 1,2")

    engines = [args.engine, args.second_engine or args.engine]
    cpu_list = sorted(os.sched_getaffinity(0))
    # The CPU windows each run takes in turn: [None] (unpinned) unless balancing cores.
    windows = [[None] for _ in counts]
    if args.balance_cores:
        for k, c in enumerate(counts):
            if c < len(cpu_list):
                windows[k] = [{cpu_list[(w + j) % len(cpu_list)] for j in range(c)}
                              for w in range(len(cpu_list))]
        if any(args.rounds % len(ws) for ws in windows):
            ap.error(f"--balance-cores takes a multiple of {len(cpu_list)} rounds")
    fens = bench_fens()
    runs = [0, 1]  # the base and the other: (engine, thread count) each
    times = [[[[] for _ in windows[k]] for _ in fens] for k in runs]
    nodes = [[[] for _ in fens] for _ in runs]
    for r in range(args.rounds):
        for i, fen in enumerate(fens):
            for k in (runs if (r + i) % 2 == 0 else runs[::-1]):
                w = r % len(windows[k])
                t, n = time_to_depth(engines[k], fen, args.depth, counts[k], args.hash,
                                     args.limit_s, windows[k][w])
                times[k][i][w].append(t)
                nodes[k][i].append(n)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)

    # A position's time: its median over the rounds (the mean of those of each CPU window).
    med = [[statistics.mean(statistics.median(ts) for ts in per_window)
            for per_window in times[k]] for k in runs]
    base, other = runs
    for k in runs:
        total_nodes = sum(statistics.median(ns) for ns in nodes[k])
        name = f" ({engines[k]})" if args.second_engine else ""
        print(f"threads {counts[k]}{name}: time to depth {args.depth}, sum of per-position medians "
              f"{sum(med[k]):.0f} ms (median position {statistics.median(med[k]):.0f} ms), "
              f"nodes {total_nodes:.0f}")
        if len(windows[k]) > 1:
            for w, cpus in enumerate(windows[k]):
                total = sum(statistics.median(per_window[w]) for per_window in times[k])
                print(f"  pinned to CPU {','.join(map(str, sorted(cpus)))}: {total:.0f} ms")
    if args.per_position:
        for i, fen in enumerate(fens):
            b, o = med[base][i], med[other][i]
            print(f"{i + 1:2d} {b:7.0f} ms {o:7.0f} ms  {b / o if o > 0 else 0:5.2f}  {fen}")
    ratios = [b / o for b, o in zip(med[base], med[other]) if b > 0 and o > 0]
    print(f"speed-up of the second run ({counts[other]} threads) over the first ({counts[base]}): "
          f"{sum(med[base]) / sum(med[other]):.3f} (ratio of sums), "
          f"{statistics.geometric_mean(ratios):.3f} "
          f"(geometric mean over {len(ratios)} positions), {args.rounds} rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
