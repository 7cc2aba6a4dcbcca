"""D&D Miniatures, 2005 rules (Polish advanced rules, War Drums).

**Line of sight** (§ Zasięg wzroku p.15, p.17): two creatures see each other if one
straight line joins any point of one's squares to any point of the other's without
crossing or even touching a square that blocks sight -- walls and solid rock, thin walls,
the map's edges (impassable walls, § Pole bitwy). Fog and smoke block (§ Mgła i dym),
except between adjacent creatures (§ MGŁA I DYM). A forest square blocks a line that
passes through it (§ Las) -- read as touching, like a wall -- except the viewer's
and the target's own forest squares. Creatures, statues, pits and other terrain do not
block.

**Cover** (§ Osłona i ataki dystansowe p.15-16): from the corner the attacker picks, a
line to any point of the target's space that passes through a wall, another creature's
square, a statue, or a square that blocks sight (fog, forest: reading R35 in docs/readings.md) gives cover (+4 AC);
lines that only touch give none; cover does not stack. A creature in a forest square
always has cover. **Melee cover** (§ Osłona i walka wręcz p.13): an adjacent defender
around the corner or end of a wall -- any line between the two squares passes through a
wall -- has cover; only walls give it (reading R33 in docs/readings.md for Large creatures).

**Distance** (§ Dowodzenie p.19-20, glossary *nearest enemy*): diagonals count 1, 2, 1, 2;
count through wall corners but around wall ends (reading R32 in docs/readings.md); creatures and terrain are ignored.
"""

from ...editions import EDITION_RULES, Edition, SquareTerrain
from ...i18n import N_
from ..params import GeometryRules, TurnRules
from ..record import EditionRecord, register_edition
from . import family

RULES = GeometryRules(
    edition=Edition.DDM2005,
    sight="any",
    sight_rule="ddm2005 § Zasięg wzroku p.15, p.17",
    sight_reading=None,
    boundary_is_wall=True,
    sight_blocking=(SquareTerrain.WALL, SquareTerrain.FOG, SquareTerrain.FOREST),
    fog_ignored_when_adjacent=True,
    own_forest_transparent=True,
    cover_rule="ddm2005 § Osłona i ataki dystansowe p.15-16",
    cover_bonus=4,
    cover_squares=(SquareTerrain.WALL, SquareTerrain.STATUE, SquareTerrain.FOG, SquareTerrain.FOREST),
    low_objects_near_attacker_ignored=False,
    low_objects_rule="",
    adjacent_never_covered=False,
    adjacent_rule="",
    occupant_cover=(SquareTerrain.FOREST,),
    occupant_cover_rule=N_("ddm2005 § Las p.25 (a creature in a forest square has cover against melee and ranged attacks)"),
    melee_cover=True,
    melee_cover_rule=N_("ddm2005 § Osłona i walka wręcz p.13 (around the corner or end of a wall; only walls); reading R33 in docs/readings.md"),
    start_corner_rule=N_("ddm2005 § Strzelanie zza rogu p.16; reading R1 in docs/readings.md (no shooting through the wall you stand behind)"),
    metric="diagonal_1_2",
    range_rule=N_("ddm2005 § Dowodzenie p.19-20 (diagonals 1-2-1-2, around walls; reading R32 in docs/readings.md)"),
    adjacency_rule=N_("ddm2005 glossary 'adjacent' (touching, diagonals included; not behind walls: reading R34 in docs/readings.md)"),
    nearest_rule=N_("ddm2005 glossary 'nearest enemy' (closest visible enemy; terrain other than walls ignored)"),
)

TURNS = TurnRules(
    edition=Edition.DDM2005,
    default_speed=6,
    split_move_abilities=("Spring Attack",),
    full_attack_no_move=True,
    multi_attacks=(),
    attack_lines_from_card=True,
    doors_follow_occupancy=False,
    victory="vp",
    opportunity_trigger="leave-threatened",
    flight_never_provokes=False,
    charge=True,
    statue_no_end=True,
    flier_may_end_on_pit=False,  # glossary Flight: "Może przelecieć nad dziurami, ale nie może zakończyć na nich swojego ruchu"
    morale=True,
    movement_abilities=("Flight", "Incorporeal"),
    move_and_attack=(),
    cite_round=N_("§ Rundy p.8-9 (the round ends when every creature has activated)"),
    cite_initiative=N_("§ Test inicjatywy p.8-9 (d20 + the best able commander's rating)"),
    cite_initiative_tie=N_("glossary 'tied die rolls' (the higher Commander rating wins; else reroll)"),
    cite_phase=N_("§ Fazy p.8-9 (each player activates 2 creatures per phase, alternating)"),
    cite_once_per_round=N_("§ Aktywowanie istot p.9 (each creature activates once per round)"),
    cite_turn_options=N_("§ Aktywowanie istot p.9 (double move; move and one attack; full attack without moving; charge)"),
    cite_double_move=N_("§ Aktywowanie istot p.9 (up to Speed and one attack, or up to double Speed without attacking)"),
    cite_split_move="glossary Spring Attack",
    cite_multi_attack=N_("§ Aktywowanie istot p.9 (a full attack: all attacks, no movement)"),
    cite_heavy_weapon="",
    cite_movement=N_("§ Ruch p.10 (walls, pits, enemies; allies passed, not shared)"),
    cite_diagonals=N_("§ Ruch › Przekątne p.10 (diagonals 1-2-1-2 over the whole move)"),
    cite_opportunity=N_("§ Ataki okazyjne p.13 (leaving a threatened area)"),
    cite_doors="",
    cite_flight="glossary Flight",
    cite_charge="§ Szarżowanie p.13",
    cite_statue=N_("§ Posągi, Teren p.25-27 (no creature ends its move on a statue)"),
    cite_morale=N_("§ Rzut obronny na morale p.21 (d20 + Level + the best commander rating in range >= 20)"),
    cite_victory=N_("§ Scenariusz starcia p.28 (the first warband to 200 victory points wins)"),
    cite_tie_break=N_("§ Scenariusz starcia p.28 (10 rounds without damage, attack roll or save: the tie-break)"),
    cite_elimination=N_("§ Scenariusz starcia p.28 (eliminated: destroyed or fled off the map; its cost in VP)"),
    cite_attack_roll=N_("§ Testy ataku p.11 (d20 + the attack bonus against the target's AC; a hit deals the attack's damage)"),
)


RECORD = register_edition(EditionRecord(
    name="ddm2005",
    family="ddm",
    board=EDITION_RULES[Edition.DDM2005],
    geometry=RULES,
    turns=TURNS,
    attack=family.ATTACK,
    words=family.WORDS,
    abilities=family.ABILITIES,
    opportunity_ignores_targeting=False,
    disintegration_large_extra=0,
    rend_default=None,
    power_value_defaults=False,
    tow_cable_max_size=None,
    build_points=family.BUILD_POINTS,
    faction_eras=False,
    conditions=family.CONDITIONS,
))
