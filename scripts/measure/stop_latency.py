#!/usr/bin/env python3
"""How long a UCI engine takes to answer `stop` with `bestmove`, at several thread counts.

For each thread count: sets Threads, waits for readyok, then repeats `go infinite`, a pause,
`stop`, and times from writing `stop` to reading `bestmove`. Prints the median and the worst
of the repetitions. Standard library only; any UCI engine.

    scripts/measure/stop_latency.py ENGINE [--threads 1,8,64] [--runs 20] [--think 0.5]
                            [--option NAME=VALUE ...]
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import uci  # noqa: E402


def measure(engine, threads, runs, think, fen):
    engine.setoption("Threads", threads)
    engine.isready()
    times = []
    for _ in range(runs):
        engine.newgame()
        engine.position(fen or None)
        engine.isready()
        engine.send("go infinite")
        time.sleep(think)
        start = time.perf_counter()
        engine.send("stop")
        engine.expect("bestmove", timeout=60)
        times.append((time.perf_counter() - start) * 1000.0)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine", help="the UCI engine's binary")
    parser.add_argument("--threads", default="1,8,64", help="thread counts, comma-separated")
    parser.add_argument("--runs", type=int, default=20, help="stops per thread count")
    parser.add_argument("--think", type=float, default=0.5,
                        help="seconds between go infinite and stop")
    parser.add_argument("--fen", default="", help="position (default: the start position)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a setoption sent first (repeatable)")
    args = parser.parse_args()

    engine = uci.Engine([args.engine], stderr=subprocess.DEVNULL)
    engine.uci(timeout=30)
    for opt in args.option:
        name, _, value = opt.partition("=")
        engine.setoption(name, value)
    engine.isready(timeout=60)
    print(f"{args.engine}: stop -> bestmove, {args.runs} runs of {args.think} s each")
    print(f"{'Threads':>7} {'median ms':>10} {'worst ms':>9}")
    try:
        for threads in [int(t) for t in args.threads.split(",")]:
            times = measure(engine, threads, args.runs, args.think, args.fen)
            print(f"{threads:>7} {statistics.median(times):>10.1f} {max(times):>9.1f}",
                  flush=True)
    finally:
        engine.close()


if __name__ == "__main__":
    main()
