#!/usr/bin/env python3
"""Horizon's static evaluation beside Stockfish's classical one, against game results, by class
of position.

    scripts/measure/eval_compare.py [--horizon BIN] [--stockfish BIN] [--sample N] [--seed S]
                            [--danger-share F] [--csv OUT] DATA [DATA ...]

DATA: training files ('<FEN> | <score> | <result>', plain or .xz, as `horizon datagen` writes
them, also with --from-pgn); only the FEN and the result (White's, 1, 0.5 or 0) are used. N lines
are drawn with seed S (reservoir sampling over all files). Each position is evaluated statically
by both engines: Horizon's UCI `eval` ('Final evaluation', centipawns, White's view; its
'king_danger' row) and Stockfish's `eval` with `Use NNUE` false ('Final evaluation', printed in
Stockfish's normalised pawns, White's view, read here times 100; its 'King safety' row).
Positions either engine does not evaluate (in check) are left out.

Scale: for each engine alone, the logistic scale s that best fits sigmoid(eval / s) to the
results (least squares over the whole sample) is fitted, so each engine is judged on its own
units. A position's residual is result - sigmoid(eval / s); its loss the square of that.

Classes (they overlap; a position is in one of each family): phase by material (opening,
middlegame, endgame; scripts/lib/positions.py), material balance, opposite-coloured bishops, passed
pawns, queens, king danger by each engine's own measure (high: the top share F of the sample,
low: the bottom half; Horizon's 'king_danger' middlegame bonus of the attacker, Stockfish's
'King safety' middlegame figure of the weaker king). Each class is seen from one side ('from'):
the side with more material (White when level), the side with the most advanced passed pawn,
or the attacking side; a negative mean residual says the engine rates that side too well.

For each class: count; mean evaluation of each engine (cp, from that side); what the evaluations
expect and what was scored, as shares of a point for that side; the mean residual of each; and
the loss by which Horizon exceeds Stockfish, paired position by position (its mean in
thousandths, its z, and its sum as a share of Horizon's total excess). Classes are ranked by that
sum: the first classes are where Horizon loses most against Stockfish's evaluation.
"""
import argparse
import csv
import math
import os
import random
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import uci  # noqa: E402
from positions import open_text, phase_name  # noqa: E402

VALUE = {"q": 9, "r": 5, "b": 3, "n": 3, "p": 1}
SF_FINAL = re.compile(r"^Final evaluation\s+([-+]?\d+\.\d+)")


# ---- the two engines' static evaluations ---------------------------------------------------

def eval_trace(eng, fen, last):
    """The lines of the engine's `eval` trace of `fen`, up to the one that starts with `last`."""
    eng.position(fen)
    eng.send("eval")
    return eng.read_until(lambda line: line.startswith(last), timeout=60)


def horizon_eval(eng, fen):
    """(cp White's view, attack bonus of White, of Black) from Horizon's trace."""
    danger = (0, 0)
    for line in eval_trace(eng, fen, "Final evaluation:"):
        if line.startswith("king_danger "):
            cols = [c.split() for c in line.split("|")[1:]]
            danger = (int(cols[0][0]), int(cols[1][0]))
        elif line.startswith("Final evaluation:"):
            return int(line.split()[2]), danger
    return None


def stockfish_eval(eng, fen):
    """(cp White's view, king safety mg of White, of Black) from Stockfish's trace, or None."""
    safety = (0.0, 0.0)
    for line in eval_trace(eng, fen, "Final evaluation"):
        if line.startswith("|King safety"):
            cols = [c.split() for c in line.split("|")[2:4]]
            safety = (float(cols[0][0]) * 100, float(cols[1][0]) * 100)
        elif line.startswith("Final evaluation"):
            m = SF_FINAL.match(line)
            return (float(m.group(1)) * 100, safety) if m else None
    return None


# ---- what a position is, from its FEN -----------------------------------------------------------

