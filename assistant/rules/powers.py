"""Force powers that hurt (Star Wars Miniatures): who may be chosen, what it costs, what it deals.

``attack ATTACKER TARGET --power NAME`` answers a power the way ``attack`` answers an attack:
whether the target may be chosen (range, sight, the targeting rules where the power says so),
the Force points it costs against those the user has, whether a roll is made (most powers are
"not an attack and need no attack roll"), the save the target makes, and the damage each
character takes, through the reductions that work on any damage (Damage Reduction, Dark Armor,
Vonduun Crab Armor, Shields; saves.py). Abilities that avoid a *hit* (Parry, Evade, ...) do not
apply: no hit is made.

Each power below is the rulebook's entry, cited; ``[#]`` is the number written after the name
on the card (``Force Grip 20``), else the rulebook's fixed version (``Force Lightning 2``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ..abilities import has
from ..cards import SwmCard, split_ability
from ..editions import Edition
from ..errors import AssistantError
from ..i18n import _
from ..model import Figure, Position
from . import engine, saves
from .engine import Reason

Area = Literal["target", "target+2", "target+adjacent"]


@dataclass(frozen=True)
class Power:
    """A damaging Force power as its rulebook entry states it."""

    name: str  # as the card names it, without its [#]
    cost: int  # Force points
    damage: int | None  # fixed damage; None: the card's [#]
    area: Area  # who takes it: the target; the target and two characters next to it; the target and all next to it
    targeting: bool  # "subject to all the targeting rules" (else: any enemy within range)
    range_6: bool  # within 6 squares (else: in line of sight)
    replaces: Literal["attacks", "turn"]
    save_halves: int | None = None  # a save of this number halves the damage (Force Thrust)
    stun_save: int | None = None  # the target is stunned unless it saves this (Force Lightning 4)
    push: int = 0  # squares a Huge or smaller character is pushed
    only: Literal["", "droid-or-mounted"] = ""
    attack_roll: bool = False  # Lightsaber Throw: an attack, not damage without a roll
    rule: str = ""
    editions: tuple[str, ...] = ("swm2004", "swm2008")


POWERS: tuple[Power, ...] = (
    Power("Force Lightning", 2, None, "target+2", True, True, "attacks", rule="PL p.45", editions=("swm2008",)),
    Power("Force Lightning 1", 1, 20, "target", False, True, "attacks", rule="PL p.45", editions=("swm2008",)),
    Power("Force Lightning 2", 2, 30, "target+2", True, True, "attacks", rule="PL p.45", editions=("swm2008",)),
    Power("Force Lightning 4", 4, 50, "target", False, True, "attacks", stun_save=16, rule="PL p.45", editions=("swm2008",)),
    Power("Force Grip", 1, None, "target", True, False, "attacks", rule="PL p.44; CS g.5-6"),
    Power("Force Grip 3", 4, 40, "target", True, False, "attacks", rule="PL p.44", editions=("swm2008",)),
    Power("Force Strike", 1, None, "target", False, True, "attacks", only="droid-or-mounted", rule="PL p.47; CS g.6"),
    Power("Force Thrust", 1, None, "target", False, True, "attacks", save_halves=11, rule="PL p.47; CS g.6"),
    Power("Force Push 2", 2, 20, "target", False, True, "attacks", push=2, rule="PL p.45", editions=("swm2008",)),
    Power("Force Push 3", 3, 30, "target+adjacent", True, True, "turn", push=3, rule="PL p.45-46", editions=("swm2008",)),
    Power("Lightsaber Throw", 1, None, "target", False, True, "attacks", attack_roll=True, rule="PL p.52", editions=("swm2008",)),
)

#: the fixed [#] where the 2004 rulebook prints the power with one number (CS g.5-6)
DEFAULT_VALUE_2004 = {"Force Grip": 10, "Force Strike": 30, "Force Thrust": 20}


def find(pos: Position, user: Figure, name: str, abilities: tuple[str, ...]) -> tuple[Power, int | None, str]:
    """The power ``name`` (as asked: "Force Grip", "force lightning 2") that ``user`` has, with its
    [#] and the name its card gives it. Refused clearly when unknown or not the user's."""
    ed = pos.rules.value
    wanted = " ".join(name.split()).lower()
    card = pos.card_of(user)
    written = list(dict.fromkeys([*abilities, *([p.name for p in card.force_powers] if isinstance(card, SwmCard) and card.force_powers else [])]))
    for exact in (True, False):  # "Force Grip 3" is its own power before it is Force Grip with [#] 3
        for text in written:
            base, value = split_ability(text)
            for power in POWERS:
                if ed not in power.editions:
                    continue
                hit = text.strip().lower() == power.name.lower() if exact else (base.lower() == power.name.lower() and power.damage is None)
                if hit and wanted in (text.strip().lower(), base.lower(), power.name.lower()):
                    return power, (power.damage if power.damage is not None else value), text.strip()
    names = [p.name for p in POWERS if ed in p.editions]
    if not any(wanted in (p.name.lower(), p.name.lower().rsplit(" ", 1)[0]) for p in POWERS):
        raise AssistantError(_("{power!r} is not a damaging power the assistant answers ({names})").format(power=name, names=", ".join(names)))
    raise AssistantError(_("{user} has no {power} (its powers: {have})").format(user=user.id, power=name, have=", ".join(written) or _("none")))


@dataclass(frozen=True)
class Struck:
    """One character a power hurts: the damage written, and what it is expected to deal."""

    figure: str
    damage: int
    expected: float
    steps: tuple[Any, ...]

    def as_json(self) -> dict[str, Any]:
        return {"figure": self.figure, "damage": self.damage, "expected_damage": self.expected,
                "reductions": [s.as_json() for s in self.steps]}


@dataclass(frozen=True)
class PowerAnswer:
    rules: Edition
    user: str
    target: str
    power: str
    legal: bool
    illegal_reasons: tuple[Reason, ...]
    cost: int
    force_left: int | None
    roll: str  # "none" or "attack"
    save: dict[str, Any] | None
    struck: tuple[Struck, ...]
    notes: tuple[Reason, ...]
    rule: str

    def as_json(self) -> dict[str, Any]:
        return {
            "query": "power", "rules": self.rules.value, "attacker": self.user, "target": self.target, "power": self.power,
            "legal": self.legal, "illegal_reasons": [r.as_json() for r in self.illegal_reasons], "force_cost": self.cost,
            "force_left": self.force_left, "roll": self.roll, "save": self.save,
            "damage": self.struck[0].damage if self.struck else 0,
            "expected_damage": self.struck[0].expected if self.struck else 0.0,
            "struck": [s.as_json() for s in self.struck], "notes": [n.as_json() for n in self.notes], "rule": self.rule,
        }


def use_power(pos: Position, user_id: str, target_id: str, name: str) -> PowerAnswer:
    """``attack USER TARGET --power NAME``: the power's answer, with the attack's targeting rules."""
    from .attack import _abilities, _cite, attack

    return answer(pos, pos.figure(user_id), pos.figure(target_id), name, abilities_of=lambda f: _abilities(pos, f),
                  cite=lambda where: _cite(pos, where),
                  legal_target=lambda: list(attack(pos, user_id, target_id, for_power=True).illegal_reasons))


def answer(pos: Position, user: Figure, target: Figure, name: str, *, abilities_of: Callable[[Figure], tuple[str, ...]],
           cite: Callable[[str], str], legal_target: Callable[[], list[Reason]]) -> PowerAnswer:
    """Everything about ``user`` using the power ``name`` on ``target``. ``legal_target`` gives the
    attack's targeting refusals (line of sight, cover and nearest, adjacent enemies first), for
    the powers subject to the targeting rules."""
    if pos.rules is Edition.DDM2005:
        raise AssistantError(_("--power answers Star Wars Miniatures Force powers; D&D Miniatures spells are not modelled yet"))
    abl_u, abl_t = abilities_of(user), abilities_of(target)
    power, value, written = find(pos, user, name, abl_u)
    if value is None and pos.rules is Edition.SWM2004:
        value = DEFAULT_VALUE_2004.get(power.name)
    rule = cite(power.rule)
    illegal: list[Reason] = []
    notes: list[Reason] = []
    if target.side == user.side:
        illegal.append(Reason(_("{t} is an ally of {u}: {power} is used on an enemy").format(t=target.id, u=user.id, power=written), rule))
    force = pos.stats_of(user).force
    if force is not None and force < power.cost:
        illegal.append(Reason(_("{power} costs {cost} Force points and {u} has {force}").format(power=written, cost=power.cost, u=user.id, force=force),
                              rule))
    who = saves.force_blocked(pos, user, abilities_of)
    if who:
        illegal.append(Reason(_("{u} is within 6 squares of {who}'s Ysalamiri: it cannot spend Force points").format(u=user.id, who=who), cite("PL p.67")))
    if has(abl_t, "Force Immunity") and pos.rules is Edition.SWM2008:
        illegal.append(Reason(_("{t} has Force Immunity: no Force points are spent to affect it").format(t=target.id), cite("PL p.44")))
    if power.only == "droid-or-mounted" and not (has(abl_t, "Droid") or has(abl_t, "Mounted Weapon")):
        illegal.append(Reason(_("{power} strikes only an enemy Droid or an enemy with Mounted Weapon").format(power=written), rule))
    distance = engine.squares_between(pos, user, target)
    if power.range_6 and (distance is None or distance > 6):
        illegal.append(Reason(_("{t} is not within 6 squares of {u}").format(t=target.id, u=user.id), rule))
    sight = engine.sight(pos, user.id, target.id)
    if not power.range_6 and not sight.line_of_sight:
        illegal.append(Reason(_("{u} has no line of sight to {t}").format(u=user.id, t=target.id), rule))
    if power.targeting:
        illegal += [r for r in legal_target() if r not in illegal]
    if value is None:
        raise AssistantError(_("{power} needs its number from the card: write it as '{power} 20'").format(power=power.name))
    if power.attack_roll:
        notes.append(Reason(_("{power}: one attack against {t}, ignoring the melee restrictions; it counts as a ranged attack (Lightsaber Deflect, Molecular Shielding apply): ask 'attack {u} {t}' for its roll").format(
            power=written, t=target.id, u=user.id), rule))
    # who is hurt
    victims: list[Figure] = [target]
    if power.area != "target":
        around = [f for f in pos.figures if f.id not in (target.id,) and engine.adjacent(pos, f, target)]
        if power.area == "target+2":
            others = [f for f in around if f.id != user.id][:2]
            if len(others) < 2 and any(f.id == user.id for f in around):
                others.append(user)
            victims += others
            if around:
                notes.append(Reason(_("{power} also strikes two characters next to {t}, friend or foe (the user too if there are too few others): {who}").format(
                    power=written, t=target.id, who=", ".join(f.id for f in victims[1:]) or _("none")), rule))
        else:
            victims += around
            if around:
                notes.append(Reason(_("{power} strikes {t} and every character next to it, friend or foe: {who}").format(
                    power=written, t=target.id, who=", ".join(f.id for f in around)), rule))
    save_json = None
    struck: list[Struck] = []
    for v in victims:
        steps = [s for s in saves.damage_steps(pos, user, v, melee=False, adjacent=engine.adjacent(pos, user, v), abilities_of=abilities_of,
                                               cite=cite) if s.effect == "reduce"]
        if power.save_halves:
            p = saves.p_save(power.save_halves)
            e = (1 - p) * saves.expected(value, steps) + p * saves.expected(value // 2, steps)
        else:
            e = saves.expected(value, steps)
        struck.append(Struck(v.id, value, round(float(e), 4), tuple(steps)))
    if power.save_halves:
        save_json = {"needs": power.save_halves, "chance": float(saves.p_save(power.save_halves)), "effect": "half damage"}
        notes.append(Reason(_("{t} makes a save of {n}: on a success it takes half the damage").format(t=target.id, n=power.save_halves), rule))
    if power.stun_save:
        save_json = {"needs": power.stun_save, "chance": float(saves.p_save(power.stun_save)), "effect": "not stunned"}
        if target.size.footprint <= 3:
            notes.append(Reason(_("{t} is stunned unless it makes a save of {n} ({chance})").format(
                t=target.id, n=power.stun_save, chance=f"{float(saves.p_save(power.stun_save)) * 100:.0f}%"), rule))
    if power.push:
        pushed = [v.id for v in victims if v.size.footprint <= 3]
        if pushed:
            notes.append(Reason(_("{who}: pushed {n} squares away from {u} (Huge and smaller)").format(who=", ".join(pushed), n=power.push, u=user.id),
                                cite("PL p.57 (push)")))
    notes.append(Reason(_("{power} replaces {u}'s attacks this turn; it is not an attack and needs no attack roll").format(power=written, u=user.id)
                        if power.replaces == "attacks" and not power.attack_roll else
                        _("{power} replaces {u}'s whole turn; it needs no attack roll").format(power=written, u=user.id) if not power.attack_roll else
                        _("{power} replaces {u}'s attacks this turn").format(power=written, u=user.id), rule))
    left = None if force is None else force - power.cost
    return PowerAnswer(pos.rules, user.id, target.id, written, not illegal, tuple(illegal), power.cost, left,
                       "attack" if power.attack_roll else "none", save_json, tuple(struck), tuple(notes), rule)

