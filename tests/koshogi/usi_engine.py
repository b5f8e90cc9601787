"""A USI engine process for the Ko shogi tests: send lines, read lines with their arrival
times, wait for a line that matches, with a time limit on every wait."""
import queue
import re
import subprocess
import threading
import time


class EngineError(Exception):
    """The engine did not answer as expected in time."""


class Engine:
    """One engine process (argv), its standard output read by a thread into a queue."""

    def __init__(self, argv, name="engine"):
        self.name = name
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.monotonic(), line.rstrip("\n")))
        self.lines.put((time.monotonic(), None))

    def send(self, line):
        """Writes a command; returns the time it was written."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return time.monotonic()

    def expect(self, pattern, timeout=10.0):
        """Reads lines until one matches pattern (a regular expression, searched); returns
        (that line, its arrival time, every line read before it)."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                at, line = self.lines.get(timeout=max(left, 0.001))
            except queue.Empty:
                raise EngineError(f"{self.name}: no line matching {pattern!r} within {timeout} s; read {seen}")
            if line is None:
                raise EngineError(f"{self.name}: ended before a line matching {pattern!r}; read {seen}")
            if re.search(pattern, line):
                return line, at, seen
            seen.append(line)

    def quiet_for(self, seconds):
        """The lines written within the next `seconds` (none expected, usually)."""
        got = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                _, line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            got.append(line)
        return got

    def legal_moves(self):
        """The legal moves of the engine's position (the koshogi engine's moves command)."""
        self.send("moves")
        line, _, _ = self.expect(r"^moves( |$)")
        return line.split()[1:]

    def close(self):
        """quit, then end the process if it does not."""
        try:
            self.send("quit")
        except (BrokenPipeError, ValueError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
