"""Horizon's bench positions and one search of them to a depth, read depth by depth: shared by
scripts/measure/ebf.py, newgame_cost.py and smp_ttd.py."""
import re
import time
from pathlib import Path

import uci

ROOT = Path(__file__).resolve().parents[2]


def bench_fens():
    """The FENs of BENCH_FENS in src/engine/bench.cpp, in its order."""
    text = (ROOT / "src/engine/bench.cpp").read_text()
    block = text[text.index("BENCH_FENS[] = {"):text.index("};", text.index("BENCH_FENS[] = {"))]
    return re.findall(r'"([^"]+)"', block)


def search(engine, fen, depth, threads, hash_mb, limit_s, cpus=None):
    """{depth: (nodes, time ms)} at the end of each depth of `go depth DEPTH` on FEN from an
    empty table, the engine stopped after `limit_s` seconds. `cpus`: the CPUs the engine may run
    on (None: any)."""
    per_depth = {}

    def take(line):
        m = re.match(r"info depth (\d+) .*?\bnodes (\d+) .*?\btime (\d+)", line)
        if m and ("multipv" not in line or " multipv 1 " in line):
            if "lowerbound" in line or "upperbound" in line:
                return
            per_depth[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))

    e = uci.Engine([engine], cpus=cpus)
    e.send("uci")
    e.setoption("Threads", threads)
    e.setoption("Hash", hash_mb)
    e.newgame()
    e.position(fen)
    e.go(f"depth {depth}", stop_after=limit_s, on_line=take)
    e.quit()
    return per_depth


def first_at_or_beyond(per_depth, depth):
    """The first completed depth >= `depth` in a search's reports, with its (nodes, time ms),
    or None. With Lazy SMP the main thread may report a deeper line a helper completed
    instead of the depth itself."""
    reached = [d for d in sorted(per_depth) if d >= depth]
    return (reached[0], *per_depth[reached[0]]) if reached else None
