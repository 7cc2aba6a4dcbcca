"""Shell completion (``tabletop-assistant --install-completion``): figure ids from the position
asked about or the current game, bundled examples and position files, game files, card names."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.cli.app import app

runner = CliRunner()


def complete(line: str) -> list[str]:
    """What bash completion offers for ``line`` (the last word is the one being typed)."""
    words = line.split(" ")
    r = runner.invoke(app, [], prog_name="tabletop-assistant",
                      env={"_TABLETOP_ASSISTANT_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(len(words) - 1)})
    return [w for w in r.output.splitlines() if w]


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_figure_ids_come_from_the_position_asked_about() -> None:
    assert complete("tabletop-assistant los -p pillar-room ") == ["grievous", "kenobi", "shaak", "yuzzem"]
    assert complete("tabletop-assistant attack -p clone-wars-example-combat sb") == ["sbd", "sbdc"]


def test_figure_ids_come_from_the_current_game_when_no_position_is_given() -> None:
    assert runner.invoke(app, ["game", "new", "-p", "clone-wars-example-combat"]).exit_code == 0
    assert complete("tabletop-assistant game move d") == ["dooku"]
    assert complete("tabletop-assistant los obi s") == ["sbd", "sbdc"]


def test_examples_files_games_and_cards_complete(tmp_path: Path) -> None:
    (tmp_path / "my-table.yaml").write_text("format: tabletop-position/1\n")
    assert complete("tabletop-assistant show p") == ["pillar-room"]
    assert complete("tabletop-assistant validate my") == ["my-table.yaml"]
    assert runner.invoke(app, ["game", "new", "-p", "pillar-room", "--game", "g.sqlite"]).exit_code == 0
    assert complete("tabletop-assistant game status --game g") == ["g.sqlite"]
    assert "General Obi-Wan Kenobi" in complete("tabletop-assistant cards show Gen")


def test_completion_never_fails_on_what_it_cannot_read() -> None:
    assert complete("tabletop-assistant los -p no-such-file.yaml ") == []
    assert complete("tabletop-assistant game move d") == []  # no current game
