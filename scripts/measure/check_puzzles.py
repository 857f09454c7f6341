#!/usr/bin/env python3
"""Puzzle check: the puzzles `horizon analyze --puzzles FILE` wrote, searched again by another
engine (Stockfish 15.1 is what docs/analysis.md reports) deeper than Horizon checked them.

Each EPD line holds the best move twice (bm in SAN; c4 "uci MOVE"), and in c2 the margin and
the depth of Horizon's own check ("margin 264 cp at depth 12"). The engine searches each
position with MultiPV 2 to the depth given (at least Horizon's depth plus --extra); a puzzle
agrees when the engine's first line starts with the stated move and its second line scores at
least --margin centipawns lower (a mate counts as MATE_CP, as in Horizon). Prints one line per
puzzle that does not agree and the shares; exits 1 when the share that agrees is below --aim.

    scripts/measure/check_puzzles.py puzzles.epd --engine stockfish --depth 18
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import uci  # noqa: E402

MATE_CP = 1500  # as PUZZLE_MATE_CP in src/analysis/puzzles.hpp


def operations(line):
    """The EPD operations of a line as {opcode: [operands]}, and the four FEN fields."""
    fields = line.split(None, 4)
    if len(fields) < 4:
        raise ValueError(f"not an EPD line: {line!r}")
    fen = " ".join(fields[:4])
    ops = {}
    rest = fields[4] if len(fields) > 4 else ""
    operation = r'\s*([A-Za-z][A-Za-z0-9_]*)((?:\s+(?:"(?:\\.|[^"\\])*"|[^\s;"]+))*)\s*;'
    for match in re.finditer(operation, rest):
        operands = re.findall(r'"((?:\\.|[^"\\])*)"|([^\s;"]+)', match.group(2))
        ops[match.group(1)] = [q.replace('\\"', '"').replace("\\\\", "\\") if q else w
                               for q, w in operands]
    return fen, ops


def last_lines(search):
    """{multipv: (depth, score in cp from the side to move, first move)} of the last depth's
    exact lines of a MultiPV search (uci.Search)."""
    found = {}
    for line in search.lines:
        words = line.split()
        if words[:1] != ["info"] or "multipv" not in words or "pv" not in words:
            continue
        if "lowerbound" in words or "upperbound" in words:
            continue
        at = words.index("score")
        kind, value = words[at + 1], int(words[at + 2])
        cp = max(-MATE_CP, min(MATE_CP, value)) if kind == "cp" else \
            (MATE_CP if value > 0 else -MATE_CP)
        found[int(words[words.index("multipv") + 1])] = (
            int(words[words.index("depth") + 1]), cp, words[words.index("pv") + 1])
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("epd")
    ap.add_argument("--engine", default="stockfish")
    ap.add_argument("--depth", type=int, default=18, help="search depth (default 18)")
    ap.add_argument("--extra", type=int, default=4,
                    help="at least this much deeper than Horizon's check (default 4)")
    ap.add_argument("--margin", type=int, default=150, help="centipawns (default 150)")
    ap.add_argument("--aim", type=float, default=95.0, help="per cent that must agree")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash", type=int, default=64)
    args = ap.parse_args()

    engine = uci.Engine([args.engine])
    engine.uci(timeout=60)
    engine.setoption("Threads", args.threads)
    engine.setoption("Hash", args.hash)
    engine.setoption("MultiPV", 2)
    total = first = both = 0
    with open(args.epd, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            if not raw.strip() or raw.startswith("#"):
                continue
            fen, ops = operations(raw.strip())
            stated = ops.get("c4", [""])[0].removeprefix("uci ").strip()
            check = re.search(r"depth (\d+)", ops.get("c2", [""])[0])
            if not stated or not check:
                sys.exit(f"{args.epd}:{number}: no c4 \"uci MOVE\" or c2 \"... depth N\"")
            depth = max(args.depth, int(check.group(1)) + args.extra)
            hmvc = ops.get("hmvc", ["0"])[0]
            fmvn = ops.get("fmvn", ["1"])[0]
            engine.newgame()
            engine.isready(timeout=60)
            engine.position(f"{fen} {hmvc} {fmvn}")
            found = last_lines(engine.go(f"depth {depth}"))
            total += 1
            if 1 not in found or 2 not in found:
                print(f"{ops.get('id', ['?'])[0]}: fewer than two lines at depth {depth}")
                continue
            best_ok = found[1][2] == stated
            gap = found[1][1] - found[2][1]
            first += best_ok
            both += best_ok and gap >= args.margin
            if not (best_ok and gap >= args.margin):
                print(f"{ops.get('id', ['?'])[0]}: stated {stated}, engine {found[1][2]} "
                      f"({found[1][1]} cp), second {found[2][2]} ({found[2][1]} cp), "
                      f"gap {gap} cp at depth {found[1][0]}")
    engine.close()
    if total == 0:
        sys.exit(f"{args.epd}: no puzzle")
    print(f"{total} puzzles: the engine's first choice in {first} ({100.0 * first / total:.1f}%), "
          f"with the margin of {args.margin} cp in {both} ({100.0 * both / total:.1f}%)")
    return 0 if 100.0 * both / total >= args.aim else 1


if __name__ == "__main__":
    sys.exit(main())
