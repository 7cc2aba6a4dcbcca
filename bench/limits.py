"""Benchmark: the worst questions the work limits allow (assistant/limits.py). Prints numbers.

    python bench/limits.py

Each limit was chosen so that the biggest question it admits answers within 10 s on a 2-core
machine; this prints how long each such question takes, in process, and shows that the next
size up is refused at once.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

import yaml
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assistant.cli.app import app
from assistant.coords import Square

runner = CliRunner()


def position(rules: str, cols: int, rows: int, n_figures: int, walls: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    wall_squares = {(rng.randrange(cols), rng.randrange(rows)) for _ in range(walls)}
    free = [(c, r) for c in range(0, cols, max(1, cols // 40)) for r in range(0, rows, max(1, rows // 40)) if (c, r) not in wall_squares]
    rng.shuffle(free)
    figs = [{"id": f"f{i}", "side": "ab"[i % 2], "at": Square(*free[i]).name,
             "stats": {"hp": 50, "defense": 15, "attack": 8, "damage": 10, "speed": 6, "level": 3}} for i in range(n_figures)]
    return yaml.safe_dump({"format": "tabletop-position/1", "rules": rules,
                           "map": {"cols": cols, "rows": rows, "squares": {"wall": [Square(*w).name for w in sorted(wall_squares)]}},
                           "figures": figs})


def timed(args: list[str]) -> tuple[float, int, str]:
    t0 = time.perf_counter()
    r = runner.invoke(app, args)
    return time.perf_counter() - t0, r.exit_code, (r.stdout + r.stderr).strip().splitlines()[-1][:110] if (r.stdout + r.stderr).strip() else ""


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        cases = [
            ("DDM range, 200 x 200, 400 walls", position("ddm2005", 200, 200, 2, 400), ["range", "f0", "f1"]),
            ("SWM los + cover, 200 x 200", position("swm2008", 200, 200, 2, 400), ["cover", "f0", "f1"]),
            ("DDM attack, 200 x 200, 40 figures", position("ddm2005", 200, 200, 40, 400), ["attack", "f0", "f1"]),
            ("targets, 200 x 200, 200 figures", position("swm2008", 200, 200, 200, 400), ["targets", "f0"]),
            ("matrix, 60 figures, 129 x 129", position("swm2008", 129, 129, 60, 300), ["matrix", "--json"]),
            ("matrix, 25 figures, 126 x 126 (DDM)", position("ddm2005", 126, 126, 25, 160), ["matrix", "--json"]),
            ("matrix, 10 figures, 200 x 200 (DDM)", position("ddm2005", 200, 200, 10, 400), ["matrix", "--json"]),
            ("refused: matrix, 25 figures, 200 x 200", position("ddm2005", 200, 200, 25, 400), ["matrix", "--json"]),
            ("show, 200 x 200", position("swm2008", 200, 200, 30, 400), ["show"]),
            ("refused: DDM range, 702 x 702", position("ddm2005", 702, 702, 2, 10), ["range", "f0", "f1"]),
            ("refused: matrix, 61 figures", position("swm2008", 60, 60, 61, 10), ["matrix"]),
            ("refused: show, 250 x 250", position("swm2008", 250, 250, 2, 10), ["show"]),
        ]
        for name, text, args in cases:
            p = Path(d) / "p.yaml"
            p.write_text(text, encoding="utf-8")
            full = [args[0], str(p)] if args[0] == "show" else [*args, "--position", str(p)]
            dt, code, last = timed(full)
            print(f"{name:<40} {dt:6.2f} s  exit {code}  {last}")


if __name__ == "__main__":
    main()
