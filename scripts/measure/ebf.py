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
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bench_fens():
    text = (ROOT / "src/engine/bench.cpp").read_text()
    block = text[text.index("BENCH_FENS[] = {"):text.index("};", text.index("BENCH_FENS[] = {"))]
    return re.findall(r'"([^"]+)"', block)


def start_engine(engine, cpus=None):
    """Starts a UCI engine on the CPUs `cpus` (None: any); returns the process and a function
    that sends it one line."""
    pin = (lambda: os.sched_setaffinity(0, cpus)) if cpus is not None else None
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         bufsize=1, preexec_fn=pin)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    return p, send


def search(engine, fen, depth, threads, hash_mb, limit_s, cpus=None):
    """`cpus`: the CPUs the engine may run on (None: any)."""
    p, send = start_engine(engine, cpus)
    send("uci")
    send(f"setoption name Threads value {threads}")
    send(f"setoption name Hash value {hash_mb}")
    send("ucinewgame")
    send("position fen " + fen)
    send(f"go depth {depth}")
    per_depth = {}  # depth -> (nodes, time ms) at the end of that depth
    start = time.monotonic()
    stopped = False
    for line in p.stdout:
        if line.startswith("bestmove"):
            break
        if not stopped and time.monotonic() - start > limit_s:
            send("stop")
            stopped = True
        m = re.match(r"info depth (\d+) .*?\bnodes (\d+) .*?\btime (\d+)", line)
        if m and ("multipv" not in line or " multipv 1 " in line):
            d, n, t = int(m.group(1)), int(m.group(2)), int(m.group(3))
            if "lowerbound" in line or "upperbound" in line:
                continue
            per_depth[d] = (n, t)
    send("quit")
    p.wait(timeout=10)
    return per_depth


def first_at_or_beyond(per_depth, depth):
    """The first completed depth >= `depth` in a search's reports, with its (nodes, time ms),
    or None. With Lazy SMP the main thread may report a deeper line a helper completed
    instead of the depth itself."""
    reached = [d for d in sorted(per_depth) if d >= depth]
    return (reached[0], *per_depth[reached[0]]) if reached else None


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
