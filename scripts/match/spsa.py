#!/usr/bin/env python3
"""SPSA tuning of Horizon's search constants (the HORIZON_TUNABLE lines of src/search/params.hpp).

    scripts/match/spsa.py [--dir DIR] [--iterations N] [--tc 5+0.05 | --nodes N] [--pairs P]
                          [--concurrency C] [--params NAME,...] [--engine BIN] [--no-adjudication]
    scripts/match/spsa.py --dir DIR --status        what the run has found so far
    scripts/match/spsa.py --dir DIR --apply         write it into src/search/params.hpp

Each iteration moves every constant at once by +c or -c (a random sign each), plays P game
pairs (both colours of one opening) between the engine with the plus values and the engine
with the minus values, and steps every constant by a * (wins - losses) * sign / c. The step
sizes shrink over the run as in Spall's method: c_k = c / (k + 1)^0.101, a_k = a / (A + k +
1)^0.602, A = N / 10; at the last iteration c is C_END (a twentieth of the constant's range)
and a is R_END * C_END^2, R_END = 0.002. Games end early by adjudication as in sprt.sh
(resign at 6 pawns, draw at 0.2 from move 34) unless --no-adjudication; the run in
tuning/spsa, begun without it, has had it from iteration 1,256.

The engine is the `spsa` build (cmake --preset spsa && cmake --build --preset spsa), whose
tunable constants are UCI options. Games: fastchess, one thread and 16 MiB each, openings
../shared/openings/random8-balanced.epd. The state is DIR/state.json after every iteration: run
the same command again to go on after a stop. Every finished iteration's games are added to
DIR/games.pgn (not committed: *.pgn is ignored), training data for `horizon datagen
--from-pgn`. The engine and openings paths are taken afresh at each start, so a DIR inside the
repository (its state.json committed) resumes on another machine. fastchess is $FASTCHESS, else
on PATH, else a usual place (FASTCHESS_PLACES).
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
# Games end early as sprt.sh ends them: SELFPLAY_ADJUDICATION in scripts/match/opponents.sh.
import adjudication_rules  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PARAMS = os.path.join(ROOT, "src", "search", "params.hpp")
LINE = re.compile(r"^HORIZON_TUNABLE\(\s*(\w+),\s*(-?\d+),\s*(-?\d+),\s*(-?\d+)\s*\);", re.M)
ALPHA, GAMMA, R_END = 0.602, 0.101, 0.002
OPENINGS = os.path.join(os.path.dirname(ROOT), "shared", "openings", "random8-balanced.epd")


def read_tunables(text):
    """name -> (value, min, max), in the file's order."""
    return {m[1]: (int(m[2]), int(m[3]), int(m[4])) for m in LINE.finditer(text)}


# The usual places of a fastchess built from source, as FASTCHESS_PLACES in
# scripts/match/opponents.sh: beside the checkout, in tools/fastchess or fastchess.
FASTCHESS_PLACES = tuple(os.path.normpath(os.path.join(ROOT, "..", *parts, "fastchess"))
                         for parts in (("tools", "fastchess"), ("fastchess",)))


def fastchess_path():
    path = os.environ.get("FASTCHESS") or shutil.which("fastchess")
    if not path:
        path = next((p for p in FASTCHESS_PLACES if os.access(p, os.X_OK)), "")
    if not path or not os.access(path, os.X_OK):
        sys.exit("spsa: fastchess not found: set FASTCHESS to its binary (looked on PATH and in "
                 + ", ".join(FASTCHESS_PLACES) + ")")
    return path


def gains(state, k):
    """(a_k, c_k) per constant for iteration k (0-based)."""
    n = state["iterations"]
    big_a = n / 10
    out = {}
    for name, (_, lo, hi) in state["params"].items():
        c_end = max(0.5, (hi - lo) / 20)
        a_end = R_END * c_end ** 2
        c = c_end * n ** GAMMA
        a = a_end * (big_a + n) ** ALPHA
        out[name] = (a / (big_a + k + 1) ** ALPHA, c / (k + 1) ** GAMMA)
    return out


def play(state, plus, minus, k, work):
    """Wins minus losses of the plus engine over the iteration's game pairs."""
    def engine(name, values):
        return ["-engine", f"cmd={state['engine']}", f"name={name}"] + [
            f"option.{p}={v}" for p, v in values.items()]
    limit = [f"tc={state['tc']}"] if not state["nodes"] else ["tc=inf", f"nodes={state['nodes']}"]
    cmd = [fastchess_path()] + engine("plus", plus) + engine("minus", minus) + [
        "-each"] + limit + ["option.Threads=1", "option.Hash=16",
        "-openings", f"file={state['openings']}", "format=epd", "order=random",
        "-srand", str(state["seed"] * 1000003 + k),
        "-rounds", str(state["pairs"]), "-games", "2", "-repeat",
        "-concurrency", str(state["concurrency"])] + (
        adjudication_rules.selfplay_adjudication() if state.get("adjudicate", True) else []) + [
        "-pgnout", f"file={os.path.join(work, 'games.pgn')}"]
    run = subprocess.run(cmd, capture_output=True, text=True, check=False)
    found = re.findall(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)", run.stdout)
    if not found:
        sys.exit("spsa: fastchess gave no result:\n" + run.stdout[-2000:] + run.stderr[-2000:])
    games, wins, losses, draws = map(int, found[-1])
    return games, wins, losses, draws


