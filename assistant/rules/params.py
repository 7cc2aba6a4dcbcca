"""The parameters in which the editions' geometry and turn rules differ.

Each edition module (:mod:`.swm.swm2004`, :mod:`.swm.swm2008`, :mod:`.ddm.ddm2005`) holds one
:class:`GeometryRules` and one :class:`TurnRules` value, written next to the rulebook text they
encode, in its :class:`~assistant.rules.record.EditionRecord`; the engine (:mod:`.engine`) and
the game sequencer read only these parameters, never the edition's name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..editions import Edition, SquareTerrain
from ..i18n import _


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
    #: how squares are counted: each diagonal 2 (SWM), or diagonals alternately 1 and 2 (DDM)
    metric: Literal["diagonal_2", "diagonal_1_2"]
    range_rule: str
    adjacency_rule: str
    nearest_rule: str

    def cite(self, where: str) -> str:
        return f"{self.edition.value} {where}"


@dataclass(frozen=True)
class MoveAndAttack:
    """A turn that is one longer move and then an attack, by an ability (SWM Charging Fire):
    the move goes up to ``speed_times`` x speed plus ``squares``; ``rule`` cites the edition's words."""

    name: str
    speed_times: int
    squares: int
    rule: str

    def reach(self, speed: int) -> int:
        return self.speed_times * speed + self.squares


@dataclass(frozen=True)
class TurnRules:
    edition: Edition
    #: speed when the card gives none (SWM 2004 fixes 6; a card's Speed ability changes it)
    default_speed: int
    #: abilities that let a figure move both before and after attacking (total <= speed)
    split_move_abilities: tuple[str, ...]
    #: several attacks (a full attack) allow no movement at all (DDM); SWM: no move after them
    full_attack_no_move: bool
    #: extra attacks per ability name, usable only by a figure that has not moved
    multi_attacks: tuple[tuple[str, int], ...]
    #: the figure's card attack lines decide the full attack (DDM)
    attack_lines_from_card: bool
    #: SWM door rule at every end of turn
    doors_follow_occupancy: bool
    #: "last-standing" (SWM) or "vp" (DDM: 200 victory points)
    victory: Literal["last-standing", "vp"]
    #: an attack of opportunity is provoked by "leave-adjacent" (any step out of a square next
    #: to the enemy, SWM) or "leave-threatened" (a step out of its threatened area, DDM)
    opportunity_trigger: Literal["leave-adjacent", "leave-threatened"]
    #: Flight movement never provokes (SWM); DDM: only beyond the first square (not tracked)
    flight_never_provokes: bool
    charge: bool
    statue_no_end: bool
    #: a flier may end its move on a pit (DDM); SWM: it must end on a legal square
    flier_may_end_on_pit: bool
    morale: bool
    movement_abilities: tuple[str, ...]
    #: abilities whose turn is a longer move and one attack (SWM Charging Fire; reading R303)
    move_and_attack: tuple[MoveAndAttack, ...]

    # --- citations (the rulebook of this edition only) ---------------------------------
    cite_round: str
    cite_initiative: str
    cite_initiative_tie: str
    cite_phase: str
    cite_once_per_round: str
    cite_turn_options: str
    cite_double_move: str
    cite_split_move: str
    cite_multi_attack: str
    cite_heavy_weapon: str
    cite_movement: str
    cite_diagonals: str
    cite_opportunity: str
    cite_doors: str
    cite_flight: str
    cite_charge: str
    cite_statue: str
    cite_morale: str
    cite_victory: str
    cite_tie_break: str
    cite_elimination: str
    #: the attack roll and a hit's damage: what an imported log's attack is derived again by (R203)
    cite_attack_roll: str

    # --- Force points (SWM): a family without them leaves these empty ----------------------
    #: Move Faster: the squares one Force point adds to the turn's movement (0: no such rule)
    move_faster_squares: int = 0
    #: Move Faster's squares may be moved after the attack even by a figure that moved before it
    #: (SWM 2004 CS r.9: "move 6, attack, pay 1, move 2 more"; SWM 2008 PL p.25 forbids it)
    move_faster_splits: bool = False
    cite_move_faster: str = ""
    #: a figure spends Force points only once per turn, its own or another's (empty: no such rule)
    cite_force_once: str = ""
    #: Force points spent are gone until the end of the game: none spent beyond those left
    cite_force_points: str = ""

    def cite(self, where: str) -> str:
        """``swm2004 CS r.5 (ties are rerolled)``: the page as printed, the note in parentheses in the
        reader's language (the records mark their citations with ``N_``)."""

        return f"{self.edition.value} {_(where) if where else where}"
