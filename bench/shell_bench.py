"""Benchmark: the shell (``python -m assistant shell``) as a player meets it on a terminal.
Prints numbers; asserts nothing.

    python bench/shell_bench.py [--runs 50] [--starts 7] [--root CHECKOUT]

``python -m assistant`` runs from this checkout, or from ``--root`` (another checkout, for a
before/after on the same machine). Everything is
measured through a pseudo-terminal (python's ``pty``), as a terminal runs the shell: prompt_toolkit
draws its prompt only on a terminal, and asks the terminal where the cursor is (a CPR request,
``ESC [6n``), which this harness answers as a terminal does.

- time to the first prompt: from the process spawned to the prompt's text ``table>`` on the
  terminal, the median of ``--starts`` starts (one warm-up start first, which writes the bytecode
  and fills the OS's file cache);
- per query, inside one shell process: ``los``, ``cover``, ``attack`` and ``targets`` over the
  current game (a new game of the bundled ``clone-wars-corridor``), ``--runs`` times each
  (interleaved, after three warm-up rounds): from the line's Enter sent to the next prompt drawn
  (the answer printed in full), p50 and p95.
"""

from __future__ import annotations

import argparse
import os
import pty
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROMPT = b"table>"
#: what prompt_toolkit writes when a line is accepted (bracketed paste switched off)
ACCEPTED = b"\x1b[?2004l"
QUERIES = {"los": "los obi sbd", "cover": "cover obi sbd", "attack": "attack obi sbd", "targets": "targets obi"}
#: the goals of issue 27 (deliver 9)
GOAL_PROMPT_S = 0.5
GOAL_P50_MS = 20.0


def _env(home: Path, root: Path) -> dict[str, str]:
    env = {**os.environ, "TABLETOP_HOME": str(home), "PYTHONPATH": str(root), "TERM": "xterm-256color", "COLUMNS": "120",
           "LINES": "40"}
    for k in ("TABLETOP_CARDS", "TABLETOP_LANG", "PYTHONDONTWRITEBYTECODE"):
        env.pop(k, None)
    return env


class Shell:
    """``python -m assistant shell`` on a pseudo-terminal."""

    def __init__(self, env: dict[str, str]) -> None:
        root = env["PYTHONPATH"]
        self.t0 = time.perf_counter()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the shell on the terminal's slave side
            os.chdir(root)
            os.execve(sys.executable, [sys.executable, "-m", "assistant", "shell"], env)
        self.seen = b""

    def _read(self, timeout: float) -> bytes:
        ready, _w, _x = select.select([self.fd], [], [], timeout)
        if not ready:
            return b""
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # the child has gone
            raise SystemExit(f"the shell ended:\n{self.seen[-2000:].decode(errors='replace')}") from None
        if b"\x1b[6n" in chunk:  # the cursor's position, as a terminal answers it
            os.write(self.fd, b"\x1b[1;1R")
        return chunk

    def until_prompt(self, timeout: float = 60.0) -> float:
        """Seconds until the next prompt appears (reading everything printed before it)."""
        start = time.perf_counter()
        while True:
            # the prompt's text is drawn after the answer: a new prompt counts when it follows
            # what has been read since the line was sent
            at = self.seen.find(PROMPT)
            if at >= 0:
                self.seen = self.seen[at + len(PROMPT):]
                return time.perf_counter() - start
            if time.perf_counter() - start > timeout:
                raise SystemExit(f"no prompt after {timeout} s:\n{self.seen[-2000:].decode(errors='replace')}")
            self.seen += self._read(0.5)

    def ask(self, line: str) -> float:
        """Milliseconds from the line's Enter to the next prompt (the answer printed in full)."""
        os.write(self.fd, line.encode())
        # let the line's echo settle, so that only the answer is timed
        while self.seen.count(line[-3:].encode()) == 0:
            self.seen += self._read(5.0)
        self.seen = b""
        t = time.perf_counter()
        os.write(self.fd, b"\r")
        # prompt_toolkit redraws the accepted line (prompt included) and then leaves the
        # bracketed-paste mode; the answer follows, then the next prompt
        while ACCEPTED not in self.seen:
            self.seen += self._read(5.0)
        self.seen = self.seen[self.seen.index(ACCEPTED):]
        self.until_prompt()
        return (time.perf_counter() - t) * 1000

    def close(self) -> None:
        try:
            os.write(self.fd, b"quit\r")
            deadline = time.perf_counter() + 10
            while time.perf_counter() < deadline:
                done, _status = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    break
                try:
                    self._read(0.1)
                except SystemExit:
                    pass
            else:
                os.kill(self.pid, 9)
                os.waitpid(self.pid, 0)
        finally:
            os.close(self.fd)


def first_prompt(env: dict[str, str], starts: int) -> list[float]:
    times = []
    for k in range(starts + 1):
        shell = Shell(env)
        shell.until_prompt()
        dt = time.perf_counter() - shell.t0
        shell.close()
        if k:  # the first start writes the bytecode and fills the OS's file cache
            times.append(dt)
    return times


def queries(env: dict[str, str], runs: int) -> dict[str, list[float]]:
    shell = Shell(env)
    shell.until_prompt()
    times: dict[str, list[float]] = {k: [] for k in QUERIES}
    try:
        for k in range(runs + 3):
            for name, line in QUERIES.items():
                ms = shell.ask(line)
                if k >= 3:  # the first rounds import what each verb uses on first use
                    times[name].append(ms)
    finally:
        shell.close()
    return times


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=50, help="runs of each query in one shell")
    ap.add_argument("--starts", type=int, default=7, help="starts of the shell timed to its first prompt")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout whose shell is timed (default: this one)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(Path(tmp) / "home", a.root.resolve())
        subprocess.run([sys.executable, "-m", "assistant", "game", "new", "-p", "clone-wars-corridor"], cwd=a.root, env=env,
                       capture_output=True, check=True)
        print(f"the shell of {a.root.resolve()} on a pseudo-terminal ({sys.executable}, Python {sys.version.split()[0]}, "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f})")
        starts = first_prompt(env, a.starts)
        med = statistics.median(starts)
        print(f"  first prompt: median {med * 1000:.0f} ms, min {min(starts) * 1000:.0f} ms, max {max(starts) * 1000:.0f} ms "
              f"over {len(starts)} starts  (goal <= {GOAL_PROMPT_S * 1000:.0f} ms: {'met' if med <= GOAL_PROMPT_S else 'NOT met'})")
        times = queries(env, a.runs)
        print(f"  {'query (current game)':<24} {'p50':>8} {'p95':>8} {'max':>8}   goal p50 <= {GOAL_P50_MS:.0f} ms")
        for name, ms in times.items():
            p50 = statistics.median(ms)
            print(f"  {QUERIES[name]:<24} {p50:5.1f} ms {_pct(ms, 0.95):5.1f} ms {max(ms):5.1f} ms   "
                  f"{'met' if p50 <= GOAL_P50_MS else 'NOT met'}  ({len(ms)} runs)")


if __name__ == "__main__":
    main()