def keep_games(work, run_dir):
    """Appends the iteration's games to DIR/games.pgn: self-play at the run's limit, which
    `horizon datagen --from-pgn` turns into training positions."""
    with open(os.path.join(work, "games.pgn")) as src, \
            open(os.path.join(run_dir, "games.pgn"), "a") as dest:
        shutil.copyfileobj(src, dest)


def status(state):
    print(f"iterations {state['k']}/{state['iterations']}, games {state['games']} "
          f"(+{state['wins']} -{state['losses']} ={state['draws']})")
    for name, (start, lo, hi) in state["params"].items():
        t = state["theta"][name]
        print(f"  {name:26} {start:7} -> {t:9.2f}  (round {round(t)}; range {lo}..{hi})")


def apply(state):
    text = open(PARAMS).read()

    def replace(m):
        name = m[1]
        if name not in state["theta"]:
            return m[0]
        value = round(state["theta"][name])
        return f"HORIZON_TUNABLE({name}, {value}, {m[3]}, {m[4]});"
    new = LINE.sub(replace, text)
    with open(PARAMS, "w") as f:
        f.write(new)
    print(f"spsa: wrote {len(state['theta'])} values into {os.path.relpath(PARAMS, ROOT)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", default="/tmp/horizon-spsa")
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--tc", default="5+0.05")
    ap.add_argument("--nodes", type=int, default=0, help="fixed nodes a move instead of --tc")
    ap.add_argument("--pairs", type=int, default=2, help="game pairs an iteration")
    ap.add_argument("--concurrency", type=int, default=None,
                    help="games at once (default 2; on a resume, the run's own unless given)")
    ap.add_argument("--no-adjudication", action="store_true",
                    help="play every game to its end (kept in the state: a resume stays so)")
    ap.add_argument("--params", default="", help="comma-separated names (default: all)")
    ap.add_argument("--engine", default=os.path.join(ROOT, "build", "spsa", "horizon"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--status", action="store_true")
    ap.add_argument("--apply", action="store_true")
    args = ap.parse_args()

    os.makedirs(args.dir, exist_ok=True)
    state_file = os.path.join(args.dir, "state.json")
    if os.path.exists(state_file):
        state = json.load(open(state_file))
        state["params"] = {k: tuple(v) for k, v in state["params"].items()}
        # The paths are this checkout's, not those of the machine that began the run: a state
        # kept in the repository resumes on another machine.
        state["engine"] = os.path.abspath(args.engine)
        state["openings"] = OPENINGS
        # How many games run at once changes no game at fixed nodes (and little at a time
        # control): a resume may take fewer cores, leaving one to another job, or more.
        if args.concurrency:
            state["concurrency"] = args.concurrency
    else:
        tunables = read_tunables(open(PARAMS).read())
        chosen = [p for p in args.params.split(",") if p] or list(tunables)
        unknown = [p for p in chosen if p not in tunables]
        if unknown:
            sys.exit("spsa: not a HORIZON_TUNABLE constant: " + ", ".join(unknown))
        state = {
            "engine": os.path.abspath(args.engine), "tc": args.tc, "nodes": args.nodes,
            "pairs": args.pairs, "concurrency": args.concurrency or 2, "seed": args.seed,
            "iterations": args.iterations,
            "openings": OPENINGS,
            "params": {p: tunables[p] for p in chosen},
            "theta": {p: float(tunables[p][0]) for p in chosen},
            "k": 0, "games": 0, "wins": 0, "losses": 0, "draws": 0,
        }
    if args.no_adjudication:
        state["adjudicate"] = False
    if args.status:
        status(state)
        return
    if args.apply:
        apply(state)
        return
    if not os.access(state["engine"], os.X_OK):
        sys.exit(f"spsa: no engine at {state['engine']} (cmake --preset spsa && "
                 "cmake --build --preset spsa)")

    while state["k"] < state["iterations"]:
        k = state["k"]
        rng = random.Random(state["seed"] * 7919 + k)
        g = gains(state, k)
        plus, minus, sign = {}, {}, {}
        for name, (_, lo, hi) in state["params"].items():
            sign[name] = rng.choice((-1, 1))
            step = g[name][1] * sign[name]
            plus[name] = min(hi, max(lo, round(state["theta"][name] + step)))
            minus[name] = min(hi, max(lo, round(state["theta"][name] - step)))
        # One folder for the iteration's games, emptied first: a stopped run leaves nothing.
        work = os.path.join(args.dir, "iteration")
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        games, wins, losses, draws = play(state, plus, minus, k, work)
        keep_games(work, args.dir)
        result = wins - losses
        for name, (_, lo, hi) in state["params"].items():
            a_k, c_k = g[name]
            t = state["theta"][name] + a_k * result * sign[name] / c_k
            state["theta"][name] = min(float(hi), max(float(lo), t))
        state["k"] += 1
        state["games"] += games
        state["wins"] += wins
        state["losses"] += losses
        state["draws"] += draws
        tmp = state_file + ".tmp"
        with open(tmp, "w") as f:
            json.dump(state, f, indent=1)
        os.replace(tmp, state_file)
        print(f"iteration {k + 1}/{state['iterations']}: {wins}-{losses}-{draws}, "
              f"games {state['games']}", flush=True)
    status(state)


if __name__ == "__main__":
    main()
