#!/usr/bin/env python3
"""Drives a UCI engine with python-chess, as lichess-bot does, and checks what a client meets.

    scripts/ci/pychess_check.py ENGINE [--pychess FOLDER]

FOLDER (or the environment variable PYCHESS_SRC) holds python-chess's source (the folder with
the `chess` package); without it the installed python-chess is used, and when there is none
the check is skipped with a message. Not part of the test suite: a client-side check, run by
hand. Each check prints PASS or FAIL; any warning python-chess logs counts as a failure. Exit
status: 0 all passed (or skipped), 1 a check failed.
"""
import argparse
import logging
import os
import sys

MULTIPV_FEN = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9"
MATED_IN_ONE_FEN = "7B/5R2/3p3N/3P4/2K1k2r/4N3/4Q3/8 b - - 0 1"
MATED_IN_TWO_FEN = "1k6/8/2K5/8/8/8/8/7R b - - 0 1"
STALEMATE_FEN = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
CHECKMATE_FEN = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"


class Records(logging.Handler):
    """Keeps the log records python-chess emits."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records = []

    def emit(self, record):
        self.records.append(record)

    def since(self, start, level):
        return [r for r in self.records[start:] if r.levelno >= level]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine", help="the UCI engine's binary")
    parser.add_argument("--pychess", default=os.environ.get("PYCHESS_SRC", ""),
                        help="python-chess's source folder (default: $PYCHESS_SRC)")
    args = parser.parse_args()
    if args.pychess:
        sys.path.insert(0, args.pychess)
    try:
        import chess
        import chess.engine
    except ImportError:
        print("SKIPPED: python-chess not found (give its source with --pychess or PYCHESS_SRC)")
        return 0
    print(f"python-chess {chess.__version__} from {os.path.dirname(chess.__file__)}")

    log = Records()
    logger = logging.getLogger("chess.engine")
    logger.setLevel(logging.DEBUG)
    logger.addHandler(log)
    failures = 0

    def check(name, ok, detail=""):
        nonlocal failures
        failures += not ok
        print(f"{'PASS' if ok else 'FAIL'}  {name}{': ' + detail if detail else ''}", flush=True)

    def line_text(info):
        pv = " ".join(m.uci() for m in info.get("pv", [])[:3])
        return f"{info.get('multipv')}: depth {info.get('depth')} {info.get('score')} {pv}"

    def lines_problem(lines, n):
        """What is wrong with a MultiPV result (None: nothing)."""
        if len(lines) != n:
            return f"{len(lines)} lines"
        if [i.get("multipv") for i in lines] != list(range(1, n + 1)):
            return "multipv numbers " + str([i.get("multipv") for i in lines])
        firsts = [i["pv"][0] for i in lines if i.get("pv")]
        if len(set(firsts)) != n:
            return "a move twice or a line without a pv"
        for a, b in zip(lines, lines[1:]):
            if b["depth"] > a["depth"]:
                return "a deeper line below a shallower one"
            if b["depth"] == a["depth"] and b["score"].relative > a["score"].relative:
                return "lines of one depth out of order"
        return None

    engine = chess.engine.SimpleEngine.popen_uci([args.engine])
    try:
        engine.configure({"UCI_ShowWDL": True})
        board = chess.Board(MULTIPV_FEN)
        for name, limit in (("time 1 s", chess.engine.Limit(time=1.0)),
                            ("nodes 70000", chess.engine.Limit(nodes=70000))):
            lines = engine.analyse(board, limit, multipv=3)
            problem = lines_problem(lines, 3)
            check(f"analyse multipv=3, {name}", problem is None,
                  problem or "; ".join(line_text(i) for i in lines))
        with engine.analysis(board, chess.engine.Limit(time=0.7), multipv=3) as analysis:
            for _ in analysis:
                pass
            lines = analysis.multipv
        problem = lines_problem(lines, 3)
        check("analysis multipv=3 stopped by time, as displayed", problem is None,
              problem or "; ".join(line_text(i) for i in lines))

        result = engine.play(chess.Board(), chess.engine.Limit(time=0.3),
                             info=chess.engine.INFO_ALL)
        pv = result.info.get("pv", [None])
        check("play returns a legal move", result.move in chess.Board().legal_moves,
              f"{result.move}, pv {' '.join(m.uci() for m in pv if m)}")
        check("play: the last pv starts with the move", pv[0] == result.move)

        # Pondering: a second play in the same game on the position pondered (ponderhit), a
        # third on another (stop).
        game = object()
        board = chess.Board()
        start = len(log.records)
        first = engine.play(board, chess.engine.Limit(time=0.3), ponder=True, game=game)
        second = third = None
        if first.move and first.ponder:
            board.push(first.move)
            board.push(first.ponder)
            second = engine.play(board, chess.engine.Limit(time=0.3), ponder=True, game=game)
            if second.move:
                board.push(second.move)
                replies = [m for m in board.legal_moves if m != second.ponder]
                board.push(replies[0])
                third = engine.play(board, chess.engine.Limit(time=0.3), ponder=True, game=game)
        sent = [r.getMessage() for r in log.records[start:] if r.levelno == logging.DEBUG]
        ponderhits = sum(m.endswith("<< ponderhit") for m in sent)
        stops = sum(m.endswith("<< stop") for m in sent)
        ok = (second is not None and third is not None and third.move in board.legal_moves
              and ponderhits == 1 and stops >= 1)
        check("ponder: play, ponderhit, then a ponder miss stopped", ok,
              f"moves {first.move} {second and second.move} {third and third.move}, "
              f"{ponderhits} ponderhit, {stops} stop")

        for fen, moves in ((MATED_IN_ONE_FEN, 1), (MATED_IN_TWO_FEN, 2)):
            info = engine.analyse(chess.Board(fen), chess.engine.Limit(mate=moves))
            score = info["score"].relative
            check(f"analyse Limit(mate={moves}) when mated in {moves}",
                  score == chess.engine.Mate(-moves), f"{score} at depth {info.get('depth')}")

        for name, fen, wdl in (("stalemate", STALEMATE_FEN, (0, 1000, 0)),
                               ("checkmate", CHECKMATE_FEN, (0, 0, 1000))):
            result = engine.play(chess.Board(fen), chess.engine.Limit(time=0.2),
                                 info=chess.engine.INFO_ALL)
            got = result.info.get("wdl")
            got = tuple(got.relative) if got is not None else None
            check(f"play at {name}: move None, wdl {wdl}", result.move is None and got == wdl,
                  f"move {result.move!r}, wdl {got}, score {result.info.get('score')}")
    finally:
        engine.quit()

    warnings = log.since(0, logging.WARNING)
    check("no warning logged by python-chess", not warnings,
          "; ".join(r.getMessage() for r in warnings[:5]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
