"""What a figure may do with its turn, per edition: one :class:`TurnRules` record each.

The game sequencer (:mod:`.state`) reads only these parameters and cites only these
strings, so an SWM 2008 refusal cites the Polish 2008 rulebook, an SWM 2004 refusal the
Czech 2004 rules and a DDM refusal the DDM booklet -- never another game's.

**SWM 2008** (PL p.16): an activated character may (1) move, then attack; (2) attack, then
move; (3) move double its speed; (4) use an ability that replaces its turn. Only Mobile
Attack moves both before and after attacking (PL p.54-55). Double Attack and its kin give
more attacks only to a character that has not moved (PL p.40, p.57, p.65); Extra Attack
forbids moving (PL p.42). An enemy that leaves a square adjacent to a character may be
attacked at once, out of turn, without activating, at most once per turn (PL p.22-23).

**SWM 2004** (CS r.5): move 6 squares then attack; attack then move 6 squares; move 12 squares
without attacking. The glossary's Mobile Attack, Double Attack and Flight read as in 2008
(CS g.9, g.4, g.5); attacks of opportunity CS r.8.

**DDM 2005** (§ Aktywowanie istot p.9): a double move (up to 2x Speed, no attack); a move and
one attack in either order (not split); a full attack with no movement at all; or a charge
(§ Szarżowanie p.13). Diagonals count 1-2-1-2 over the whole turn's movement (§ Ruch p.10);
no move ends on a statue (§ Posągi); an enemy leaving the threatened area may be attacked
(§ Ataki okazyjne p.13).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..editions import Edition


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

    def cite(self, where: str) -> str:
        return f"{self.edition.value} {where}"


SWM2008 = TurnRules(
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
    cite_round="PL p.6, p.16 (a round ends when every character has activated)",
    cite_initiative="PL p.2, p.16 (initiative: d20 each, the higher chooses who goes first)",
    cite_initiative_tie="PL p.2 (ties are rerolled)",
    cite_phase="PL p.6, p.16 (each player activates up to 2 characters per phase, alternating)",
    cite_once_per_round="PL p.6 (each character activates once per round)",
    cite_turn_options="PL p.16 (move then attack; attack then move; double move; a turn-replacing ability)",
    cite_double_move="PL p.6, p.16 (up to speed and attack, or up to double speed without attacking)",
    cite_split_move="PL p.54-55 Mobile Attack",
    cite_multi_attack="PL p.40 Double Attack, p.42 Extra Attack, p.57 Quadruple Attack, p.65 Triple/Twin Attack",
    cite_heavy_weapon="PL p.49 Heavy Weapon",
    cite_movement="PL p.6-7, p.17, p.28 (movement: walls, doors, pits, characters, diagonals)",
    cite_diagonals="PL p.6-7 (a diagonal costs 2 squares)",
    cite_opportunity="PL p.22-23 (attacks of opportunity)",
    cite_doors="PL p.28 (doors)",
    cite_flight="PL p.43 Flight",
    cite_charge="",
    cite_statue="",
    cite_morale="",
    cite_victory="PL p.2, p.16 (defeat all enemy characters)",
    cite_tie_break="PL p.16 (10 rounds without an attack or damage: the tie-break)",
    cite_elimination="PL p.16",
)

SWM2004 = TurnRules(
    edition=Edition.SWM2004,
    default_speed=6,
    split_move_abilities=("Mobile Attack",),
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
    cite_round="CS r.5 (the round ends when every character has activated)",
    cite_initiative="CS r.5 (initiative check: d20 each, the higher decides who goes first)",
    cite_initiative_tie="CS r.5 (ties are rerolled)",
    cite_phase="CS r.5 (each player activates up to 2 characters per phase, alternating)",
    cite_once_per_round="CS r.5 (each character activates once per round)",
    cite_turn_options="CS r.5 (move 6 then attack; attack then move 6; move 12 without attacking)",
    cite_double_move="CS r.5 (move 6 and attack, or 12 without attacking)",
    cite_split_move="CS g.9 Mobile Attack",
    cite_multi_attack="CS g.4 Double Attack, g.10 Triple Attack, g.13 Quadruple Attack",
    cite_heavy_weapon="CS g.7 Heavy Weapon",
    cite_movement="CS r.5-6, r.11 (movement: walls, doors, pits, characters, diagonals)",
    cite_diagonals="CS r.5 (a diagonal costs 2 squares)",
    cite_opportunity="CS r.5-6, r.8 (attacks of opportunity)",
    cite_doors="CS r.11 (doors)",
    cite_flight="CS g.5 Flight",
    cite_charge="",
    cite_statue="",
    cite_morale="",
    cite_victory="CS r.4 (defeat all enemy characters)",
    cite_tie_break="CS r.5 (10 rounds without an attack or damage: the tie-break)",
    cite_elimination="CS r.4",
)

DDM2005 = TurnRules(
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
    flier_may_end_on_pit=True,
    morale=True,
    movement_abilities=("Flight", "Incorporeal"),
    cite_round="§ Rundy p.8-9 (the round ends when every creature has activated)",
    cite_initiative="§ Test inicjatywy p.8-9 (d20 + the best able commander's rating)",
    cite_initiative_tie="glossary 'tied die rolls' (the higher Commander rating wins; else reroll)",
    cite_phase="§ Fazy p.8-9 (each player activates 2 creatures per phase, alternating)",
    cite_once_per_round="§ Aktywowanie istot p.9 (each creature activates once per round)",
    cite_turn_options="§ Aktywowanie istot p.9 (double move; move and one attack; full attack without moving; charge)",
    cite_double_move="§ Aktywowanie istot p.9 (up to Speed and one attack, or up to double Speed without attacking)",
    cite_split_move="glossary Spring Attack",
    cite_multi_attack="§ Aktywowanie istot p.9 (a full attack: all attacks, no movement)",
    cite_heavy_weapon="",
    cite_movement="§ Ruch p.10 (walls, pits, enemies; allies passed, not shared)",
    cite_diagonals="§ Ruch › Przekątne p.10 (diagonals 1-2-1-2 over the whole move)",
    cite_opportunity="§ Ataki okazyjne p.13 (leaving a threatened area)",
    cite_doors="",
    cite_flight="glossary Flight",
    cite_charge="§ Szarżowanie p.13",
    cite_statue="§ Posągi, Teren p.25-27 (no creature ends its move on a statue)",
    cite_morale="§ Rzut obronny na morale p.21 (d20 + Level + the best commander rating in range >= 20)",
    cite_victory="§ Scenariusz starcia p.28 (the first warband to 200 victory points wins)",
    cite_tie_break="§ Scenariusz starcia p.28 (10 rounds without damage, attack roll or save: the tie-break)",
    cite_elimination="§ Scenariusz starcia p.28 (eliminated: destroyed or fled off the map; its cost in VP)",
)

TURN_RULES: dict[Edition, TurnRules] = {r.edition: r for r in (SWM2004, SWM2008, DDM2005)}
