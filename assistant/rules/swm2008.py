"""Star Wars Miniatures, 2008 rules (Polish rulebook, The Clone Wars starter).

**Line of sight** (PL p.9, glossary p.53): draw a line from *any point* of the
attacker's square to *any point* of the target's square; if one can be drawn without
touching a wall in any way, there is line of sight. A line touching a wall's corner or
running along a wall gives none. Only walls, closed doors and big objects counted as
walls block; characters, low objects, difficult terrain and pits do not. The text says
nothing about the map's edges, so they block nothing (§2.1).

**Cover** (PL p.10, p.18-19): the attacker picks a corner of its square; if any line
from it to any point of the target's square passes through a character, a wall or a
low object, the target has cover (+4 Defense). A character standing in a low-object
square has cover too ("Niskie obiekty zapewniają osłonę dla postaci zajmujących takie
pola", PL p.18). Low objects in or next to the attacker's square are shot over. Grazing lines give nothing; cover never doubles; an
adjacent enemy never has cover.

**Range** (PL p.58, p.8): count squares as for movement, a diagonal counting two, around
walls and closed doors; squares that slow movement do not count extra.
"""

from ..editions import Edition, SquareTerrain
from .params import GeometryRules

RULES = GeometryRules(
    edition=Edition.SWM2008,
    sight="any",
    sight_rule="swm2008 PL p.9 Line of Sight; glossary p.53",
    sight_reading=None,
    boundary_is_wall=False,
    sight_blocking=(SquareTerrain.WALL,),
    fog_ignored_when_adjacent=False,
    own_forest_transparent=False,
    cover_rule="swm2008 PL p.10, p.18-19 Cover",
    cover_bonus=4,
    cover_squares=(SquareTerrain.WALL, SquareTerrain.LOW),
    low_objects_near_attacker_ignored=True,
    low_objects_rule="swm2008 PL p.18, p.27 (the attacker shoots over low objects in or next to its square)",
    adjacent_never_covered=True,
    adjacent_rule="swm2008 PL p.18 (an adjacent enemy never has cover)",
    occupant_cover=(SquareTerrain.LOW,),
    occupant_cover_rule="swm2008 PL p.18, p.27 (low objects give cover to characters standing in them; the attacker shoots over those in or next to its own square)",
    melee_cover=False,
    melee_cover_rule="",
    start_corner_rule="swm2008 PL p.10, p.28; reading R1 in docs/readings.md (no shooting through the wall you stand behind)",
    metric="swm",
    range_rule="swm2008 PL p.58 Range, p.8 (count as for movement, diagonal = 2, around walls and closed doors)",
    adjacency_rule="swm2008 PL p.23, p.32 (adjacent: next to it, diagonals included, with line of sight)",
    nearest_rule="swm2008 PL p.55 nearest enemy (closest enemy in line of sight; ties all count)",
)
