#!/usr/bin/env python3
"""Where the evaluation misjudges a class of positions: residuals of the tuner's target by
material class.

    scripts/train/eval_residuals.py [--engine BIN] [--sample N] [--seed S] [--k K] [--lambda L]
                                    [--min-count N] [--top N] DATA [DATA ...]

DATA are training files ('<FEN> | <score> | <result>', as `horizon datagen` and
`scripts/train/relabel.py` write them). A sample of their positions is evaluated by Horizon's static
evaluation (UCI `eval`, read from its 'Final evaluation' line), and each is compared with the
target the tuner fits: lambda * result + (1 - lambda) * sigmoid(K * score / 400), against
sigmoid(K * eval / 400). The residual, in thousandths of a point, is grouped by the pieces of
each side and the pawn difference, both seen from the side with more material ('KRv KB pawns
+1': a rook and pawns against a bishop, one pawn more); a negative mean says the evaluation
rates that side too well. Classes are listed by the size of their effect on the loss (mean
residual times the square root of the count), with z, the mean over its standard error.

The mean is split in two parts that add up to it: 'result', lambda * (result - sigmoid(eval)),
and 'score', (1 - lambda) * (sigmoid(K * score / 400) - sigmoid(eval)). Beside them, as shares
of a point for that side: what its evaluations expect (the mean sigmoid), what its labelled
scores expect, and what it won. A class off by its results alone (queen against rook without
pawns: the evaluation and the labelling engine agree on a win, the games that reached it were
drawn) is play that did not convert, not an evaluation to change.

The tuner fits linear weights: a class that stays far off after a fit is knowledge the terms
cannot express (a fortress, a scale), not a weight to move.
"""
import argparse
import collections
import math
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import uci  # noqa: E402
from data_line import split_line  # noqa: E402

VALUE = {"Q": 9, "R": 5, "B": 3, "N": 3}


def evaluations(engine, fens):
    """Horizon's static evaluation of each FEN (UCI `eval`, its 'Final evaluation' line)."""
    e = uci.Engine([engine])
    for fen in fens:
        e.position(fen)
        e.send("eval")
        line = e.read_until(lambda x: x.startswith("Final evaluation:"))[-1]
        yield int(line.split()[2])
    e.quit(timeout=None)


def material_class(board):
    """The class name, and +1 or -1: whether White is the side it is seen from."""
    white = "".join(sorted((c for c in board if c in VALUE), key="QRBN".index))
    black = "".join(sorted((c.upper() for c in board if c.upper() in VALUE and c.islower()),
                           key="QRBN".index))
    lead = board.count("P") - board.count("p")
    worth = lambda side: sum(VALUE[c] for c in side)
    if (worth(white), lead) >= (worth(black), -lead):
        return f"K{white}v K{black} pawns {lead:+d}", 1
    return f"K{black}v K{white} pawns {-lead:+d}", -1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("data", nargs="+")
    p.add_argument("--engine", default="build/release/horizon")
    p.add_argument("--sample", type=int, default=300000)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--k", type=float, default=3.7962, help="the tuner's K (its log says it)")
    p.add_argument("--lambda", dest="lam", type=float, default=0.25)
    p.add_argument("--min-count", type=int, default=200)
    p.add_argument("--top", type=int, default=30)
    p.add_argument("--max-material", type=int, default=26,
                   help="only positions with at most this much piece material (pawns aside)")
    args = p.parse_args()

    lines = []
    for path in args.data:
        with open(path) as f:
            lines += [line for line in f if not line.startswith("#") and line.strip()]
    random.seed(args.seed)
    if len(lines) > args.sample:
        lines = random.sample(lines, args.sample)
    rows = [split_line(line) for line in lines]
    fens = [fen if len(fen.split()) > 4 else fen + " 0 1" for fen, _, _ in rows]
    sigmoid = lambda x: 1 / (1 + math.exp(-args.k * x / 400))

    classes = collections.defaultdict(list)
    for (fen, score, result), e in zip(rows, evaluations(args.engine, fens)):
        board = fen.split()[0]
        if sum(VALUE.get(c.upper(), 0) for c in board) > args.max_material:
            continue
        name, side = material_class(board)
        expected, labelled = sigmoid(e), sigmoid(int(score))
        from_result = args.lam * (float(result) - expected)
        from_score = (1 - args.lam) * (labelled - expected)
        # The shares of a point, for the side the class is seen from.
        for_side = (lambda x: x) if side > 0 else (lambda x: 1 - x)
        classes[name].append((side * 1000 * (from_result + from_score), side * 1000 * from_result,
                              side * 1000 * from_score, for_side(expected), for_side(labelled),
                              for_side(float(result))))

    print(f"{len(rows)} positions sampled from {', '.join(args.data)}; K {args.k}, "
          f"lambda {args.lam}; residual = target - sigmoid(eval), thousandths, from the side "
          f"with more material")
    found = []
    for name, rows_of_class in classes.items():
        n = len(rows_of_class)
        if n < args.min_count:
            continue
        means = [sum(column) / n for column in zip(*rows_of_class)]
        mean = means[0]
        sd = math.sqrt(sum((r[0] - mean)**2 for r in rows_of_class) / n) or 1.0
        z = mean / sd * math.sqrt(n)
        found.append((abs(mean) * math.sqrt(n), name, n, z, means))
    for _, name, n, z, (mean, from_result, from_score, e, score, won) in sorted(
            found, reverse=True)[:args.top]:
        print(f"{name:32s} n {n:7d}  mean {mean:+8.2f}  z {z:+6.1f}  result {from_result:+8.2f}  "
              f"score {from_score:+8.2f}  eval {e:4.0%}  labelled {score:4.0%}  won {won:4.0%}")


if __name__ == "__main__":
    main()
