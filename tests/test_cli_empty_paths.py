"""An empty file name is a bad argument, named as one (a new user's trial, round 15).

``Path("")`` is ``.``, the working folder: ``photo detect ""`` answered ". is a directory, not an
image", ``validate ""`` "is a directory, not a file", ``cards import ""`` looked for the Minis
database in the working folder and ``destiny import ""`` for card files there. Every parameter
that takes a file (a ``Path``, or a position file or a bundled example's name) now refuses "" at
once, exit 2, naming the parameter; with ``--json`` exactly one JSON object says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from assistant.cli.app import _names_a_file, app

runner = CliRunner()

#: one line per kind of place a file is named: an image, a position (or an example's name), a
#: folder or database to import, a file written, the root's --cards, a list of files
LINES = [
    ["photo", "detect", ""],
    ["photo", "check", "", "--game", "g.sqlite"],
    ["photo", "batch", "a.jpg", ""],
    ["validate", ""],
    ["validate", "pillar-room", ""],
    ["show", ""],
    ["los", "obi", "sbd", "-p", ""],
    ["game", "new", "-p", ""],
    ["cards", "import", ""],
    ["cards", "validate", ""],
    ["destiny", "import", ""],
    ["normalize", "pillar-room", "-o", ""],
    ["--cards", "", "examples"],
]


@pytest.mark.parametrize("line", LINES, ids=" ".join)
def test_an_empty_file_name_is_refused_as_a_bad_argument_not_read_as_the_working_folder(line: list[str], tmp_path: Path,
                                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # nothing may be written, here or anywhere
    r = runner.invoke(app, line)
    assert r.exit_code == 2, r.output
    assert "an empty name is no file" in r.output and "directory" not in r.output, r.output
    assert list(tmp_path.iterdir()) == []
    j = runner.invoke(app, [*line, "--json"])
    error = json.loads(j.stdout)["error"]
    assert j.exit_code == 2
    assert "an empty name is no file" in error or error.startswith("No such option: --json"), error  # photo batch: no --json


def test_every_parameter_that_takes_a_file_refuses_an_empty_name() -> None:
    """The whole tree, built: no command is left out (a new one gets the check by being built)."""
    root = typer.main.get_group(app)
    checked = 0

    def walk(command: object, name: str) -> None:
        nonlocal checked
        for param in getattr(command, "params", []):
            if _names_a_file(param, name):
                assert getattr(param.process_value, "refuses_empty", False), (name, param.name)
                checked += 1
        commands = getattr(command, "commands", {})
        for sub in list(commands):
            walk(commands[sub], sub)

    walk(root, "")
    assert checked > 100  # every --game, -o, image, position ... (about 140)


def test_a_name_that_is_not_empty_still_reaches_its_reader() -> None:
    r = runner.invoke(app, ["validate", "no-such-file.yaml"])
    assert r.exit_code == 2 and "no-such-file.yaml" in r.output and "empty" not in r.output
    assert runner.invoke(app, ["validate", "pillar-room"]).exit_code == 0
