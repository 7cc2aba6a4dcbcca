"""The rules editions and the parameters in which they differ.

Each edition is one :class:`Edition` value; what the board model needs to know about it
(which figure sizes and terrain kinds its rulebook defines, and where) is an explicit
:class:`EditionRules` record. The whole edition -- this board record, its geometry, turn rules,
attack model and words -- is one :class:`~assistant.rules.record.EditionRecord`, registered by
its module under :mod:`assistant.rules` and looked up with
:func:`~assistant.rules.record.find_edition`; no code asks ``if edition == ...``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .i18n import N_


class Edition(str, enum.Enum):
    SWM2004 = "swm2004"
    SWM2008 = "swm2008"
    DDM2005 = "ddm2005"

    @property
    def game(self) -> str:
        """The card game family whose stat cards this edition uses: ``swm`` or ``ddm``."""
        return self.board.family

    @property
    def board(self) -> EditionRules:
        """What the board model needs from this edition (sizes, terrain, doors, sides)."""
        return EDITION_RULES[self]

    @property
    def rules(self) -> EditionRules:
        """The same as :attr:`board` (the older name)."""
        return EDITION_RULES[self]

    def __str__(self) -> str:
        return self.value


class Size(str, enum.Enum):
    TINY = "tiny"
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    HUGE = "huge"
    GARGANTUAN = "gargantuan"
    COLOSSAL = "colossal"

    @property
    def footprint(self) -> int:
        """Side of the square block the figure occupies (CONTRACT §2)."""
        return _FOOTPRINT[self]

    @property
    def rank(self) -> int:
        """Its place from tiny (0) to colossal, for "a smaller creature" (DDM Trample, Pushback).

        >>> Size.SMALL.rank < Size.MEDIUM.rank
        True
        """
        return list(Size).index(self)

    def __str__(self) -> str:
        return self.value


_FOOTPRINT = {
    Size.TINY: 1,
    Size.SMALL: 1,
    Size.MEDIUM: 1,
    Size.LARGE: 2,
    Size.HUGE: 3,
    Size.GARGANTUAN: 4,
    Size.COLOSSAL: 6,
}

#: The sizes the contract's position format accepts in every edition.
CONTRACT_SIZES = (Size.SMALL, Size.MEDIUM, Size.LARGE, Size.HUGE, Size.GARGANTUAN, Size.COLOSSAL)


class SquareTerrain(str, enum.Enum):
    """Terrain that fills whole squares (CONTRACT §2 ``map.squares``)."""

    WALL = "wall"
    LOW = "low"
    DIFFICULT = "difficult"
    PIT = "pit"
    FOREST = "forest"
    STATUE = "statue"
    FOG = "fog"
    RISKY = "risky"
    SPIKE_STONES = "spike_stones"
    SACRED_CIRCLE = "sacred_circle"
    BLOOD_ROCK = "blood_rock"
    TELEPORTER = "teleporter"

    def __str__(self) -> str:
        return self.value


class EdgeTerrain(str, enum.Enum):
    """Terrain on grid lines (CONTRACT §2 ``map.edges``)."""

    WALL = "wall"
    DOOR = "door"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class EditionRules:
    """What one edition's rulebook defines, with the seed reference for each choice."""

    edition: Edition
    #: the card family whose stat cards it uses: "swm" or "ddm"
    family: str
    title: str
    seed: str
    #: sizes the rulebook defines, and the page that defines them
    sizes: tuple[Size, ...]
    sizes_rule: str
    #: square terrain kinds the rulebook has rules for
    square_terrain: tuple[SquareTerrain, ...]
    terrain_rule: str
    #: square terrain no figure may stand in at any time (a position showing one is illegal)
    no_standing: tuple[SquareTerrain, ...]
    no_standing_rule: str
    #: whether doors exist in this edition (the DDM booklet has none: only walls)
    has_doors: bool
    #: where "a defeated figure is removed" is stated
    defeat_rule: str
    #: how many sides a battle has (None: any number), and where that is stated
    max_sides: int | None = None
    sides_rule: str = ""
    #: the rulebook its citations name, where a citation names the books of several editions
    #: ("PL p.54; CS g.9"): the Polish 2008 rulebook "PL", the Czech 2004 rules "CS"
    book: str | None = None

    def cite(self, where: str) -> str:
        """A rule citation in the form used in every answer: ``swm2008 PL p.9``."""
        return f"{self.edition.value} {where}"


