"""What D&D Miniatures editions share: the attack model and its words.

The DDM attack (``shared/rules/ddm.md`` §5-7): d20 + attack bonus against AC, with the melee and
ranged modifier tables (charge, flanking, stunned, helpless, target in melee, cover); a save is
d20 + Level against a DC.
"""

from __future__ import annotations

from ...i18n import N_
from ..record import AttackModel, ConditionRule, Words

#: the conditions that leave a creature helpless (the melee attack's automatic hit, double damage)
HELPLESS = frozenset({"helpless", "paralyzed", "sleeping", "asleep"})

#: every condition the engine applies in DDM (reading R163), with the rule: the helpless ones
#: (the attack's modifiers), stunned (-2 AC), the ones that leave a creature not active (glossary
#: 'active': "nie ucieka, nie śpi, nie jest ogłuszona, sparaliżowana lub bezradna": no threatened
#: area, no flanking, no attacks of opportunity, no commanding) and confused (active, but no attacks
#: of opportunity and no commanding: R185); routing is what a failed morale save gives; invisible:
#: only Blindsight sees it (the attack, attacks of opportunity)
CONDITIONS = {
    # "nie może się ruszać, atakować oraz używać zdolności specjalnych zastępujących ruch lub ataki"
    "stunned": ConditionRule("glossary 'Stun/stunned'", no_move=True, no_attack=True, inactive=True),
    "helpless": ConditionRule("glossary 'helpless'", no_move=True, no_attack=True, inactive=True),
    "paralyzed": ConditionRule("glossary 'Paralysis' (helpless: it can do nothing)", no_move=True, no_attack=True, inactive=True),
    "sleeping": ConditionRule("glossary 'Sleep' (helpless)", no_move=True, no_attack=True, inactive=True),
    "asleep": ConditionRule("glossary 'Sleep' (helpless)", no_move=True, no_attack=True, inactive=True),
    # "Nie mogą atakować, rzucać czarów ..." -- it moves only as it flees
    "routing": ConditionRule("§ Ucieczka p.21-22 (Co może zrobić uciekająca istota)", no_attack=True, inactive=True),
    # "Zagubiona istota nie może wykonywać ataków okazyjnych. Zagubiony dowódca nie może dowodzić ...,
    # a jego Wpływ Dowodzenia nie działa"; its d20 table decides what it does: not modelled
    "confused": ConditionRule("glossary 'Confusion'", no_reactions=True, at_activation=N_(
        "roll a d20 on the Confusion table: 1-5 a random opponent controls it this turn, 6-15 it does nothing, "
        "16-20 its player controls it; not modelled: record what it does")),
    "invisible": ConditionRule("glossary 'Invisible'"),
}

ATTACK = AttackModel(
    family="ddm",
    attack="assistant.rules.ddm.attack:ddm_attack",
    power="assistant.rules.ddm.powers:ddm_answer",
    force_reroll=False,
    # invisible: Conceal 11, +2, Blindsight (attack.py `_invisible`); confused is listed as not
    # modelled: what it does in its turn is its d20 table's (only its commanding no one is applied)
    modelled_conditions=frozenset(CONDITIONS) - {"confused"},
    opportunity_kind="melee",
    save_adds_level=True,
)

WORDS = Words(
    defense=N_("AC"),
    clear_line=N_("a clear line runs from {p} in {a}'s space to {q} in {t}'s space, touching no wall, fog or forest"),
    blocked_line=N_("every line from {a}'s space to {t}'s touches a wall, fog or forest; the line between the centres touches {blocker}"),
)

#: abilities the DDM glossary gives, that the game session applies only in DDM
ABILITIES = frozenset({
    "Burrow", "Trample", "Sidestep", "Ghost Step", "Slow Attack", "Slow Melee Attack", "Slow Ranged Attack",
})

#: the points a warband may cost
BUILD_POINTS = 200
