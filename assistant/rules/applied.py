"""Which abilities the assistant applies, and where: the ability catalogue's places joined with the
edition records' turn rules.

The catalogue (:mod:`assistant.abilities`) knows the attack question's, ``--power``'s and the game
session's own list; each edition record's turn rules (:class:`assistant.editions.TurnRules`) name
the movement abilities, split moves, multiple attacks and move-and-attack abilities the session
applies in that edition. The records sit above the catalogue (they import it), so the two are
joined here, beside the records, and the catalogue never imports upwards.
"""

from __future__ import annotations

from functools import cache

from ..abilities import NOT_ASKED_AT_THE_ATTACK, PLACES, Place, catalogue_places, known
from ..cards import split_ability
from .record import editions


def modelled_places(game: str) -> dict[str, tuple[Place, ...]]:
    """Every ability the assistant applies, by name, with the places it applies it (:data:`Place`):
    the attack question's and ``--power``'s from the catalogue, the game session's from the
    session's list and the edition records' turn rules."""
    found = catalogue_places(game)
    for record in editions():
        if record.family == game:
            tr = record.turns
            for name in set(tr.movement_abilities) | set(tr.split_move_abilities) | {n for n, _k in tr.multi_attacks} | {m.name for m in tr.move_and_attack}:
                found.setdefault(name, set()).add("session")
    return {name: tuple(p for p in PLACES if p in where) for name, where in sorted(found.items())}


def session_only(game: str, edition: str, text: str) -> bool:
    """Does the game session apply this ability (as a card writes it) in this edition, and is it one
    no attack question asks about (its glossary category is movement, squad, other or power: Speed,
    Flight, Mobile Attack, Rapport, Force Renewal, Knight Speed)? The attack answer then does not list it as not modelled:
    the assistant applies it where it acts (reading R252 in docs/readings.md).

    >>> session_only("swm", "swm2008", "Speed 8"), session_only("swm", "swm2008", "Avoid Defeat"), session_only("swm", "swm2008", "Rigid")
    (True, False, False)
    """
    name = split_ability(text)[0]
    k = known().get((game, name.lower()))
    if k is None or edition not in k.editions or k.category not in NOT_ASKED_AT_THE_ATTACK:
        return False
    return "session" in _places_by_name(game).get(name.lower(), ())


@cache
def _places_by_name(game: str) -> dict[str, tuple[Place, ...]]:
    return {name.lower(): places for name, places in modelled_places(game).items()}


def applied_names(game: str) -> list[str]:
    """Every ability the assistant applies somewhere: the attack advisor's, ``--power``'s, and the
    game session's (movement abilities, split moves, multiple attacks, the turn rules)."""
    return sorted(modelled_places(game))
