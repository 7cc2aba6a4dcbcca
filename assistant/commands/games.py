"""Which card games there are, for the command layer and the command line: read from the card
games' registry (light: a game's code is imported when one of its verbs runs)."""

from __future__ import annotations

from ..cardgames import CARD_GAMES


def card_game_names() -> tuple[str, ...]:
    """The card games, each a group of verbs, as the registry lists them."""
    return tuple(CARD_GAMES)
