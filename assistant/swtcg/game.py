"""The Star Wars Trading Card Game as a card-game plug-in: the record :mod:`assistant.cardgames`
lists.

The record itself imports nothing heavy: the engine, the table model (pydantic) and the
importer load when an SW TCG game is first played or asked about (:func:`_load`), so the
one-shot CLI, which builds every game's command group at start-up, does not pay for them.
"""

from __future__ import annotations

from functools import cache

from ..cardgame.plugin import CardGame, CardGameRules


@cache
def _load() -> CardGameRules:
    # imported here, on first use, for start-up time (see the module's docstring)
    from . import engine, importers, render, table

    return CardGameRules(parse_table=table.parse_table, apply=engine.apply, lookup=engine.lookup, verb_help=engine.verb_help,
                         verbs=engine.verbs, describe=render.describe, summary=render.summary, importer=importers.IMPORTER)


GAME = CardGame(
    name="swtcg",
    title="Star Wars TCG",
    help_title="the Star Wars Trading Card Game (2002)",
    examples=('DS attack aat -> trooper', 'LS retaliate trooper cost=1', 'DS roll 4,5,6', 'DS pass', 'LS pass', 'end-attack'),
    load=_load,
    import_options=frozenset({"--zone"}),
)
