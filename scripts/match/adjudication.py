#!/usr/bin/env python3
"""What score adjudication would have done to finished games (fastchess or cutechess PGN whose
move comments start with the mover's score, "+0.25/12 ..." or "-M5/20 ...").

    scripts/match/adjudication.py [--resign-moves N] [--resign-score CP] [--draw-from MOVE]
                                  [--draw-moves N] [--draw-score CP] GAMES.pgn ...

The defaults are SELFPLAY_ADJUDICATION of scripts/match/opponents.sh (3, 600, 34, 8, 20 now).
A game is resigned once both sides have scored the same side at least --resign-score
centipawns up in each of their last --resign-moves moves (fastchess -resign ... twosided=true),
and drawn from move --draw-from once both sides have scored within --draw-score in each of
their last --draw-moves moves (fastchess -draw). Prints the games, their mean length in plies,
the share of all plies that adjudication would have saved (with fixed nodes a move, about the
share of playing time), and how many adjudicated games had ended with another result.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pgn_games  # noqa: E402
from adjudication_rules import selfplay_adjudication, settings  # noqa: E402

SCORE = re.compile(r"([+-])(M?)(\d+(?:\.\d+)?)/")


def games(path):
    """(result, white moved first, [mover's score in cp or None per ply]) for each game, a game
    that a resumed match played again counted once (the later copy, as pgn_games.latest)."""
    for tags, movetext in pgn_games.latest(pgn_games.games(pgn_games.read(path))):
        fen = tags.get("FEN")
        white_first = not (fen and fen.split()[1:2] == ["b"])
        scores = []
        for comment in re.findall(r"\{([^}]*)\}", movetext):
            m = SCORE.match(comment.strip())
            if not m:
                scores.append(None)
                continue
            size = 100000 if m.group(2) else round(float(m.group(3)) * 100)
            scores.append(size if m.group(1) == "+" else -size)
        yield tags.get("Result", "*"), white_first, scores


def adjudicate(white_first, scores, args):
    """(result, plies played) where adjudication would have ended the game, else None."""
    white_up = black_up = level = 0
    for ply, score in enumerate(scores):
        if score is None:
            white_up = black_up = level = 0
            continue
        white_moved = (ply % 2 == 0) == white_first
        white_view = score if white_moved else -score
        white_up = white_up + 1 if white_view >= args.resign_score else 0
        black_up = black_up + 1 if white_view <= -args.resign_score else 0
        level = level + 1 if abs(score) <= args.draw_score else 0
        if white_up >= 2 * args.resign_moves:
            return "1-0", ply + 1
        if black_up >= 2 * args.resign_moves:
            return "0-1", ply + 1
        if ply // 2 + 1 >= args.draw_from and level >= 2 * args.draw_moves:
            return "1/2-1/2", ply + 1
    return None


def main():
    used = settings(selfplay_adjudication())  # the defaults: what sprt.sh and spsa.py use
    resign, draw = used["-resign"], used["-draw"]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--resign-moves", type=int, default=int(resign["movecount"]))
    ap.add_argument("--resign-score", type=int, default=int(resign["score"]))
    ap.add_argument("--draw-from", type=int, default=int(draw["movenumber"]))
    ap.add_argument("--draw-moves", type=int, default=int(draw["movecount"]))
    ap.add_argument("--draw-score", type=int, default=int(draw["score"]))
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()

    count = plies = saved = 0
    ended = {"resign": [0, 0], "draw": [0, 0]}  # adjudicated, of which another result
    for path in args.pgn:
        for result, white_first, scores in games(path):
            count += 1
            plies += len(scores)
            verdict = adjudicate(white_first, scores, args)
            if not verdict:
                continue
            saved += len(scores) - verdict[1]
            kind = ended["draw" if verdict[0] == "1/2-1/2" else "resign"]
            kind[0] += 1
            kind[1] += verdict[0] != result
    if not count:
        raise SystemExit("adjudication: no games in " + ", ".join(args.pgn))
    print(f"games {count}, mean {plies / count:.1f} plies; adjudication saves "
          f"{100 * saved / max(plies, 1):.1f} % of the plies")
    for kind, (n, other) in ended.items():
        print(f"  {kind}: {n} games adjudicated, {other} of them had ended otherwise")


if __name__ == "__main__":
    main()
