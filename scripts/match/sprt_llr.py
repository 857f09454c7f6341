#!/usr/bin/env python3
"""An SPRT's standing from its pentanomial counts, for a test played in several runs.

    scripts/match/sprt_llr.py [--elo0 0] [--elo1 5] [--alpha 0.05] [--beta 0.05] COUNTS...

Each COUNTS is one run's pentanomial counts, as fastchess prints them (`Ptnml(0-2)`: pairs
scoring 0, 0.5, 1, 1.5 and 2 points for the new build), five numbers joined by commas, e.g.
`22,138,253,160,27`; the runs are added up. A run stopped at the end of a session and started
again on another day is a new fastchess run whose counts start from zero: this adds them.

Prints the pairs and games, the score, the Elo with its 95 % interval, the normalized Elo, and
the log-likelihood ratio of elo1 against elo0 on the normalized-Elo scale (the model of
`scripts/match/sprt.sh`) with the bounds alpha and beta set, and the verdict: H1 (accepted,
the change gains), H0 (rejected) or "continue". The ratio is the normal approximation of the
generalized SPRT (the pair scores' mean and variance, taken from the counts); on one run of
1,583 games it stayed within 0.006 of fastchess's own figure at every report.
"""
import argparse
import math
import sys

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # a pair's points, per game


def parse_counts(text):
    parts = text.split(",")
    if len(parts) != 5:
        raise ValueError(f"'{text}': five counts are needed (pairs scoring 0, 0.5, 1, 1.5, 2)")
    counts = [int(p) for p in parts]
    if any(c < 0 for c in counts):
        raise ValueError(f"'{text}': a count below 0")
    return counts


def logistic_elo(score):
    if 0 < score < 1:
        return -400 * math.log10(1 / score - 1)
    return math.copysign(math.inf, score - 0.5)


def standing(counts, elo0, elo1, alpha, beta):
    """A dict of the figures above for summed pentanomial counts."""
    pairs = sum(counts)
    mean = sum(c * s for c, s in zip(counts, PAIR_SCORES)) / pairs
    var = sum(c * (s - mean) ** 2 for c, s in zip(counts, PAIR_SCORES)) / pairs
    result = {"pairs": pairs, "games": 2 * pairs, "score": mean,
              "elo": logistic_elo(mean), "lower": math.nan, "upper": math.nan,
              "nelo": math.nan, "llr": 0.0,
              "bounds": (math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha))}
    if var <= 0:
        return result  # every pair scored the same: no spread to weigh
    error = 1.959964 * math.sqrt(var / pairs)
    result["lower"] = logistic_elo(mean - error)
    result["upper"] = logistic_elo(mean + error)
    # Normalized Elo: the score's distance from 0.5 in standard deviations of a game's score
    # (a pair's times the square root of 2), on the Elo scale near 0.
    per_game = math.sqrt(2 * var)
    scale = math.log(10) / 800
    result["nelo"] = (mean - 0.5) / per_game / scale
    mean0 = 0.5 + elo0 * scale * per_game
    mean1 = 0.5 + elo1 * scale * per_game
    result["llr"] = pairs * (mean1 - mean0) * (2 * mean - mean0 - mean1) / (2 * var)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("counts", nargs="+", help="a run's pentanomial counts: a,b,c,d,e")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=5.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    args = parser.parse_args()
    try:
        runs = [parse_counts(c) for c in args.counts]
    except ValueError as e:
        sys.exit(f"sprt_llr: {e}")
    if args.elo1 <= args.elo0:
        sys.exit("sprt_llr: --elo1 must be above --elo0")
    if not (0 < args.alpha < 1 and 0 < args.beta < 1):
        sys.exit("sprt_llr: --alpha and --beta must be between 0 and 1")
    total = [sum(run[i] for run in runs) for i in range(5)]
    if sum(total) == 0:
        sys.exit("sprt_llr: no pairs")
    r = standing(total, args.elo0, args.elo1, args.alpha, args.beta)
    low, high = r["bounds"]
    verdict = "H1 (accepted)" if r["llr"] >= high else "H0 (rejected)" if r["llr"] <= low \
        else "continue"
    print(f"{len(runs)} run{'s' if len(runs) > 1 else ''}: pentanomial {total}, "
          f"{r['pairs']} pairs ({r['games']} games)")
    if math.isnan(r["nelo"]):
        print(f"score {100 * r['score']:.2f} %: every pair scored the same, no spread to weigh")
    else:
        print(f"score {100 * r['score']:.2f} %, Elo {r['elo'] + 0.0:+.1f} "
              f"[{r['lower']:+.1f}, {r['upper']:+.1f}], normalized Elo {r['nelo']:+.1f}")
    print(f"LLR {r['llr']:.2f} of [{low:.2f}, {high:.2f}] for elo0 {args.elo0:g}, "
          f"elo1 {args.elo1:g} (normalized): {verdict}")


if __name__ == "__main__":
    main()