def squares(board):
    """{(file, rank): piece letter} with file and rank 0-7, rank 0 being White's first."""
    out = {}
    for r, row in enumerate(board.split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                out[(f, 7 - r)] = c
                f += 1
    return out


def passers(sq):
    """The relative rank (1-6 for ranks 2-7) of each side's most advanced passed pawn, or 0."""
    best = {1: 0, -1: 0}
    for (f, r), c in sq.items():
        if c not in "Pp":
            continue
        side = 1 if c == "P" else -1
        enemy = "p" if side == 1 else "P"
        ahead = range(r + 1, 8) if side == 1 else range(0, r)
        blocked = any(sq.get((ff, rr)) == enemy for ff in (f - 1, f, f + 1) for rr in ahead)
        if not blocked:
            rel = r if side == 1 else 7 - r
            best[side] = max(best[side], rel)
    return best


def features(fen):
    board = fen.split()[0]
    sq = squares(board)
    count = {c: board.count(c) for c in "QRBNPqrbnp"}
    worth = {1: sum(VALUE[c.lower()] * count[c] for c in "QRBNP"),
             -1: sum(VALUE[c] * count[c] for c in "qrbnp")}
    more = 1 if worth[1] >= worth[-1] else -1
    pieces_w = tuple(count[c] for c in "QRBN")
    pieces_b = tuple(count[c] for c in "qrbn")
    bishops = {c: [(f + r) % 2 for (f, r), p in sq.items() if p == c] for c in "Bb"}
    ocb = (len(bishops["B"]) == 1 and len(bishops["b"]) == 1
           and bishops["B"][0] != bishops["b"][0])
    return {"phase": phase_name(fen), "more": more, "lead": worth[more] - worth[-more],
            "pawn_lead": abs(count["P"] - count["p"]), "pieces_w": pieces_w,
            "pieces_b": pieces_b, "ocb": ocb,
            "ocb_pure": ocb and sum(pieces_w) == 1 and sum(pieces_b) == 1,
            "queens": count["Q"] + count["q"], "passers": passers(sq)}


def material_family(x):
    w, b = x["pieces_w"], x["pieces_b"]
    if w == b:
        lead = x["pawn_lead"]
        return "material: same pieces, pawns level" if lead == 0 else (
            "material: same pieces, a pawn more" if lead == 1 else
            "material: same pieces, 2+ pawns more")
    (qw, rw, bw, nw), (qb, rb, bb, nb) = w, b
    if qw != qb:
        return "imbalance: queens differ"
    if rw != rb:
        return "imbalance: rooks differ (exchange, R v minors)"
    if bw + nw != bb + nb:
        return "imbalance: minor pieces differ (piece v pawns)"
    return "imbalance: bishop v knight only"


# ---- fitting and summing ---------------------------------------------------------------------

def sigmoid(x):
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, x))))


