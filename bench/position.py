"""Benchmark: position files and the card library. Prints numbers; asserts nothing.

    python bench/position.py

Measures, on this machine:
- loading + validating each bundled example (median of repeated runs);
- a generated 200 x 200 map with 2,000 terrain entries, 400 wall edges and 300 figures:
  load + validate, save, peak memory while loading;
- loading the card library;
- CLI start-up (`python -m assistant --help`) and `validate` on an example, as a user sees it.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from assistant.cards import CardLibrary, library_folders
from assistant.coords import Square, column_name
from assistant.position import check_position_file, dump_position, load_position
from assistant.resources import example_files


def timed(fn, repeat: int = 20) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def big_position_text(n: int = 200, terrain: int = 2000, walls: int = 400, figures: int = 300, seed: int = 7) -> str:
    rnd = random.Random(seed)
    used: set[tuple[int, int]] = set()
    lows = []
    for _ in range(terrain):
        c, r = rnd.randrange(n), rnd.randrange(n)
        used.add((c, r))
        lows.append(Square(c, r).name)
    wall_edges = [f"{Square(rnd.randrange(n - 1), rnd.randrange(n)).name}.E" for _ in range(walls)]
    figs = []
    for i in range(figures):
        while True:
            c, r = rnd.randrange(n), rnd.randrange(n)
            if (c, r) not in used:
                used.add((c, r))
                break
        figs.append(f"  - {{id: f{i}, side: {'ab'[i % 2]}, at: {Square(c, r).name}}}")
    return (
        "format: tabletop-position/1\nrules: swm2008\nmap:\n"
        f"  cols: {n}\n  rows: {n}\n  squares:\n    difficult: [{', '.join(lows)}]\n"
        f"  edges:\n    wall: [{', '.join(wall_edges)}]\n"
        f"  areas:\n    start_a: ['A1:{column_name(n - 1)}4']\n"
        "figures:\n" + "\n".join(figs) + "\n"
    )


def main() -> None:
    print(f"python {sys.version.split()[0]} on {sys.platform}")
    lib_time = timed(lambda: CardLibrary.load(library_folders()), 10)
    lib = CardLibrary.load(library_folders())
    print(f"card library: {len(lib.cards())} cards, load+validate {lib_time * 1e3:.1f} ms (median of 10)")
    for path in example_files():
        t = timed(lambda p=path: load_position(p, lib))
        print(f"example {path.stem:22s} load+validate {t * 1e3:6.2f} ms (median of 20)")

    with tempfile.TemporaryDirectory() as d:
        big = Path(d) / "big.yaml"
        big.write_text(big_position_text())
        t_load = timed(lambda: load_position(big, lib), 5)
        pos = load_position(big, lib)
        t_dump = timed(lambda: dump_position(pos), 5)
        tracemalloc.start()
        check_position_file(big, lib)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(
            f"200x200 map, {big.stat().st_size // 1024} KiB file, {len(pos.figures)} figures: "
            f"load+validate {t_load * 1e3:.0f} ms, save {t_dump * 1e3:.0f} ms, peak memory while loading {peak / 2**20:.1f} MiB"
        )

    for _label, args in [("--help", ["--help"]), ("validate example", ["validate", "clone-wars-corridor"])]:
        runs = []
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "assistant", *args], capture_output=True, check=True)
            runs.append(time.perf_counter() - t0)
        print(f"CLI `python -m assistant {' '.join(args)}`: {statistics.median(runs) * 1e3:.0f} ms wall (median of 5)")


if __name__ == "__main__":
    main()
