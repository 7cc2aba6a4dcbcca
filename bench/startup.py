"""Benchmark: start-up and the shell, where people wait. Prints numbers; asserts nothing.

    python bench/startup.py [--runs 15] [--queries 40] [--top 15]

Run from the checkout's root (``python -m assistant`` then imports this checkout). In one run,
each side by side with ``python -c pass`` on the same machine at the same moment (the runs are
interleaved, so a busy machine slows both alike):

- a one-shot ``python -m assistant los obi sbd -p clone-wars-corridor`` (the README's first
  query, on a bundled example), as a multiple of ``python -c pass`` (goal 12x);
- ``python -m assistant --help``, the same way;
- the shell (``python -m assistant shell``) over the current game, driven through a pipe as a
  user types: the time from a query's line sent to its answer printed, p50 (goal 20 ms a query);
- which modules the one-shot query imports, the slowest first (``python -X importtime``), and
  whether it loads the card models, OpenCV, the photo or the web code it does not use.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOS = ["los", "obi", "sbd", "-p", "clone-wars-corridor"]
#: the goals of issue 25 ("fast where people wait")
GOAL_LOS = 12.0
GOAL_SHELL_MS = 20.0
#: modules a one-shot geometry query has no use for (each a prefix of the modules' names)
UNUSED = ("pydantic", "assistant.cards", "cv2", "assistant.photo", "fastapi", "uvicorn", "assistant.live", "prompt_toolkit")


def _env(home: Path) -> dict[str, str]:
    env = {**os.environ, "TABLETOP_HOME": str(home), "NO_COLOR": "1", "COLUMNS": "100", "PYTHONPATH": str(ROOT)}
    env.pop("TABLETOP_CARDS", None)
    # an installed package has its bytecode compiled; without it each run would compile every
    # module from source again (the warm-up round writes it)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _wall(args: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    r = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, check=False)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(args[1:])} failed (exit {r.returncode}):\n{r.stderr.decode(errors='replace')[-2000:]}")
    return dt


def one_shot(runs: int, env: dict[str, str]) -> dict[str, list[float]]:
    """Wall seconds of each command, ``runs`` times, interleaved (one warm-up round first)."""
    cmds = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "los (one-shot)": [sys.executable, "-m", "assistant", *LOS],
        "--help": [sys.executable, "-m", "assistant", "--help"],
    }
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for k in range(runs + 1):
        for name, args in cmds.items():
            dt = _wall(args, env)
            if k:  # the first round fills the OS's file cache
                times[name].append(dt)
    return times


class _Reader(threading.Thread):
    """Collects a child's stdout as it comes, and says when a text has appeared n times."""

    def __init__(self, stream: object) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.text = ""
        self.cond = threading.Condition()

    def run(self) -> None:
        fd = self.stream.fileno()  # type: ignore[attr-defined]
        while chunk := os.read(fd, 65536):
            with self.cond:
                self.text += chunk.decode("utf-8", errors="replace")
                self.cond.notify_all()
        with self.cond:
            self.text += "\0"  # closed
            self.cond.notify_all()

    def wait_for(self, needle: str, n: int, timeout: float = 60.0) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: self.text.count(needle) >= n or self.text.endswith("\0"), timeout) \
                and self.text.count(needle) >= n


