#!/usr/bin/env python3
"""Positions for the measuring scripts (scripts/measure/nps_compare.py, eval_compare.py).

- read_positions: FENs from EPD files and from training files ('<FEN> | <score> | <result>',
  plain or .xz), with the result when the line has one.
- phase / phase_name: the game phase by material, 0 (bare kings and pawns) to 24 (all pieces),
  knight and bishop 1, rook 2, queen 4; opening from 20, endgame up to 8, middlegame between.
"""
import lzma

PHASE_WEIGHT = {"n": 1, "b": 1, "r": 2, "q": 4}
OPENING_FROM = 20
ENDGAME_UP_TO = 8


def open_text(path):
    return lzma.open(path, "rt") if path.endswith(".xz") else open(path)


def read_positions(path):
    """(fen, result or None) for every position line of an EPD or training file."""
    with open_text(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if "|" in line:
                parts = [p.strip() for p in line.split("|")]
                fen = parts[0]
                result = float(parts[2]) if len(parts) > 2 else None
            else:
                # EPD: four FEN fields, then operations.
                fen, result = " ".join(line.split()[:4]), None
            if len(fen.split()) == 4:
                fen += " 0 1"
            yield fen, result


def phase(fen):
    return min(24, sum(PHASE_WEIGHT.get(c.lower(), 0) for c in fen.split()[0]))


def phase_name(fen):
    p = phase(fen)
    if p >= OPENING_FROM:
        return "opening"
    return "endgame" if p <= ENDGAME_UP_TO else "middlegame"
