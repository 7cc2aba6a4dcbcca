"""Round 28 (web28): numbers no card has in a SW TCG table file or play, bodies the web table does
not read, the phone's smallest screens."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.cardgame.log import CardGameLog
from assistant.cardgame.tablefile import TableFileError
from assistant.cardgames import CARD_GAMES, find_card_game
from assistant.cli.app import app
from assistant.errors import NotationError
from assistant.resources import card_table_example
from assistant.swtcg.engine import apply
from assistant.swtcg.table import parse_table

runner = CliRunner()
HUGE = "100000000000000000000"


def _example() -> str:
    return card_table_example("swtcg")


@pytest.mark.parametrize("before, after, where", [
    ("cost: 4, power: 3, health: 4, speed: 20", f"cost: 4, power: {HUGE}, health: 4, speed: 20", "units[0].power"),
    ("cost: 4, power: 3, health: 4, speed: 20", "cost: 4, power: 3, health: 1000, speed: 20", "units[0].health"),
    ("cost: 4, power: 3, health: 4, speed: 20", "cost: 4, power: 3, health: 4, speed: 5000", "units[0].speed"),
    ("keywords: {accuracy: 1}", f"keywords: {{accuracy: {HUGE}}}", "units[1].keywords.accuracy"),
    ("grants: {speed: 20, evade: [2]}", "grants: {speed: -1000, evade: [2]}", "units[4].grants.speed"),
    ("grants: {speed: 20, evade: [2]}", "grants: {speed: 20, evade: [20000]}", "units[4].grants.evade"),
    ("DS: {force: 4, bp: 6", f"DS: {{force: {HUGE}, bp: 6", "players.DS.force"),
    ("turn: 1", "turn: 100000", "turn"),
])
def test_a_table_files_number_past_any_card_is_refused_naming_where(before: str, after: str, where: str) -> None:
    """Reading R300: a table file's stats, keywords, grants and counts are at most 999, as a
    set-stat is (R286); a larger one is refused with the file, the line and the field."""
    text = _example()
    assert before in text
    with pytest.raises(TableFileError) as e:
        parse_table(text.replace(before, after, 1), "t.yaml")
    said = str(e.value)
    assert "t.yaml" in said and where in said and "999" in said, said


def test_the_bound_itself_is_a_number_a_table_may_give() -> None:
    t = parse_table(_example().replace("power: 3, health: 4, speed: 20", "power: 999, health: 999, speed: 999", 1), "t.yaml")
    assert t.unit("aat").power == 999 and t.unit("aat").speed == 999


def test_a_table_file_past_the_bound_on_the_command_line_is_exit_2_and_no_game(tmp_path: Path) -> None:
    f = tmp_path / "t.yaml"
    f.write_text(_example().replace("power: 3, health: 4", f"power: {HUGE}, health: 4", 1), encoding="utf-8")
    game = tmp_path / "g.sqlite"
    r = runner.invoke(app, ["swtcg", "new", str(f), "--game", str(game)])
    assert r.exit_code == 2 and "units[0].power" in r.output and "Traceback" not in r.output, r.output
    assert not game.exists()


@pytest.mark.parametrize("play", [
    f"DS speed +{HUGE} -> aat",
    "DS speed -1000 -> aat",
    "LS bp 1000",
])
def test_a_boost_or_count_past_any_card_is_refused(play: str) -> None:
    """Reading R300: a boost (speed +N) or a count given in a play is at most 999 either way."""
    t = parse_table(_example(), "t.yaml")
    with pytest.raises(NotationError, match=r"is (more|less) than any card gives \(the [a-z ]+\); a number in this game is at (most 999|least -999)"):
        apply(t, play)


def test_a_boost_of_the_bound_is_taken() -> None:
    t = parse_table(_example(), "t.yaml")
    assert apply(t, "DS speed +999 -> aat").table.unit("aat").speed_bonus == 999


def test_a_boost_past_the_bound_on_the_command_line_is_exit_2_and_nothing_recorded(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    CardGameLog.new(path, find_card_game("swtcg"), _example()).close()
    r = runner.invoke(app, ["swtcg", "do", f"DS speed +{HUGE} -> aat", "--game", str(path)])
    assert r.exit_code == 2 and "at most 999" in r.output and "Traceback" not in r.output, r.output
    log = CardGameLog.open(path, CARD_GAMES)
    try:
        assert len(log.store.events()) == 1
    finally:
        log.close()


def test_a_boost_past_the_bound_from_the_phone_is_a_400_and_nothing_recorded(tmp_path: Path) -> None:
    from assistant.live.table import CardTable
    from assistant.live.web import create_app

    from .webclient import table_client

    path = tmp_path / "t.sqlite"
    CardGameLog.new(path, find_card_game("swtcg"), _example()).close()
    c = table_client(create_app(CardTable(path)))
    before = len(c.get("/api/events").json()["events"])
    r = c.post("/api/do", json={"command": f"DS speed +{HUGE} -> aat"})
    assert r.status_code == 400 and "at most 999" in r.json()["error"], r.text
    assert len(c.get("/api/events").json()["events"]) == before


def test_a_new_verb_that_reads_a_number_is_bounded_without_asking(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading R300: the bound is the command's own, set once where SW TCG reads a play, so a verb
    added later and reading its numbers plainly (no bound named) still refuses 1000 -- read from
    text or built as a Command -- and takes 999. Before, each verb passed the bound itself."""
    from assistant.cardgame import notation, registrar
    from assistant.swtcg import engine

    monkeypatch.setattr(engine, "VERBS", dict(engine.VERBS))
    monkeypatch.setattr(engine, "OPTIONS", dict(engine.OPTIONS))
    seen: list[int] = []

    def tally(t: object, cmd: notation.Command, said: list[str]) -> object:
        """'DS tally N [extra=N]': a verb of a later round."""
        seen.append(cmd.int_arg(0, "the tally") + (cmd.int_opt("extra", 0) or 0))
        return t

    registrar(engine.VERBS, engine.OPTIONS)("tally", "extra")(tally)
    t = parse_table(_example(), "t.yaml")
    for play in ("DS tally 1000", "DS tally 1 extra=1000", notation.Command("DS", "tally", ("1000",))):
        with pytest.raises(NotationError, match=r"1000 is more than any card gives \(.+\); a number in this game is at most 999"):
            apply(t, play)
    apply(t, "DS tally 999 extra=999")
    assert seen == [1998]
