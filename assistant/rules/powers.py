"""Powers that hurt (Star Wars Miniatures): Force powers and the special abilities used in place of
attacks (Grenades, Flamethrower ...): who may be chosen, what it costs, what it deals.

``attack ATTACKER TARGET --power NAME`` answers a power the way ``attack`` answers an attack:
whether the target may be chosen (range, sight, the targeting rules where the power says so),
the Force points it costs against those the user has, whether a roll is made (most powers are
"not an attack and need no attack roll"), the save the target makes, and the damage each
character takes, through the reductions that work on any damage (Damage Reduction, Dark Armor,
Vonduun Crab Armor, Shields; saves.py). Abilities that avoid a *hit* (Parry, Evade, ...) do not
apply: no hit is made.

Each power below is the rulebook's entry, cited; ``[#]`` is the number written after the name
on the card (``Force Grip 20``), else the rulebook's fixed version (``Force Lightning 2``).

This module holds the power catalogue, the answer's shape and :func:`answer`, which runs the
power model the edition's record names: the SWM one is :mod:`.swm.powers`, the DDM one (spells)
:mod:`.ddm.powers`; this module never imports them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from ..cards import SwmCard, split_ability
from ..editions import Edition
from ..errors import AssistantError
from ..i18n import N_, _
from ..model import Figure, Position
from .attack import _abilities, _cite, attack, moved_refusals
from .engine import Reason
from .record import find_edition

#: who a power strikes: the target; the target and two characters next to it; the target and all
#: next to it; the target and the living enemies next to it; every enemy in sight; every character
#: next to the user; every character (or enemy) within ``radius`` squares of the user
Area = Literal["target", "target+2", "target+adjacent", "target+adjacent-living", "target+adjacent-living-enemies", "enemies-in-sight",
               "around-user", "enemies-around-user", "within", "enemies-within"]
#: areas centred on the user: the TARGET named is one of those struck
AROUND_USER = ("around-user", "enemies-around-user", "within", "enemies-within")


@dataclass(frozen=True)
class Power:
    """A power or special ability that deals damage, as its rulebook entry states it."""

    name: str  # as the card names it, without its [#]
    cost: int  # Force points; 0: a special ability, not a Force power
    damage: int | None  # fixed damage; None: the card's [#]
    area: Area
    targeting: bool  # "subject to all the targeting rules" (else: any enemy within range)
    reach: int | None  # the target within this many squares (counted around walls); None: in line of sight
    replaces: Literal["attacks", "turn", "nothing"]
    save_halves: int | None = None  # a save of this number halves the damage (Force Thrust)
    save_avoids: int | None = None  # each character struck avoids all of it with this save (Grenades)
    stun_save: int | None = None  # each character struck is stunned unless it saves this (Force Lightning 4)
    stun_huge: bool = True  # False: Huge and larger are not stunned (Thud Bug)
    push: int = 0  # squares a Huge or smaller character is pushed
    only: Literal["", "droid-or-mounted", "mounted", "huge-or-mounted-large"] = ""
    attack_roll: bool = False  # Lightsaber Throw: an attack, not damage without a roll
    numbered: bool = False  # the card's number names the family's own entry (Lightsaber Throw 2, 5), never a damage
    sight: bool = True  # False: no line of sight needed (Force Burst, Kouhun Infestation)
    living: bool = False  # only living characters are struck
    radius: int = 0  # "within"/"enemies-within": squares from the user
    heals: bool = False  # Drain Life: the user removes as much of its own damage as it deals
    after_ally_defeat: bool = False  # Unleash the Force: only after an ally with a Force rating is defeated
    attacks_each: int = 0  # attacks (with the user's Attack and Damage) against each one struck: Lightsaber Sweep
    adjacent: bool = False  # the target next to the user
    allies_too: bool = False  # an ally may be chosen (Homicidal Surgery)
    stun_nonliving: bool = False  # only nonliving Large or smaller characters are stunned (Atlatl)
    effect: str = "stunned"  # what the save of stun_save avoids
    effect_spares: tuple[str, ...] = ()  # who ignores the effect: "Mounted Weapon" (Net Gun)
    rule: str = ""
    editions: tuple[str, ...] = ("swm2004", "swm2008")


S04, S08 = ("swm2004",), ("swm2008",)
#: a later set's power the 2004 rules (CS) do not name, played under them in the 2008 rulebook's words
#: where no 2004 rule says otherwise (reading R304; R407-R409)
SWM = ("swm2004", "swm2008")
POWERS: tuple[Power, ...] = (
    Power("Force Lightning", 2, None, "target+2", True, 6, "attacks", rule="PL p.45", editions=S08),
    Power("Force Lightning 1", 1, 20, "target", False, 6, "attacks", rule="PL p.45", editions=S08),
    Power("Force Lightning 2", 2, 30, "target+2", True, 6, "attacks", rule="PL p.45", editions=S08),
    Power("Force Lightning 4", 4, 50, "target", False, 6, "attacks", stun_save=16, rule="PL p.45", editions=S08),
    # the 2004 rules print it once, with its number, and spell it "Lighting" (CS g.6)
    Power("Force Lightning", 2, 30, "target+2", True, 6, "attacks", rule="CS g.6", editions=S04),
    Power("Force Lighting", 2, 30, "target+2", True, 6, "attacks", rule="CS g.6", editions=S04),
    Power("Force Grip", 1, None, "target", True, None, "attacks", rule="PL p.44; CS g.5-6"),
    Power("Force Grip 3", 4, 40, "target", True, None, "attacks", rule="PL p.44", editions=S08),
    Power("Force Strike", 1, None, "target", False, 6, "attacks", only="droid-or-mounted", rule="PL p.47; CS g.6"),
    Power("Force Thrust", 1, None, "target", False, 6, "attacks", save_halves=11, rule="PL p.47; CS g.6"),
    Power("Force Push 2", 2, 20, "target", False, 6, "attacks", push=2, rule="PL p.45", editions=SWM),
    Power("Force Push 3", 3, 30, "target+adjacent", True, 6, "turn", push=3, rule="PL p.45-46", editions=SWM),
    # "works like Force Push 2 but 40 damage to one enemy in line of sight, pushed 4 squares" (PL p.46, reading R328)
    Power("Force Push 4", 4, 40, "target", False, None, "attacks", push=4, rule="PL p.46", editions=SWM),
    # "works like Force Push 3 but 50 damage, pushed 5 squares, [those pushed] stunned; save 16" (PL p.46)
    Power("Force Push 5", 5, 50, "target+adjacent", True, 6, "turn", push=5, stun_save=16, rule="PL p.46", editions=SWM),
    Power("Lightsaber Throw", 1, None, "target", False, 6, "attacks", attack_roll=True, numbered=True, rule="PL p.52", editions=SWM),
    # "może wykonać dwa ataki przeciwko temu samemu wrogowi w zasięgu 6 pól" (PL p.53; reading R408)
    Power("Lightsaber Throw 2", 2, None, "target", False, 6, "attacks", attack_roll=True, attacks_each=2, rule="PL p.53", editions=SWM),
    # "wybiera wroga w zasięgu linii wzroku, nawet jeśli posiada osłonę i nie jest najbliższym wrogiem ... dwa ataki przeciwko
    # wybranemu wrogowi oraz dwa dodatkowe ataki przeciwko każdej sąsiadującej z nią postaci" (PL p.53; reading R408)
    Power("Lightsaber Throw 5", 5, None, "target+adjacent", False, None, "turn", attack_roll=True, attacks_each=2, rule="PL p.53",
          editions=SWM),
    Power("Sith Lightning", 2, None, "target", False, 6, "attacks", rule="PL p.62", editions=S08),
    Power("Sith Lightning", 2, 30, "target", False, 6, "attacks", rule="CS g.12", editions=S04),
    Power("Sith Lighting", 2, 30, "target", False, 6, "attacks", rule="CS g.12", editions=S04),
    Power("Sith Grip", 2, None, "enemies-in-sight", True, None, "attacks", rule="PL p.61", editions=S08),
    Power("Sith Grip", 2, 20, "target", True, None, "attacks", rule="CS g.12", editions=S04),
    Power("Sith Hatred", 1, 10, "enemies-within", False, None, "nothing", radius=2, rule="PL p.61", editions=S08),
    Power("Force Storm", 2, None, "around-user", False, None, "attacks", rule="PL p.46", editions=S08),
    Power("Force Storm 2", 2, 20, "around-user", False, None, "attacks", rule="PL p.46", editions=S08),
    # the Czech text drops "adjacent" (reading R39)
    Power("Force Storm", 2, 20, "around-user", False, None, "attacks", rule="CS g.6; reading R39 in docs/readings.md", editions=S04),
    Power("Force Burst", 2, 10, "within", False, None, "turn", sight=False, radius=6, rule="PL p.43; CS g.5"),
    Power("Force Repulse 2", 2, 20, "within", False, None, "attacks", radius=2, push=3, rule="PL p.46", editions=SWM),
    Power("Force Repulse 3", 3, 30, "within", False, None, "turn", radius=3, push=4, stun_save=11, rule="PL p.46", editions=SWM),
    Power("Force Repulse 5", 5, 50, "within", False, None, "turn", radius=5, push=6, stun_save=16, rule="PL p.46", editions=SWM),
    Power("Unleash the Force", 4, None, "within", False, None, "attacks", radius=6, save_halves=11, after_ally_defeat=True,
          rule="PL p.66", editions=S08),
    Power("Sith Hunger", 1, None, "target", False, 6, "attacks", living=True, heals=True, rule="PL p.61", editions=S08),
    Power("Lightsaber Sweep", 1, None, "enemies-around-user", False, None, "attacks", attacks_each=1, rule="PL p.52; CS g.9"),
    Power("Lightsaber Assault", 1, None, "target", False, None, "attacks", attacks_each=2, adjacent=True, rule="PL p.52; CS g.8"),
    Power("Whirlwind Attack", 1, None, "enemies-around-user", False, None, "turn", attacks_each=2, rule="PL p.66-67; CS g.14"),
    # no damage: a save against an effect
    Power("Jedi Mind Trick", 1, 0, "target", False, 2, "nothing", living=True, stun_save=11,
          effect=N_("stunned this round, with no attacks of opportunity this turn"), rule="PL p.50", editions=SWM),
    Power("Force Stun", 1, 0, "target", False, 6, "nothing", living=True, stun_save=11, effect=N_("counted as activated this round"),
          rule="PL p.47", editions=SWM),
    Power("Shockwave", 2, 0, "within", False, None, "attacks", radius=6, stun_save=11, rule="PL p.61", editions=S08),
    # 2004: "považovány za již aktivované toto kolo; v podstatě přeskakují své tahy" (CS g.12)
    Power("Shockwave", 2, 0, "within", False, None, "attacks", radius=6, stun_save=11, effect=N_("counted as activated this round"),
          rule="CS g.12", editions=S04),
    Power("Sith Sorcery", 2, 0, "enemies-within", False, None, "nothing", radius=6, stun_save=11, rule="PL p.62", editions=SWM),
    Power("Drain Life", 1, None, "target", False, 6, "nothing", living=True, save_avoids=11, heals=True, rule="PL p.41", editions=S08),
    Power("Drain Life 3", 3, 20, "target+adjacent-living-enemies", False, 6, "nothing", living=True, save_avoids=11, heals=True,
          rule="PL p.41", editions=S08),
    # special abilities: no Force points
    Power("Grenades", 0, None, "target+adjacent", True, 6, "attacks", save_avoids=11, rule="PL p.48; CS g.7"),
    Power("Missiles", 0, None, "target+adjacent", True, None, "attacks", save_avoids=11, rule="PL p.54; reading R40 in docs/readings.md",
          editions=SWM),
    Power("Flamethrower", 0, None, "target+adjacent", True, 6, "attacks", rule="PL p.42; CS g.5"),
    Power("Atlatl", 0, None, "target+adjacent", True, 6, "attacks", save_avoids=11, stun_save=11, stun_nonliving=True, rule="PL p.34",
          editions=S08),
    Power("Cesta", 0, None, "target+adjacent", True, None, "attacks", save_avoids=11, stun_save=11, stun_nonliving=True, rule="PL p.35",
          editions=S08),
    Power("Sonic Stunner", 0, 0, "target+adjacent-living", True, 6, "attacks", living=True, stun_save=11, stun_huge=False,
          rule="PL p.62", editions=S08),
    Power("Net Gun", 0, 0, "target+adjacent", True, 6, "attacks", stun_save=11, stun_huge=False, effect_spares=("Mounted Weapon",),
          rule="PL p.55", editions=S08),
    Power("Harpoon Gun", 0, 0, "target", False, 6, "attacks", only="mounted", stun_save=11, effect=N_("unable to move this round"),
          rule="PL p.48", editions=S08),
    Power("Demolition Charge", 0, 0, "target", False, None, "turn", adjacent=True, only="huge-or-mounted-large", stun_save=6,
          effect=N_("defeated"), rule="PL p.39", editions=S08),
    Power("Plaeryin Bol", 0, 40, "target", False, None, "turn", adjacent=True, save_avoids=11, rule="PL p.57", editions=S08),
    Power("Homicidal Surgery", 0, 10, "target", False, None, "turn", adjacent=True, living=True, allies_too=True, rule="PL p.49",
          editions=S08),
    Power("Spit Poison", 0, None, "target", True, 6, "attacks", living=True, save_avoids=11, rule="PL p.63", editions=S08),
    Power("Razorbug", 0, 10, "target", True, None, "attacks", save_avoids=11, rule="PL p.58", editions=SWM),
    Power("Thud Bug", 0, 10, "target", False, 6, "attacks", living=True, save_avoids=11, stun_save=11, stun_huge=False, rule="PL p.64",
          editions=SWM),
    Power("Virulent Poison Dart", 0, 40, "target", True, 6, "turn", save_avoids=16, rule="PL p.66", editions=S08),
    Power("Kouhun Infestation", 0, 60, "target", False, 12, "turn", sight=False, living=True, save_avoids=11, rule="PL p.51", editions=S08),
    Power("Kouhun Infestation", 0, 60, "target", False, 12, "turn", sight=False, save_avoids=11, rule="CS g.8", editions=S04),
)

#: the fixed [#] where the 2004 rulebook prints the power with one number (CS g.5-7)
DEFAULT_VALUE_2004 = {"Force Grip": 10, "Force Strike": 30, "Force Thrust": 20, "Grenades": 10, "Flamethrower": 10}


def unanswered(text: str, edition: str) -> bool | None:
    """Whether a damaging power's name as a card writes it is one no entry here answers in
    ``edition``, with or without a number the player gives: "Net Gun 11" (the rulebook's Net Gun
    prints none), "Force Push 1" and a bare "Force Push" (the rulebook prints Force Push 2 to 5);
    None where the edition knows no power of that name (reading R328).

    >>> [unanswered(t, "swm2008") for t in ("Net Gun 11", "Net Gun", "Force Push 1", "Force Push 4", "Force Grip 1", "Stealth")]
    [True, False, True, False, False, None]
    >>> unanswered("Sith Hatred", "swm2004") is None, unanswered("Force Push 1", "swm2004")  # a later set's Force Push: the 2008 words (R407)
    (True, True)
    """
    base, value = split_ability(text)
    entries = [p for p in POWERS if edition in p.editions]
    if any(p.name.lower() == " ".join(text.split()).lower() for p in entries):
        return False
    same = [p for p in entries if p.name.lower() == base.lower()]
    if same:  # a [#] power (Force Grip: any number) or one with its number fixed (Net Gun: none)
        return not any(_takes(p, value) for p in same)
    if any(split_ability(p.name)[0].lower() == base.lower() for p in entries):
        return True  # a numbered family (Force Push 2-5) without this number
    return None


def _takes(power: Power, value: int | None) -> bool:
    """Does ``power`` answer a card that writes it with ``value``: any number for a [#] power (Force Grip),
    its own or none for one with a fixed number, none for a family whose numbers are entries of their
    own (Lightsaber Throw 3 is no Lightsaber Throw: the rulebook prints 2 and 5; reading R408)."""
    if power.numbered:
        return value is None
    return power.damage is None or value in (None, power.damage)


def find(pos: Position, user: Figure, name: str, abilities: tuple[str, ...]) -> tuple[Power, int | None, str]:
    """The power ``name`` (as asked: "Force Grip", "force lightning 2") that ``user`` has, with its
    [#] and the name its card gives it. Refused clearly when unknown or not the user's."""
    ed = pos.edition.value
    wanted = " ".join(name.split()).lower()
    card = pos.card_of(user)
    written = list(dict.fromkeys([*abilities, *([p.name for p in card.force_powers] if isinstance(card, SwmCard) and card.force_powers else [])]))
    for exact in (True, False):  # "Force Grip 3" is its own power before it is Force Grip with [#] 3
        for text in written:
            base, value = split_ability(text)
            for power in POWERS:
                if ed not in power.editions:
                    continue
                hit = text.strip().lower() == power.name.lower() if exact else (base.lower() == power.name.lower() and _takes(power, value))
                if hit and wanted in (text.strip().lower(), base.lower(), power.name.lower()):
                    return power, (power.damage if power.damage is not None else value), text.strip()
    given = _number_given(pos, name, written)
    if given is not None:
        return given
    names = [p.name for p in POWERS if ed in p.editions]
    # a power known by its name, asked with a number (the card's damage, "Force Grip 20") or
    # without, that the figure lacks is "has no", not "not a power the assistant answers"
    asked = {wanted, split_ability(wanted)[0].lower()}
    if not any(asked & {p.name.lower(), split_ability(p.name)[0].lower()} for p in POWERS):
        raise AssistantError(_("{power!r} is not a damaging power the assistant answers ({names})").format(power=name, names=", ".join(names)))
    on_card = [t for t in written if wanted in (t.strip().lower(), split_ability(t)[0].lower())]
    if on_card:  # the card has it, as the data writes it, and no rulebook entry here fits that (R328)
        raise AssistantError(_("{user}'s {power}: on its card, not modelled as a power the assistant answers (it answers {names})").format(
            user=user.id, power=", ".join(on_card), names=", ".join(names)))
    raise AssistantError(_("{user} has no {power} (its powers: {have})").format(user=user.id, power=name, have=", ".join(written) or _("none")))


def _number_given(pos: Position, name: str, written: list[str]) -> tuple[Power, int, str] | None:
    """A power whose [#] the question gives because the figure's card, as the data has it, names
    the power without one ("Force Grip 20" asked of a figure the Minis database lists with "Force
    Grip": the database keeps the powers' names, not their numbers), or with a number that is no
    damage ("Force Grip 2": its level or Force cost, reading R113). The number is the card's, read
    off it by the player, never one the assistant chooses; where the rulebook fixes the number
    (swm2004's Force Grip: 10), the rulebook's stands and no other is taken."""
    base, asked = split_ability(" ".join(name.split()))
    if asked is None or asked <= 0:
        return None
    fixed = find_edition(pos.edition).power_value_defaults
    if any(power.name.lower() == f"{base} {asked}".lower() and pos.edition.value in power.editions for power in POWERS):
        return None  # "Force Grip 3" is a power of its own (swm2008 PL p.44), not Force Grip with [#] 3
    for text in written:
        card_base, card_value = split_ability(text)
        if (card_value is not None and card_value % 10 == 0) or card_base.lower() != base.lower():
            continue  # a card's number in tens is its damage, and stands
        for power in POWERS:
            if (pos.edition.value in power.editions and power.name.lower() == base.lower() and power.damage is None and not power.numbered
                    and not (fixed and power.name in DEFAULT_VALUE_2004)):
                return power, asked, f"{card_base} {asked}"
    return None


@dataclass(frozen=True)
class Struck:
    """One character a power hurts: the damage written, and what it is expected to deal."""

    figure: str
    damage: int
    expected: float
    steps: tuple[Any, ...]
    on_save: int | None = None  # DDM: what a made save leaves (half rounded down to 5, then Resist)

    def as_json(self) -> dict[str, Any]:
        return {"figure": self.figure, "damage": self.damage, "expected_damage": self.expected,
                "reductions": [s.as_json() for s in self.steps], **({"damage_on_save": self.on_save} if self.on_save is not None else {})}


@dataclass(frozen=True)
class PowerAnswer:
    rules: Edition
    user: str
    target: str
    power: str
    legal: bool | None  # None: only the table can tell (a DDM area's template at its edge); ``undecided`` says why
    illegal_reasons: tuple[Reason, ...]
    cost: int
    force_left: int | None
    roll: str  # "none" or "attack"
    save: dict[str, Any] | None
    struck: tuple[Struck, ...]
    notes: tuple[Reason, ...]
    rule: str
    replaces: str = "attacks"  # its place in the turn: "attacks", "turn" or "nothing"
    heals: bool = False  # the user removes as much of its own damage as it deals
    undecided: tuple[Reason, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "query": "power", "rules": self.rules.value, "attacker": self.user, "target": self.target, "power": self.power,
            "legal": self.legal, "illegal_reasons": [r.as_json() for r in self.illegal_reasons], "force_cost": self.cost,
            "force_left": self.force_left, "roll": self.roll, "save": self.save,
            "damage": self.struck[0].damage if self.struck and self.legal is True else 0,
            "expected_damage": self.struck[0].expected if self.struck and self.legal is True else 0.0,
            # a refused power strikes nobody; whom it would strike, were a judge to override, is said apart
            "struck": [s.as_json() for s in self.struck] if self.legal is True else [],
            **({} if self.legal is True else {"if_overridden": [s.as_json() for s in self.struck]}),
            "notes": [n.as_json() for n in self.notes], "rule": self.rule,
            **({"undecided": [r.as_json() for r in self.undecided]} if self.undecided else {}),
        }


def use_power(pos: Position, user_id: str, target_id: str, name: str, *, moved: bool = False) -> PowerAnswer:
    """``attack USER TARGET --power NAME``: the power's answer, with the attack's targeting rules.
    ``moved``: the user moved this turn, so a power that replaces the whole turn is refused (the
    one rule of :func:`assistant.rules.attack.moved_refusals`)."""

    def refusals(t: Figure) -> list[Reason]:
        return list(attack(pos, user_id, t.id, for_power=True).illegal_reasons)

    user = pos.figure(user_id)
    found = answer(pos, user, pos.figure(target_id), name, abilities_of=lambda f: _abilities(pos, f),
                   cite=lambda where: _cite(pos, where), legal_target=lambda: refusals(pos.figure(target_id)), refusals_of=refusals,
                   attack_expected=lambda f: attack(pos, user_id, f.id, for_power=True).as_json()["expected_damage"])
    # a power made of attacks (Lightsaber Sweep) is attacking too: Heavy Weapon forbids it after a move
    refused = moved_refusals(pos, user, moved=moved, takes_turn=found.power if found.replaces == "turn" else None, attacking=found.roll == "attack")
    if refused:
        found = replace(found, legal=False, illegal_reasons=(*found.illegal_reasons, *refused))
    return found


def answer(pos: Position, user: Figure, target: Figure, name: str, *, abilities_of: Callable[[Figure], tuple[str, ...]],
           cite: Callable[[str], str], legal_target: Callable[[], list[Reason]],
           refusals_of: Callable[[Figure], list[Reason]] | None = None, attack_expected: Callable[[Figure], float] | None = None) -> PowerAnswer:
    """Everything about ``user`` using the power ``name`` on ``target``. ``legal_target`` gives the
    attack's targeting refusals (line of sight, cover and nearest, adjacent enemies first), for
    the powers subject to the targeting rules; ``refusals_of`` the same for any other enemy (a
    power that strikes every enemy in sight strikes only the legal targets among them).

    The edition's family chooses how a power is answered (its attack model), never its name."""
    run = find_edition(pos.edition).attack.run_power()
    found: PowerAnswer = run(pos, user, target, name, abilities_of=abilities_of, cite=cite, legal_target=legal_target,
                             refusals_of=refusals_of, attack_expected=attack_expected)
    return found