def shell(queries: int, env: dict[str, str]) -> tuple[list[float], float]:
    """Milliseconds from each query's line sent to the shell to its answer's last line printed,
    and the seconds from start to the first prompt. The shell answers from the current game (a
    new game of the bundled example)."""
    subprocess.run([sys.executable, "-m", "assistant", "game", "new", "-p", "clone-wars-corridor"], cwd=ROOT, env=env,
                   capture_output=True, check=True)
    query = " ".join(LOS[:3])  # from the current game
    answer = subprocess.run([sys.executable, "-m", "assistant", *LOS[:3]], cwd=ROOT, env=env, capture_output=True, text=True,
                            check=True).stdout
    last = [line for line in answer.splitlines() if line.strip()][-1].strip()[:40]  # the answer is done when this is printed
    # unbuffered, as on a terminal (a pipe would hold the answer until the next prompt's flush)
    child = subprocess.Popen([sys.executable, "-m", "assistant", "shell"], cwd=ROOT, env={**env, "PYTHONUNBUFFERED": "1"},
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert child.stdin is not None
    reader = _Reader(child.stdout)
    t0 = time.perf_counter()
    reader.start()
    if not reader.wait_for("table>", 1):
        child.kill()
        raise SystemExit(f"the shell showed no prompt:\n{reader.text[-2000:]}")
    ready = time.perf_counter() - t0
    times = []
    try:
        for k in range(1, queries + 4):
            t = time.perf_counter()
            child.stdin.write((query + "\n").encode())
            child.stdin.flush()
            if not reader.wait_for(last, k):
                raise SystemExit(f"the shell did not answer {query!r} with {last!r}:\n{reader.text[-2000:]}")
            if k > 3:  # the first queries load what the shell imports on first use
                times.append((time.perf_counter() - t) * 1000)
        child.stdin.write(b"quit\n")
        child.stdin.close()
        child.wait(30)
    finally:
        if child.poll() is None:
            child.kill()
    return times, ready


def import_times(env: dict[str, str], top: int) -> tuple[list[tuple[int, int, str]], float, list[str]]:
    """(self us, cumulative us, module) of the one-shot query's imports, its total import time in
    seconds, and which unused modules it loaded."""
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "assistant", *LOS], cwd=ROOT, env=env, capture_output=True,
                       text=True, check=False)
    rows = []
    for line in r.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
        if m:
            rows.append((int(m.group(1)), int(m.group(2)), len(m.group(3)), m.group(4)))
    total = sum(s for s, _c, _d, _n in rows) / 1e6
    names = [n for _s, _c, _d, n in rows]
    unused = sorted({p for p in UNUSED for n in names if n == p or n.startswith(p + ".")})
    # the top offenders: each module's own cost plus what it alone brought in, largest first
    top_rows = sorted(((s, c, n) for s, c, _d, n in rows), key=lambda t: -t[1])
    shown: list[tuple[int, int, str]] = []
    for s, c, n in top_rows:
        # a module whose parent package is already listed with a larger total adds little news
        if any(n.startswith(p + ".") for _s, _c, p in shown):
            continue
        shown.append((s, c, n))
        if len(shown) == top:
            break
    return shown, total, unused


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15, help="runs of each one-shot command (median shown)")
    ap.add_argument("--queries", type=int, default=40, help="shell queries timed")
    ap.add_argument("--top", type=int, default=15, help="import offenders listed")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(Path(tmp) / "home")
        print(f"start-up and the shell ({sys.executable}, Python {sys.version.split()[0]}; {a.runs} runs each, interleaved)")
        times = one_shot(a.runs, env)
        bare = statistics.median(times["python -c pass"])
        print(f"  {'command':<56} {'median':>8} {'min':>8} {'x pass':>7}  goal")
        for name, label, goal in (("python -c pass", "python -c pass", ""), ("los (one-shot)", "python -m assistant " + " ".join(LOS),
                                   f"<= {GOAL_LOS:.0f}x"), ("--help", "python -m assistant --help", "")):
            med = statistics.median(times[name])
            ok = "" if not goal else ("  met" if med / bare <= GOAL_LOS else "  NOT met")
            print(f"  {label:<56} {med * 1000:6.0f} ms {min(times[name]) * 1000:6.0f} ms {med / bare:6.1f}x  {goal}{ok}")
        ms, ready = shell(a.queries, env)
        p50 = statistics.median(ms)
        p90 = sorted(ms)[int(0.9 * (len(ms) - 1))]
        print(f"  shell: first prompt after {ready * 1000:.0f} ms; '{' '.join(LOS[:3])}' from the current game, {len(ms)} queries: "
              f"p50 {p50:.1f} ms, p90 {p90:.1f} ms, max {max(ms):.1f} ms  (goal p50 <= {GOAL_SHELL_MS:.0f} ms: "
              f"{'met' if p50 <= GOAL_SHELL_MS else 'NOT met'})")
        shown, total, unused = import_times(env, a.top)
        los = statistics.median(times["los (one-shot)"])
        print(f"  imports of the one-shot los: {total * 1000:.0f} ms in all (python -X importtime); modules it has no use for: "
              f"{', '.join(unused) if unused else 'none'}")
        print(f"  the rest of the one-shot los (the interpreter's own start aside): about {max(0.0, los - bare - total) * 1000:.0f} ms "
              "reading the cards and the position, answering and printing")
        print(f"  {'cumulative':>11} {'self':>8}  module (the top {len(shown)}; a package's modules folded into it)")
        for s, c, n in shown:
            print(f"  {c / 1000:8.1f} ms {s / 1000:5.1f} ms  {n}")


if __name__ == "__main__":
    main()
