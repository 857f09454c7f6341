#!/usr/bin/env python3
"""Writes the games of a PGN (plain or .xz) in which both players are among those named.

    scripts/measure/pgn_select.py IN OUT PLAYER [PLAYER ...]

PLAYER is a name as the [White] and [Black] tags spell it. The games are copied as they are, in
the order of IN; the count kept is printed. For example the games of Ethereal against Toga II
alone out of the three-engine file in tuning/games, a label set that neither Horizon nor
Stockfish played (docs/diagnostics.md):

    scripts/measure/pgn_select.py tuning/games/2026-12-04-engines-2+0.02.pgn.xz et.pgn \
        Ethereal Toga2
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pgn_games import TAG, read  # noqa: E402


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    src, dst, players = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    kept = total = 0
    with open(dst, "w") as out:
        for chunk in read(src).split("[Event ")[1:]:
            total += 1
            tags = dict(TAG.findall(chunk))
            if tags.get("White") in players and tags.get("Black") in players:
                out.write("[Event " + chunk.rstrip("\n") + "\n\n")
                kept += 1
    print(f"{kept} of {total} games kept")


if __name__ == "__main__":
    main()
