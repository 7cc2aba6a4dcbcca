"""What the two Star Wars Miniatures editions share: the attack model and its words.

The SWM attack (``shared/rules/swm.md`` §6-8): d20 + Attack + modifiers against Defense +
cover + modifiers, a Force point rerolling the attack roll; saves are a d20 against a number.
"""

from __future__ import annotations

from ...i18n import N_
from ..record import AttackModel, ConditionRule, Words


def stunned(rule: str) -> ConditionRule:
    """The condition both SWM editions apply (reading R163): a stunned character is treated as
    activated and skips its turn, and makes no attacks of opportunity (`game/referee.py`); ``rule``:
    where the edition's own rulebook says it."""
    return ConditionRule(rule, no_move=True, no_attack=True, inactive=True)


ATTACK = AttackModel(
    family="swm",
    attack="assistant.rules.swm.attack:swm_attack",
    power="assistant.rules.swm.powers:swm_answer",
    force_reroll=True,
    modelled_conditions=frozenset(),
    opportunity_kind=None,
    save_adds_level=False,
)

WORDS = Words(
    defense=N_("Defense"),
    clear_line=N_("a clear line runs from {p} in {a}'s space to {q} in {t}'s space, touching no wall or closed door"),
    blocked_line=N_("every line from {a}'s space to {t}'s touches a wall or closed door; the line between the centres touches {blocker}"),
)

#: abilities both SWM rulebooks give, that the game session applies only in SWM
ABILITIES = frozenset({
    "Intuition", "Tow Cable", "Emplacement", "Mercenary", "Wheeled", "Wheel Form", "Accelerate", "Avoid Defeat",
    # the attack advisor (rules/swm/attack.py): Force powers both rulebooks give (PL p.52, p.62; CS g.8-9, g.12; R228)
    "Sith Rage", "Lightsaber Precision", "Lightsaber Riposte",
    # the game session: Force points on activating (PL p.46; CS g.6; game/effects.py, R229)
    "Force Renewal",
    # the game session: a side's initiative reroll once the roll is settled (PL p.33; CS g.1; game/initiative.py, R289)
    "Anticipation",
    # the initiative roll: two d20s, the higher kept, while a Recon figure sees an enemy (PL p.58; CS g.10; game/initiative.py, R253)
    "Recon",
    # the end of its turn: [#] damage removed when it did not move (PL p.59; CS g.10-11; game/effects.py, R254)
    "Regeneration",
})

#: the points a squad may cost
BUILD_POINTS = 100
