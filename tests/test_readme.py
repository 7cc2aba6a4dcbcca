"""The README runs as written: every command in its ``sh`` blocks, in order, in a fresh folder
with a fresh games folder, on a 60-column terminal (as a phone shows it). The way python-chess
doctests its README.

A command's expected exit status is 0 unless its comment says ``(exit N)``. Every line a command
prints fits in 60 columns, except ``--json`` answers (one line for machines) and files written.
Not run: the set-up commands at the top (they install the package these tests run in), and the
ones that never end by themselves or need the user's own files: ``serve``, ``shell`` (each is
asked for its ``--help`` instead), and ``calibrate camera`` over photos of one's own camera.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
WIDTH = 60
NOT_RUN = ("python3 -m venv", ". .venv/bin/activate", "pip install", "pytest", "python -m assistant calibrate camera")
HELP_ONLY = ("python -m assistant serve", "python -m assistant shell")


def readme_commands() -> list[tuple[int, str, int]]:
    """(line, command, expected exit) for every command of the README's sh blocks."""
    lines = README.read_text(encoding="utf-8").splitlines()
    out: list[tuple[int, str, int]] = []
    in_block = False
    for n, raw in enumerate(lines, 1):
        text = raw.strip()
        if text.startswith("```"):
            in_block = not in_block and text[3:].strip() in ("sh", "bash", "console")
            continue
        if not in_block or not text or text.startswith("#"):
            continue
        command, _, comment = _split_comment(text)
        expect = int(m.group(1)) if (m := re.search(r"\(exit (\d)\)", comment)) else 0
        for part in command.split(" && "):
            for one in part.split("; "):
                out.append((n, one.strip(), expect))
    return out


def _split_comment(text: str) -> tuple[str, str, str]:
    """The command and its trailing ``# comment`` (a '#' inside quotes is the command's)."""
    quote = None
    for i, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and i > 0 and text[i - 1] == " ":
            return text[:i].rstrip(), "#", text[i + 1:]
    return text, "", ""


COMMANDS = readme_commands()


def test_the_readme_has_its_tour() -> None:
    assert len(COMMANDS) > 40
    # a stranger's first ten minutes (round 31): the virtual environment comes first, before any
    # pip install (a system's Python refuses one outside it), not in the prose after the commands
    assert [c for _, c, _ in COMMANDS[:3]] == ["python3 -m venv .venv", ". .venv/bin/activate", "pip install ."]


def test_every_readme_command_runs_as_written(tmp_path: Path) -> None:
    env = {**os.environ, "COLUMNS": str(WIDTH), "TABLETOP_HOME": str(tmp_path / "home"), "NO_COLOR": "1"}
    env.pop("TABLETOP_CARDS", None)
    failures = []
    for line, command, expect in COMMANDS:
        if command.startswith(NOT_RUN):
            continue
        words = shlex.split(command)
        if command.startswith(HELP_ONLY):
            words = words[:4] + ["--help"]
        assert words[:3] == ["python", "-m", "assistant"], f"README line {line}: {command!r} is not a python -m assistant command"
        words = [sys.executable, *words[1:]]
        r = subprocess.run([*words[:1], *(_glob(w, tmp_path) for w in words[1:])], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=300)
        if r.returncode != expect:
            failures.append(f"README line {line}: {command}\n  exit {r.returncode}, expected {expect}\n  {(r.stderr or r.stdout)[-800:]}")
            continue
        if "--json" not in words:
            wide = [s for s in (r.stdout + r.stderr).splitlines() if len(s) > WIDTH]
            if wide:
                failures.append(f"README line {line}: {command}\n  {len(wide)} line(s) wider than {WIDTH}: {wide[0]!r}")
    assert not failures, "\n".join(failures)


def _glob(word: str, where: Path) -> str:
    return word
