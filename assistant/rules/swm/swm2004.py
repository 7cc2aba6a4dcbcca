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

from ...editions import EDITION_RULES, Edition, SquareTerrain
from ...i18n import N_
from ..params import GeometryRules, MoveAndAttack, TurnRules
from ..record import EditionRecord, register_edition
from . import family

RULES = GeometryRules(
    edition=Edition.SWM2004,
    sight="corner",
    sight_rule=N_("swm2004 CS r.6, g.9 Line of Sight (corner to corner)"),
    sight_reading=N_(
        "a line may start or end on a wall corner if the open line touches nothing and does not cross the wall at its own end (reading R2 in docs/readings.md)"
    ),
    boundary_is_wall=True,
    sight_blocking=(SquareTerrain.WALL,),
    fog_ignored_when_adjacent=False,
    own_forest_transparent=False,
    cover_rule=N_("swm2004 CS r.7 Cover (lines to the target's space, CS g.13)"),
    cover_bonus=4,
    cover_squares=(SquareTerrain.WALL, SquareTerrain.LOW),
    low_objects_near_attacker_ignored=True,
    low_objects_rule=N_("swm2004 CS r.7, r.11 (low objects in or next to the attacker's square are shot over)"),
    adjacent_never_covered=True,
    adjacent_rule=N_("swm2004 CS r.7 (an adjacent enemy never has cover)"),
    occupant_cover=(SquareTerrain.LOW,),
    occupant_cover_rule=N_(
        "swm2004 CS r.7, r.11 (low objects give cover to characters standing in them; the attacker shoots over those in or next to its own square)"
    ),
    melee_cover=False,
    melee_cover_rule="",
    start_corner_rule=N_("swm2004 CS r.7, r.11; reading R1 in docs/readings.md (no shooting through the wall you stand behind)"),
    metric="diagonal_2",
    range_rule=N_("swm2004 CS g.10 Range, r.6 (count as for movement, diagonal = 2, around walls)"),
    adjacency_rule=N_("swm2004 CS r.8, g.1 (adjacent: next to it, diagonals included, with line of sight)"),
    nearest_rule=N_("swm2004 CS g.10 nearest enemy (closest enemy in line of sight; ties all count)"),
)

TURNS = TurnRules(
    edition=Edition.SWM2004,
    default_speed=6,
    # CS g.9 Mobile Attack; a later set's Greater Mobile Attack "działa tak jak Mobilny Atak" with all its attacks (PL p.48; R405)
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
    movement_abilities=("Flight",),
    move_and_attack=(MoveAndAttack("Charging Fire", 0, 12, "CS g.2 Charging Fire"),),  # "namísto normálního útoku ... až o 12 polí a zaútočit"
    cite_round=N_("CS r.5 (the round ends when every character has activated)"),
    cite_initiative=N_("CS r.5 (initiative check: d20 each, the higher decides who goes first)"),
    cite_initiative_tie=N_("CS r.5 (ties are rerolled)"),
    cite_phase=N_("CS r.5 (each player activates up to 2 characters per phase, alternating)"),
    cite_once_per_round=N_("CS r.5 (each character activates once per round)"),
    cite_turn_options=N_("CS r.5 (move 6 then attack; attack then move 6; move 12 without attacking)"),
    cite_double_move=N_("CS r.5 (move 6 and attack, or 12 without attacking)"),
    cite_split_move="CS g.9 Mobile Attack",
    cite_multi_attack="CS g.4 Double Attack, g.10 Triple Attack, g.13 Quadruple Attack",
    cite_heavy_weapon="CS g.7 Heavy Weapon",
    cite_movement=N_("CS r.5-6, r.11 (movement: walls, doors, pits, characters, diagonals)"),
    cite_diagonals=N_("CS r.5 (a diagonal costs 2 squares)"),
    cite_opportunity=N_("CS r.5-6, r.8 (attacks of opportunity)"),
    cite_doors=N_("CS r.11 (doors)"),
    cite_flight="CS g.5 Flight",
    cite_charge="",
    cite_statue="",
    cite_morale="",
    cite_victory=N_("CS r.4 (defeat all enemy characters)"),
    cite_tie_break=N_("CS r.5 (10 rounds without an attack or damage: the tie-break)"),
    cite_elimination="CS r.4",
    cite_attack_roll=N_("CS r.7 (d20 + Attack against the target's Defense; a hit deals the attacker's Damage)"),
    move_faster_squares=2,
    move_faster_splits=True,
    cite_move_faster='CS r.9 Rychlejší pohyb (Move Faster: 1 Force point, 2 more squares; "move 6, attack, pay 1, move 2 more")',
    cite_force_once='CS r.9 Jednou za tah (Force points once per turn; the Shaak Ti example)',
    cite_force_points='CS r.9 Utrácení bodů síly (Force points spent are gone until the end of the skirmish)',
)


