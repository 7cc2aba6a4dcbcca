"""Star Wars: Destiny team and deck building (P4; P1 › Unikatowość; digest ``destiny.md`` §2).

Every problem is reported with the rule it breaks; an empty list means the team and deck are
legal.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

from ..i18n import _
from .importers import said_word

Affiliation = Literal["hero", "villain", "neutral"]
Colour = Literal["blue", "red", "yellow", "grey"]

MAX_TEAM_POINTS = 30
DECK_SIZE = 30
MAX_COPIES = 2


@dataclass(frozen=True)
class TeamCharacter:
    name: str  # the character's name, without subtitle: Darth Vader
    points: int  # the cost chosen: elite or not
    affiliation: Affiliation
    colour: Colour
    unique: bool = True
    subtitle: str = ""


@dataclass(frozen=True)
class DeckCard:
    title: str
    kind: Literal["event", "upgrade", "support", "character", "battlefield"]
    affiliation: Affiliation
    colour: Colour


def check_team(team: list[TeamCharacter]) -> list[str]:
    """Problems with a team (P4 › 1).

    >>> leia = TeamCharacter("Leia Organa", 16, "hero", "red")
    >>> han = TeamCharacter("Han Solo", 14, "hero", "yellow")
    >>> check_team([leia, han])   # D-04: 30 points, legal
    []
    """
    problems = []
    if not team:
        problems.append(_("a team needs at least one character (Destiny P4 › 1)"))
    points = sum(c.points for c in team)
    if points > MAX_TEAM_POINTS:
        problems.append(_("the team costs {points} points; at most {MAX_TEAM_POINTS} (Destiny P4 › 1)").format(points=points, MAX_TEAM_POINTS=MAX_TEAM_POINTS))
    sides = {c.affiliation for c in team} - {"neutral"}
    if len(sides) > 1:
        problems.append(_("heroes and villains in one team (Destiny P4 › 1)"))
    counts = Counter(c.name for c in team if c.unique)
    for name, n in counts.items():
        if n > 1:
            problems.append(_("{n} copies of unique {name} (different subtitles are the same character; Destiny P1 › Unikatowość)").format(n=n, name=name))
    return problems


def check_deck(team: list[TeamCharacter], deck: list[DeckCard]) -> list[str]:
    """Problems with a deck for this team (P4 › 2)."""
    problems = []
    if len(deck) != DECK_SIZE:
        problems.append(_("the deck holds {n} cards; exactly {DECK_SIZE} (Destiny P4 › 2)").format(n=len(deck), DECK_SIZE=DECK_SIZE))
    for title, n in Counter(c.title for c in deck).items():
        if n > MAX_COPIES:
            problems.append(_("{n} copies of {title!r}; at most {MAX_COPIES} (Destiny P4 › 2)").format(n=n, title=title, MAX_COPIES=MAX_COPIES))
    side = next((c.affiliation for c in team if c.affiliation != "neutral"), None)
    colours = {c.colour for c in team}
    for c in sorted(set(deck), key=lambda c: c.title):
        if c.kind in ("character", "battlefield"):
            problems.append(_("{title!r} is a {kind}: the deck holds only events, upgrades and supports (Destiny P4 › 2)").format(
                title=c.title, kind=said_word(c.kind)))
        if side and c.affiliation not in ("neutral", side):
            problems.append(
                _("{title!r} is a {affiliation} card in a {side} deck (Destiny P4 › 2)").format(title=c.title, affiliation=c.affiliation, side=side)
            )
        if c.colour != "grey" and c.colour not in colours:
            problems.append(_("{title!r} is {colour} and the team has no {colour} character (Destiny P4 › 2)").format(title=c.title, colour=c.colour))
    return problems
