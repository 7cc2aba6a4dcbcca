"""Benchmark: the attack advisor. Prints numbers; asserts nothing.

    python bench/attack.py

On the 40 x 40 board of bench/geometry.py (220 wall features, 24 figures, every figure
given Attack, Damage and Defense, a few with abilities): `attack` for every ordered pair of
enemies (p50 / p99), `targets` for every figure, and the CLI's `attack --json` wall time
against the bare start-up.
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from geometry import EMPTY_LIBRARY, make_position, pct

from assistant.position import parse_position
from assistant.rules.attack import attack, targets

ABILITIES = ["[]", "[Cunning Attack]", "[Careful Shot +4, Deadly Attack]", "[Melee Attack, Double Attack]", "[Sniper]", "[Droid]",
             "[Parry, Shields 2, Damage Reduction 10]", "[Poison, Evade, Dark Armor]"]  # the saves between a hit and its damage


def with_stats(text: str) -> str:
    out = []
    for line in text.splitlines():
        m = re.match(r"  - \{id: f(\d+), side: (\w), at: (\w+)\}", line)
        if m:
            i = int(m.group(1))
            line = (f"  - {{id: f{i}, side: {m.group(2)}, at: {m.group(3)}, stats: {{attack: {4 + i % 9}, damage: {10 + 10 * (i % 3)}, "
                    f"defense: {14 + i % 7}, hp: 60, abilities: {ABILITIES[i % len(ABILITIES)]}}}}}")
        out.append(line)
    return "\n".join(out) + "\n"


def main() -> None:
    text = with_stats(make_position())
    pos = parse_position(text, "bench", EMPTY_LIBRARY)
    times, legal = [], 0
    for a in pos.figures:
        for t in pos.figures:
            if a.side == t.side:
                continue
            t0 = time.perf_counter()
            ans = attack(pos, a.id, t.id)
            times.append(time.perf_counter() - t0)
            legal += ans.legal
    print(f"attack, {len(times)} ordered enemy pairs ({legal} legal): p50 {pct(times, .5) * 1e3:.2f} ms, p99 {pct(times, .99) * 1e3:.2f} ms")
    pos = parse_position(text, "bench", EMPTY_LIBRARY)
    t0 = time.perf_counter()
    for f in pos.figures:
        targets(pos, f.id)
    print(f"targets for all {len(pos.figures)} figures, fresh position: {time.perf_counter() - t0:.2f} s")
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "b.yaml"
        f.write_text(text)
        runs = []
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "assistant", "attack", "f0", "f1", "--position", str(f), "--json"], capture_output=True, check=True)
            runs.append(time.perf_counter() - t0)
        bare = []
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "assistant", "--version"], capture_output=True, check=True)
            bare.append(time.perf_counter() - t0)
        print(f"CLI attack --json: {statistics.median(runs):.2f} s wall (bare start-up {statistics.median(bare):.2f} s), median of 5")


if __name__ == "__main__":
    main()
