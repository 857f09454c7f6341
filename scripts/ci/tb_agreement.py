#!/usr/bin/env python3
"""Probe agreement: Horizon's Syzygy probes against independent readers of the same tables.

Random legal positions (`horizon tbprobe --random N`: 3 and 4 pieces, side to move, en passant
and the fifty-move counter varied) are probed by Horizon and by
  - Stockfish (its own Syzygy prober, run twice: Syzygy50MoveRule false tells a win from a draw,
    true tells a win from a cursed win), for the WDL of every position;
  - Debian's `fathom` program (the probing library's own front end), for WDL and DTZ, on every
    K-th position (--fathom-every): it checks how Horizon hands the board over.
Prints the counts and every disagreement; exits 1 on any.

    scripts/ci/tb_agreement.py build/release/horizon --tables ../shared/syzygy --positions 10000
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import uci  # noqa: E402

WDL_NAMES = {"win": 2, "cursed win": 1, "draw": 0, "blessed loss": -1, "loss": -2}
FATHOM_WDL = {"Win": 2, "CursedWin": 1, "Draw": 0, "BlessedLoss": -1, "Loss": -2}
# Stockfish 15.1 reports a table win as this many centipawns or more (a cursed win below it).
SF_TB_WIN_CP = 8000


class Stockfish:
    def __init__(self, path, tables, rule50):
        self.engine = uci.Engine([path])
        self.engine.uci()
        self.engine.setoption("SyzygyPath", tables)
        self.engine.setoption("Syzygy50MoveRule", "true" if rule50 else "false")
        self.engine.setoption("Use NNUE", "false")
        self.engine.isready()

    def score(self, fen):
        """The last reported score of a depth-1 search: ('cp', n) or ('mate', n)."""
        self.engine.position(fen)
        score = None
        for line in self.engine.go("depth 1").lines:
            m = re.search(r" score (cp|mate) (-?\d+)", line)
            if m:
                score = (m.group(1), int(m.group(2)))
        return score

    def close(self):
        self.engine.quit()


def sign_class(score):
    """+1 a table win, -1 a table loss, 0 neither (draw or cursed/blessed, or a small score)."""
    kind, n = score
    if kind == "mate":
        return 1 if n > 0 else -1
    return 1 if n >= SF_TB_WIN_CP else -1 if n <= -SF_TB_WIN_CP else 0


def stockfish_wdl(plain, rule50):
    """The five-valued WDL from the two runs (without and with the fifty-move rule)."""
    a, b = sign_class(plain), sign_class(rule50)
    if a == 0:
        return 0
    return 2 * a if b == a else a


def fathom_probe(fathom, tables, fen):
    out = subprocess.run([fathom, f"--path={tables}", fen], capture_output=True, text=True,
                         timeout=30).stdout
    wdl = re.search(r'\[WDL "(\w+)"\]', out)
    dtz = re.search(r'\[DTZ "(-?\d+)"\]', out)
    return (FATHOM_WDL.get(wdl.group(1)) if wdl else None,
            int(dtz.group(1)) if dtz else None)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("horizon")
    ap.add_argument("--tables", required=True)
    ap.add_argument("--positions", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--fathom", default="/usr/games/fathom")
    ap.add_argument("--fathom-every", type=int, default=10,
                    help="check every K-th position with fathom too (0: none)")
    ap.add_argument("--skip-without-tables", action="store_true",
                    help="exit 77 (skipped) when --tables is not a folder, except under CI "
                         "(CI=true), where that fails")
    args = ap.parse_args()
    if not os.path.isdir(args.tables):
        why = f"the whole 3- and 4-piece Syzygy set is not in {args.tables}"
        if args.skip_without_tables and os.environ.get("CI") != "true":
            print(f"not run: {why} (put it there or configure with "
                  "-DHORIZON_SYZYGY_FULL_DIR=FOLDER)")
            return 77
        print(f"tb_agreement: {why}", file=sys.stderr)
        return 1

    out = subprocess.run([args.horizon, "tbprobe", "--syzygy-path", args.tables, "--random",
                          str(args.positions), "--seed", str(args.seed)],
                         capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 3 or parts[1] not in WDL_NAMES:
            print(f"not in Horizon's tables: {line}")
            rows.append((parts[0], None, None))
            continue
        rows.append((parts[0], WDL_NAMES[parts[1]], None if parts[2] == "-" else int(parts[2])))

    plain = Stockfish(args.stockfish, args.tables, rule50=False)
    strict = Stockfish(args.stockfish, args.tables, rule50=True)
    bad = 0
    en_passant = 0
    counter = 0
    fathom_checked = 0
    classes = {v: 0 for v in WDL_NAMES.values()}
    for i, (fen, wdl, dtz) in enumerate(rows):
        fields = fen.split()
        en_passant += fields[3] != "-"
        counter += fields[4] != "0"
        sf = stockfish_wdl(plain.score(fen), strict.score(fen))
        if wdl is not None:
            classes[wdl] += 1
        expected = wdl
        if fields[4] == "99" and wdl is not None:
            # At 99 Stockfish's search draws every move but a mate by the fifty-move rule in
            # both of its modes: there a cursed win and a blessed loss are the draws they are.
            expected = 2 if wdl == 2 else -2 if wdl == -2 else 0
        if sf != expected:
            bad += 1
            print(f"DISAGREE stockfish: {fen}: horizon {wdl} stockfish {sf}")
        if args.fathom_every and i % args.fathom_every == 0:
            fathom_checked += 1
            f_wdl, f_dtz = fathom_probe(args.fathom, args.tables, fen)
            if f_wdl == 2 and f_dtz == 0:
                # The library labels a checkmate "Win" (the mating side's win) with DTZ 0; a
                # real win is at least a ply away: the side to move is mated, a loss.
                f_wdl = -2
            h_dtz = None if dtz is None else abs(dtz)
            if f_wdl != wdl or (f_dtz is not None and f_dtz != h_dtz):
                bad += 1
                print(f"DISAGREE fathom: {fen}: horizon {wdl} {dtz} fathom {f_wdl} {f_dtz}")
    plain.close()
    strict.close()
    names = {v: k for k, v in WDL_NAMES.items()}
    print(f"positions: {len(rows)} (with en passant {en_passant}, fifty-move counter > 0 "
          f"{counter}); " + ", ".join(f"{names[v]} {n}" for v, n in sorted(classes.items())))
    print(f"stockfish WDL checked: {len(rows)}; fathom WDL and DTZ checked: {fathom_checked}")
    print(f"disagreements: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
