#!/usr/bin/env python3
"""Every USI command of koshogi engine (docs/KOSHOGI.md, "The engine"), with its replies and
its errors: the search on its own thread (isready, stop and ponderhit answered while it
thinks), go infinite and ponder, the time controls (a move made before the clock runs out),
USI_Hash resizing the table, gameover, and bad values answered with an error and ignored.
Usage: usi_test.py PATH_TO_KOSHOGI. Exits with the number of failed checks."""
import os
import re
import subprocess
import sys
import tempfile

from usi_engine import Engine, EngineError

koshogi = sys.argv[1]
failures = 0


def check(ok, what):
    global failures
    if not ok:
        failures += 1
        print(f"FAIL {what}", flush=True)


def fresh():
    e = Engine([koshogi, "engine"])
    e.send("usi")
    _, _, seen = e.expect(r"^usiok$")
    e.header = seen
    return e


def error_then_ready(e, command, words):
    """command gets an info string error containing words, and nothing else happens."""
    e.send(command)
    e.send("isready")
    _, _, seen = e.expect(r"^readyok$")
    errors = [s for s in seen if s.startswith("info string error:")]
    check(len(errors) == 1 and words in errors[0], f"{command!r}: expected one error with {words!r}, got {seen}")
    check(not any(s.startswith("bestmove") or s.startswith("info depth") for s in seen),
          f"{command!r} was not ignored: {seen}")


