"""The parameters in which the editions' geometry rules differ.

Each edition module (:mod:`.swm2004`, :mod:`.swm2008`, :mod:`.ddm2005`) is one
:class:`GeometryRules` value, written next to the rulebook text it encodes; the engine
(:mod:`.engine`) reads only these parameters, never the edition's name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..editions import Edition, SquareTerrain


@dataclass(frozen=True)
class GeometryRules:
    edition: Edition

    # --- line of sight -----------------------------------------------------------------
    #: "corner": a corner of the viewer's square to a corner of the target's (swm2004);
    #: "any": any point of one space to any point of the other (swm2008, ddm2005)
    sight: Literal["corner", "any"]
    sight_rule: str
    #: how an unclear sight rule is read (shown with every verdict that depends on it)
    sight_reading: str | None
    #: the map's outer edge is a wall for lines of sight
    boundary_is_wall: bool
    #: square terrain that blocks sight like a wall (touching counts): wall, plus DDM fog/forest
    sight_blocking: tuple[SquareTerrain, ...]
    #: fog does not block between adjacent creatures (ddm2005 A-9)
    fog_ignored_when_adjacent: bool
    #: a creature sees into and out of its own (and its target's) forest squares (ddm2005 A-7)
    own_forest_transparent: bool

    # --- cover -------------------------------------------------------------------------
    cover_rule: str
    cover_bonus: int
    #: square terrain whose interior, met by the fan, gives cover (walls always do)
    cover_squares: tuple[SquareTerrain, ...]
    #: low objects in or next to the attacker's space are ignored (SWM §5.5)
    low_objects_near_attacker_ignored: bool
    low_objects_rule: str
    #: an adjacent target never has cover (SWM §5.4)
    adjacent_never_covered: bool
    adjacent_rule: str
    #: square terrain that gives cover to a figure standing in it: DDM forest (§ Las), SWM low
    #: objects (not those in or next to the attacker's space, which it shoots over)
    occupant_cover: tuple[SquareTerrain, ...]
    occupant_cover_rule: str
    #: adjacent figures use the melee cover test (DDM § Osłona i walka wręcz)
    melee_cover: bool
    melee_cover_rule: str
    start_corner_rule: str

    # --- counting ----------------------------------------------------------------------
    metric: Literal["swm", "ddm"]
    range_rule: str
    adjacency_rule: str
    nearest_rule: str

    def cite(self, where: str) -> str:
        return f"{self.edition.value} {where}"
