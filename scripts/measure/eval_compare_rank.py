#!/usr/bin/env python3
"""Ranks the classes of several scripts/measure/eval_compare.py runs (one per label set) together.

    scripts/measure/eval_compare_rank.py NAME=OUTPUT [NAME=OUTPUT ...]

OUTPUT is the text eval_compare.py printed for one label set (its standard output, saved). The
results of a set's games lean towards the evaluation of the engines that played them, which
moves every class of that set alike; so each class's excess loss (Horizon's squared residual
minus Stockfish's, thousandths) is taken relative to its set's 'all' line, and the classes
present in every set are ranked by the mean of those relative excesses over the sets. Printed
as a Markdown table: the mean, in how many sets the class is above its set's line, each set's
relative excess, and each set's residual difference, Horizon's minus Stockfish's (thousandths
of a point for the side the class is seen from: negative, Horizon rates that side better than
Stockfish does, relative to the results).
"""
import re
import sys

ROW = re.compile(r"^(\S.*?)\s{2,}(\d+)\s+([-+]\d+)\s+([-+]\d+)\s+([\d.]+)%\s+([\d.]+)%\s+"
                 r"([\d.]+)%\s+([-+][\d.]+)\s+([-+][\d.]+) \|\s+([-+][\d.]+)\s+([-+][\d.]+)")


def read(path):
    """{class: (count, residual H, residual S, mean excess)}."""
    out = {}
    with open(path) as f:
        for line in f:
            m = ROW.match(line)
            if m:
                g = m.groups()
                out[g[0].strip()] = (int(g[1]), float(g[7]), float(g[8]), float(g[9]))
    return out


def main():
    if len(sys.argv) < 2 or any("=" not in a for a in sys.argv[1:]):
        sys.exit(__doc__)
    sets = [a.split("=", 1) for a in sys.argv[1:]]
    tables = {name: read(path) for name, path in sets}
    names = [name for name, _ in sets]
    for name in names:
        if "all" not in tables[name]:
            sys.exit(f"{name}: no 'all' line: not an eval_compare.py output")
    classes = [c for c in tables[names[0]] if c != "all" and all(c in tables[n] for n in names)]
    rows = []
    for c in classes:
        rel = [tables[n][c][3] - tables[n]["all"][3] for n in names]
        diff = [tables[n][c][1] - tables[n][c][2] for n in names]
        rows.append((sum(rel) / len(rel), sum(r > 0 for r in rel), c, rel, diff))
    rows.sort(key=lambda r: -r[0])
    print("| class | mean relative excess | sets above | "
          + " | ".join(f"{n} excess" for n in names) + " | "
          + " | ".join(f"{n} resid H-S" for n in names) + " |")
    print("|---" * (3 + 2 * len(names)) + "|")
    for mean, above, c, rel, diff in rows:
        print(f"| {c} | {mean:+.1f} | {above}/{len(names)} | "
              + " | ".join(f"{r:+.1f}" for r in rel) + " | "
              + " | ".join(f"{d:+.0f}" for d in diff) + " |")


if __name__ == "__main__":
    main()
