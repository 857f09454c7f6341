"""Driving a UCI engine from the scripts here: the one place that starts an engine process and
talks to it line by line.

    engine = uci.Engine(["/usr/games/stockfish"])
    engine.uci()
    engine.setoption("Threads", 1)
    engine.isready()
    engine.position("8/8/8/8/8/k7/2R5/4K3 w - - 0 1")
    found = engine.go("depth 10")    # found.bestmove, found.info (the last score), found.lines
    engine.quit()

Every wait takes a timeout in seconds (None: as long as it takes); an engine that exits, or
does not answer in time, raises EngineError. Lines are read by a thread of their own, so a wait
with a timeout returns even when the engine prints nothing.
"""
import io
import os
import queue
import subprocess
import threading
import time
from typing import NamedTuple


class EngineError(RuntimeError):
    """The engine exited, or did not answer in time."""


class EngineTimeout(EngineError):
    """The engine did not answer in time."""


class Search(NamedTuple):
    bestmove: str | None  # the move of the `bestmove` line ("(none)" where there is none)
    ponder: str | None  # its ponder move, if it gave one
    info: str | None  # the last `info` line with a score, or None
    lines: list  # every line the engine printed between `go` and `bestmove`


def score(info):
    """('cp', n) or ('mate', n) from an `info` line, or None when it holds no score."""
    words = (info or "").split()
    if "score" not in words:
        return None
    i = words.index("score")
    return words[i + 1], int(words[i + 2])


class Engine:
    """An engine process. `command` is its argument list; `cpus`, a set of CPU numbers the
    process may run on (None: any); `stderr`, where its standard error goes (None: here,
    subprocess.STDOUT: among the lines read)."""

    def __init__(self, command, cpus=None, name=None, stderr=None):
        self.name = name or os.path.basename(command[0])
        pin = (lambda: os.sched_setaffinity(0, cpus)) if cpus is not None else None
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr, preexec_fn=pin)
        # Lines end at LF alone and keep what precedes it, so a CR before it can be counted.
        self._in = io.TextIOWrapper(self.proc.stdin, encoding="utf-8", line_buffering=True)
        self._out = io.TextIOWrapper(self.proc.stdout, encoding="utf-8", errors="replace",
                                     newline="\n")
        self.cr_lines = 0  # lines that ended in CR LF: a UCI line ends in LF alone
        self._lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self._out:
            if line.endswith("\r\n"):
                self.cr_lines += 1
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)  # the end of the output

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def send(self, line):
        """Writes one line to the engine."""
        try:
            self._in.write(line + "\n")
            self._in.flush()
        except (BrokenPipeError, OSError, ValueError) as e:
            raise EngineError(f"{self.name}: exited (writing '{line}')") from e

    def readline(self, timeout=None):
        """The engine's next line, without its line end; EngineError at the end of its output
        or after `timeout` seconds without a line."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise EngineTimeout(f"{self.name}: no answer in {timeout} s") from None
        if line is None:
            self._lines.put(None)  # every later read ends here too
            raise EngineError(f"{self.name}: exited")
        return line

    def read_until(self, matches, timeout=None, on_line=None):
        """Reads lines until one for which `matches(line)` is true; returns all of them, that
        one last. `timeout` bounds the whole wait; `on_line(line)` sees each line as it comes."""
        deadline = None if timeout is None else time.monotonic() + timeout
        lines = []
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                line = self.readline(left)
            except EngineTimeout:
                raise EngineTimeout(f"{self.name}: no answer in {timeout} s") from None
            if on_line:
                on_line(line)
            lines.append(line)
            if matches(line):
                return lines

    def expect(self, word, timeout=None):
        """Reads until a line whose first word is `word`; returns that line."""
        return self.read_until(lambda line: line.split()[:1] == [word], timeout)[-1]

    def uci(self, timeout=None):
        """`uci` and its `uciok`; returns the lines before it (id, option)."""
        self.send("uci")
        return self.read_until(lambda line: line.split()[:1] == ["uciok"], timeout)[:-1]

    def isready(self, timeout=None):
        """`isready`, and waits for `readyok`."""
        self.send("isready")
        self.expect("readyok", timeout)

    def setoption(self, name, value=None):
        self.send(f"setoption name {name}" + ("" if value is None else f" value {value}"))

    def newgame(self):
        self.send("ucinewgame")

    def position(self, fen=None, moves=()):
        """`position fen FEN` (`position startpos` without one), then the moves if any."""
        line = f"position fen {fen}" if fen else "position startpos"
        self.send(line + (" moves " + " ".join(moves) if moves else ""))

    def go(self, limits, timeout=None, stop_after=None, on_line=None):
        """`go LIMITS` (such as "depth 10", "nodes 5000"), read to its `bestmove`. With
        `stop_after` seconds, `stop` is sent once that long has passed without a bestmove.
        `timeout` bounds the whole wait; `on_line(line)` sees each line as it comes."""
        self.send(f"go {limits}")
        start = time.monotonic()
        deadline = None if timeout is None else start + timeout
        stopped = False
        lines = []
        while True:
            waits = []
            if deadline is not None:
                waits.append(deadline - time.monotonic())
            if stop_after is not None and not stopped:
                waits.append(start + stop_after - time.monotonic())
            wait = max(0.0, min(waits)) if waits else None
            try:
                line = self.readline(wait)
            except EngineTimeout:
                if not stopped and stop_after is not None and (
                        deadline is None or time.monotonic() < deadline):
                    self.send("stop")
                    stopped = True
                    continue
                raise EngineTimeout(f"{self.name}: no bestmove in {timeout} s") from None
            if on_line:
                on_line(line)
            if line.split()[:1] == ["bestmove"]:
                words = line.split()
                ponder = words[3] if len(words) > 3 and words[2] == "ponder" else None
                info = next((x for x in reversed(lines)
                             if x.startswith("info") and " score " in x), None)
                return Search(words[1] if len(words) > 1 else None, ponder, info, lines)
            lines.append(line)
            if stop_after is not None and not stopped and \
                    time.monotonic() - start > stop_after:
                self.send("stop")
                stopped = True

    def quit(self, timeout=10):
        """`quit`, and waits for the process to end; returns its exit status."""
        try:
            self.send("quit")
            self._in.close()
        except (EngineError, OSError):
            pass
        return self.proc.wait(timeout=timeout)

    def close(self):
        """Ends the engine: `quit`, and a kill if it does not exit in time."""
        if self.proc.poll() is not None:
            return
        try:
            self.quit()
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def open_engine(command, options=(), name=None, stderr=subprocess.DEVNULL):
    """An engine started from `command` (a string split at blanks), past `uci`, with each
    "NAME=VALUE" of `options` set and `isready` answered; its standard error goes to `stderr`
    (dropped unless told)."""
    engine = Engine(command.split(), name=name, stderr=stderr)
    engine.uci(timeout=60)
    for name_value in options:
        option, _, value = name_value.partition("=")
        engine.setoption(option, value)
    engine.isready(timeout=60)
    return engine


def nodes_and_time(search):
    """(nodes, ms) of the last info line of a search (Search) that has both, or None."""
    for line in reversed(search.lines):
        words = line.split()
        if words[:1] == ["info"] and "nodes" in words and "time" in words:
            return int(words[words.index("nodes") + 1]), int(words[words.index("time") + 1])
    return None