EDITION_RULES: dict[Edition, EditionRules] = {
    Edition.SWM2004: EditionRules(
        edition=Edition.SWM2004,
        family="swm",
        title=N_("Star Wars Miniatures, 2004 rules (Czech)"),
        seed="swm-2004-rules-cs.txt",
        sizes=(Size.SMALL, Size.MEDIUM, Size.LARGE, Size.HUGE),
        sizes_rule="CS g.12 (Space: Small/Medium 1, Large 4, Huge 9 squares)",
        square_terrain=(SquareTerrain.WALL, SquareTerrain.LOW, SquareTerrain.DIFFICULT, SquareTerrain.PIT),
        terrain_rule="CS r.10-11 (terrain: walls, low objects, difficult terrain, pits)",
        no_standing=(SquareTerrain.WALL, SquareTerrain.PIT),
        no_standing_rule="CS r.5, r.11 (walls and pits block movement)",
        has_doors=True,
        defeat_rule="CS r.7 (a character reduced to 0 Hit Points is defeated and removed)",
        max_sides=2,
        sides_rule="CS r.12 (a team game: four players in two teams, each team's squads allies)",
        book="CS",
    ),
    Edition.SWM2008: EditionRules(
        edition=Edition.SWM2008,
        family="swm",
        title=N_("Star Wars Miniatures, 2008 rules (Polish)"),
        seed="swm-2008-rulebook-pl.txt",
        sizes=(Size.SMALL, Size.MEDIUM, Size.LARGE, Size.HUGE),
        sizes_rule="PL p.62 (Space: Small/Medium 1, Large 4, Huge 9; larger sizes not given)",
        square_terrain=(SquareTerrain.WALL, SquareTerrain.LOW, SquareTerrain.DIFFICULT, SquareTerrain.PIT),
        terrain_rule="PL p.26-30 (terrain: walls, doors, low objects, difficult terrain, pits)",
        no_standing=(SquareTerrain.WALL, SquareTerrain.PIT),
        no_standing_rule="PL p.28, p.30 (walls block movement; a character ending its turn in a pit is defeated)",
        has_doors=True,
        defeat_rule="PL p.7 (at 0 Hit Points a character is defeated and removed from the map)",
        max_sides=2,
        sides_rule="PL p.31 (a team game: four players in two teams, each team's squads allies)",
        book="PL",
    ),
    Edition.DDM2005: EditionRules(
        edition=Edition.DDM2005,
        family="ddm",
        title=N_("D&D Miniatures, 2005 rules (Polish, War Drums)"),
        seed="ddm-2005-advanced-rules-pl.txt",
        sizes=(Size.TINY, Size.SMALL, Size.MEDIUM, Size.LARGE, Size.HUGE),
        sizes_rule="glossary 'size' (Tiny, Small, Medium 1 square; Large 2x2; Huge 3x3)",
        square_terrain=(
            SquareTerrain.WALL,
            SquareTerrain.DIFFICULT,
            SquareTerrain.PIT,
            SquareTerrain.FOREST,
            SquareTerrain.STATUE,
            SquareTerrain.FOG,
            SquareTerrain.RISKY,
            SquareTerrain.SPIKE_STONES,
            SquareTerrain.SACRED_CIRCLE,
            SquareTerrain.BLOOD_ROCK,
            SquareTerrain.TELEPORTER,
        ),
        terrain_rule="§ TEREN p.24-27",
        no_standing=(SquareTerrain.WALL, SquareTerrain.PIT, SquareTerrain.STATUE),
        no_standing_rule=(
            "§ Ściany p.26, § Doły p.25, § Posągi p.26 (walls impassable; a creature ending its move in a pit is eliminated; no ending a move on a statue)"
        ),
        has_doors=False,
        defeat_rule="p.4 Statistics (at 0 HP the creature is dead and removed from the battle map)",
        sides_rule="§ JAK WYGRAĆ (two or more rival warbands fight)",
    ),
}


def cite_for(edition: Edition, where: str) -> str:
    """A rule citation for the edition in force.

    The two SWM rulebooks are often cited together ("PL p.54; CS g.9"); an SWM 2008 answer
    cites only the Polish 2008 rulebook and an SWM 2004 answer only the Czech 2004 rules.

    A rule only the other edition's book gives (a later set's ability the 2004 rules do not name,
    applied in the 2008 rulebook's words, reading R304) names that book's edition: "swm2004 PL
    p.53" named a Polish page of no 2004 book (reading R358).

    >>> cite_for(Edition.SWM2008, "PL p.54; CS g.9")
    'swm2008 PL p.54'
    >>> cite_for(Edition.SWM2004, "PL p.25, p.55; CS r.9, g.9")
    'swm2004 CS r.9, g.9'
    >>> cite_for(Edition.SWM2004, "PL p.50")
    'swm2008 PL p.50'
    >>> cite_for(Edition.SWM2004, "PL p.45 (Force points: reroll); PL p.54 Mettle")
    'swm2008 PL p.45 (Force points: reroll); PL p.54 Mettle'
    """
    keep = edition.board.book
    if keep is None:
        return f"{edition.value} {where}"
    parts = [p.strip() for p in where.split(";")]
    books = {r.book + " ": e for e, r in EDITION_RULES.items() if r.book}
    mine = [p for p in parts if not p.startswith(tuple(books)) or p.startswith(keep + " ")]
    if not any(p.startswith(keep + " ") for p in mine):
        # this edition's book is not named: cite what is known, by the edition whose book it is
        named = {e for b, e in books.items() for p in parts if p.startswith(b)}
        return f"{(named.pop() if len(named) == 1 else edition).value} {'; '.join(parts)}"
    return f"{edition.value} {'; '.join(mine)}"
