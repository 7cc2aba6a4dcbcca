"""A card whose numbers no source gives, for the tests of the "stat unknown" path.

Every bundled SWM figure now carries its printed numbers (R153), so the tests that ask for a
missing number write this card into their own user data folder: like a card file a user writes
from a rulebook that prints only a figure's cost, it has its cost and nothing else.
"""

from __future__ import annotations

from pathlib import Path

NAME = "Unprinted Trooper"
SET = "A Test Set"

CARD_FILE = f"""\
format: tabletop-cards/1
game: swm
set: {SET}
cards:
  - name: {NAME}
    source: a test card that prints only its cost
    cost: 18
    factions: [Republic]
    unique: unknown
    size: unknown
    hp: unknown
    defense: unknown
    attack: unknown
    damage: unknown
    speed: unknown
    force: unknown
    commander_effect: unknown
"""


def write_unknown_card(home: Path) -> Path:
    """The card file in ``home``'s card library (``$TABLETOP_HOME/cards/swm``); its path."""
    folder = home / "cards" / "swm"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "a-test-set.yaml"
    path.write_text(CARD_FILE, encoding="utf-8")
    return path
