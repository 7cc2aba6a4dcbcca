"""The one-shot geometry questions' fast path (assistant.cli.fast) prints what the Typer tree
prints: the same stdout, stderr and exit code, answers and errors alike; anything it does not
answer goes to the tree."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.cli.fast import parse

ROOT = Path(__file__).resolve().parent.parent
TREE = "import sys; sys.argv[0] = 'assistant'; from assistant.cli.app import main; main()"
FAST = "import sys; sys.argv[0] = 'assistant'; from assistant.cli.fast import main; main()"

CASES = [
    ["los", "obi", "sbd", "-p", "clone-wars-corridor"],
    ["los", "obi", "sbd", "-p", "clone-wars-corridor", "--json"],
    ["cover", "obi", "sbd", "--position", "clone-wars-corridor"],
    ["cover", "--json", "obi", "sbd", "--position=clone-wars-corridor"],
    ["range", "obi", "sbd", "-p", "clone-wars-corridor"],
    ["range", "obi", "sbd", "-p", "clone-wars-corridor", "--json"],
    ["--lang", "pl", "los", "obi", "sbd", "-p", "clone-wars-corridor"],
    ["--lang=cs", "cover", "obi", "sbd", "-p", "clone-wars-corridor", "--json"],
    ["los", "obi", "nobody", "-p", "clone-wars-corridor"],
    ["los", "obi", "nobody", "-p", "clone-wars-corridor", "--json"],
    ["--lang", "pl", "range", "obi", "nobody", "-p", "clone-wars-corridor"],
    ["los", "obi", "sbd", "-p", "/no/such/file.yaml"],
    ["los", "obi", "sbd", "-p", "/no/such/file.yaml", "--json"],
    ["los", "obi", "sbd", "--game", "/no/such/game"],
    ["los", "obi", "sbd"],
    ["--lang", "de", "los", "obi", "sbd", "-p", "clone-wars-corridor"],
    ["los", "obi", "-p", "clone-wars-corridor"],
    ["los", "obi", "sbd", "-p", "clone-wars-corridor", "--help"],
]


def _run(code: str, argv: list[str], home: Path) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLETOP_HOME": str(home), "NO_COLOR": "1", "COLUMNS": "100"}
    for k in ("TABLETOP_CARDS", "TABLETOP_LANG", "TABLETOP_DEBUG"):
        env.pop(k, None)
    r = subprocess.run([sys.executable, "-c", code, *argv], env=env, capture_output=True, text=True, check=False, cwd=home.parent)
    return r.returncode, r.stdout, r.stderr


@pytest.mark.parametrize("argv", CASES, ids=" ".join)
def test_the_fast_path_prints_what_the_tree_prints(argv: list[str], tmp_path: Path) -> None:
    home = tmp_path / "home"
    tree = _run(TREE, argv, home)
    fast = _run(FAST, argv, home)  # the second reads the position from the cache
    assert fast == tree
    assert _run(FAST, argv, home) == tree


@pytest.mark.parametrize(
    "argv",
    [
        [], ["--help"], ["los"], ["los", "obi", "sbd", "--help"], ["los", "obi", "sbd", "--png", "x.png"],
        ["los", "obi", "sbd", "-p", "a", "-p", "b"], ["los", "obi", "sbd", "-p", "--json"], ["los", "obi", "sbd", "--", "-p"],
        ["--lang", "xx", "los", "a", "b"], ["--cards", "x", "los", "a", "b"], ["nearest", "obi"], ["los", "a", "b", "c"],
        ["los", "obi", "sbd", "-pcorridor"], ["los", "obi", "sbd", "--json", "--json"], ["--lang"],
    ],
)
def test_any_other_line_goes_to_the_tree(argv: list[str]) -> None:
    assert parse(argv) is None


def test_the_fast_path_loads_neither_typer_nor_pydantic(tmp_path: Path) -> None:
    probe = "import atexit; atexit.register(lambda: print('typer' in sys.modules, 'pydantic' in sys.modules, file=sys.stderr)); "
    argv = ["los", "obi", "sbd", "-p", "clone-wars-corridor"]
    home = tmp_path / "home"
    _run(FAST, argv, home)  # fills the cache
    code, _out, err = _run(FAST.replace("import sys; ", "import sys; " + probe, 1), argv, home)
    assert code == 0 and err.split() == ["False", "False"]
