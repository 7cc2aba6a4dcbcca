"""Which card games there are, for the command layer and the command line (light: the games'
code is imported when one of their verbs runs)."""

from __future__ import annotations


def card_game_names() -> tuple[str, ...]:
    """The card games, each a group of verbs: the one place the command layer lists them (to be
    read from the card games' registry once there is one)."""
    return ("destiny", "swtcg")
