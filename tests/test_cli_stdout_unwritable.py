"""A ``--json`` answer whose stdout refuses the write (``> /dev/full``, a full disk): the failure is
said on stderr, exit 2, by the fast path and the tree alike -- never a traceback, never 'internal
error ... please report it'.

Before, the JSON object reporting the failure was written to the same stdout, failed again and
went past every guard: the fast path's ``los`` printed a traceback, ``photo detect`` (fast path and
tree) and the tree's ``los`` an 'internal error' (exit 1)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .test_cli_fast import FAST, ROOT, TREE

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")


@pytest.mark.parametrize("entry", [FAST, TREE], ids=["fast", "tree"])
@pytest.mark.parametrize("line, says", [
    (["los", "obi", "sbd", "-p", "clone-wars-corridor", "--json"], "No space left on device"),  # the answer itself unwritable
    (["range", "obi", "sbd", "-p", "/no/such/position.yaml", "--json"], "no such file"),  # a refusal: said on stderr instead
    (["photo", "detect", "/no/such/photo.jpg", "-p", "clone-wars-corridor", "--json"], "no such image"),
])
def test_a_json_answer_stdout_refuses_is_said_on_stderr(line: list[str], says: str, entry: str, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLETOP_HOME": str(tmp_path / "home"), "NO_COLOR": "1", "COLUMNS": "100"}
    for k in ("TABLETOP_CARDS", "TABLETOP_LANG", "TABLETOP_DEBUG"):
        env.pop(k, None)
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-c", entry, *line], env=env, stdout=full, stderr=subprocess.PIPE, text=True, check=False,
                           cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert says in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr and "Exception ignored" not in r.stderr, r.stderr


@pytest.mark.parametrize("entry", [FAST, TREE], ids=["fast", "tree"])
@pytest.mark.parametrize("line, code", [
    (["los", "obi", "sbd", "-p", "clone-wars-corridor"], 0),
    (["los", "obi", "sbd", "-p", "clone-wars-corridor", "--json"], 0),
    (["photo", "detect", "/no/such/photo.jpg", "-p", "clone-wars-corridor"], 2),
])
def test_a_command_started_with_stdout_closed_answers_with_its_own_code(line: list[str], code: int, entry: str, tmp_path: Path) -> None:
    """``>&-`` (a daemon, a cron line): Python's ``sys.stdout`` is None. Before, the consoles asked
    it ``isatty()`` as they were made: a traceback, exit 1, for every command."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLETOP_HOME": str(tmp_path / "home"), "NO_COLOR": "1"}
    for k in ("TABLETOP_CARDS", "TABLETOP_LANG", "TABLETOP_DEBUG", "COLUMNS"):
        env.pop(k, None)
    r = subprocess.run([sys.executable, "-c", entry, *line], env=env, stderr=subprocess.PIPE, text=True, check=False, cwd=tmp_path,
                       preexec_fn=lambda: os.close(1))  # stdout closed in the child only
    assert r.returncode == code, r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