RECORD = register_edition(
    EditionRecord(
        name="swm2004",
        family="swm",
        board=EDITION_RULES[Edition.SWM2004],
        geometry=RULES,
        turns=TURNS,
        attack=family.ATTACK,
        words=family.WORDS,
        # CS g.5: adjacent non-Droid allies have Avoid Defeat (rules/saves.py avoid_defeat_from; R290); not in the 2008 rulebook
        abilities=family.ABILITIES | {
            "Emergency Life Support",
            # later sets' abilities the 2004 rules (CS) do not name, applied in the 2008 rulebook's words
            # (reading R304), where no 2004 core rule says otherwise: one more attack on the same target
            # each time it attacks (PL p.65; R376), and no Force point spent by others to affect it, reroll
            # against it or answer it (PL p.44; R379). A Pilot special ability counts as the word in the
            # name for the effects that name Pilots (PL p.57; R381). Melee Reach, Damage Reduction,
            # Opportunist, Parry, Dark Armor, Vonduun Crab Armor and Gregarious need no record: the
            # catalogue applies them to both editions (R377, R378, R380, R382-R384, R405).
            "Twin Attack",
            "Force Immunity",
            "Pilot",
            # round 33, the same check (R403-R406): a 2004 rule names Stealth, cover, nearest, Lightsaber
            # Block and the stun (CS g.13, r.7, g.10, g.8, g.12) as the 2008 words use them
            "Force Alter",  # an enemy within 6 rerolls its attack roll (PL p.43; R403)
            "It's a Trap!",  # enemies with Stealth within 6 have none (PL p.50; R404)
            "Cloaked",  # with cover: no non-adjacent attacker, never nearest (PL p.36; R404)
            "Diplomat",  # not while a non-Diplomat enemy is in sight (PL p.39; R404)
            "Ambush",  # a move and all its attacks against one enemy not yet activated (PL p.33; R405)
            "Greater Mobile Attack",  # Mobile Attack (CS g.9) keeping all its attacks after a move (PL p.48; R405)
            "Charging Assault",  # +[#] Damage on the attack after a move of up to double speed (PL p.36; R405)
            "Splash",  # [#] to each character next to the target, save 11 (PL p.63; R406)
            "Paralysis",  # a hit on a living enemy stuns it unless it saves 11 (PL p.56; R406)
            "Djem So Style",  # an immediate attack back after a melee hit and a save of 11 (PL p.40; R406)
            "Cortosis Gauntlet",  # -20 Damage to a lightsaber enemy after a Block save of [#] (PL p.37; R406)
            "Force Sense",  # enemies lose Stealth for the round (PL p.46; R411): the attack and the game session
        },
        opportunity_ignores_targeting=False,
        disintegration_large_extra=0,
        order_66_names=("clone trooper",),  # CS g.10: names with "Clone Trooper" (R230)
        # CS g.2: "V tomto kole nemůže provádět další akce, kromě případu, že může provádět přídatný útok" (R410)
        betrayal_words=(N_("it takes no other action this round, except an extra attack it can still make"), "CS g.2"),
        rend_default=20,
        power_value_defaults=True,
        tow_cable_max_size=None,
        build_points=family.BUILD_POINTS,
        faction_eras=False,
        # CS g.12 Shockwave: "považovány za již aktivované toto kolo; v podstatě přeskakují své tahy"
        conditions={"stunned": family.stunned("CS g.12 'Shockwave' (already activated this round: it skips its turn)"),
                    # a later set's Jedi Mind Trick, in the 2008 words (PL p.50; R411): stunned, as CS g.12's is, and no attacks of opportunity
                    "jedi mind trick": family.stunned("swm2008 PL p.50 'Jedi Mind Trick' (stunned this round; reading R411)")},
    )
)
