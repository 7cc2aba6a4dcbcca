"""Benchmark: the game log. Prints numbers; asserts nothing.

    python bench/game.py

Appending events (each its own durable transaction), folding a long game into its state,
and the CLI's `game status` on that game.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from assistant.game import Game
from assistant.resources import example_path


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "g.sqlite"
        g = Game.new(path, example_path("clone-wars-corridor").read_text())
        g.do("initiative", {"rolls": {}, "winner": "light", "first": "light"})
        times = []
        for i in range(1000):
            t0 = time.perf_counter()
            g.store.append("note", {"text": f"note {i}"})
            times.append(time.perf_counter() - t0)
        times.sort()
        print(f"append (fsync each): p50 {times[500] * 1e3:.2f} ms, p99 {times[990] * 1e3:.2f} ms")
        t0 = time.perf_counter()
        g.do("activate", {"figure": "obi"})
        print(f"a checked command on a 1,000-event game (fold inside the write lock): {(time.perf_counter() - t0) * 1e3:.0f} ms")
        for n in (100, 1000):
            t0 = time.perf_counter()
            g.state(upto=n)
            print(f"fold of {n} events: {(time.perf_counter() - t0) * 1e3:.0f} ms")
        g.close()
        print(f"file size after 1,000 events: {path.stat().st_size // 1024} KiB")
        runs = []
        env = {**os.environ, "TABLETOP_HOME": d}
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "assistant", "game", "status", "--game", str(path)], capture_output=True, check=True, env=env)
            runs.append(time.perf_counter() - t0)
        print(f"CLI game status on it: {statistics.median(runs):.2f} s wall (median of 5)")


if __name__ == "__main__":
    main()
