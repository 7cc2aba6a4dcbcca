"""Benchmark: the card games. Prints numbers; asserts nothing.

    python bench/cardgame.py

How long one table command takes in each engine, how long a long game's log takes to fold
and to accept one more checked command, the golden scenarios end to end, and the CLI's
`destiny do` wall time.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from assistant.cardgame.log import CardGameLog
from assistant.cardgames import find_card_game, run_scenario
from assistant.destiny import engine as destiny
from assistant.destiny.table import parse_table as parse_destiny
from assistant.resources import card_table_example
from assistant.swtcg import engine as swtcg
from assistant.swtcg.table import parse_table as parse_swtcg

ROUND = ["A activate han h1=ranged:2 h2=+ranged:2", "B activate vader v1=melee:2", "A resolve h1+h2 -> trooper",
         "B resolve v1 -> leia", "A activate leia l1=shield:1", "B pass", "A resolve l1 -> han", "B pass", "A pass",
         "A upkeep", "B upkeep"]
START = ["battlefield-roll A=5 B=3", "A choose-battlefield A", "B setup-shields vader=1 trooper=1", "start"]
TURN = ["next", "next", "next", "DS attack aat -> trooper", "DS roll 4,5,6", "DS pass", "LS pass",
        "end-attack", "next", "next"]


def percentiles(xs: list[float]) -> str:
    xs = sorted(xs)
    return f"p50 {statistics.median(xs) * 1e3:.3f} ms, p99 {xs[int(len(xs) * 0.99)] * 1e3:.3f} ms"


def heal_all(t):  # keep the long Destiny game going: nobody is ever defeated
    for c in ("han", "leia", "vader", "trooper"):
        t = destiny.apply(t, f"A heal 9 -> {c}").table
    return t


def main() -> None:
    t = parse_destiny(card_table_example("destiny"), "destiny")
    for c in START:
        t = destiny.apply(t, c).table
    times = []
    for _ in range(200):
        for c in ROUND:
            t0 = time.perf_counter()
            t = destiny.apply(t, c).table
            times.append(time.perf_counter() - t0)
        t = heal_all(t)
    print(f"destiny: one command ({len(times)} over 200 rounds): {percentiles(times)}")

    s0 = parse_swtcg(card_table_example("swtcg").replace("zone: hand", "zone: space"), "swtcg")
    times = []
    for _ in range(200):
        s = s0  # from the build step: retreat, space and ground battles, an attack, then the end of the turn
        for c in TURN:
            t0 = time.perf_counter()
            s = swtcg.apply(s, c).table
            times.append(time.perf_counter() - t0)
    print(f"swtcg: one command ({len(times)}): {percentiles(times)}")

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "g.sqlite"
        log = CardGameLog.new(path, find_card_game("destiny"), card_table_example("destiny"))
        for c in START:
            log.do(c)
        n = 0
        while n < 1000:
            for c in ROUND:
                log.do(c)
                n += 1
            for ch in ("han", "leia", "vader", "trooper"):
                log.do(f"A heal 9 -> {ch}")
                n += 1
        t0 = time.perf_counter()
        log.fold()
        fold = time.perf_counter() - t0
        t0 = time.perf_counter()
        log.do("A activate han h1=ranged:2 h2=blank")
        one = time.perf_counter() - t0
        size = path.stat().st_size
        log.close()
        print(f"destiny log of {n} commands: fold {fold * 1e3:.0f} ms; one more checked command (fold inside the write lock) "
              f"{one * 1e3:.0f} ms; file {size / 1024:.0f} KiB")
        env = {**os.environ, "TABLETOP_HOME": str(Path(d) / "home")}
        runs = []
        for _ in range(3):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "assistant", "destiny", "check", "B pass", "--game", str(path)], env=env,
                           check=True, capture_output=True)
            runs.append(time.perf_counter() - t0)
        print(f"CLI 'destiny check' on that game: {min(runs):.2f} s wall (best of 3)")

    import yaml

    here = Path(__file__).resolve().parent.parent / "tests"
    files = sorted(p for f in ("golden_destiny", "golden_swtcg") for p in (here / f).glob("[!_]*.yaml"))
    t0 = time.perf_counter()
    bad = sum(bool(run_scenario(yaml.safe_load(p.read_text()), p.parent)) for p in files)
    print(f"golden scenarios: {len(files)} run in {(time.perf_counter() - t0):.2f} s, {bad} failing")


if __name__ == "__main__":
    main()
