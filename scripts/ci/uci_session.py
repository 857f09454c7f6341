#!/usr/bin/env python3
"""A scripted UCI session with an engine, for the checks of the distributed binaries.

    scripts/ci/uci_session.py [--depth 8] COMMAND...

Runs COMMAND (the engine, under Wine or QEMU as the check needs it; its standard error is read
with its output) and sends `uci`, `isready`, `position startpos moves e2e4 e7e5`, `go depth
DEPTH` and `quit`, waiting for each answer: uciok 600 s, readyok 120 s, bestmove 900 s (the
limits only catch hangs: Wine's first start in a new prefix can take minutes). Passes (exit
status 0) when every answer came, the bestmove is a move, the engine exited with status 0 and
no line ended in CR. Prints one line: what was played, or what went wrong.
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import uci  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    if not args.command:
        ap.error("no engine command")
    engine = uci.Engine(args.command, stderr=subprocess.STDOUT)
    reply, ok = "", True
    try:
        engine.uci(timeout=600)
        reply = "uciok"
        engine.isready(timeout=120)
        reply = "readyok"
        engine.position(moves=["e2e4", "e7e5"])
        found = engine.go(f"depth {args.depth}", timeout=900)
        reply = "bestmove " + (found.bestmove or "") + (
            f" ponder {found.ponder}" if found.ponder else "")
    except uci.EngineError:
        ok = False
    try:
        status = engine.quit(timeout=60)
    except subprocess.TimeoutExpired:
        engine.proc.kill()
        status = engine.proc.wait()
    played = re.match(r"^bestmove [a-h][1-8][a-h][1-8][qrbn]?( |$)", reply)
    if ok and played and status == 0 and engine.cr_lines == 0:
        print(f"uci, isready, position, go depth {args.depth} -> '{reply}', quit (status 0)")
        return 0
    print(f"UCI session (last reply '{reply}', exit status {status}, {engine.cr_lines} lines "
          "ending in CR)")
    return 1


if __name__ == "__main__":
    sys.exit(main())
