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

from ...editions import EDITION_RULES, Edition, Size, SquareTerrain
from ...i18n import N_
from ..params import GeometryRules, MoveAndAttack, TurnRules
from ..record import EditionRecord, register_edition
from . import family

RULES = GeometryRules(
    edition=Edition.SWM2008,
    sight="any",
    sight_rule=N_("swm2008 PL p.9 Line of Sight; glossary p.53"),
    sight_reading=None,
    boundary_is_wall=False,
    sight_blocking=(SquareTerrain.WALL,),
    fog_ignored_when_adjacent=False,
    own_forest_transparent=False,
    cover_rule=N_("swm2008 PL p.10, p.18-19 Cover"),
    cover_bonus=4,
    cover_squares=(SquareTerrain.WALL, SquareTerrain.LOW),
    low_objects_near_attacker_ignored=True,
    low_objects_rule=N_("swm2008 PL p.18, p.27 (the attacker shoots over low objects in or next to its square)"),
    adjacent_never_covered=True,
    adjacent_rule=N_("swm2008 PL p.18 (an adjacent enemy never has cover)"),
    occupant_cover=(SquareTerrain.LOW,),
    occupant_cover_rule=N_(
        "swm2008 PL p.18, p.27 (low objects give cover to characters standing in them; the attacker shoots over those in or next to its own square)"
    ),
    melee_cover=False,
    melee_cover_rule="",
    start_corner_rule=N_("swm2008 PL p.10, p.28; reading R1 in docs/readings.md (no shooting through the wall you stand behind)"),
    metric="diagonal_2",
    range_rule=N_("swm2008 PL p.58 Range, p.8 (count as for movement, diagonal = 2, around walls and closed doors)"),
    adjacency_rule=N_("swm2008 PL p.23, p.32 (adjacent: next to it, diagonals included, with line of sight)"),
    nearest_rule=N_("swm2008 PL p.55 nearest enemy (closest enemy in line of sight; ties all count)"),
)

TURNS = TurnRules(
    edition=Edition.SWM2008,
    default_speed=6,
    split_move_abilities=("Mobile Attack", "Greater Mobile Attack"),
    full_attack_no_move=True,
    multi_attacks=(("Quadruple Attack", 4), ("Triple Attack", 3), ("Double Attack", 2)),
    attack_lines_from_card=False,
    doors_follow_occupancy=True,
    victory="last-standing",
    opportunity_trigger="leave-adjacent",
    flight_never_provokes=True,
    charge=False,
    statue_no_end=False,
    flier_may_end_on_pit=False,
    morale=False,
    movement_abilities=("Flight", "Stable Footing", "Wall Climber", "Hologram", "Light Spirit"),
    move_and_attack=(MoveAndAttack("Charging Fire", 2, 0, "PL p.36 Charging Fire"),),  # "do dwukrotności swojej prędkości i wykonać atak"
    cite_round=N_("PL p.6, p.16 (a round ends when every character has activated)"),
    cite_initiative=N_("PL p.2, p.16 (initiative: d20 each, the higher chooses who goes first)"),
    cite_initiative_tie=N_("PL p.2 (ties are rerolled)"),
    cite_phase=N_("PL p.6, p.16 (each player activates up to 2 characters per phase, alternating)"),
    cite_once_per_round=N_("PL p.6 (each character activates once per round)"),
    cite_turn_options=N_("PL p.16 (move then attack; attack then move; double move; a turn-replacing ability)"),
    cite_double_move=N_("PL p.6, p.16 (up to speed and attack, or up to double speed without attacking)"),
    cite_split_move="PL p.54-55 Mobile Attack",
    cite_multi_attack="PL p.40 Double Attack, p.42 Extra Attack, p.57 Quadruple Attack, p.65 Triple/Twin Attack",
    cite_heavy_weapon="PL p.49 Heavy Weapon",
    cite_movement=N_("PL p.6-7, p.17, p.28 (movement: walls, doors, pits, characters, diagonals)"),
    cite_diagonals=N_("PL p.6-7 (a diagonal costs 2 squares)"),
    cite_opportunity=N_("PL p.22-23 (attacks of opportunity)"),
    cite_doors=N_("PL p.28 (doors)"),
    cite_flight="PL p.43 Flight",
    cite_charge="",
    cite_statue="",
    cite_morale="",
    cite_victory=N_("PL p.2, p.16 (defeat all enemy characters)"),
    cite_tie_break=N_("PL p.16 (10 rounds without an attack or damage: the tie-break)"),
    cite_elimination="PL p.16",
    cite_attack_roll=N_("PL p.21 (d20 + Attack against the target's Defense; a hit deals the attacker's Damage)"),
    move_faster_squares=2,
    move_faster_splits=False,
    cite_move_faster='PL p.25 Szybsze Poruszanie (Move Faster: 1 Force point, 2 more squares; not after moving and attacking)',
    cite_force_once='PL p.11, p.26 Raz na turę (Force points once per turn; the Count Dooku example)',
    cite_force_points='PL p.26 Wydawanie punktów Mocy (Force points spent are gone until the end of the game)',
)


