"""A choice between two games' cards typed back as the list wrote it (a new user's trial, round 23):
``cards show "test hero"`` lists 'Test Hero (unknown) (swm)', 'Test Hero (unknown) (ddm)'; typing
one back said "unknown card". The game in parentheses names the game, the set before it the set."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from assistant.cli.app import app

runner = CliRunner()


def two_games(tmp_path: Path) -> list[str]:
    for game in ("swm", "ddm"):
        r = runner.invoke(app, ["cards", "new", "Test Hero", "--game", game, "-o", str(tmp_path / f"{game}.yaml")])
        assert r.exit_code == 0, r.output
    return ["--cards", str(tmp_path / "swm.yaml"), "--cards", str(tmp_path / "ddm.yaml")]


def test_the_list_names_each_choice_and_each_is_that_card(tmp_path: Path) -> None:
    cards = two_games(tmp_path)
    listed = runner.invoke(app, [*cards, "cards", "show", "test hero"])
    assert listed.exit_code == 2
    assert "'Test Hero (unknown) (swm)', 'Test Hero (unknown) (ddm)'" in listed.output, listed.output
    for game in ("swm", "ddm"):
        for typed in (f"Test Hero (unknown) ({game})", f"Test Hero ({game})"):
            r = runner.invoke(app, [*cards, "cards", "show", typed, "--json"])
            assert r.exit_code == 0, (typed, r.output)
            assert json.loads(r.stdout)["card"]["game"] == game


def test_a_game_that_has_no_such_card_is_still_unknown(tmp_path: Path) -> None:
    cards = two_games(tmp_path)[:2]  # the swm card only
    r = runner.invoke(app, [*cards, "cards", "show", "Test Hero (ddm)"])
    assert r.exit_code == 2 and "unknown card 'Test Hero (ddm)'" in r.output, r.output
