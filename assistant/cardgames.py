"""The card games there are: the one place that lists them (as python-chess lists its variants
in ``VARIANTS`` and finds one with ``find_variant``). Each game's package exports its record
(:class:`assistant.cardgame.plugin.CardGame`); the shared machinery below (:mod:`assistant.cardgame`)
knows none of them by name, and everything above that needs to know which games exist (the
CLI's command groups, the web table, the scenario runner) asks here.

Adding a card game is one package exporting ``GAME`` and one line in :data:`CARD_GAMES`.

>>> sorted(CARD_GAMES)
['destiny', 'swtcg']
>>> find_card_game("swtcg").title
'Star Wars TCG'
>>> find_card_game("poker")
Traceback (most recent call last):
...
assistant.cardgame.plugin.UnknownCardGameError: 'poker' is not a card game here (destiny, swtcg)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .cardgame.plugin import CardGame, UnknownCardGameError
from .cardgame.scenario import ScenarioError, game_named, run, scenario_language
from .destiny.game import GAME as DESTINY
from .i18n import _, language
from .swtcg.game import GAME as SWTCG

#: every card game, by the name its CLI group and its game files use
CARD_GAMES: dict[str, CardGame] = {g.name: g for g in (DESTINY, SWTCG)}


def find_card_game(name: str) -> CardGame:
    """The card game of this name; refused, naming the games there are, when there is none."""
    game = CARD_GAMES.get(name)
    if game is None:
        raise UnknownCardGameError(name, tuple(CARD_GAMES))
    return game


def scenario_kinds() -> dict[str, CardGame]:
    """Every kind of scenario a ``game:`` key may name, and the game that runs it."""
    return {**CARD_GAMES, **{kind: g for g in CARD_GAMES.values() for kind in g.scenario_kinds}}


def run_scenario(spec: Any, here: Path) -> list[str]:
    """Run a golden scenario of any card game: what did not hold (an empty list: it holds);
    :class:`ScenarioError` when the file is not a runnable scenario."""
    name = game_named(spec)
    # these two refusals list every scenario kind: tests/test_cardgame_plugins.py checks they do
    if not isinstance(name, str):
        raise ScenarioError(_("'game' is destiny, swtcg or destiny-building, not {game!r}").format(game=str(name)[:40]))
    game = scenario_kinds().get(name)
    if game is None:
        raise ScenarioError(_("game {game!r} is not destiny, swtcg or destiny-building").format(game=name))
    if name in game.scenario_kinds:
        # its phrases are compared with answers in the scenario's language, as run() does (R249)
        with language(scenario_language(spec)):
            return game.scenario_kinds[name](spec)
    return run(spec, here, game)
