"""Benchmark: the game log. Prints numbers; asserts nothing.

    python bench/game.py

Appending events (each its own durable transaction), folding a long game into its state, and
the per-call times of `game status`, `game move` and `game attack` on a 1,000-event game --
in process (what the shell and the web app pay) and as a fresh CLI process (what a player pays).
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

FIGURES = ["obi", "ctc", "clone1", "clone2", "dooku", "sbdc", "sbd"]


def _played_game(path: Path, n_events: int) -> Game:
    """A game of real rounds: initiative, each figure activates, steps one square and back."""
    g = Game.new(path, example_path("clone-wars-corridor").read_text(), override="bench")
    rnd = 0
    while len(g.events()) < n_events:
        rnd += 1
        g.do("initiative", {"rolls": {"light": 15, "dark": 3}, "winner": "light", "first": "light"}, override="bench")
        for fid in FIGURES:
            f = g.state().position.figure(fid)
            g.do("activate", {"figure": fid}, override="bench")
            here = f.at
            there = here.offset(0, -1 if rnd % 2 else 1)
            g.do("move", {"figure": fid, "to": there.name, "cost": 1}, override="bench")
            g.do("end-turn", {})
    return g


def _cli(args: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "assistant", *args], capture_output=True, env=env)
    if p.returncode not in (0, 2):
        raise SystemExit(f"CLI failed: {args}: {p.stderr.decode()[:300]}")
    return time.perf_counter() - t0


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
        g.close()

        t0 = time.perf_counter()
        g = _played_game(Path(d) / "played.sqlite", 1000)
        n = len(g.events())
        print(f"built a played game of {n} events (every command checked) in {time.perf_counter() - t0:.1f} s")
        for upto in (100, n):
            t0 = time.perf_counter()
            g.state(upto=upto)
            print(f"fold of {upto} events: {(time.perf_counter() - t0) * 1e3:.0f} ms")
        st = g.state()
        # a fresh turn for the timings: the next figure that may activate
        side = st.expected_side() or "light"
        if st.round_over():
            g.do("initiative", {"rolls": {"light": 15, "dark": 3}, "winner": "light", "first": "light"})
            side = "light"
        pos = g.state().position
        fid = next(f.id for f in pos.figures if not f.activated and pos.stats_of(f).attack is not None)
        g.do("activate", {"figure": fid}, override="bench: the figure whose stats the cards give")
        side = pos.figure(fid).side
        from assistant.game.referee import plan_move
        from assistant.rules.attack import attack

        st = g.state()
        f = st.position.figure(fid)
        to = f.at.offset(1, 0) if st.position.map.on_map(f.at.offset(1, 0)) else f.at.offset(-1, 0)
        t0 = time.perf_counter()
        st = g.state()
        plan = plan_move(st, fid, to)
        g.do("move", plan.data(fid, to))
        print(f"in process, a checked move on it (fold + route + record): {(time.perf_counter() - t0) * 1e3:.0f} ms")
        pos = g.state().position
        enemy = next(e.id for e in pos.figures if e.side != side and pos.stats_of(e).defense is not None)
        t0 = time.perf_counter()
        ans = attack(g.state().position, fid, enemy, moved=True)
        print(f"in process, the attack advisor on it: {(time.perf_counter() - t0) * 1e3:.0f} ms (legal: {ans.legal})")
        g.close()

        env = {**os.environ, "TABLETOP_HOME": d}
        game = ["--game", str(Path(d) / "played.sqlite")]
        base = statistics.median(_cli(["--version"], env) for _ in range(3))
        status = statistics.median(_cli(["game", "status", *game], env) for _ in range(5))
        back = f.at.name
        moves = []
        for i in range(4):
            moves.append(_cli(["game", "move", fid, to.name if i % 2 == 0 else back, *game, "--override", "bench"], env))
        attacks = [_cli(["game", "attack", fid, enemy, "--roll", "1", *game, "--override", "bench"], env) for _ in range(3)]
        print(f"CLI on the {n}-event game (wall, median): game status {status:.2f} s, game move {statistics.median(moves):.2f} s, "
              f"game attack {statistics.median(attacks):.2f} s; bare start-up (--version) {base:.2f} s")
        print(f"file size: {(Path(d) / 'played.sqlite').stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