def vm_size_kib(e):
    with open(f"/proc/{e.proc.pid}/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1])
    return 0


def bestmove_after(e, command, timeout):
    """Sends command, waits for bestmove; returns (move, ponder, ms, the lines before it)."""
    sent = e.send(command)
    line, at, seen = e.expect(r"^bestmove ", timeout=timeout)
    words = line.split()
    ponder = words[3] if len(words) > 3 and words[2] == "ponder" else None
    return words[1], ponder, (at - sent) * 1000, seen


# usi, isready, the options announced
e = fresh()
check(any(s == "id name koshogi" for s in e.header), f"usi: no id name: {e.header}")
for option in ("option name USI_Hash type spin default 16 min 1 max", "option name USI_Ponder type check",
               "option name Burn type combo default both var both var enemy"):
    check(any(s.startswith(option) for s in e.header), f"usi: no {option!r}: {e.header}")
e.send("isready")
e.expect(r"^readyok$")

# setoption: USI_Hash resizes the table (the process's memory grows and shrinks with it)
before = vm_size_kib(e)
e.send("setoption name USI_Hash value 256")
e.send("isready")
_, _, seen = e.expect(r"^readyok$")
check(not seen, f"setoption USI_Hash 256: {seen}")
grown = vm_size_kib(e)
check(grown - before > 200 * 1024, f"USI_Hash 256: VmSize {before} -> {grown} KiB")
e.send("setoption name USI_Hash value 1")
e.send("isready")
e.expect(r"^readyok$")
check(grown - vm_size_kib(e) > 200 * 1024, f"USI_Hash 1: VmSize stayed {vm_size_kib(e)} KiB")
error_then_ready(e, "setoption name USI_Hash value 0", 'USI_Hash "0"')
error_then_ready(e, "setoption name USI_Hash value lots", 'USI_Hash "lots"')
error_then_ready(e, "setoption name USI_Ponder value maybe", 'USI_Ponder "maybe"')
error_then_ready(e, "setoption name Burn value hot", 'Burn "hot"')
error_then_ready(e, "setoption name Colour value red", 'unknown option "Colour"')
error_then_ready(e, "setoption USI_Hash 4", "expected \"setoption name NAME value VALUE\"")
# framing: an error quoting a long command keeps its newline, so readyok stands on its own line
error_then_ready(e, "x" * 9000, 'unknown command "xxxx')
# a line over 65,535 bytes is refused whole: its tail (here " isready") never runs as a command
e.send("x" * 65535 + " isready")
e.send("isready")
_, _, seen = e.expect(r"^readyok$")
check(len(seen) == 1 and "longer than 65535 bytes" in seen[0], f"a 65,543-byte line: {[s[:80] for s in seen]}")
check(not e.quiet_for(0.3), "the tail of a long line was answered")
error_then_ready(e, "x" * 65535, 'unknown command "xxxx')
e.send("setoption name USI_Ponder value true")
e.send("setoption name Burn value enemy")
e.send("setoption name Burn value both")

# usinewgame, position, moves
e.send("usinewgame")
e.send("position startpos moves VG-10h VGx10h")
after = e.legal_moves()
check(len(after) > 200 and "CM9p-7o" in after, f"moves after VG-10h VGx10h: {len(after)}")
error_then_ready(e, "position startpos moves VG-10h ZZ", 'move 2 "ZZ"')
check(e.legal_moves() == after, "a bad position command changed the position")
# a position that extends the last one (as a GUI sends the game each move): only the new moves
# are read, and the result is the same as reading them all
e.send("position startpos moves VG-10h VGx10h CM9p-7o")
extended = e.legal_moves()
error_then_ready(e, "position startpos moves VG-10h VGx10h CM9p-7o ZZ", 'move 4 "ZZ"')
check(e.legal_moves() == extended, "a bad extension changed the position")
e.send("position startpos")
e.send("position startpos moves VG-10h VGx10h CM9p-7o")
check(e.legal_moves() == extended and extended != after, "an extended position differs from the same read whole")
e.send("position startpos moves VG-10h VGx10h")
error_then_ready(e, "position fen x", 'expected startpos or sfen, got "fen"')
error_then_ready(e, "position startpos VG-10h", 'expected "moves" after the position')
error_then_ready(e, "position sfen x", "position sfen")
error_then_ready(e, "frobnicate", 'unknown command "frobnicate"')
# a set-up position where Black (to move) has no G, GV, nor MA with a banner: lost already, so
# go answers at once with resign, naming the reason
e.send("position sfen 19/19/19/19/19/19/19/19/9g9/19/19/19/19/19/19/19/19/19/8DRMA9 b 1")
e.send("go depth 3")
_, _, seen = e.expect(r"^bestmove resign$")
check(any("the game is over (White wins (the loser's commanding pieces are gone))" in s for s in seen),
      f"go in a lost position: {seen}")
e.send("position startpos moves VG-10h VGx10h")

# go with bad values: an error, and no search
for bad, words in (("go depth -1", 'go depth "-1"'), ("go depth 0", 'go depth "0"'),
                   ("go movetime abc", 'go movetime "abc"'), ("go btime", 'go btime ""'),
                   ("go nodes 1e3", 'go nodes "1e3"'), ("go byoyomi -5", 'go byoyomi "-5"'),
                   ("go mate 3", 'unknown word "mate"')):
    error_then_ready(e, bad, words)
    check(not e.quiet_for(0.05), f"{bad!r} started a search")

# go depth: info lines with every field, a legal bestmove, a legal ponder move
e.send("position startpos")
start_moves = e.legal_moves()
move, ponder, _, seen = bestmove_after(e, "go depth 2", 120)
infos = [s for s in seen if s.startswith("info depth")]
field = re.compile(r"^info depth \d+ seldepth \d+ score (cp -?\d+|mate -?\d+) nodes \d+ nps \d+ time \d+ pv( \S+)+$")
check(infos and all(field.match(s) for s in infos), f"go depth 2: info lines {infos}")
check(any(s.startswith("info depth 2 ") for s in infos), f"go depth 2: no depth 2 line: {infos}")
check(move in start_moves, f"go depth 2: bestmove {move} is not legal")
check(ponder is not None, f"go depth 2: no ponder move: {seen}")
if ponder:
    e.send(f"position startpos moves {move}")
    check(ponder in e.legal_moves(), f"ponder {ponder} is not a legal reply to {move}")
    e.send("position startpos")

# go nodes: the node budget holds
move, _, _, seen = bestmove_after(e, "go nodes 3000", 60)
nodes = [int(re.search(r" nodes (\d+)", s).group(1)) for s in seen if s.startswith("info depth")]
check(nodes and max(nodes) <= 3000, f"go nodes 3000: {nodes}")

# go movetime: about that time (a time to spend, not a clock: the clocks are checked below)
move, _, ms, _ = bestmove_after(e, "go movetime 400", 10)
check(300 <= ms < 500, f"go movetime 400: {ms:.0f} ms")

# a clock that runs out (a program that thinks a fixed second loses on each): 500 ms and
# 200 ms left and no byoyomi, then a byoyomi of 600 ms only
for clock, allowed in (("btime 500 wtime 500", 500), ("btime 200 wtime 200", 200),
                       ("btime 0 wtime 0 byoyomi 600", 600), ("btime 0 wtime 200 byoyomi 0", 200)):
    move, _, ms, _ = bestmove_after(e, f"go {clock}", 10)
    check(ms < allowed and move in start_moves, f"go {clock}: {move} after {ms:.0f} ms (allowed {allowed})")

# go infinite: no bestmove until stop; isready answered while it thinks; go refused meanwhile
e.send("go infinite")
check(not any(s.startswith("bestmove") for s in e.quiet_for(1.0)), "go infinite ended by itself")
e.send("isready")
_, at, _ = e.expect(r"^readyok$", timeout=2)
error_then_ready(e, "go depth 1", "a search is running")
move, _, ms, _ = bestmove_after(e, "stop", 5)
check(ms < 500 and move in start_moves, f"stop: {move} after {ms:.0f} ms")
e.send("stop")  # nothing to stop: no reply
check(not e.quiet_for(0.2), "a stop with no search answered")

# go ponder, then ponderhit: the search goes on under the clock of the go
e.send("position startpos moves VG-10h")
e.send("go ponder btime 0 wtime 0 byoyomi 1000")
check(not any(s.startswith("bestmove") for s in e.quiet_for(0.8)), "go ponder ended before ponderhit")
move, _, ms, _ = bestmove_after(e, "ponderhit", 5)
check(ms < 1000, f"ponderhit: bestmove after {ms:.0f} ms (byoyomi 1000)")
error_then_ready(e, "ponderhit", "not pondering")
# go ponder, then stop (the GUI's ponder move was not played)
e.send("go ponder btime 0 wtime 0 byoyomi 300")
e.quiet_for(0.3)
move, _, ms, _ = bestmove_after(e, "stop", 5)
check(ms < 500, f"stop while pondering: {ms:.0f} ms")

# gameover: ends a search, then the engine waits for the next game
e.send("go infinite")
e.quiet_for(0.2)
e.send("gameover lose")
e.send("isready")
e.expect(r"^readyok$", timeout=5)
error_then_ready(e, "gameover maybe", 'gameover "maybe"')
e.send("usinewgame")
e.send("position startpos")
move, _, _, _ = bestmove_after(e, "go depth 1", 60)
check(move in start_moves, "a search after gameover")

# quit during a search ends the process
e.send("go infinite")
e.quiet_for(0.2)
e.send("quit")
try:
    code = e.proc.wait(timeout=5)
except Exception:
    code = None
check(code == 0, f"quit during a search: exit {code}")

# score mate: the position before the winning move of a game search won against random
with tempfile.TemporaryDirectory() as d:
    subprocess.run([koshogi, "match", "--games", "1", "--ms", "10", "--records", d, "search", "random"],
                   check=True, capture_output=True)
    record = open(os.path.join(d, "game-001.txt")).read()
moves = [w for w in record.split("\n\n", 1)[1].split() if not re.match(r"^(\d+\.|1-0|0-1|\*)", w)]
check('[Termination "defeat"]' in record, f"the game was not won by defeat: {record[:200]}")
e = fresh()
e.send("position startpos moves " + " ".join(moves[:-1]))
_, _, _, seen = bestmove_after(e, "go depth 2", 120)
check(any(re.match(r"^info depth \d+ .*score mate 1 ", s) for s in seen), f"no score mate 1 before {moves[-1]}: {seen}")
e.close()
sys.exit(failures)
