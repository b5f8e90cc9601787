#!/usr/bin/env python3
"""Referee of Ko shogi games between two USI engine processes under a clock.

Each side has a main time, an increment and a byoyomi (milliseconds), or a fixed time, depth
or node budget per move. The referee times every move from the "go" it writes to the
"bestmove" it reads, takes the time off the mover's clock and declares a loss on time when a
move takes longer than the clock and byoyomi allow. Every move is checked against the legal
moves a third engine process (the referee's own koshogi) lists, and that process also says
when the game is over. Games start after a few random pawn steps (seeded), each opening played
twice with the colours swapped, and A's Elo and its 95% interval are computed over these pairs
(pair_stats.py). With a node budget (--go "nodes N") the games do not depend on the machine's
load: the same seed plays the same games, which moves_digest shows. Prints one JSON line; with
--strict, exits 1 when any game had an illegal move or a loss on time."""
import argparse
import hashlib
import json
import os
import random
import re
import shlex
import sys
import time

from pair_stats import pair_stats
from usi_engine import Engine, EngineError


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--koshogi", required=True, help="the koshogi command that judges legality and results")
    p.add_argument("--a", required=True, help="engine A's command line (quoted)")
    p.add_argument("--b", required=True, help="engine B's command line (quoted)")
    p.add_argument("--games", type=int, default=2,
                   help="games, an even number: each opening is played twice, A Black in the first")
    p.add_argument("--limit", type=int, default=20, help="plies after which an open game is a draw")
    p.add_argument("--openings", type=int, default=2, help="random pawn steps before the engines play")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--time", type=int, default=None, help="main time of each side, ms")
    p.add_argument("--inc", type=int, default=0, help="increment, ms")
    p.add_argument("--byoyomi", type=int, default=0, help="byoyomi, ms")
    p.add_argument("--go", default=None, help="a fixed go for every move instead of a clock (\"depth 2\")")
    p.add_argument("--records", default=None, help="a directory to write each game's moves to (game-N.txt)")
    p.add_argument("--strict", action="store_true", help="exit 1 on an illegal move or a loss on time")
    p.add_argument("--adjudicate", type=int, default=0,
                   help="a game is won when for 4 plies in a row both engines score it at least this many "
                        "hundredths of a pawn for the same side (0: never)")
    args = p.parse_args()
    if args.time is None and args.go is None:
        p.error("give a clock (--time, --inc, --byoyomi) or a fixed --go")
    if args.games < 2 or args.games % 2:
        p.error(f"--games {args.games}: an even number of games, two for each opening")
    return args


def start_engine(command, name):
    e = Engine(shlex.split(command), name)
    e.send("usi")
    e.expect(r"^usiok$")
    e.send("isready")
    e.expect(r"^readyok$")
    return e


def result_of(judge, moves):
    """The judge's result of the game after moves: None while it goes on, else its words."""
    judge.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
    judge.send("d")
    line, _, seen = judge.expect(r"to move")
    errors = [s for s in seen if "error" in s]
    if errors:
        raise EngineError(f"judge: {errors}")
    judge.send("isready")
    line, _, seen = judge.expect(r"^readyok$")
    for s in seen:
        if s.startswith("result "):
            return s[len("result "):]
    return None


def last_score(lines, side):
    """The last score an engine reported before its bestmove, for Black (mate counts as a
    large score), or None."""
    for line in reversed(lines):
        m = re.search(r" score (cp|mate) (-?\d+)", line)
        if m:
            v = int(m.group(2))
            if m.group(1) == "mate":
                v = 100000 if v > 0 else -100000
            return v if side == 0 else -v
    return None


def last_nodes(lines):
    """The nodes of the last info line before a bestmove (the whole search's), or 0."""
    for line in reversed(lines):
        m = re.search(r" nodes (\d+)", line)
        if m:
            return int(m.group(1))
    return 0


def go_command(args, clock):
    if args.go:
        return "go " + args.go
    return (f"go btime {clock[0]} wtime {clock[1]} byoyomi {args.byoyomi} "
            f"binc {args.inc} winc {args.inc}")


