#!/usr/bin/env python3
"""Scores the positions of a training file anew with a UCI engine's search.

    scripts/train/relabel.py IN OUT [--engine CMD] [--option NAME=VALUE ...] [--nodes N]
                             [--workers N] [--scores EARLIER_OUT ...]

IN holds lines '<FEN> | <score> | <result>' as `horizon datagen` writes them. OUT gets the same
lines with the score replaced by the engine's (White's point of view, centipawns); the result
stays. A position the engine scores as a mate, or that it does not answer, is left out; a
malformed line stops the run. Comment lines are copied. A stopped run is resumed: the lines OUT
already holds are not searched again. A position that repeats one met before (the same first
four FEN fields: the same game reached in other runs) is not searched again either: its line gets
the score found before and keeps its own result. `--scores FILE` (repeatable) takes the scores
of an earlier run's OUT the same way: its positions are not searched again.

The default engine is Stockfish 15.1 on its hand-crafted evaluation (`Use NNUE` false), one
thread and 16 MiB, 5,000 nodes a position: scores from a stronger evaluation than Horizon's own,
for the tuner's score term (`horizon tune --lambda`). The engine runs as a black box over UCI.

    scripts/train/relabel.py --fit-scale FILE_A FILE_B

prints the factor that brings the scores of FILE_B onto the scale of FILE_A: for each file the
sigmoid scale K that best fits its scores to its results (least squares over its first 400,000
positions, as `horizon tune` fits K), and their ratio K_B / K_A.

    scripts/train/relabel.py --rescale F IN OUT

writes IN's lines with every score times F, rounded half away from zero (comments copied, one
line naming the factor first): relabel, fit the scale, then rescale with it.
"""
import argparse
import math
import multiprocessing as mp
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import uci  # noqa: E402
from data_line import split_line  # noqa: E402

DEFAULT_ENGINE = "/usr/games/stockfish"
DEFAULT_OPTIONS = ["Threads=1", "Hash=16", "Use NNUE=false"]


class Engine:
    def __init__(self, cmd, options, nodes):
        self.nodes = nodes
        self.engine = uci.open_engine(cmd, options, stderr=None)

    def score(self, fen):
        """The side to move's score in centipawns, or None for a mate."""
        self.engine.position(fen)
        kind, value = uci.score(self.engine.go(f"nodes {self.nodes}").info) or (None, None)
        return value if kind == "cp" else None


_engine = None


def _init(cmd, options, nodes):
    global _engine
    _engine = Engine(cmd, options, nodes)


def position_key(fen):
    """The part of a FEN that fixes the position: the move counters do not change a score."""
    return " ".join(fen.split()[:4])


def _score(fen):
    """White's score of FEN in centipawns, or None for a mate."""
    fields = fen.split()
    s = _engine.score(fen + " 0 1" if len(fields) == 4 else fen)
    if s is None:
        return None
    return -s if len(fields) > 1 and fields[1] == "b" else s


MARK = "# relabel: input lines "


def resume(path):
    """How many input lines an earlier run finished (its last '# relabel: input lines N' mark);
    whatever OUT holds after that mark, a chunk the stop cut short, is dropped."""
    if not os.path.exists(path):
        return 0
    with open(path) as f:
        kept = f.readlines()
    marks = [i for i, line in enumerate(kept) if line.startswith(MARK)]
    if not marks:
        return 0
    with open(path, "w") as f:
        f.writelines(kept[: marks[-1] + 1])
    return int(kept[marks[-1]].split()[-1])


def relabel(args):
    """Each distinct position (position_key) is searched once: a line that repeats one, from
    another game or run, gets the score found before, with its own result."""
    with open(args.inp) as f:
        lines = f.readlines()
    start = resume(args.out)
    todo = lines[start:]
    known = {}
    for path in args.scores + ([args.out] if start else []):
        with open(path) as f:
            for line in f:
                if not line.startswith("#") and line.strip():
                    fen, score, _ = split_line(line)
                    known[position_key(fen)] = int(score)
    print(f"relabel: {len(lines)} lines, {start} done before, {len(todo)} to go", flush=True)
    chunk = 2000
    searched = 0
    t0 = time.time()
    with mp.Pool(args.workers, _init, (args.engine, args.option, args.nodes)) as pool, \
            open(args.out, "a") as out:
        if start == 0:
            out.write(f"# relabel: engine {args.engine} options {' '.join(args.option)} "
                      f"nodes {args.nodes}\n")
        for c in range(0, len(todo), chunk):
            part = todo[c:c + chunk]
            rows = [None if line.startswith("#") or not line.strip() else split_line(line)
                    for line in part]
            keys = [None if row is None else position_key(row[0]) for row in rows]
            new = {}
            for key, row in zip(keys, rows):
                if key is not None and key not in known:
                    new.setdefault(key, row[0])
            for key, s in zip(new, pool.imap(_score, new.values(), chunksize=50)):
                known[key] = s
            searched += len(new)
            for line, key, row in zip(part, keys, rows):
                if row is None:
                    out.write(line)
                elif known[key] is not None:
                    out.write(f"{row[0]} | {known[key]} | {row[2]}\n")
            done = start + c + len(part)
            out.write(f"{MARK}{done}\n")
            out.flush()
            rate = (c + len(part)) / (time.time() - t0)
            left = (len(lines) - done) / rate if rate else 0
            print(f"relabel: {done}/{len(lines)} lines ({searched} positions searched), "
                  f"{rate:.0f} a second, {left / 60:.0f} min left", flush=True)


def read_scores(path, limit=400000):
    pairs = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            _, score, result = split_line(line)
            pairs.append((int(score), float(result)))
            if len(pairs) >= limit:
                break
    return pairs


def fit_k(pairs):
    def err(k):
        return sum((r - 1 / (1 + math.exp(-k * s / 400))) ** 2 for s, r in pairs) / len(pairs)
    lo, hi = 0.05, 50.0
    for _ in range(40):  # golden-section search on the mean squared error
        a = hi - (hi - lo) / 1.618
        b = lo + (hi - lo) / 1.618
        if err(a) < err(b):
            hi = b
        else:
            lo = a
    k = (lo + hi) / 2
    return k, err(k)


def rescale(factor, inp, out):
    with open(inp) as f, open(out, "w") as o:
        o.write(f"# rescaled: every score times {factor} (scripts/train/relabel.py --rescale)\n")
        for line in f:
            if line.startswith("#") or not line.strip():
                o.write(line)
                continue
            fen, score, result = split_line(line)
            x = int(score) * factor
            o.write(f"{fen} | {int(x + 0.5) if x >= 0 else -int(-x + 0.5)} | {result}\n")


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--rescale":
        rescale(float(sys.argv[2]), sys.argv[3], sys.argv[4])
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--fit-scale":
        ka, ea = fit_k(read_scores(sys.argv[2]))
        kb, eb = fit_k(read_scores(sys.argv[3]))
        print(f"K {ka:.4f} (error {ea:.6f}) for {sys.argv[2]}")
        print(f"K {kb:.4f} (error {eb:.6f}) for {sys.argv[3]}")
        print(f"scale {kb / ka:.4f}")
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("inp")
    p.add_argument("out")
    p.add_argument("--engine", default=DEFAULT_ENGINE)
    p.add_argument("--option", action="append", default=None)
    p.add_argument("--nodes", type=int, default=5000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--scores", action="append", default=[])
    args = p.parse_args()
    if args.option is None:
        args.option = DEFAULT_OPTIONS
    relabel(args)


if __name__ == "__main__":
    main()
