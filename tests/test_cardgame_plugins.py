"""The card games as plug-ins: the shared base (``assistant/cardgame/``) knows no game, every
registered game's record is complete, and a game no package registers is refused by name."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.cardgame import Outcome
from assistant.cardgame.importers import CardImporter
from assistant.cardgame.log import CardGameLog, RefusedCommandError
from assistant.cardgame.notation import Command
from assistant.cardgame.plugin import CardGame, CardGameRules, UnknownCardGameError
from assistant.cardgame.scenario import ScenarioError
from assistant.cardgames import CARD_GAMES, find_card_game, run_scenario, scenario_kinds
from assistant.errors import AssistantError
from assistant.game.store import GameFileError

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "assistant" / "cardgame"
GAMES = sorted(CARD_GAMES.values(), key=lambda g: g.name)


def _imports(path: Path) -> set[str]:
    """The modules a file of the base imports, relative imports made absolute."""
    package = "assistant.cardgame"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                stem = ".".join(parts + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            found.add(stem)
            found |= {f"{stem}.{a.name}" for a in node.names}
    return found


def _game_package(game: CardGame) -> str:
    return game.load.__module__.rsplit(".", 1)[0]  # the package whose module exports the record


def test_the_registry_lists_the_games_and_each_comes_from_its_own_package() -> None:
    assert sorted(CARD_GAMES) == ["destiny", "swtcg"]
    assert {_game_package(g) for g in GAMES} == {"assistant.destiny", "assistant.swtcg"}
    assert all(CARD_GAMES[name].name == name for name in CARD_GAMES)


def test_the_base_imports_no_game_package_nor_the_registry() -> None:
    above = ["assistant.cardgames", *(_game_package(g) for g in GAMES)]
    bad = [f"{path.name}: {m}" for path in sorted(BASE.glob("*.py")) for m in _imports(path)
           if any(m == a or m.startswith(a + ".") for a in above)]
    assert bad == []


def test_the_base_names_no_game() -> None:
    """Not in a branch, not in a message, not in a docstring: the base asks the game's record."""
    words = {w for g in GAMES for w in (g.name, g.title, *g.scenario_kinds)}
    bad = [f"{path.name}:{n}: {w}" for path in sorted(BASE.glob("*.py"))
           for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
           for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w])", line, re.I)]
    assert bad == []


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_every_record_is_complete(game: CardGame) -> None:
    assert game.name and game.title and game.help_title and game.examples
    rules = game.rules()
    assert isinstance(rules, CardGameRules) and isinstance(rules.importer, CardImporter)
    assert all(callable(getattr(rules, f)) for f in ("parse_table", "apply", "lookup", "verb_help", "verbs", "describe", "summary"))
    assert all(callable(getattr(rules.importer, f)) for f in ("read", "entry", "line")) and rules.importer.default_owner
    assert game.rules() is rules  # loaded once
    # its examples are commands of its own verbs
    verbs = game.verbs()
    assert verbs and set(verbs) == set(rules.verb_help())
    for example in game.examples:
        assert Command.parse(example).verb in verbs, example
    # its bundled table reads with its own parser and its renderer shows it
    table = game.parse_table(game.example_table(), f"{game.name}.yaml")
    lines = game.describe(table)
    assert lines and all(isinstance(line, str) and line for line in lines)
    json.dumps(game.summary(table))
    # the importer's default owner is a player of the example table
    assert Command.parse(f"{rules.importer.default_owner} pass", table.names).actor == rules.importer.default_owner


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_a_game_log_plays_through_the_record(tmp_path: Path, game: CardGame) -> None:
    log = CardGameLog.new(tmp_path / "g.sqlite", game, game.example_table(), "example")
    try:
        assert log.game == game.name and log.rules is game
        assert f"# {game.title} game log" in log.export("md")
        assert json.loads(log.export("json"))["final"] == game.summary(log.table())
    finally:
        log.close()
    reopened = CardGameLog.open(tmp_path / "g.sqlite", CARD_GAMES)
    assert reopened.rules is game
    reopened.close()


def test_a_destiny_log_checks_each_play(tmp_path: Path) -> None:
    table = """
format: destiny-table/1
players: {A: {}, B: {}}
battlefield: {owner: A, controller: A}
characters: [{id: han, owner: A, health: 8}, {id: vader, owner: B, health: 13}]
"""
    g = CardGameLog.new(tmp_path / "g.sqlite", find_card_game("destiny"), table)
    try:
        assert g.do("A pass").said[0][:10] == "A passes; "
        with pytest.raises(RefusedCommandError, match=re.escape("refused: it is B's turn, not A's: players alternate actions "
                                                                "(Destiny P5 › Faza akcji). A judge may record it anyway")):
            g.do("A pass")
        assert g.table().turn == "B"
    finally:
        g.close()


def test_an_unknown_game_is_refused_naming_the_games_there_are() -> None:
    with pytest.raises(UnknownCardGameError) as e:
        find_card_game("poker")
    assert isinstance(e.value, AssistantError) and not isinstance(e.value, KeyError)
    assert str(e.value) == "'poker' is not a card game here (destiny, swtcg)"
    with pytest.raises(UnknownCardGameError):
        find_card_game("")


def test_a_game_file_of_an_unregistered_game_is_refused_not_played_as_another(tmp_path: Path) -> None:
    from assistant.game.store import GameStore

    path = tmp_path / "poker.sqlite"
    GameStore.create(path, "poker", "table: {}").close()
    with pytest.raises(GameFileError, match="is a poker game, not a card game"):
        CardGameLog.open(path, CARD_GAMES)
    with pytest.raises(GameFileError, match="is a poker game, not swtcg"):
        CardGameLog.open(path, CARD_GAMES, "swtcg")


def test_a_scenario_of_an_unknown_game_is_refused_naming_every_kind(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as e:
        run_scenario({"game": "poker", "table": {}, "when": "A pass"}, tmp_path)
    for kind in scenario_kinds():
        assert re.search(rf"(?<![\w-]){re.escape(kind)}(?![\w-])", str(e.value)), (kind, str(e.value))
    with pytest.raises(ScenarioError) as e:
        run_scenario({"game": 7}, tmp_path)
    for kind in scenario_kinds():
        assert re.search(rf"(?<![\w-]){re.escape(kind)}(?![\w-])", str(e.value)), (kind, str(e.value))
    with pytest.raises(ScenarioError, match="not a scenario"):
        run_scenario(["game", "destiny"], tmp_path)


def test_a_games_own_scenario_kind_runs_through_its_record(tmp_path: Path) -> None:
    assert scenario_kinds()["destiny-building"] is find_card_game("destiny")
    with pytest.raises(ScenarioError, match="not a team-building scenario"):
        run_scenario({"game": "destiny-building"}, tmp_path)


def test_an_outcome_comes_back_from_the_record(tmp_path: Path) -> None:
    game = find_card_game("swtcg")
    out = game.apply(game.parse_table(game.example_table(), "swtcg.yaml"), "next")
    assert isinstance(out, Outcome) and out.said


def test_the_registry_loads_no_engine_nor_table_model() -> None:
    """The one-shot CLI builds every game's command group from the records at start-up: listing
    the games must not import an engine, a table model (pydantic) or an importer."""
    code = ("import sys, assistant.cardgames as c; [g.help_title for g in c.CARD_GAMES.values()]; "
            "print(sorted(m for m in sys.modules if m == 'pydantic' or m.endswith(('.engine', '.table', '.importers', '.render'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]", out.stdout
