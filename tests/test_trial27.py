"""trial27, a new user's round over the product: what it took that it should have refused.

- SWTCG's ``set-stat`` took any number (``power=100000000000000000000`` was recorded and carried into
  every later answer); a stat is at most :data:`MAX_STAT` (reading R286).
- An override's reason of only a control character (``"\\x01"``: nothing a reader sees, shown as
  ``\\x01`` in the log) was taken as a reason, on the command line, the web page and in both kinds of
  game; a reason needs a character a reader sees.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.cardgame.log import CardGameLog
from assistant.cardgames import CARD_GAMES, find_card_game
from assistant.cli.app import app
from assistant.errors import AssistantError, NotationError
from assistant.game import Game
from assistant.live.table import CardTable
from assistant.live.web import create_app
from assistant.resources import card_table_example, example_path
from assistant.swtcg.engine import MAX_STAT, apply
from assistant.swtcg.table import parse_table
from assistant.textsafe import says_something

from .webclient import table_client

runner = CliRunner()
#: reasons a reader sees nothing of: a control character, spaces around one, a bidirectional override
EMPTY_REASONS = ["\x01", " \x1b ", "\t\x7f\n", "\u202e", "\x00"]


def _swtcg_table() -> object:
    return parse_table(card_table_example("swtcg"), "swtcg example")


@pytest.mark.parametrize("stat", ["power", "speed", "health", "cost"])
def test_set_stat_refuses_a_number_no_card_has(stat: str) -> None:
    t = _swtcg_table()
    with pytest.raises(NotationError, match=rf"{stat}=100000000000000000000 is more than any card has; a stat is at most 999"):
        apply(t, f"DS set-stat tie {stat}=100000000000000000000")
    with pytest.raises(NotationError, match=rf"{stat}=1000 is more than any card has"):
        apply(t, f"DS set-stat tie {stat}=1000")
    done = apply(t, f"DS set-stat tie {stat}={MAX_STAT}")  # the bound itself is a number a card may be given
    assert getattr(done.table.unit("tie"), stat) == 999


def test_set_stat_past_the_bound_on_the_command_line_is_exit_2_and_nothing_recorded(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    CardGameLog.new(path, find_card_game("swtcg"), card_table_example("swtcg")).close()
    r = runner.invoke(app, ["swtcg", "do", "DS set-stat tie power=100000000000000000000", "--game", str(path)])
    assert r.exit_code == 2, r.output
    assert "a stat is at most 999" in r.output and "Traceback" not in r.output
    log = CardGameLog.open(path, CARD_GAMES)
    try:
        assert len(log.store.events()) == 1  # the table alone: nothing recorded
        assert log.table().unit("tie").power == 2  # the card's printed power, as before
    finally:
        log.close()


@pytest.mark.parametrize("reason", EMPTY_REASONS)
def test_a_reason_a_reader_cannot_see_is_no_reason(reason: str) -> None:
    assert not says_something(reason)


@pytest.mark.parametrize("reason", ["x", "judge: the save of 11", " \x01 ok", "Żółć"])
def test_a_reason_with_words_is_a_reason(reason: str) -> None:
    assert says_something(reason)


@pytest.mark.parametrize("reason", EMPTY_REASONS)
def test_a_card_game_refuses_an_override_without_a_visible_reason(tmp_path: Path, reason: str) -> None:
    path = tmp_path / "d.sqlite"
    CardGameLog.new(path, find_card_game("destiny"), card_table_example("destiny")).close()
    log = CardGameLog.open(path, CARD_GAMES)
    try:
        before = len(log.store.events())
        with pytest.raises(AssistantError, match="an override needs a reason"):
            log.do("A pass", override=reason)
        assert len(log.store.events()) == before
    finally:
        log.close()


@pytest.mark.parametrize("reason", EMPTY_REASONS)
def test_a_miniatures_game_refuses_an_override_without_a_visible_reason(tmp_path: Path, reason: str) -> None:
    g = Game.new(tmp_path / "s.sqlite", example_path("clone-wars-corridor").read_text())
    try:
        g.do("initiative", {"rolls": {}, "winner": "light", "first": "light"})
        g.do("condition", {"figure": "obi", "add": True, "condition": "jedi mind trick"})
        g.do("activate", {"figure": "obi"})
        before = len(g.events())
        with pytest.raises(AssistantError, match="an override needs a reason"):
            g.do("move", {"figure": "obi", "to": "C9"}, override=reason)
        assert len(g.events()) == before
    finally:
        g.close()
    with pytest.raises(AssistantError, match="an override needs a reason"):
        Game.new(tmp_path / "t.sqlite", example_path("clone-wars-corridor").read_text(), override=reason)
    assert not (tmp_path / "t.sqlite").exists()


def test_the_web_page_refuses_a_control_character_as_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite"
    CardGameLog.new(path, find_card_game("destiny"), card_table_example("destiny")).close()
    c = table_client(create_app(CardTable(path)))
    before = len(c.get("/api/events").json()["events"])
    r = c.post("/api/do", json={"command": "A pass", "override": "\x01"})
    assert r.status_code == 400 and "an override needs a reason" in r.json()["error"], r.text
    assert len(c.get("/api/events").json()["events"]) == before


def test_the_command_line_refuses_a_control_character_as_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite"
    CardGameLog.new(path, find_card_game("destiny"), card_table_example("destiny")).close()
    r = runner.invoke(app, ["destiny", "do", "A pass", "--override", "\x01", "--game", str(path)])
    assert r.exit_code == 2 and "an override needs a reason" in r.output, r.output
