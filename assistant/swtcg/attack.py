"""Star Wars TCG (2002) attacks: dice, hits, Accuracy, Armor, Shields, Critical Hit,
Lucky, Overkill, damage prevention and Evade.

The source (a Polish clarifications FAQ, digest ``swtcg.md`` §5) leaves the attack's numbers
silent. Where it does, this module uses the game's published keyword definitions (as quoted
on swtcg.com's keyword pages) and every answer says which rule came from where:

- FAQ: dice = power (Lucky Q&A, L97–104); natural 6 feeds Critical Hit, Accuracy can't make
  one (L73); Accuracy stacks (L103); Armor doesn't (L75); wasted prevention (L38); doubling
  after assignment (L107–108).
- Published keywords: a hit is a roll of 4 or more; Armor: "only hit on a roll of 5 or
  more"; Accuracy X adds X to each attack die; Shields X gives the attacker -X power against
  this unit; Critical Hit X: X more damage if at least one natural 6; Evade X: prevent up to
  X damage, once per instance of damage.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import AssistantError
from ..i18n import _, n_

FAQ = "SW TCG FAQ (Polish)"
KEYWORDS = "published SW TCG keyword definitions (swtcg.com)"
HIT_ON = 4  # published rules; the FAQ is silent on the threshold (swtcg.md §12)
ARMOR_HIT_ON = 5


class IllegalRollError(AssistantError):
    """Dice that cannot be the roll of this attack."""


@dataclass(frozen=True)
class Attack:
    """An attack as declared: the attacker's power and keywords, the defender's."""

    power: int
    accuracy: int = 0  # cumulative: the sum of every Accuracy the attacker has
    critical_hit: int = 0  # cumulative
    defender_armor: bool = False  # isolated: two sources are one Armor
    defender_shields: int = 0  # cumulative: -X power against this defender

    @property
    def dice(self) -> int:
        return max(0, self.power - self.defender_shields)

    @property
    def hit_on(self) -> int:
        return ARMOR_HIT_ON if self.defender_armor else HIT_ON


@dataclass(frozen=True)
class AttackResult:
    rolls: tuple[int, ...]
    modified: tuple[int, ...]
    hits: int
    natural_six: bool
    critical: int
    damage: int
    steps: tuple[str, ...]  # each step with the rule it applies and where that rule comes from


def resolve(attack: Attack, rolls: list[int]) -> AttackResult:
    """Score the final roll (after every reroll) of ``attack``.

    >>> r = resolve(Attack(power=3, accuracy=1, critical_hit=1), [5, 3, 6])
    >>> (r.hits, r.critical, r.damage)
    (3, 1, 4)
    """
    if len(rolls) != attack.dice:
        raise IllegalRollError(
            n_(
                "this attack rolls {dice} die (power {power} - Shields {defender_shields}), not {n} ({FAQ}, Lucky Q&A L97-104: dice = power; Shields: "
                "{KEYWORDS})",
                "this attack rolls {dice} dice (power {power} - Shields {defender_shields}), not {n} ({FAQ}, Lucky Q&A L97-104: dice = power; Shields: "
                "{KEYWORDS})",
                attack.dice,
            ).format(dice=attack.dice, power=attack.power, defender_shields=attack.defender_shields, n=len(rolls), FAQ=FAQ, KEYWORDS=KEYWORDS)
        )
    bad = [r for r in rolls if not 1 <= r <= 6]
    if bad:
        raise IllegalRollError(_("{bad} is not a roll of a six-sided die").format(bad=bad[0]))
    modified = tuple(r + attack.accuracy for r in rolls)
    hits = sum(m >= attack.hit_on for m in modified)
    six = any(r == 6 for r in rolls)  # natural: Accuracy never makes a six (FAQ L73)
    critical = attack.critical_hit if six else 0
    steps = [
        n_("{dice} die: power {power}", "{dice} dice: power {power}", attack.dice).format(dice=attack.dice, power=attack.power)
        + (_(" - Shields {shields}").format(shields=attack.defender_shields) if attack.defender_shields else "")
        + _(" ({FAQ} L97-104; Shields: {KEYWORDS})").format(FAQ=FAQ, KEYWORDS=KEYWORDS)
    ]
    if attack.accuracy:
        steps.append(
            _("Accuracy {accuracy}: +{accuracy} to each die: {rolls} -> {modified} ({FAQ} L72-73, stacks L103)").format(
                accuracy=attack.accuracy, rolls=list(rolls), modified=list(modified), FAQ=FAQ
            )
        )
    steps.append(
        _("hit on {hit_on}+").format(hit_on=attack.hit_on)
        + (_(" (defender has Armor; two sources are one Armor, FAQ L75)") if attack.defender_armor else "")
        + n_(": {hits} hit, 1 damage each ({KEYWORDS}; damage per hit: {FAQ} L107-108)",
             ": {hits} hits, 1 damage each ({KEYWORDS}; damage per hit: {FAQ} L107-108)", hits).format(hits=hits, KEYWORDS=KEYWORDS, FAQ=FAQ)
    )
    if attack.critical_hit:
        steps.append(
            _("Critical Hit {critical_hit}: ").format(critical_hit=attack.critical_hit)
            + (_("a natural 6 was rolled, +{critical} damage").format(critical=critical) if six else _("no natural 6, no extra damage"))
            + _(" ({KEYWORDS}; Accuracy can't make a natural 6, {FAQ} L73)").format(KEYWORDS=KEYWORDS, FAQ=FAQ)
        )
    return AttackResult(tuple(rolls), modified, hits, six, critical, hits + critical, tuple(steps))


def lucky_rerolls(lucky: int, attacker_power: int) -> int:
    """Dice a Lucky user must reroll: all of Lucky X, but never more than the attacker's power
    (FAQ L97-104; the same whether the attacker or the defender uses it)."""
    return min(lucky, attacker_power)


def overkill(hits: int, defender_remaining: int) -> tuple[int, int]:
    """Overkill: hits beyond the defender's *remaining* health may go to another unit in the
    arena (FAQ L106-108). Returns (to the defender, to another unit)."""
    to_defender = min(hits, defender_remaining)
    return to_defender, hits - to_defender


def prevent(damage: int, prevention: list[int]) -> tuple[int, int, int]:
    """Apply prevention effects in order; prevention beyond the damage is wasted (FAQ L38).
    Returns (damage left, prevented, wasted). ``prevent(2, [5])`` is ``(0, 2, 3)``."""
    left, prevented, wasted = damage, 0, 0
    for p in prevention:
        used = min(p, left)
        left -= used
        prevented += used
        wasted += p - used
    return left, prevented, wasted


def destroyed(damage: int, health: int) -> bool:
    """A unit goes to the discard pile at damage >= health (reading R10 in docs/readings.md: the FAQ's pilot text says
    "more than"; Overkill's example treats equal as full -- a judge may rule otherwise)."""
    return damage >= health
