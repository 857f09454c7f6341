#!/usr/bin/env python3
"""A player's score and Elo difference from a match runner's PGN, with pentanomial statistics.

    scripts/match/pgn_score.py GAMES.pgn [MORE.pgn ...] PLAYER

fastchess prints its summary only every so many games, so a match stopped early (a session's
end, Ctrl-C) leaves games after its last summary uncounted. This reads every finished game of
GAMES.pgn instead. The two games of one [Round] (one opening, both colours, fastchess -repeat)
are a pair; a round with one game finished so far is left out. A match resumed from fastchess's
saved state plays again the games finished after its last save, so a round and colour can occur
twice: the later game counts, the earlier one does not (as in fastchess's own tally). Prints
the games, wins, draws and losses of PLAYER (its [White]/[Black] name), its score, the
pentanomial counts (pairs that scored 0, 0.5, 1, 1.5 and 2 points) and the Elo difference
with its 95 % error, from the variance of the pair scores as fastchess reports it.

A pair that repeats an earlier pair move for move (the same opening, both games the same moves
and results) is no new evidence: at a fixed node count an engine that clears its hash for a new
game plays the same game again, so a match longer than twice its book's openings repeats itself,
and its error above is too small. When pairs repeat, a second line gives the figures of the
distinct pairs alone, the first of each kind.

Several files are the parts of one match that were played as separate runs (a match longer than
a session, whose machine is not kept: its later part is a new run, its rounds numbered from 1
again), so a round pairs games of its own file only. A name ending in .xz is read through xz.
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pgn_games import games, latest, read  # noqa: E402

POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


COMMENT = re.compile(r"\{[^}]*\}")


def player_points(text, player):
    """round -> (the points PLAYER scored in each finished game of that round (a replayed game
    counted once, the later one), what each game was: its start, colours, moves and result)."""
    rounds = {}
    finished = (g for g in games(text) if g[0].get("Result") in POINTS)
    for tags, movetext in latest(finished):
        if player not in (tags.get("White"), tags.get("Black")):
            continue
        side = 0 if tags.get("White") == player else 1
        points, seen = rounds.setdefault(tags.get("Round", "?"), ([], []))
        points.append(POINTS[tags["Result"]][side])
        seen.append((tags.get("FEN", ""), tags.get("White"), tags["Result"],
                     " ".join(COMMENT.sub(" ", movetext).split())))
    return rounds


def pair_line(pairs):
    """Pentanomial counts and Elo with its 95 % error of pair scores (0 to 2 points each)."""
    penta = [sum(1 for p in pairs if p == k / 2) for k in range(5)]
    mean = sum(pairs) / (2 * len(pairs))
    var = sum((p / 2 - mean)**2 for p in pairs) / len(pairs)
    error = 1.96 * math.sqrt(var / len(pairs))
    low, high = elo(mean - error), elo(mean + error)
    return (f"pentanomial {penta}: score {100 * mean:.1f} %, Elo {elo(mean):+.1f} "
            f"+/- {(high - low) / 2:.1f}")


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0: no "-0.0" at 50 %


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip())
        return 2
    files, player = sys.argv[1:-1], sys.argv[-1]
    rounds = {}
    for i, path in enumerate(files):
        for r, points in player_points(read(path), player).items():
            rounds[(i, r)] = points
    games = [p for points, _ in rounds.values() for p in points]
    paired = [(sum(points), tuple(sorted(seen))) for points, seen in rounds.values()
              if len(points) == 2]
    pairs = [p for p, _ in paired]
    if not pairs:
        print(f"no finished pair of games for {player} in {', '.join(files)}")
        return 1
    wins, draws = games.count(1.0), games.count(0.5)
    print(f"{player}: {len(games)} games, +{wins} ={draws} -{len(games) - wins - draws}, "
          f"score {100 * sum(games) / len(games):.1f} %")
    print(f"pairs {len(pairs)} ({2 * len(pairs)} games), {pair_line(pairs)}")
    distinct = list({key: p for p, key in paired}.values())
    if len(distinct) < len(pairs):
        print(f"distinct pairs {len(distinct)} ({len(pairs) - len(distinct)} repeat one "
              f"move for move), {pair_line(distinct)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
