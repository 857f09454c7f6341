#!/usr/bin/env python3
"""The size of a player's mistakes, as a full-strength search judges them.

    scripts/measure/elo_drops.py HORIZON_BIN GAMES.pgn PLAYER [--nodes N] [--worst K]

Runs `horizon analyze --nodes N` (full strength: analyze ignores UCI_LimitStrength) over the
games and, for every move of PLAYER (the name in the White/Black tags), takes the drop of the
evaluation from the mover's side: the position's value before the move (its best line) minus
its value after it. Evaluations are clamped to +-10 pawns first, so that a mate found a move
later, or a won position staying won, is not counted as a loss. Prints the number of moves,
the median and largest drop, how many dropped a queen's worth (9 pawns) or more, and the K
worst moves with their game and move number, for a look with `horizon analyze --fen`.
"""
import argparse
import re
import statistics
import subprocess
import sys

CLAMP = 10.0
QUEEN = 9.0


def value(text):
    """An [%eval] value in pawns from White's view: 0.35, -1.2, #3, #-2."""
    if text.startswith("#"):
        return CLAMP if int(text[1:]) > 0 else -CLAMP
    return max(-CLAMP, min(CLAMP, float(text)))


def main_line(body):
    """The moves and comments outside the variations (the better lines analyze adds)."""
    out, depth, comment = [], 0, False
    for c in body:
        if comment:
            comment = c != "}"
        elif c == "{":
            comment = True
        elif c == "(":
            depth += 1
            continue
        elif c == ")":
            depth -= 1
            continue
        if depth == 0:
            out.append(c)
    return "".join(out)


def games(annotated):
    """(tags, [(move number text, san, eval after)], eval before the first move) per game."""
    for block in re.split(r"\n(?=\[Event )", annotated):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M))
        body = "\n".join(line for line in block.splitlines()
                         if not re.match(r'\[\w+ "', line))
        body = main_line(body.replace("\n", " "))
        first = re.match(r"\s*\{[^}]*\[%eval ([^\]\s]+)\]", body)
        if not tags or not first:
            continue
        moves = re.findall(r"(\d+\.(?:\.\.)?)\s*(\S+)\s*\{[^}]*\[%eval ([^\]\s]+)\]", body)
        yield tags, moves, value(first.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("horizon")
    ap.add_argument("pgn")
    ap.add_argument("player")
    ap.add_argument("--nodes", type=int, default=200000)
    ap.add_argument("--worst", type=int, default=5)
    a = ap.parse_args()
    annotated = subprocess.run([a.horizon, "analyze", a.pgn, "--nodes", str(a.nodes)],
                               check=True, capture_output=True, text=True).stdout
    drops = []  # (drop, game number, move text)
    for number, (tags, moves, before) in enumerate(games(annotated), 1):
        white_first = "w" in tags.get("FEN", "x w ").split()[1:2]
        for i, (num, san, after) in enumerate(moves):
            after = value(after)
            white_moved = (i % 2 == 0) == white_first
            mover = tags.get("White" if white_moved else "Black")
            if mover == a.player and "#" not in san:  # a mate given loses nothing
                drop = (before - after) if white_moved else (after - before)
                drops.append((drop, number, f"{num} {san}"))
            before = after
    if not drops:
        sys.exit(f"no moves of {a.player} found in {a.pgn}")
    sizes = [d for d, _, _ in drops]
    print(f"{a.player}: {len(drops)} moves in {a.pgn}, judged at {a.nodes} nodes")
    print(f"drop in pawns: median {statistics.median(sizes):.2f}, largest {max(sizes):.2f}, "
          f"{sum(d >= QUEEN for d in sizes)} of a queen's worth (>= {QUEEN:.0f}) or more")
    for d, game, move in sorted(drops, reverse=True)[:a.worst]:
        print(f"  {d:6.2f}  game {game}  {move}")


if __name__ == "__main__":
    main()
