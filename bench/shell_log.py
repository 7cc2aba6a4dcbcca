"""Benchmark: the shell's lines on a long game log. Prints numbers; asserts nothing.

    python bench/shell_log.py [--events 3000] [--rounds 5]

Each shell line opens the game file anew. The shell keeps the file's verified log while it runs
(``GameStore.hold``), so a note and the query after it do not verify the whole hash chain again.
This times, in one process as the shell runs them (``shell_lines.run_line``), a note and the
``game status`` / ``los`` after it on a played game of ``--events`` events (built as
``bench/game.py`` builds it), ``--rounds`` times: p50 and worst of each line. The first line
(imports, the first fold) is timed apart.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from game import _played_game  # the same played game as bench/game.py

import assistant.cli.app  # the command tree: the shell's other lines run through it
from assistant.cli import shell_lines

LINES = ("game note hello", "game status", "los obi sbd")


def _timed(line: str, game: Path) -> float:
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        rc = shell_lines.run_line(line, game)
    if rc != 0:
        raise SystemExit(f"{line!r} answered exit {rc}")
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    shell_lines.ROOT = assistant.cli.app.app
    with tempfile.TemporaryDirectory() as d:
        game = Path(d) / "g.sqlite"
        _played_game(game, a.events).close()
        print(f"first line (imports, the first fold of {a.events} events): {_timed('game status', game) * 1e3:.0f} ms")
        times: dict[str, list[float]] = {line: [] for line in LINES}
        for _round in range(a.rounds):
            for line in LINES:
                times[line].append(_timed(line, game))
        for line, ts in times.items():
            print(f"{line:<18} p50 {statistics.median(ts) * 1e3:6.0f} ms   worst {max(ts) * 1e3:6.0f} ms")


if __name__ == "__main__":
    main()
