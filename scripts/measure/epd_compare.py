#!/usr/bin/env python3
"""Runs one EPD test suite through Horizon and other UCI engines, one after another, and prints
their solved counts side by side.

Every engine runs through `horizon epd`: Horizon itself, and the others with `--engine PATH`
(Horizon drives them over UCI: ucinewgame, position fen, go movetime; Threads and Hash set),
so that all answers are judged by the same code (bm, am and dm; moves in SAN).

    scripts/measure/epd_compare.py                                # WAC, 1 s, Horizon/SF/Glaurung
    scripts/measure/epd_compare.py --movetime 200 --first 20      # a quick look
    scripts/measure/epd_compare.py --engine toga=/usr/games/toga2 # more (or other) engines

The engines run one at a time on one thread each; a suite of 300 positions at 1000 ms takes
about five minutes an engine. Give the machine to it: other load changes the counts.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_ENGINES = ["stockfish=/usr/games/stockfish", "glaurung=/usr/games/glaurung"]
SOLVED = re.compile(r"^Solved (\d+) of (\d+)")
HEADER = re.compile(r"^Suite .*: \d+ positions; (.*)$")


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--suite", default=os.path.join(ROOT, "suites", "wac.epd"))
    p.add_argument("--movetime", type=int, default=1000, help="milliseconds a position")
    p.add_argument("--hash", type=int, default=16, help="MiB, every engine")
    p.add_argument("--horizon", default=os.path.join(ROOT, "build", "release", "horizon"))
    p.add_argument("--engine", action="append", metavar="NAME=PATH",
                   help="another UCI engine (repeatable; default: Stockfish and Glaurung)")
    p.add_argument("--first", type=int, default=0, help="only the first N positions (0: all)")
    p.add_argument("--keep", metavar="DIR", help="keep each engine's full output in DIR")
    return p.parse_args()


def suite_file(args):
    """The suite, or its first N positions in a temporary file."""
    if not args.first:
        return args.suite, None
    with open(args.suite, encoding="utf-8") as f:
        lines = [l for l in f if l.strip() and not l.lstrip().startswith("#")][: args.first]
    tmp = tempfile.NamedTemporaryFile("w", suffix=".epd", delete=False, encoding="utf-8")
    tmp.writelines(lines)
    tmp.close()
    return tmp.name, tmp.name


def run(args, suite, name, path):
    cmd = [args.horizon, "epd", suite, "--movetime", str(args.movetime), "--threads", "1",
           "--hash", str(args.hash)]
    if path:
        cmd += ["--engine", path]
    start = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seconds = time.monotonic() - start
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        with open(os.path.join(args.keep, name + ".txt"), "w", encoding="utf-8") as f:
            f.write(proc.stdout)
    solved = identity = None
    for line in proc.stdout.splitlines():
        if m := SOLVED.match(line):
            solved = (int(m.group(1)), int(m.group(2)))
        if m := HEADER.match(line):
            identity = m.group(1)
    if solved is None:
        sys.exit(f"{name}: no solved count ({' '.join(cmd)} exited {proc.returncode}):\n"
                 f"{proc.stderr.strip()}")
    failed = [l.split()[1] for l in proc.stdout.splitlines() if l.startswith("FAILED")]
    return {"name": name, "solved": solved, "identity": identity, "seconds": seconds,
            "failed": failed}


def main():
    args = parse_args()
    if not os.access(args.horizon, os.X_OK):
        sys.exit(f"no Horizon binary at {args.horizon} (build it, or give --horizon PATH)")
    engines = [("horizon", None)]
    for spec in args.engine or DEFAULT_ENGINES:
        name, _, path = spec.partition("=")
        if not path or not os.access(path, os.X_OK):
            sys.exit(f"--engine {spec}: give NAME=PATH of an executable")
        engines.append((name, path))
    suite, tmp = suite_file(args)
    try:
        results = []
        for name, path in engines:
            print(f"running {name} ...", file=sys.stderr, flush=True)
            results.append(run(args, suite, name, path))
    finally:
        if tmp:
            os.unlink(tmp)

    print(f"Suite {args.suite}{f' (first {args.first})' if args.first else ''}, "
          f"{args.movetime} ms a position, 1 thread, hash {args.hash} MiB, "
          f"{time.strftime('%Y-%m-%d %H:%M')}")
    print(f"{'engine':<10} {'solved':>11} {'seconds':>8}  identity")
    for r in results:
        got, total = r["solved"]
        print(f"{r['name']:<10} {got:>5} / {total:<3} {r['seconds']:>8.0f}  {r['identity']}")
    for r in results:
        if r["failed"]:
            print(f"{r['name']} failed: {' '.join(r['failed'])}")


if __name__ == "__main__":
    main()