RECORD = register_edition(
    EditionRecord(
        name="swm2008",
        family="swm",
        board=EDITION_RULES[Edition.SWM2008],
        geometry=RULES,
        turns=TURNS,
        attack=family.ATTACK,
        words=family.WORDS,
        abilities=frozenset(
            {
                *family.ABILITIES,
                # the attack advisor (rules/attack.py, rules/swm/attack.py, rules/engine.py, rules/powers.py, rules/swm/powers.py)
                "Light Spirit",
                "Hologram",
                "Invisibility",
                "Cloaked",
                "Diplomat",
                "It's a Trap!",
                "Ambush",
                "Greater Mobile Attack",
                "Twin Attack",
                "Frozen in Carbonite",
                "Fragile",
                "Bombad Gungan",
                "Pheromones",
                "Force Immunity",
                "Charging Assault",
                "Programmed Target",
                "Overwhelming Force",
                "Djem So Style",
                "Cortosis Gauntlet",
                "Splash",
                "Flanking Support",
                "Ataru Style",
                "Traps",
                "Doctrine of Fear",
                "Gunner",  # its +[#] damage to the Mounted Weapon ally it helps (the 2004 Gunner has no number)
                "Force Alter",  # an enemy within 6 rerolls its attack roll (PL p.43; rules/swm/attack.py, R228)
                "Extra Attack",  # one more attack, and no move (PL p.42): the attack advisor and the game session
                "Force Sense",  # enemies lose Stealth for the round: said where it makes the target legal (PL p.46; rules/swm/attack.py, R273)
                "Paralysis",  # a hit on a living enemy stuns it unless it saves 11 (PL p.56; rules/swm/attack.py, R273)
                # the game session
                "Desert Skiff",
                "Affinity",  # a squad of the faction the card names (PL p.33; game/squads.py, R166)
                "Rapport",  # 1 point cheaper: the two versions PL p.58 states (game/squads.py, R201)
                "Booming Voice",  # an ally's commander effect of 6 squares reaches any distance (PL p.35; rules/swm/attack.py, R168)
                "Master Tactician",  # its side decides who goes first unless it rolls a 1 (PL p.53; game/initiative.py, R273)
                "Never Tell Me The Odds",  # enemy Recon does not work while it is in play (PL p.55; game/initiative.py, R253)
                # count as named with the word for the effects that name it (PL p.57, p.65, p.67; rules/swm/attack.py, R287)
                "Pilot",
                "Trooper",
                "Wookiee",
                "Black Sun",  # Grenades 10 in a squad with a Vigo or Xizor (PL p.34; rules/swm/powers.py, R288)
            }
        ),
        opportunity_ignores_targeting=True,
        disintegration_large_extra=40,
        order_66_names=("clone trooper", "arc trooper"),  # PL p.56: names with "ARC Trooper" or "Clone Trooper" (R230)
        trait_names=(("chewbacca", "Wookiee"), ("tarfful", "Wookiee")),  # PL p.67: Chewbacca and Tarfful count as Wookiees (R287)
        # PL p.34: "Nie wykonuje on także innych akcji w tej turze nawet, jeśli może wykonać dodatkowe ataki" (R410)
        betrayal_words=(N_("it takes no other action this turn, not even an extra attack it could make"), "PL p.34"),
        rend_default=None,
        power_value_defaults=False,
        tow_cable_max_size=Size.MEDIUM,
        build_points=family.BUILD_POINTS,
        faction_eras=True,
        # PL p.50: Jedi Mind Trick stuns, and its target makes no attacks of opportunity that turn
        conditions={"stunned": family.stunned("PL p.64 'stun' (treated as activated: it skips its turn)"),
                    "jedi mind trick": family.stunned("PL p.50 'Jedi Mind Trick' (stunned this round)")},
    )
)
