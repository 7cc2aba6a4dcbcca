"""The command tree is assembled lazily: a verb imports only its own group's modules, and help
still lists every verb (issue 28: a photo in a second, most of which was the process start)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.cli.app import app
from assistant.commands import load_all
from assistant.commands.registry import REGISTRY

ROOT = Path(__file__).resolve().parent.parent
load_all()  # the verbs' registry, the command layer's own list of what the command line offers

#: the root's own commands as the README and every release so far list them (the groups follow)
ROOT_COMMANDS = ("validate", "show", "normalize", "schema", "reading", "examples", "demo", "los", "cover", "range",
                 "nearest", "matrix", "attack", "targets", "abilities", "serve", "shell")
#: the command groups every release so far has had (the card games' come from their registry)
GROUPS = ("cards", "game", "photo", "calibrate", "map")
#: modules of other verbs' groups: the game store, the card library, the shell and the web app
NOT_FOR_PHOTO = ("assistant.cli.cards_cmd", "assistant.cli.live_cmd", "assistant.cli.shell_lines",
                 "assistant.cli.position_cmd", "assistant.cli.queries", "assistant.game.store", "assistant.cards")


def _imported(*argv: str) -> set[str]:
    """The modules ``python -m assistant ARGV`` imports (``-X importtime``'s report)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "assistant", *argv], capture_output=True,
                         text=True, cwd=ROOT, env=env, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    return {line.rpartition("|")[2].strip() for line in run.stderr.splitlines() if line.startswith("import time:")}


def test_a_photo_verb_does_not_import_the_other_groups() -> None:
    """The root imported every command group's modules (the game store, the card library, the
    shell's lines: ~0.3 s) to run any one verb; ``photo --help`` imports none of them."""
    imported = _imported("photo", "--help")
    assert "assistant.cli.photo_cmd" in imported
    assert not imported & set(NOT_FOR_PHOTO), sorted(imported & set(NOT_FOR_PHOTO))


def _help(*argv: str) -> str:
    result = CliRunner().invoke(app, [*argv, "--help"], env={"COLUMNS": "200", "TABLETOP_LANG": "en"})
    assert result.exit_code == 0, result.output
    return result.output


def _listed(help_text: str) -> set[str]:
    """The command names a help text's panel lists (the first word of each of its rows)."""
    names = set()
    for line in help_text.splitlines():
        words = line.strip("│ ").split()
        if words:
            names.add(words[0])
    return names


def test_root_help_lists_every_command_and_every_verbs_first_word() -> None:
    listed = _listed(_help())
    expected = set(ROOT_COMMANDS) | set(GROUPS) | {name.split()[0] for name in REGISTRY}
    assert expected <= listed, sorted(expected - listed)


@pytest.mark.parametrize("group", sorted({name.split()[0] for name in REGISTRY if " " in name}))
def test_each_groups_help_lists_its_registered_verbs(group: str) -> None:
    listed = _listed(_help(group))
    expected = {name.split()[1] for name in REGISTRY if name.split()[0] == group}
    assert expected <= listed, sorted(expected - listed)
