#!/usr/bin/env python3
"""How each engine of a fastchess PGN used its clock.

    scripts/measure/clock_use.py GAMES.pgn [BLOCK]

For each engine: the mean time a move in each block of BLOCK of its own moves (default 10),
and the median and least clock left when its games ended (base plus increments minus the
times its moves took, from the [TimeControl] tag and the move comments fastchess writes,
{score/depth time}). An engine that ends its games with much of its clock left and spends
less a move early than its opponent leaves strength unused. A game that a resumed match played
again counts once, the later one.
"""
import os
import re
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pgn_games import games, latest, read  # noqa: E402


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip())
        return 2
    block = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    per_block = defaultdict(lambda: defaultdict(list))
    left = defaultdict(list)
    for tags, movetext in latest(games(read(sys.argv[1]))):
        times = [float(t) for t in re.findall(r'([0-9.]+)s\}', movetext)]
        tc = re.fullmatch(r'([0-9.]+)\+([0-9.]+)', tags.get('TimeControl', ''))
        base, inc = (float(tc.group(1)), float(tc.group(2))) if tc else (None, None)
        for side, own in ((tags.get('White'), times[0::2]), (tags.get('Black'), times[1::2])):
            for i, t in enumerate(own):
                per_block[side][i // block].append(t)
            if tc:
                left[side].append(base + inc * len(own) - sum(own))
    for side in sorted(per_block):
        blocks = per_block[side]
        means = ' '.join(f'{statistics.mean(blocks[b]):.3f}' for b in sorted(blocks)[:8])
        print(f'{side}: s/move by blocks of {block} moves: {means}')
        if left[side]:
            print(f'  clock left at the end: median {statistics.median(left[side]):.2f} s, '
                  f'least {min(left[side]):.2f} s, {len(left[side])} games')
    return 0


if __name__ == '__main__':
    sys.exit(main())
