#!/usr/bin/env python3
"""Depth and time per move of each player of a match runner's PGN, from its move comments.

    scripts/measure/pgn_depth.py PGN [PGN ...]

Reads comments '{<score>/<depth> <seconds>s}' (fastchess, cutechess) of every game (a game
replayed after a resume counted once, as scripts/lib/pgn_games.py keeps it). For each player: the
moves counted, the median and mean depth, the median and mean seconds a move, and the median
depth by move number (moves 1-20, 21-40, 41 on, counted from the opening position). Moves with a
mate score are left out of the depth figures. At fixed nodes a move the ratio of the two players'
median seconds is their speed ratio in the games, under the same load (fastchess runs both
engines of a game on the same machine at the same time as the other games).
"""
import argparse
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pgn_games import games, latest, read  # noqa: E402

SCORE = re.compile(r"^\s*([-+]?[\d.]+|[-+]?M\d+|#[-+]?\d+)/(\d+)\s+([\d.]+)s")
SPANS = ((1, 20), (21, 40), (41, 10**6))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()
    found = []
    for path in args.pgn:
        found += latest(games(read(path)))
    per = {}
    for tags, movetext in found:
        players = {0: tags.get("White", "?"), 1: tags.get("Black", "?")}
        # The side to move of the first move is the opening FEN's.
        fen = tags.get("FEN", "")
        side = 1 if len(fen.split()) > 1 and fen.split()[1] == "b" else 0
        move_no = 1
        for m in re.finditer(r"(\d+)\.(?:\.\.)?|\{([^}]*)\}", movetext):
            if m.group(1):
                move_no = int(m.group(1))
                continue
            s = SCORE.match(m.group(2))
            if s:
                rec = per.setdefault(players[side], {"depth": [], "secs": [], "span": {}})
                rec["secs"].append(float(s.group(3)))
                if not s.group(1).startswith(("#", "M", "+M", "-M")):
                    rec["depth"].append(int(s.group(2)))
                    span = next(i for i, (a, b) in enumerate(SPANS) if a <= move_no <= b)
                    rec["span"].setdefault(span, []).append(int(s.group(2)))
            side ^= 1
    print(f"{len(found)} games")
    print("player                 moves  depth med  mean   seconds med   mean   depth by move "
          "1-20 / 21-40 / 41+")
    medians = {}
    for name, rec in sorted(per.items()):
        if not rec["secs"]:
            continue
        medians[name] = statistics.median(rec["secs"])
        by_span = " / ".join(f"{statistics.median(rec['span'][i]):.0f}" if rec["span"].get(i)
                             else "-" for i in range(len(SPANS)))
        print(f"{name:22s} {len(rec['secs']):6d} {statistics.median(rec['depth']):8.0f} "
              f"{statistics.fmean(rec['depth']):6.2f} {medians[name]:12.3f} "
              f"{statistics.fmean(rec['secs']):6.3f}   {by_span}")
    if len(medians) == 2:
        (a, ta), (b, tb) = sorted(medians.items())
        print(f"median seconds a move, {a} / {b}: {ta / tb:.3f}" if tb else "")


if __name__ == "__main__":
    main()
