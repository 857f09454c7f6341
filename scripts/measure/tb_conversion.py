#!/usr/bin/env python3
"""Won and drawn endgames played out: does Horizon convert every table win and hold every
table draw?

Positions come from `horizon tbprobe --random --material ...` (the fifty-move counter at 0):
  won:   KQvK, KRvK, KBNvK, KPvK and KQvKR positions that White wins; Horizon plays White
         against Stockfish 15.1 with the same tables (the best defence there is);
  drawn: the wrong bishop (KBPvK, a rook pawn), KRvKB, and KQvKP with a c- or a-pawn on
         its seventh rank, all drawn; Horizon plays Black against Stockfish with the tables.
Games are played to their end by fastchess (no adjudication: mate, the fifty-move rule,
repetition or dead material ends them). Prints how many wins were converted within the
fifty-move rule and how many draws were lost, with Horizon given the tables and without
(--without-tables), or only without (--only-without-tables: two builds compared on the same
positions, which depend on --seed alone). Exits 1 when, with tables, a win is not converted or
a draw is lost.

    scripts/measure/tb_conversion.py build/release/horizon --tables ../shared/syzygy \\
        --fastchess ../fastchess/fastchess --positions 200 --tc 1+0.01
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

WON = ["KQvK", "KRvK", "KBNvK", "KPvK", "KQvKR"]
DRAWN = ["KBPvK", "KRvKB", "KQvKP"]


def board_squares(fen):
    """{square name: piece letter} of a FEN's board."""
    squares = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                squares["abcdefgh"[f] + str(8 - r)] = c
                f += 1
    return squares


def white_wins(fen, wdl):
    stm = fen.split()[1]
    return (stm == "w" and wdl == "win") or (stm == "b" and wdl == "loss")


def wanted(material, fen, wdl):
    if material in WON:
        return white_wins(fen, wdl)
    if wdl != "draw":
        return False
    pawns = [sq for sq, p in board_squares(fen).items() if p in "Pp"]
    if material == "KBPvK":  # the rook pawn (with the bishop that cannot cover its corner)
        return pawns[0][0] in "ah"
    if material == "KQvKP":  # a c- or a-pawn one step from queening
        return pawns[0][0] in "ac" and pawns[0][1] == "2"
    return True


def positions(horizon, tables, material, count, seed):
    found, tries = [], 0
    while len(found) < count and tries < 50:
        out = subprocess.run([horizon, "tbprobe", "--syzygy-path", tables, "--random", "5000",
                              "--material", material, "--seed", str(seed + tries)],
                             capture_output=True, text=True, check=True).stdout
        tries += 1
        for line in out.splitlines():
            parts = [p.strip() for p in line.split("|")]
            if len(parts) == 3 and wanted(material, parts[0], parts[1]) and parts[0] not in found:
                found.append(parts[0])
                if len(found) == count:
                    break
    if len(found) < count:
        sys.exit(f"tb_conversion: only {len(found)} {material} positions found")
    return found


def play(fastchess, white, black, epd, games, tc, pgn, threads=2):
    cmd = [fastchess]
    for name, path, options in (white, black):
        cmd += ["-engine", f"cmd={path}", f"name={name}"] + [f"option.{k}={v}"
                                                              for k, v in options.items()]
    cmd += ["-each", f"tc={tc}", "-openings", f"file={epd}", "format=epd", "order=sequential",
            "-rounds", str(games), "-games", "1", "-noswap", "-concurrency", str(threads),
            "-pgnout", f"file={pgn}", "notation=san"]
    subprocess.run(cmd, capture_output=True, text=True, check=True)
    with open(pgn) as f:
        text = f.read()
    results = re.findall(r'\[Result "([^"]+)"\]', text)
    issues = len(re.findall(r"illegal|forfeit|disconnect|stall", text, re.IGNORECASE))
    return results, issues


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("horizon")
    ap.add_argument("--tables", required=True)
    ap.add_argument("--fastchess", required=True)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--positions", type=int, default=200, help="won ones, and drawn ones")
    ap.add_argument("--tc", default="1+0.01")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--without-tables", action="store_true",
                    help="also play the same positions with Horizon given no tables")
    ap.add_argument("--only-without-tables", action="store_true",
                    help="play them only with Horizon given no tables (builds compared)")
    args = ap.parse_args()

    tables = os.path.abspath(args.tables)
    work = tempfile.mkdtemp(prefix="tb-conversion-")
    sets = {}
    for kind, materials in (("won", WON), ("drawn", DRAWN)):
        fens = []
        for i, m in enumerate(materials):
            share = args.positions // len(materials) + (i < args.positions % len(materials))
            fens += positions(args.horizon, tables, m, share, args.seed + 100 * i)
        path = os.path.join(work, f"{kind}.epd")
        with open(path, "w") as f:
            f.write("".join(" ".join(fen.split()[:4]) + "\n" for fen in fens))
        sets[kind] = path

    stockfish = ("stockfish", args.stockfish,
                 {"SyzygyPath": tables, "Threads": 1, "Hash": 16})
    runs = [] if args.only_without_tables else [("with tables", {"SyzygyPath": tables})]
    if args.without_tables or args.only_without_tables:
        runs.append(("without tables", {}))
    ok = True
    for label, extra in runs:
        horizon = ("horizon", os.path.abspath(args.horizon), {"Hash": 16, **extra})
        won, issues_w = play(args.fastchess, horizon, stockfish, sets["won"], args.positions,
                             args.tc, os.path.join(work, f"won-{len(extra)}.pgn"),
                             args.concurrency)
        drawn, issues_d = play(args.fastchess, stockfish, horizon, sets["drawn"],
                               args.positions, args.tc,
                               os.path.join(work, f"drawn-{len(extra)}.pgn"), args.concurrency)
        converted = won.count("1-0")
        lost = drawn.count("1-0")
        print(f"{label}: won positions converted {converted}/{len(won)} "
              f"(drawn {won.count('1/2-1/2')}, lost {won.count('0-1')}); "
              f"drawn positions lost {lost}/{len(drawn)} (held {drawn.count('1/2-1/2')}); "
              f"tc {args.tc}; PGN lines naming illegal/forfeit/stall: {issues_w + issues_d}")
        if label == "with tables":
            ok = converted == len(won) == args.positions and lost == 0 and \
                len(drawn) == args.positions
    print(f"games in {work}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
