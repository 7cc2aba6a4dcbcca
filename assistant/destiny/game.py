"""Star Wars: Destiny as a card-game plug-in: the record :mod:`assistant.cardgames` lists.

The record itself imports nothing heavy: the engine, the table model (pydantic) and the
importer load when a Destiny game is first played or asked about (:func:`_load`), so the
one-shot CLI, which builds every game's command group at start-up, does not pay for them.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..cardgame.plugin import CardGame, CardGameRules
from ..cardgame.scenario import ScenarioError
from ..i18n import _


@cache
def _load() -> CardGameRules:
    # imported here, on first use, for start-up time (see the module's docstring)
    from . import engine, importers, render, table

    return CardGameRules(parse_table=table.parse_table, apply=engine.apply, lookup=engine.lookup, verb_help=engine.verb_help,
                         verbs=engine.verbs, describe=render.describe, summary=render.summary, importer=importers.IMPORTER)


def run_building(spec: dict[str, Any]) -> list[str]:
    """A team and deck building scenario (Destiny P4): ``team`` and optionally ``deck`` (each
    entry with ``copies``), then ``problems: []`` for legal or ``problems_say`` phrases. What did
    not hold; :class:`ScenarioError` when the file is not such a scenario."""
    try:
        return _run_building(spec)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise ScenarioError(_("not a team-building scenario ({error}: {e})").format(error=type(e).__name__, e=e)) from None


def _run_building(spec: dict[str, Any]) -> list[str]:
    from .building import DeckCard, TeamCharacter, check_deck, check_team  # on first use, for start-up time

    team = [TeamCharacter(**c) for c in spec["team"]]
    problems = check_team(team)
    if "deck" in spec:
        deck = [DeckCard(**{k: v for k, v in c.items() if k != "copies"}) for c in spec["deck"] for _copy in range(c.get("copies", 1))]
        problems += check_deck(team, deck)
    if "problems" in spec and problems != spec["problems"]:
        return [_("expected problems {want!r}, got {got!r}").format(want=spec["problems"], got=problems)]
    text = "\n".join(problems).lower()
    return [
        _("no problem says {w!r}; problems: {problems!r}").format(w=w, problems=problems) for w in spec.get("problems_say", []) if str(w).lower() not in text
    ]


GAME = CardGame(
    name="destiny",
    title="Star Wars: Destiny",
    help_title="Star Wars: Destiny",
    examples=('A activate han h1=ranged:2 h2=+ranged:2', 'B pass', 'A resolve h1+h2 -> vader', 'B claim', 'A upkeep discard=1'),
    load=_load,
    scenario_kinds={"destiny-building": run_building},
    import_options=frozenset({"--elite", "--dice", "--on"}),
)
