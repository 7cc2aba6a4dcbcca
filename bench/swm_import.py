"""Benchmark: ``cards import`` on SW_Minis_Drafter's database. Prints numbers; asserts nothing.

    python bench/swm_import.py [PATH]      (default: $SWMINIS_DB, else /work/data/SWminis.db)

The figures imported / partial / refused, the time of the import, the time of a question after it
(the library read once from the files, then from the cache), and the stat mismatches found by
comparing every card with its row, the database read independently (tests/swmoracle.py), and the
shipped starter cards with the rows of the same name.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.cards import CardLibrary, default_library  # noqa: E402
from assistant.resources import HOME_ENV, data_dir  # noqa: E402
from tests.swmoracle import mismatches, starter_disagreements  # noqa: E402


def cli(*args: str, env: dict[str, str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "assistant", *args], capture_output=True, text=True, env=env, cwd=ROOT)
    return time.perf_counter() - started, done


def main() -> None:
    db = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SWMINIS_DB", "/work/data/SWminis.db"))
    if not db.is_file():
        print(f"no database at {db}: give its path (published at github.com/diomeneus/SW_Minis_Drafter, DB/SWminis.db)")
        return
    home = tempfile.mkdtemp(prefix="swm-bench-")
    env = {**os.environ, HOME_ENV: home, "PYTHONPATH": str(ROOT)}
    seconds, done = cli("cards", "import", str(db), "--json", env=env)
    if done.returncode:
        print("import failed:", done.stdout, done.stderr)
        return
    answer = json.loads(done.stdout)
    c = answer["report"]["counts"]
    print(f"{db}: {c['total']} figures: {c['imported']} imported, {c['partial']} partial, {c['refused']} refused; "
          f"{len(answer['files'])} card files")
    print(f"cards import (whole command, a new process): {seconds:.2f} s; the import itself {answer['seconds']:.2f} s")
    query = ("los", "obi", "dooku", "-p", "clone-wars-corridor", "--json")
    for label in ("first question (library read from the files)", "next question (library from the cache)", "again"):
        seconds, done = cli(*query, env=env)
        print(f"{label}: {seconds * 1e3:.0f} ms (exit {done.returncode})")
    seconds, done = cli("cards", "show", "Clone Trooper", "--set", "Revenge of the Sith", env=env)
    print(f"cards show 'Clone Trooper' --set 'Revenge of the Sith': {seconds * 1e3:.0f} ms (exit {done.returncode})")
    os.environ[HOME_ENV] = home
    checked, bad = mismatches(db, default_library())
    print(f"stat mismatches (every card against its row, read independently): {len(bad)} of {checked} rows")
    for line in bad[:20]:
        print("  ", line)
    compared, disagree = starter_disagreements(db, CardLibrary.load([data_dir("cards")]))
    print(f"shipped starter numbers against the database: {compared} compared, {len(disagree)} disagree")
    for line in disagree:
        print("  ", line)


if __name__ == "__main__":
    main()
