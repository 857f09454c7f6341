#!/usr/bin/env python3
"""How long a UCI engine takes to answer `stop` with `bestmove`, at several thread counts.

For each thread count: sets Threads, waits for readyok, then repeats `go infinite`, a pause,
`stop`, and times from writing `stop` to reading `bestmove`. Prints the median and the worst
of the repetitions. Standard library only; any UCI engine.

    scripts/stop_latency.py ENGINE [--threads 1,8,64] [--runs 20] [--think 0.5]
                            [--option NAME=VALUE ...]
"""
import argparse
import statistics
import subprocess
import sys
import time


class Engine:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"the engine ended before answering '{prefix}'")
            if line.startswith(prefix):
                return line

    def sync(self):
        self.send("isready")
        self.read_until("readyok")

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            self.proc.kill()


def measure(engine, threads, runs, think, fen):
    engine.send(f"setoption name Threads value {threads}")
    engine.sync()
    times = []
    for _ in range(runs):
        engine.send("ucinewgame")
        engine.send(f"position fen {fen}" if fen else "position startpos")
        engine.sync()
        engine.send("go infinite")
        time.sleep(think)
        start = time.perf_counter()
        engine.send("stop")
        engine.read_until("bestmove")
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

    engine = Engine([args.engine])
    engine.send("uci")
    engine.read_until("uciok")
    for opt in args.option:
        name, _, value = opt.partition("=")
        engine.send(f"setoption name {name} value {value}")
    engine.sync()
    print(f"{args.engine}: stop -> bestmove, {args.runs} runs of {args.think} s each")
    print(f"{'Threads':>7} {'median ms':>10} {'worst ms':>9}")
    try:
        for threads in [int(t) for t in args.threads.split(",")]:
            times = measure(engine, threads, args.runs, args.think, args.fen)
            print(f"{threads:>7} {statistics.median(times):>10.1f} {max(times):>9.1f}",
                  flush=True)
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
