"""A verb whose own argument shares a name with the CLI's runner's parameters still runs.

``game condition FIGURE add|remove NAME`` passes ``name=`` to the runner, whose second
parameter was also ``name``: the command stopped with an internal error (found by mypy over
the whole package). The runner's own parameters are positional only now.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.cli.app import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    return tmp_path


def test_game_condition_adds_and_removes_a_condition(tmp_path: Path) -> None:
    g = str(tmp_path / "g.sqlite")
    assert runner.invoke(app, ["game", "new", "-p", "clone-wars-corridor", "--game", g]).exit_code == 0
    r = runner.invoke(app, ["game", "condition", "obi", "add", "stunned", "--game", g, "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["event"] | {"at": None} == {"figure": "obi", "add": True, "condition": "stunned", "seq": 2,
                                                             "at": None, "kind": "condition"}
    r = runner.invoke(app, ["game", "condition", "obi", "remove", "stunned", "--game", g])
    assert r.exit_code == 0, r.output
    status = json.loads(runner.invoke(app, ["game", "status", "--game", g, "--json"]).output)
    assert next(f for f in status["figures"] if f["id"] == "obi")["conditions"] == []