def play_game(args, engines, judge, opening, stats):
    """One game; engines[0] plays Black. Returns (winner colour or None, how, plies, moves)."""
    moves = list(opening)
    clock = [args.time or 0, args.time or 0]
    scores = []  # each engine move's last reported score, for Black
    for e in engines:
        e.send("usinewgame")
        e.send("isready")
        e.expect(r"^readyok$")
    while len(moves) < args.limit:
        result = result_of(judge, moves)
        if result:
            return (0 if result.startswith("Black") else 1 if result.startswith("White") else None), result, moves
        side = len(moves) % 2
        judge.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        legal = judge.legal_moves()
        e = engines[side]
        e.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        sent = e.send(go_command(args, clock))
        allowed = None if args.go else clock[side] + args.byoyomi
        wait = 600.0 if allowed is None else allowed / 1000 + 5
        line, got, seen = e.expect(r"^bestmove ", timeout=wait)
        used = round((got - sent) * 1000)
        stats[e.name]["ms"] += used
        stats[e.name]["moves"] += 1
        stats[e.name]["longest_ms"] = max(stats[e.name]["longest_ms"], used)
        if allowed is not None:
            stats[e.name]["least_left_ms"] = min(stats[e.name]["least_left_ms"], allowed - used)
            if used > allowed:
                return 1 - side, f"loss on time ({used} ms, {allowed} allowed)", moves
            clock[side] = max(clock[side] - max(used - args.byoyomi, 0), 0) + args.inc
        move = line.split()[1]
        scores.append(last_score(seen, side))
        stats[e.name]["nodes"] += last_nodes(seen)
        if move == "resign":
            return 1 - side, "resignation", moves
        if move not in legal:
            return 1 - side, f"illegal move {move}", moves
        moves.append(move)
        if args.adjudicate and len(scores) >= 4:
            recent = scores[-4:]
            for colour, sign in ((0, 1), (1, -1)):
                if all(v is not None and sign * v >= args.adjudicate for v in recent):
                    return colour, f"adjudicated ({recent} for Black)", moves
    last = scores[-2:] if len(scores) >= 2 else scores
    return None, f"ply limit (last scores {last} for Black)", moves


def random_opening(judge, rng, plies):
    """plies random pawn steps (any quiet move when no pawn can step): openings that differ
    without giving anything away."""
    moves = []
    for _ in range(plies):
        judge.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        legal = judge.legal_moves()
        quiet = [m for m in legal if "x" not in m and "!" not in m and not m.endswith("+")]
        pawns = [m for m in quiet if re.match(r"^P(\d|-)", m)]
        moves.append(rng.choice(pawns or quiet or legal))
    return moves


def main():
    args = parse_args()
    if args.records:
        os.makedirs(args.records, exist_ok=True)
    rng = random.Random(args.seed)
    judge = start_engine(args.koshogi + " engine", "judge")
    a, b = start_engine(args.a, "A"), start_engine(args.b, "B")
    stats = {n: {"ms": 0, "moves": 0, "nodes": 0, "longest_ms": 0, "least_left_ms": 10**12} for n in ("A", "B")}
    tally = {"a_wins": 0, "b_wins": 0, "draws": 0}
    faults = []
    started = time.monotonic()
    opening = []
    plies = 0
    pair_scores = []  # A's points in each pair of games on one opening
    digest = hashlib.sha256()
    for g in range(args.games):
        if g % 2 == 0:
            opening = random_opening(judge, rng, args.openings)
        engines = [a, b] if g % 2 == 0 else [b, a]
        winner, how, moves = play_game(args, engines, judge, opening, stats)
        plies += len(moves)
        if args.records:
            with open(os.path.join(args.records, f"game-{g + 1}.txt"), "w") as f:
                f.write(f"A {'Black' if g % 2 == 0 else 'White'}; {how}\n{' '.join(moves)}\n")
        digest.update((" ".join(moves) + "\n").encode())
        if g % 2 == 0:
            pair_scores.append(0.0)
        if winner is None:
            tally["draws"] += 1
            pair_scores[-1] += 0.5
        elif engines[winner] is a:
            tally["a_wins"] += 1
            pair_scores[-1] += 1
        else:
            tally["b_wins"] += 1
        if "illegal" in how or "on time" in how:
            faults.append(f"game {g + 1}: {'Black' if len(moves) % 2 == 0 else 'White'} {how}")
        print(f"game {g + 1}: {how} after {len(moves)} plies; A {tally['a_wins']} B {tally['b_wins']} "
              f"draws {tally['draws']}", file=sys.stderr, flush=True)
    for e in (a, b, judge):
        e.close()
    pairs = pair_stats(pair_scores)
    report = dict(games=args.games, **tally, pairs=pairs["pairs"], pentanomial=pairs["pentanomial"],
                  a_score=pairs["score"], a_elo=pairs["elo"], a_elo_low=pairs["elo_low"], a_elo_high=pairs["elo_high"],
                  go=args.go, faults=faults, moves_digest=digest.hexdigest()[:16],
                  mean_plies=plies / args.games,
                  a_mean_ms=stats["A"]["ms"] / max(stats["A"]["moves"], 1),
                  b_mean_ms=stats["B"]["ms"] / max(stats["B"]["moves"], 1),
                  a_mean_nodes=stats["A"]["nodes"] / max(stats["A"]["moves"], 1),
                  b_mean_nodes=stats["B"]["nodes"] / max(stats["B"]["moves"], 1),
                  a_longest_ms=stats["A"]["longest_ms"], b_longest_ms=stats["B"]["longest_ms"],
                  a_least_left_ms=stats["A"]["least_left_ms"], b_least_left_ms=stats["B"]["least_left_ms"],
                  seconds=round(time.monotonic() - started, 1))
    print(json.dumps(report))
    return 1 if args.strict and faults else 0


if __name__ == "__main__":
    sys.exit(main())
