"""Star Wars Miniatures, 2004 rules (Czech, Revenge of the Sith printing).

**Line of sight** (CS r.6, g.9): join *any corner* of the attacker's square to *any
corner* of the target's square; if the line does not touch a wall there is line of
sight. A line touching a corner or running along a wall gives none. The map's edges are
walls (CS r.4).

Reading (``shared/rules/swm.md`` §4.5, §12 item 2): read literally, a character in a
one-square corridor would see nothing, since all its corners lie on walls. So a line
may *start or end* on a wall corner, but the open line between must touch nothing, and
it must not cross a wall right at its own end (you cannot look through the wall you
stand against).

**Cover** (CS r.7): as in 2008 -- the attacker's chosen corner, lines to every point of
the target's space (CS g.13), +4 Defense; low objects next to the attacker are shot
over; grazing gives nothing; no double cover; an adjacent target never has cover.

**Range** (CS g.10, r.6): count squares as for movement, diagonal two, around walls;
low objects and pits add nothing (and, by the digest's reading, no other terrain does).
"""

from ..editions import Edition, SquareTerrain
from ..i18n import N_
from .params import GeometryRules

RULES = GeometryRules(
    edition=Edition.SWM2004,
    sight="corner",
    sight_rule="swm2004 CS r.6, g.9 Line of Sight (corner to corner)",
    sight_reading=N_(
        "a line may start or end on a wall corner if the open line touches nothing and does not "
        "cross the wall at its own end (reading R2 in docs/readings.md)"
    ),
    boundary_is_wall=True,
    sight_blocking=(SquareTerrain.WALL,),
    fog_ignored_when_adjacent=False,
    own_forest_transparent=False,
    cover_rule="swm2004 CS r.7 Cover (lines to the target's space, CS g.13)",
    cover_bonus=4,
    cover_squares=(SquareTerrain.WALL, SquareTerrain.LOW),
    low_objects_near_attacker_ignored=True,
    low_objects_rule="swm2004 CS r.7, r.11 (low objects in or next to the attacker's square are shot over)",
    adjacent_never_covered=True,
    adjacent_rule="swm2004 CS r.7 (an adjacent enemy never has cover)",
    occupant_cover=(SquareTerrain.LOW,),
    occupant_cover_rule="swm2004 CS r.7, r.11 (low objects give cover to characters standing in them; the attacker shoots over those in or next to its own square)",
    melee_cover=False,
    melee_cover_rule="",
    start_corner_rule="swm2004 CS r.7, r.11; reading R1 in docs/readings.md (no shooting through the wall you stand behind)",
    metric="swm",
    range_rule="swm2004 CS g.10 Range, r.6 (count as for movement, diagonal = 2, around walls)",
    adjacency_rule="swm2004 CS r.8, g.1 (adjacent: next to it, diagonals included, with line of sight)",
    nearest_rule="swm2004 CS g.10 nearest enemy (closest enemy in line of sight; ties all count)",
)