def fit_scale(evals, results):
    def loss(log_s):
        s = math.exp(log_s)
        return sum((r - sigmoid(e / s)) ** 2 for e, r in zip(evals, results))
    lo, hi = math.log(10), math.log(5000)
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = loss(a), loss(b)
    for _ in range(60):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = loss(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = loss(b)
    return math.exp((lo + hi) / 2)


def reservoir(files, n, seed):
    rng = random.Random(seed)
    kept, seen = [], 0
    for path in files:
        with open_text(path) as f:
            for line in f:
                if line.startswith("#") or "|" not in line:
                    continue
                seen += 1
                if len(kept) < n:
                    kept.append(line)
                else:
                    j = rng.randrange(seen)
                    if j < n:
                        kept[j] = line
    return kept, seen


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--horizon", default="build/release/horizon")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--sample", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--danger-share", type=float, default=0.15)
    ap.add_argument("--min-count", type=int, default=100)
    ap.add_argument("--csv", help="write one row per position here")
    args = ap.parse_args()

    lines, seen = reservoir(args.data, args.sample, args.seed)
    horizon = uci.open_engine(args.horizon, ["Threads=1", "Hash=16"], "horizon")
    stockfish = uci.open_engine(args.stockfish, ["Threads=1", "Hash=16", "Use NNUE=false"],
                          "stockfish")
    rows = []
    try:
        for line in lines:
            parts = [p.strip() for p in line.split("|")]
            fen, result = parts[0], float(parts[2])
            if len(fen.split()) == 4:
                fen += " 0 1"
            s = stockfish_eval(stockfish, fen)
            h = horizon_eval(horizon, fen)
            if s is None or h is None:
                continue
            rows.append({"fen": fen, "result": result, "h": h[0], "h_danger": h[1],
                         "s": s[0], "s_safety": s[1], **features(fen)})
    finally:
        horizon.close()
        stockfish.close()

    results = [r["result"] for r in rows]
    scale_h = fit_scale([r["h"] for r in rows], results)
    scale_s = fit_scale([r["s"] for r in rows], results)
    for r in rows:
        r["ph"], r["ps"] = sigmoid(r["h"] / scale_h), sigmoid(r["s"] / scale_s)
        r["excess"] = (r["result"] - r["ph"]) ** 2 - (r["result"] - r["ps"]) ** 2

    # King danger, each engine's own figure: the attacker's bonus (Horizon), the weaker king's
    # safety (Stockfish, lower is worse). High: top share; low: bottom half.
    h_attack = [max(r["h_danger"]) for r in rows]
    s_threat = [-min(r["s_safety"]) for r in rows]
    cut = lambda v, q: sorted(v)[min(len(v) - 1, int(q * len(v)))]
    h_hi, h_lo = cut(h_attack, 1 - args.danger_share), cut(h_attack, 0.5)
    s_hi, s_lo = cut(s_threat, 1 - args.danger_share), cut(s_threat, 0.5)

    classes = {}

    def put(name, row, side):
        classes.setdefault(name, []).append((row, side))

    for r, ha, st in zip(rows, h_attack, s_threat):
        more = r["more"]
        put("all", r, more)
        put(f"phase: {r['phase']}", r, more)
        put(material_family(r), r, more)
        if r["ocb"]:
            put("bishops: opposite colours, one each", r, more)
            if r["ocb_pure"]:
                put("bishops: opposite colours, no other piece", r, more)
        put("queens: on" if r["queens"] else "queens: off", r, more)
        pw, pb = r["passers"][1], r["passers"][-1]
        if pw == pb == 0:
            put("passed pawns: none", r, more)
        else:
            leader = 1 if pw > pb else -1 if pb > pw else more
            put("passed pawns: present", r, leader)
            if max(pw, pb) >= 5:
                put("passed pawns: one on the 6th or 7th", r, leader)
            if (pw == 0) != (pb == 0):
                put("passed pawns: one side only", r, leader)
        hw, hb = r["h_danger"]
        h_side = 1 if hw >= hb else -1
        sw, sb = r["s_safety"]
        s_side = 1 if sb <= sw else -1
        if ha >= h_hi and ha > 0:
            put(f"king danger high (Horizon's, top {args.danger_share:.0%})", r, h_side)
        if st >= s_hi:
            put(f"king danger high (Stockfish's, top {args.danger_share:.0%})", r, s_side)
        if ha <= h_lo and st <= s_lo:
            put("king danger low (both, bottom half)", r, more)

    total_excess = sum(r["excess"] for r in rows)
    print(f"{len(rows)} positions evaluated of {len(lines)} drawn (seed {args.seed}) from "
          f"{seen} lines of {', '.join(args.data)}")
    print(f"fitted scales: Horizon {scale_h:.1f} cp, Stockfish {scale_s:.1f} (its printed "
          f"pawns x 100); loss (mean squared residual) Horizon "
          f"{statistics.fmean((r['result'] - r['ph']) ** 2 for r in rows):.5f}, Stockfish "
          f"{statistics.fmean((r['result'] - r['ps']) ** 2 for r in rows):.5f}")
    print(f"king danger cuts: Horizon bonus high >= {h_hi}, low <= {h_lo}; Stockfish weaker "
          f"king safety high <= {-s_hi:.0f}, low >= {-s_lo:.0f}")
    print("class                                          n   evalH  evalS  expH  expS  "
          "score  residH  residS | excess loss: mean   z   share")
    table = []
    for name, members in classes.items():
        n = len(members)
        if n < args.min_count:
            continue
        side_view = [(r, side) for r, side in members]
        ev_h = statistics.fmean(side * r["h"] for r, side in side_view)
        ev_s = statistics.fmean(side * r["s"] for r, side in side_view)
        share = lambda p, side: p if side > 0 else 1 - p
        exp_h = statistics.fmean(share(r["ph"], side) for r, side in side_view)
        exp_s = statistics.fmean(share(r["ps"], side) for r, side in side_view)
        scored = statistics.fmean(share(r["result"], side) for r, side in side_view)
        ex = [r["excess"] for r, _ in side_view]
        mean_ex = statistics.fmean(ex)
        sd = statistics.pstdev(ex) or 1e-9
        z = mean_ex / sd * math.sqrt(n)
        table.append((sum(ex), name, n, ev_h, ev_s, exp_h, exp_s, scored, mean_ex, z))
    for tot, name, n, ev_h, ev_s, exp_h, exp_s, scored, mean_ex, z in sorted(
            table, key=lambda t: (t[1] != "all", -t[0])):
        print(f"{name:44s} {n:6d} {ev_h:+7.0f} {ev_s:+6.0f} {exp_h:5.1%} {exp_s:5.1%} "
              f"{scored:5.1%} {1000 * (scored - exp_h):+7.1f} {1000 * (scored - exp_s):+7.1f} | "
              f"{1000 * mean_ex:+10.2f} {z:+5.1f} "
              f"{tot / total_excess if total_excess else 0:+6.0%}")

    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["fen", "result", "horizon_cp", "stockfish_cp", "horizon_danger_w",
                        "horizon_danger_b", "stockfish_safety_w", "stockfish_safety_b"])
            for r in rows:
                w.writerow([r["fen"], r["result"], r["h"], r["s"], *r["h_danger"],
                            *r["s_safety"]])


if __name__ == "__main__":
    main()
