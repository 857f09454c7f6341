#!/usr/bin/env python3
"""Nodes per second of Horizon and another engine on the same positions for the same time.

    scripts/measure/nps_compare.py [--horizon BIN] [--other CMD] [--other-option NAME=VALUE ...]
                           [--movetime MS] [--per-phase N] [--seed S] [--repeat R]
                           [--csv OUT] FILE [FILE ...]

FILE: EPD files and training files ('<FEN> | <score> | <result>', plain or .xz). Their
positions are sorted into opening, middlegame and endgame by material (scripts/lib/positions.py
says where the lines fall), and N of each phase are drawn with seed S (all of a phase if it has
fewer). Each position is searched by both engines with `go movetime MS`, one thread and 16 MiB
each, after `ucinewgame` (an empty hash), the two engines one after the other, taking turns at
going first, so that both meet the same load of a shared machine; --repeat R searches every
position R times per engine. An engine's speed on a position is nodes / time of its last info
line that gives both (its own count of its own nodes: the two engines count nodes differently,
so the ratio compares counts, not work). Per position the ratio Horizon / other is taken (the
geometric mean of its R repeats); printed are the median ratio with its quartiles and extremes,
over all positions and per phase, and the median nps of each engine.

The other engine is Stockfish on its classical evaluation unless told otherwise:
--other /usr/games/stockfish --other-option "Use NNUE=false".
"""
import argparse
import csv
import math
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import uci  # noqa: E402
from positions import phase_name, read_positions  # noqa: E402

PHASES = ("opening", "middlegame", "endgame")


def quantiles(values):
    """Minimum, lower quartile, median, upper quartile, maximum."""
    v = sorted(values)
    if len(v) == 1:
        return v * 5
    q = statistics.quantiles(v, n=4, method="inclusive")
    return v[0], q[0], q[1], q[2], v[-1]


def draw_positions(files, per_phase, seed):
    by_phase = {p: [] for p in PHASES}
    seen = set()
    for path in files:
        for fen, _ in read_positions(path):
            key = " ".join(fen.split()[:4])
            if key not in seen:
                seen.add(key)
                by_phase[phase_name(fen)].append(fen)
    rng = random.Random(seed)
    drawn = []
    for p in PHASES:
        pool = by_phase[p]
        drawn += [(p, fen) for fen in (pool if len(pool) <= per_phase
                                       else rng.sample(pool, per_phase))]
    return drawn


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--horizon", default="build/release/horizon")
    ap.add_argument("--other", default="/usr/games/stockfish")
    ap.add_argument("--other-option", action="append", default=None,
                    help='a UCI option of the other engine (default "Use NNUE=false")')
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--per-phase", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--csv", help="write one row per search here")
    args = ap.parse_args()
    other_options = args.other_option if args.other_option is not None else ["Use NNUE=false"]

    positions = draw_positions(args.files, args.per_phase, args.seed)
    common = ["Threads=1", "Hash=16"]
    engines = [uci.open_engine(args.horizon, common, "horizon"),
               uci.open_engine(args.other, common + other_options, "other")]
    rows = []
    ratios = {p: [] for p in PHASES}
    nps = {"horizon": [], "other": []}
    try:
        for i, (ph, fen) in enumerate(positions):
            logs = {"horizon": [], "other": []}
            for r in range(args.repeat):
                order = engines if (i + r) % 2 == 0 else engines[::-1]
                for eng in order:
                    eng.newgame()
                    eng.isready(timeout=60)
                    eng.position(fen)
                    found = uci.nodes_and_time(eng.go(f"movetime {args.movetime}"))
                    if not found or found[1] <= 0:
                        continue
                    nodes, ms = found
                    logs[eng.name].append(nodes * 1000 / ms)
                    rows.append((i, ph, fen, r, eng.name, nodes, ms))
            if not logs["horizon"] or not logs["other"]:
                print(f"skipped (no timed info line): {fen}", file=sys.stderr)
                continue
            gh = math.exp(statistics.fmean(math.log(x) for x in logs["horizon"]))
            go = math.exp(statistics.fmean(math.log(x) for x in logs["other"]))
            nps["horizon"].append(gh)
            nps["other"].append(go)
            ratios[ph].append(gh / go)
            print(f"{i + 1}/{len(positions)} {ph:10s} horizon {gh:10.0f} other {go:10.0f} "
                  f"ratio {gh / go:.3f}", file=sys.stderr, flush=True)
    finally:
        for eng in engines:
            eng.close()

    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["index", "phase", "fen", "repeat", "engine", "nodes", "ms"])
            w.writerows(rows)

    print(f"movetime {args.movetime} ms, repeat {args.repeat}, seed {args.seed}; "
          f"other: {args.other} {' '.join(other_options)}")
    print("nps ratio Horizon / other per position: min, lower quartile, median, upper quartile,"
          " max")
    every = [x for p in PHASES for x in ratios[p]]
    for name, values in [(p, ratios[p]) for p in PHASES] + [("all", every)]:
        if not values:
            continue
        lo, q1, med, q3, hi = quantiles(values)
        print(f"  {name:10s} n {len(values):4d}  {lo:.3f}  {q1:.3f}  {med:.3f}  {q3:.3f}  "
              f"{hi:.3f}")
    if every:
        print(f"median nps: horizon {statistics.median(nps['horizon']):.0f}, "
              f"other {statistics.median(nps['other']):.0f}")


if __name__ == "__main__":
    main()
