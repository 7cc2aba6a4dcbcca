"""Benchmark: line of sight, cover and range for a whole table. Prints numbers; asserts nothing.

    python bench/geometry.py [--quick]

On a generated 40 x 40 map with >= 200 wall features (wall squares and wall edges) and
24 figures:

- the full `matrix` (every ordered pair: sight with witness, cover, range), in-process,
  with per-pair p50 / p99 for sight and for cover;
- the same through the CLI (`python -m assistant matrix --json`), start-up included,
  against the bare start-up (`python -m assistant --version`);
- the brute-force 1/8-lattice sampler (81 x 81 points per pair of squares, each segment
  tested exactly) on a sample of pairs: seconds per pair, speed ratio, and agreement;
- how the matrix time grows with the number of figures and of walls.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction as F
from itertools import product
from pathlib import Path

from assistant.cards import CardLibrary
from assistant.coords import Edge, Square
from assistant.geometry.core import first_contact
from assistant.position import parse_position
from assistant.rules import engine
from assistant.rules.engine import Board

EMPTY_LIBRARY = CardLibrary([])


def make_position(n: int = 40, walls: int = 220, figures: int = 24, seed: int = 11) -> str:
    """A dungeon-like map: short wall runs (edges) and pillars (wall squares)."""
    rnd = random.Random(seed)
    wall_sq: set[tuple[int, int]] = set()
    wall_ed: set[tuple[int, int, str]] = set()
    while len(wall_sq) + len(wall_ed) < walls:
        if rnd.random() < 0.3:
            c, r = rnd.randrange(1, n - 1), rnd.randrange(1, n - 1)
            wall_sq.add((c, r))
        else:
            axis = rnd.choice("HV")
            x, y = rnd.randrange(1, n - 1), rnd.randrange(1, n - 1)
            for k in range(rnd.randrange(1, 5)):
                e = (x + k, y, "H") if axis == "H" else (x, y + k, "V")
                if e[0] < n and e[1] < n:
                    wall_ed.add(e)
    free = [(c, r) for c in range(n) for r in range(n) if (c, r) not in wall_sq]
    rnd.shuffle(free)
    lines = [
        "format: tabletop-position/1", "rules: swm2008", "map:", f"  cols: {n}", f"  rows: {n}",
        "  squares:", "    wall: [" + ", ".join(Square(c, r).name for c, r in sorted(wall_sq)) + "]",
        "  edges:", "    wall: [" + ", ".join(Edge(*e).name for e in sorted(wall_ed)) + "]",
        "figures:",
    ]
    for i in range(figures):
        c, r = free[i]
        lines.append(f"  - {{id: f{i}, side: {'ab'[i % 2]}, at: {Square(c, r).name}}}")
    return "\n".join(lines) + "\n"


def lattice_sight(a: tuple[int, int], t: tuple[int, int], blk, n: int = 8) -> bool:
    pts = lambda sq: [(F(sq[0]) + F(i, n), F(sq[1]) + F(j, n)) for i in range(n + 1) for j in range(n + 1)]  # noqa: E731
    for p, q in product(pts(a), pts(t)):
        if first_contact(p, q, blk) is None:
            return True
    return False


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def cli_time(args: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "assistant", *args], capture_output=True, check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    quick = "--quick" in sys.argv
    text = make_position()
    pos = parse_position(text, "bench", EMPTY_LIBRARY)
    m = pos.map
    walls = len(m.walls) + len(m.squares.get(next(iter(m.squares)), ()))
    print(
        f"map {m.cols} x {m.rows}, {len(m.walls)} wall edges + {sum(len(v) for v in m.squares.values())} wall squares = {walls} wall features, "
        f"{len(pos.figures)} figures"
    )

    # per pair, in-process (fresh board so nothing is cached between the two passes)
    pos = parse_position(text, "bench", EMPTY_LIBRARY)
    sight_t, cover_t = [], []
    answers = {}
    for a in pos.figures:
        for b in pos.figures:
            if a.id == b.id:
                continue
            t0 = time.perf_counter()
            s = engine.sight(pos, a.id, b.id)
            t1 = time.perf_counter()
            engine.cover(pos, a.id, b.id, s)
            t2 = time.perf_counter()
            sight_t.append(t1 - t0)
            cover_t.append(t2 - t1)
            answers[(a.id, b.id)] = s.line_of_sight
    seen = sum(answers.values())
    print(f"pairs: {len(answers)} ordered, {seen} with line of sight")
    print(f"sight per pair: p50 {pct(sight_t, 0.5) * 1e3:.2f} ms, p99 {pct(sight_t, 0.99) * 1e3:.2f} ms, max {max(sight_t) * 1e3:.1f} ms")
    print(f"cover per pair: p50 {pct(cover_t, 0.5) * 1e3:.2f} ms, p99 {pct(cover_t, 0.99) * 1e3:.2f} ms")

    pos = parse_position(text, "bench", EMPTY_LIBRARY)
    t0 = time.perf_counter()
    engine.matrix(pos)
    t_matrix = time.perf_counter() - t0
    print(f"full matrix in-process: {t_matrix:.2f} s")

    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "bench.yaml"
        f.write_text(text)
        runs = 1 if quick else 3
        bare = cli_time(["--version"], runs + 2)
        full = cli_time(["matrix", "--position", str(f), "--json"], runs)
        print(f"CLI: bare start-up {bare:.2f} s; matrix with start-up {full:.2f} s = {full / bare:.1f}x the bare start-up (goal <= 3x)")

    # the brute-force sampler on a sample of pairs
    rnd = random.Random(3)
    pairs = rnd.sample(sorted(answers), 8 if quick else 24)
    board = Board.of(pos)
    blk = board.walls_only
    exact_t, lattice_t, agree, exact_only = [], [], 0, 0
    split: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    # two separate passes: the sampler allocates heavily, and interleaving would charge its
    # garbage collection to the exact search
    exact_res = {}
    for a_id, b_id in pairs:
        t0 = time.perf_counter()
        exact_res[(a_id, b_id)] = engine.sight(pos, a_id, b_id).line_of_sight
        exact_t.append(time.perf_counter() - t0)
    for (a_id, b_id), te in zip(pairs, exact_t, strict=True):
        a, b = pos.figure(a_id), pos.figure(b_id)
        t1 = time.perf_counter()
        la = lattice_sight((a.at.col, a.at.row), (b.at.col, b.at.row), blk)
        lattice_t.append(time.perf_counter() - t1)
        ex = exact_res[(a_id, b_id)]
        split[ex].append((te, lattice_t[-1]))
        if la == ex:
            agree += 1
        elif ex and not la:
            exact_only += 1
        else:
            print(f"  DISAGREEMENT {a_id}->{b_id}: exact {ex}, sampler {la}")
    ratio = statistics.mean(lattice_t) / statistics.mean(exact_t)
    print(
        f"sampler (1/8 lattice) on {len(pairs)} pairs: {statistics.mean(lattice_t) * 1e3:.0f} ms/pair vs exact "
        f"{statistics.mean(exact_t) * 1e3:.1f} ms/pair = {ratio:.0f}x faster; "
        f"identical verdicts {agree}/{len(pairs)}, exact-only sight (a line the lattice misses) {exact_only}"
    )

    for seen_, label in ((True, "with line of sight"), (False, "without (the sampler must try all 81 x 81 segments)")):
        if split[seen_]:
            ex_m = statistics.mean(e for e, _ in split[seen_])
            la_m = statistics.mean(la_ for _, la_ in split[seen_])
            print(f"  pairs {label}: {len(split[seen_])}, sampler {la_m * 1e3:.1f} ms vs exact {ex_m * 1e3:.2f} ms = {la_m / ex_m:.0f}x")
    print("growth (in-process matrix):")
    for figs in [8, 16, 24] if quick else [8, 16, 24, 32]:
        p = parse_position(make_position(figures=figs), "bench", EMPTY_LIBRARY)
        t0 = time.perf_counter()
        engine.matrix(p)
        print(f"  {figs:3d} figures, 220 walls: {time.perf_counter() - t0:.2f} s")
    for w in [100, 400] if quick else [100, 200, 400, 800]:
        p = parse_position(make_position(walls=w), "bench", EMPTY_LIBRARY)
        t0 = time.perf_counter()
        engine.matrix(p)
        print(f"  24 figures, {w:4d} walls: {time.perf_counter() - t0:.2f} s")


if __name__ == "__main__":
    main()
