#!/usr/bin/env python3
"""Helpers shared by scripts/nps_compare.py and scripts/eval_compare.py (imported, not run).

- UciEngine: one engine process driven over UCI (options, searches, raw commands).
- read_positions: FENs from EPD files and from training files ('<FEN> | <score> | <result>',
  plain or .xz), with the result when the line has one.
- phase / phase_name: the game phase by material, 0 (bare kings and pawns) to 24 (all pieces),
  knight and bishop 1, rook 2, queen 4; opening from 20, endgame up to 8, middlegame between.
"""
import lzma
import subprocess

PHASE_WEIGHT = {"n": 1, "b": 1, "r": 2, "q": 4}
OPENING_FROM = 20
ENDGAME_UP_TO = 8


class UciEngine:
    def __init__(self, cmd, options=(), name=None):
        self.name = name or cmd
        self.proc = subprocess.Popen(cmd.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        for name_value in options:
            opt, _, value = name_value.partition("=")
            self.send(f"setoption name {opt} value {value}")
        self.ready()

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def lines(self):
        for line in self.proc.stdout:
            yield line.rstrip("\n")
        raise RuntimeError(f"{self.name} exited")

    def wait_for(self, prefix):
        for line in self.lines():
            if line.startswith(prefix):
                return line
        return None

    def ready(self):
        self.send("isready")
        self.wait_for("readyok")

    def search(self, fen, go):
        """Runs `go ...` from FEN on an empty hash; returns (nodes, ms) of the last info line
        that has both (None if there was none)."""
        self.send("ucinewgame")
        self.ready()
        self.send(f"position fen {fen}")
        self.send(f"go {go}")
        last = None
        for line in self.lines():
            if line.startswith("bestmove"):
                break
            if line.startswith("info") and " nodes " in line and " time " in line:
                words = line.split()
                last = (int(words[words.index("nodes") + 1]), int(words[words.index("time") + 1]))
        return last

    def quit(self):
        try:
            self.send("quit")
            self.proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        self.proc.wait()


def open_text(path):
    return lzma.open(path, "rt") if path.endswith(".xz") else open(path)


def read_positions(path):
    """(fen, result or None) for every position line of an EPD or training file."""
    with open_text(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if "|" in line:
                parts = [p.strip() for p in line.split("|")]
                fen = parts[0]
                result = float(parts[2]) if len(parts) > 2 else None
            else:
                # EPD: four FEN fields, then operations.
                fen, result = " ".join(line.split()[:4]), None
            if len(fen.split()) == 4:
                fen += " 0 1"
            yield fen, result


def phase(fen):
    return min(24, sum(PHASE_WEIGHT.get(c.lower(), 0) for c in fen.split()[0]))


def phase_name(fen):
    p = phase(fen)
    if p >= OPENING_FROM:
        return "opening"
    return "endgame" if p <= ENDGAME_UP_TO else "middlegame"
