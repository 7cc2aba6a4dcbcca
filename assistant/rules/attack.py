"""What an attack needs to roll: legality, every modifier itemised and cited, odds, damage.

SWM (``shared/rules/swm.md`` §6-8): d20 + Attack + modifiers >= Defense + cover + modifiers;
natural 1 misses, natural 20 (and any wider critical range) hits and doubles the *base*
damage (Droids and Resilient take no double), bonus damage is never multiplied.
DDM (``shared/rules/ddm.md`` §5-7): the same shape against AC, with the melee and ranged
modifier tables (charge, flanking, stunned, helpless, target in melee, cover).

Everything an answer depends on comes with its rule. Every ability on either figure that
is not applied here is listed in ``not_modelled``.

This module holds what both families share: the answer (:class:`AttackAnswer` and its parts),
the work sheet a model fills (:class:`_Work`) and its arithmetic (:func:`_finish`), the small
facts about figures, and :func:`attack`, which runs the model the edition's record names. Each
family's model lives in its own package (:mod:`.swm.attack`, :mod:`.ddm.attack`); this module
never imports them: it reaches them only through the record, so the families sit above it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from fractions import Fraction as F
from typing import Any

from .. import i18n
from ..abilities import classify, effects_for, has, has_trait, no_move
from ..cards import DdmCard, SwmCard, split_ability
from ..editions import Edition, cite_for
from ..errors import AssistantError, MissingStat, MissingStatError
from ..givenstats import with_stats
from ..i18n import N_, _
from ..model import Figure, Position
from . import engine, saves
from .applied import session_only
from .engine import Reason
from .record import editions, find_edition

#: the words an attack line's condition is made of: the answer's JSON keeps them in English, and
#: each edge says them in the reader's language (:func:`condition_text`; the phone's conditionText)
TWIN_CONDITION = N_("Twin Attack: same target, only if it is still standing")
CONDITION_PARTS = (N_("first attack"), N_("single attack"), N_("next attack of the line"), N_("(did not move)"), TWIN_CONDITION)


def condition_text(condition: str) -> str:
    """An attack line's condition (``OneAttack.condition``) in the reader's language.

    >>> condition_text("Triple Attack (did not move); Rend +10 if the first hit too")
    'Triple Attack (did not move); Rend +10 if the first hit too'
    """
    for part in CONDITION_PARTS:
        condition = condition.replace(part, _(part))
    return re.sub(r"Rend \+(\d+) if the first hit too", lambda m: _("Rend +{n} if the first hit too").format(n=m.group(1)), condition)


@dataclass(frozen=True)
class Modifier:
    source: str  # English, whatever the reader's language: a value machines may rely on
    applies_to: str  # attack | defense | damage
    value: int
    rule: str
    label: str = ""  # the source as the reader reads it (the same as ``source`` in English)
    #: it adds to the first attack only (SWM Lightsaber Precision: "the next attack"), not to the others
    only_first: bool = False

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"source": self.source, "applies_to": self.applies_to, "value": self.value, "rule": self.rule,
                               "label": self.label or self.source}
        if self.only_first:
            out["only_first"] = True
        return out


def _both(message: str, **values: Any) -> tuple[str, str]:
    """A text in English and in the reader's language. Values that are themselves worded (a list
    of cover sources) are given as functions, so each language words them its own way."""

    def fill(text: str) -> str:
        return text.format(**{k: v() if callable(v) else v for k, v in values.items()})

    with i18n.language("en"):
        english = fill(message)
    return english, fill(_(message))


def _mod(message: str, applies_to: str, value: int, rule: str, *, only_first: bool = False, **values: Any) -> Modifier:
    """A modifier whose source is worded: English in ``source``, the reader's words in ``label``."""
    english, local = _both(message, **values)
    return Modifier(english, applies_to, value, rule, local, only_first)


@dataclass(frozen=True)
class OneAttack:
    number: int
    condition: str
    attack_bonus: int
    needs: int
    p_hit: float
    damage: int
    critical_damage: int
    expected_damage: float
    p_defeat: float | None = None  # the chance this attack alone defeats the target (None: its Hit Points unknown)

    def as_json(self) -> dict[str, Any]:
        return {
            "attack": self.number, "condition": self.condition, "attack_bonus": self.attack_bonus, "needs": self.needs,
            "p_hit": self.p_hit, "damage": self.damage, "critical_damage": self.critical_damage,
            "expected_damage": self.expected_damage, "p_defeat": self.p_defeat,
        }


@dataclass(frozen=True)
class ForceReroll:
    """The first attack with the reroll a Force point buys after a miss (SWM): the odds and the
    damage to expect over both rolls. The rulebook's reroll is the attacker's choice; the single
    roll's ``p_hit`` stays the answer's own."""

    cost: int
    bonus: int  # added to the reroll (Mettle, Karmic Mettle)
    needs: int
    p_hit: float  # over the roll and, after a miss, the reroll
    expected_damage: float
    rule: str

    def as_json(self) -> dict[str, Any]:
        return {"cost": self.cost, "bonus": self.bonus, "needs": self.needs, "p_hit": self.p_hit,
                "expected_damage": self.expected_damage, "rule": self.rule}


@dataclass(frozen=True)
class AttackAnswer:
    rules: Edition
    attacker: str
    target: str
    kind: str
    legal: bool
    illegal_reasons: tuple[Reason, ...]
    attack_bonus: int
    defense: int
    needs: int
    p_hit: float
    critical_on: tuple[int, ...]
    damage: int
    critical_damage: int
    expected_damage: float
    modifiers: tuple[Modifier, ...]
    not_modelled: tuple[str, ...]
    attacks: tuple[OneAttack, ...] = ()
    notes: tuple[Reason, ...] = ()
    helpers: tuple[str, ...] = ()
    refused_helpers: tuple[Reason, ...] = ()
    force_reroll: ForceReroll | None = None
    after_hit: tuple[Any, ...] = ()  # saves.DamageStep: what stands between the first hit and its damage
    p_defeat: float | None = None  # the first attack's chance to defeat the target
    target_hp_left: int | None = None
    #: False where no attack can be made between these two at all (SWM Light Spirit, PL p.51): the
    #: roll's chances are no odds of anything, and are not given (an attack merely illegal here,
    #: out of sight say, keeps them: the table may still ask what it would do)
    odds: bool = True
    #: the numbers no one gave that an attack which can never be made was not asked for (its
    #: numbers are stand-ins): a judge's override that records it anyway needs them
    unasked: tuple[MissingStat, ...] = ()
    #: True where the odds are not given because the numbers were not, the rules refusing this attack
    #: whatever they are (a friendly target, no line of sight: reading R271); ``odds`` is then False
    refused_unasked: bool = False
    #: SWM: the Force power the attacker spends its Force points on before the roll (``--spend-force``,
    #: reading R251) and what it costs now (0: already paid this turn, Sith Rage)
    spend_force: str | None = None
    spend_cost: int = 0

    def as_json(self) -> dict[str, Any]:
        if not self.odds:
            # The contract's p_hit and expected_damage stay numbers: an attack that can never be
            # made never hits (0), and "odds": false says why; no roll or damage step is given.
            return {**self._as_json(), "p_hit": 0.0, "expected_damage": 0.0, "attacks": [], "force_reroll": None,
                    "after_hit": [], "p_defeat": 0.0}
        return self._as_json()

    def _as_json(self) -> dict[str, Any]:
        return {
            "query": "attack",
            "rules": self.rules.value,
            "attacker": self.attacker,
            "target": self.target,
            "legal": self.legal,
            "illegal_reasons": [r.as_json() for r in self.illegal_reasons],
            "attack_bonus": self.attack_bonus,
            "defense": self.defense,
            "needs": self.needs,
            "p_hit": self.p_hit,
            "critical_on": list(self.critical_on),
            "damage": self.damage,
            "critical_damage": self.critical_damage,
            "expected_damage": self.expected_damage,
            "modifiers": [m.as_json() for m in self.modifiers],
            "not_modelled": list(self.not_modelled),
            "attack_kind": self.kind,
            "attacks": [a.as_json() for a in self.attacks],
            "combined_fire": list(self.helpers),
            "refused_helpers": [r.as_json() for r in self.refused_helpers],
            "notes": [r.as_json() for r in self.notes],
            "force_reroll": self.force_reroll.as_json() if self.force_reroll else None,
            "after_hit": [s.as_json() for s in self.after_hit],
            "p_defeat": self.p_defeat,
            "target_hp_left": self.target_hp_left,
            "odds": self.odds,
            "spend_force": {"power": self.spend_force, "cost": self.spend_cost} if self.spend_force else None,
        }


# --- small facts about figures ------------------------------------------------------------


def _abilities(pos: Position, f: Figure) -> tuple[str, ...]:
    return pos.stats_of(f).abilities or ()


def _force_user(pos: Position, f: Figure) -> bool:
    card = pos.card_of(f)
    stats = pos.stats_of(f)
    if stats.force:
        return True
    return isinstance(card, SwmCard) and bool(card.force)


def _unique(pos: Position, f: Figure) -> bool:
    """Unique by the card's flag or by the special ability written on it (one reading: has_trait)."""
    return has_trait(pos.card_of(f), _abilities(pos, f), "Unique")


def _nonliving(pos: Position, f: Figure) -> bool:
    """Struck as nonliving (Ion Gun's bonus): a Droid, a Mounted Weapon or a Cyborg, which is living
    too (PL p.37, p.53; reading R270): :func:`saves.is_nonliving`; the living are :func:`saves.is_living`."""
    return saves.is_nonliving(_abilities(pos, f))


def _droid(pos: Position, f: Figure) -> bool:
    abl = _abilities(pos, f)
    return has(abl, "Droid") or has(abl, "Cyborg")


def _ddm_type(pos: Position, f: Figure) -> str:
    card = pos.card_of(f)
    parts = [card.type or ""] if isinstance(card, DdmCard) else []
    parts += list(_abilities(pos, f))
    text = " ".join(parts).lower()
    # glossary 'Elf': "Wszystkie Elfy są Humanoidami"
    return text + " humanoid" if re.search(r"\belf\b", text) and "humanoid" not in text else text


def _enemies(pos: Position, f: Figure) -> list[Figure]:
    return [e for e in pos.figures if e.side != f.side]


def _allies(pos: Position, f: Figure) -> list[Figure]:
    return [a for a in pos.figures if a.side == f.side and a.id != f.id]


def _cite(pos: Position, where: str) -> str:
    return cite_for(pos.edition, where)


# --- the answer -----------------------------------------------------------------------------


@dataclass
class _Work:
    mods: list[Modifier] = field(default_factory=list)
    illegal: list[Reason] = field(default_factory=list)
    notes: list[Reason] = field(default_factory=list)
    crit_low: int = 20
    crit_mult: int = 2
    crit_immune: bool = False
    auto_hit: bool = False
    double_damage: bool = False
    #: chance that a hit stands (Conceal, Incorporeal), and damage reduction of the base damage
    stands: F = F(1)
    reduction: int = 0
    #: SWM: what stands between a hit and its damage (saves.py), on the first attack and on the others
    steps_first: list[Any] = field(default_factory=list)
    steps_rest: list[Any] = field(default_factory=list)
    #: damage added to a critical hit after multiplying (Disintegration against Large and bigger)
    crit_extra: int = 0
    #: why the attacker cannot reroll with Force here (Force Immunity, Ysalamiri), and the rule
    no_force_reroll: str | None = None
    no_force_reroll_rule: str | None = None
    #: SWM: the Force power spent before the roll (``--spend-force``) and its cost now
    spend_force: str | None = None
    spend_cost: int = 0
    #: added to the printed Damage itself, so a critical hit multiplies it (Shaper)
    base_extra: int = 0
    #: the base damage's factor before any critical (DDM Double Damage from ENERGY: 2; Immune ENERGY: 0)
    base_factor: int = 1
    #: DDM: a sneak attack applies to this attack
    sneak: bool = False
    #: SWM Disintegration: a natural 20 that stands defeats the target whatever its Hit Points and
    #: whatever avoids the damage (PL p.39-40; CS g.4): counted in ``p_defeat``
    defeat_on_natural_20: bool = False
    #: SWM Avoid Defeat: the chance a defeat is avoided, counted out of ``p_defeat`` (two saves of 11: 1/4; R290)
    defeat_avoided: F = F(0)
    #: no attack can be made between these two at all (a Light Spirit attacking or attacked): no odds
    never: bool = False


def attack(
    pos: Position,
    attacker: str,
    target: str,
    *,
    moved: bool = False,
    combined_fire: tuple[str, ...] = (),
    charge: bool = False,
    kind: str | None = None,
    opportunity: bool = False,
    for_power: bool = False,
    spend_force: str | None = None,
    force_paid: bool = False,
) -> AttackAnswer:
    """``opportunity``: an attack of opportunity (SWM): one attack, no combined fire, no
    own-turn abilities; swm2008 applies no targeting rules to it (PL p.33). ``spend_force``: a
    Force power the attacker spends its Force points on before the roll (SWM Sith Rage, Lightsaber
    Precision; reading R251), ``force_paid`` when this turn has paid for it already."""
    a, t = pos.figure(attacker), pos.figure(target)
    if a.id == t.id:
        raise AssistantError(_("{id!r} cannot attack itself").format(id=a.id))
    rec = find_edition(pos.edition)
    # the edition's family chooses the attack model (SWM or DDM): never a test of the edition's name
    run = rec.attack.run_attack()

    def probe(line: str | None) -> tuple[AttackAnswer, list[MissingStat]]:
        # Every number the question lacks is named at once: a model stops at the first, so each one
        # found is filled with a stand-in and the question asked again; the stand-in answer is thrown
        # away unless the rules refuse the attack whatever the numbers (below).
        missing: list[MissingStat] = []
        probed = pos
        for _round in range(len(STAT_KEYS) + 1):
            try:
                found: AttackAnswer = run(probed, probed.figure(a.id), probed.figure(t.id), moved=moved, helpers=combined_fire, kind=line,
                                          charge=charge, opportunity=opportunity, for_power=for_power, spend_force=spend_force,
                                          force_paid=force_paid)
            except MissingStatError as exc:
                new = [m for m in exc.missing if m not in missing]
                if not new:
                    raise
                missing += new
                probed = with_stats(probed, {(m.figure, m.stat): 0 for m in new})
                continue
            refused = [] if for_power else moved_refusals(pos, a, moved=moved, kind=found.kind, opportunity=opportunity)
            refused += engine.condition_refusals(pos, a, "attack")  # a stunned or helpless attacker (reading R163)
            if refused:
                found = replace(found, legal=False, illegal_reasons=(*found.illegal_reasons, *refused))
            return found, missing
        raise MissingStatError(missing)

    answer, missing = probe(kind)
    if missing and answer.odds:
        # Refused whatever the numbers (a friendly target, no line of sight, a stunned attacker): the
        # answer says why, not which numbers to give (reading R271). Where the card chooses the line
        # (DDM: melee or ranged) and none was asked for, the other line must be refused too.
        other = None if kind is not None or not rec.turns.attack_lines_from_card else ("ranged" if answer.kind == "melee" else "melee")
        if answer.legal or not answer.illegal_reasons:
            raise MissingStatError(missing)
        reasons = answer.illegal_reasons
        if other is not None:
            second = probe(other)[0]
            if second.legal:
                raise MissingStatError(missing)
            # the reasons that hold whichever line it used; else each line's own (melee: not adjacent; ranged: no sight)
            reasons = tuple(r for r in reasons if r in second.illegal_reasons) or (*reasons, *second.illegal_reasons)
        unasked = ", ".join(f"{m.figure}'s {m.what}" for m in missing)
        answer = replace(answer, odds=False, refused_unasked=True, unasked=tuple(missing), illegal_reasons=reasons, notes=(*answer.notes, Reason(
            _("not asked for ({stats}): the rules refuse this attack whatever the numbers; were a judge to allow it, they would be asked").format(
                stats=unasked), answer.illegal_reasons[0].rule)))
    elif missing:  # an attack that can never be made (a Light Spirit, PL p.51) is refused whatever
        # the numbers: asking for a stat its card does not print would decide nothing
        unasked = ", ".join(f"{m.figure}'s {m.what}" for m in missing)
        answer = replace(answer, unasked=tuple(missing), notes=(*answer.notes, Reason(
            _("not asked for ({stats}): no attack can be made between these two, whatever the numbers").format(stats=unasked),
            _cite(pos, "PL p.51"))))
    return answer


def moved_refusals(pos: Position, f: Figure, *, moved: bool, kind: str | None = None, opportunity: bool = False,
                   takes_turn: str | None = None, attacking: bool = True) -> list[Reason]:
    """What a move earlier in the turn forbids, in one rule for every family and place: an attack by a
    figure whose ability forbids moving and attacking in one turn (SWM Heavy Weapon, DDM Slow
    Attack: the catalogue's ``NO_MOVE``), and ``takes_turn``, a power that replaces the whole turn
    (PL p.15 "Zastępuje Turę": no other action, "np. poruszyć się czy zaatakować"; CS r.10).
    ``attacking``: False for a power that makes no attack (only its place in the turn counts). An
    attack of opportunity is made in another's turn: a move of one's own does not forbid it."""
    if not moved or opportunity:
        return []
    rec = find_edition(pos.edition)
    abl = _abilities(pos, f)
    out = [
        Reason(_("{a} has {ability}: it cannot move and attack in the same turn").format(a=f.id, ability=n.name), _cite(pos, n.rule))
        for n in no_move(rec.family, rec.name)
        if attacking and has(abl, n.name) and (n.kind is None or n.kind == kind)
    ]
    if takes_turn:
        out.append(Reason(_("{power} replaces {f}'s whole turn: it cannot be used after {f} has moved").format(power=takes_turn, f=f.id),
                          _cite(pos, "PL p.15; CS r.10")))
    return out


#: a stat as the attack models name it -> (the key ``--stat`` and inline ``stats:`` take, the key ``cards set`` takes)
STAT_KEYS: dict[str, tuple[str, str]] = {
    "Attack": ("attack", "attack"), "Defense": ("defense", "defense"), "Damage": ("damage", "damage"),
    "AC": ("defense", "ac"), "melee attack": ("attack", "melee_attack"), "melee damage": ("damage", "melee_damage"),
    "ranged attack": ("ranged_attack", "ranged_attack"), "ranged damage": ("ranged_damage", "ranged_damage"),
}


def missing_stat(what: str, fig: Figure, pos: Position | None = None) -> MissingStat:
    """The number ``what`` of ``fig`` that nobody gave, with how to give it (its card, when it has one)."""
    stat, card_key = STAT_KEYS.get(what, (what.lower().replace(" ", "_"), what.lower().replace(" ", "_")))
    card = pos.card_of(fig) if pos is not None else None
    name = card.name if card is not None else fig.card
    card_set = card.set if card is not None else fig.card_set
    return MissingStat(fig.id, stat, what, name, card_key if name else None, (card_set or None) if name else None)


def _require(value: int | None, what: str, fig: Figure, pos: Position | None = None) -> int:
    if value is None:
        raise MissingStatError([missing_stat(what, fig, pos)])
    return value


def _ability_value(abilities: tuple[str, ...], name: str) -> int | None:
    """The [#] an ability is written with (``Shaper +10`` -> 10); 0 when written without one."""
    for text in abilities:
        n, v = split_ability(text)
        if n.lower() == name.lower():
            return v or 0
    return None


def _reach(pos: Position, f: Figure) -> int | None:
    for text in _abilities(pos, f):
        name, value = split_ability(text)
        if name.lower() == "melee reach":
            return value
    return None


def _within(pos: Position, x: Figure, y: Figure, n: int) -> bool:
    d = engine.squares_between(pos, x, y)
    return d is not None and d <= n


#: what an ability's condition saw, said beside the grant: "Cunning Attack (obi has not activated this
#: round)"; a figure is named with its noun in Polish and Czech, whose gender the id does not tell (R314)
_WHEN_SAID: dict[str, str] = {
    "target-not-activated": N_("{t} has not activated this round"),
    "target-activated": N_("{t} has activated this round"),
    "not-moved": N_("{a} has not moved this turn"),
    "moved": N_("{a} has moved this turn"),
    "target-adjacent": N_("{a} and {t} are adjacent"),
    "attacker-adjacent": N_("{a} and {t} are adjacent"),
    "target-unique": N_("{t} is unique"),
    "target-force-user": N_("{t} is a Force user"),
    "attacker-force-user": N_("{a} is a Force user"),
    "target-droid": N_("{t} is a Droid"),
    "target-nonliving": N_("{t} is nonliving"),
    "target-living": N_("{t} is living"),
    "no-ally-within-6": N_("no ally of {a} is within 6 squares"),
    "ally-within-6": N_("an ally of {a} is within 6 squares"),
    "own-turn": N_("{a}'s own turn"),
    "opportunity": N_("an attack of opportunity"),
    "ranged": N_("a ranged attack"),
    "melee": N_("a melee attack"),
}


def _granted(name: str, when: tuple[str, ...], attacker: Figure, target: Figure) -> str:
    """An ability's grant as the reader reads it, with what its conditions saw (its name alone where it has none)."""
    said = [_(_WHEN_SAID[c]).format(a=attacker.id, t=target.id) for c in when if c in _WHEN_SAID]
    return f"{name} ({'; '.join(dict.fromkeys(said))})" if said else ""


def _apply_effects(pos: Position, game: str, ed: str, owner: Figure, abilities: tuple[str, ...], role: str, ctx: dict[str, bool], w: _Work,
                   other: Figure) -> None:
    """Apply the ``owner``'s abilities in ``role`` (attacker or target) whose conditions ``ctx`` meets;
    ``other`` is the other figure of the attack."""
    attacker, target = (owner, other) if role == "attacker" else (other, owner)
    seen: set[str] = set()
    for text in abilities:
        for eff, value in effects_for(game, ed, text):
            if eff.role != role or eff.name in seen:
                continue  # the same ability never stacks with itself
            if not all(ctx.get(c, False) for c in eff.when):
                continue
            seen.add(eff.name)
            v = value if value is not None else eff.edition_value.get(ed, eff.default_value)
            rule = _cite(pos, eff.rule)
            label = _granted(eff.name, eff.when, attacker, target)  # the source stays the ability's name, for machines
            for stat in ("attack", "damage", "defense"):
                amount = getattr(eff, stat)
                if stat in eff.uses_value:
                    amount = v if v is not None else amount
                if amount:
                    w.mods.append(Modifier(eff.name, stat, amount, rule, label))
            if eff.crit_low is not None and eff.crit_low < w.crit_low:
                w.crit_low = eff.crit_low
                w.notes.append(Reason(_("{name}: critical hits on {crit_low}-20, each an automatic hit").format(name=eff.name, crit_low=eff.crit_low), rule))
            if eff.crit_multiplier:
                w.crit_mult = max(w.crit_mult, eff.crit_multiplier)
                w.notes.append(
                    Reason(
                        _("{name}: a critical hit multiplies base damage by {crit_multiplier}").format(name=eff.name, crit_multiplier=eff.crit_multiplier), rule
                    )
                )
            if eff.crit_immune:
                w.crit_immune = True
                w.notes.append(
                    Reason(_("{id} ({name}) takes no extra damage from critical hits; a natural 20 still hits").format(id=owner.id, name=eff.name), rule)
                )


def _finish(
    pos: Position,
    a: Figure,
    t: Figure,
    kind: str,
    atk: int,
    dfn: int,
    dmg: int,
    extra: int,
    w: _Work,
    n_attacks: int,
    condition: str,
    twin: bool,
    helpers: list[str],
    refused: list[Reason],
    lines: list[tuple[int, int, int]] | None = None,
) -> AttackAnswer:
    attack_bonus = atk + sum(m.value for m in w.mods if m.applies_to == "attack")
    defense = dfn + sum(m.value for m in w.mods if m.applies_to == "defense")
    dmg_bonus = extra + sum(m.value for m in w.mods if m.applies_to == "damage" and not m.only_first)
    first_plus = sum(m.value for m in w.mods if m.applies_to == "damage" and m.only_first)  # Lightsaber Precision (R251)
    auto_low = 20 if w.crit_immune else w.crit_low
    hp = pos.stats_of(t).hp
    hp_left = None if hp is None else max(0, hp - t.damage_taken)

    def one(number: int, bonus: int, base: int, cond: str, plus: int = 0) -> OneAttack:
        base = base * w.base_factor + w.base_extra
        if w.auto_hit:
            needs, p_hit = 2, 1.0
        else:
            needs = max(2, min(defense - bonus, auto_low))
            p_hit = float(F(21 - needs, 20))
        mult = 1 if w.crit_immune else w.crit_mult
        normal = max(0, base * (2 if w.double_damage else 1) - w.reduction) + dmg_bonus + plus
        crit = max(0, base * max(mult, 2 if w.double_damage else 1) - w.reduction) + dmg_bonus + plus + (0 if w.crit_immune else w.crit_extra)
        if w.stands != 1:  # Conceal / Incorporeal, Bombad Gungan, Pheromones: the hit only stands on a further d20
            p_hit = float(F(21 - needs, 20) * w.stands) if not w.auto_hit else float(w.stands)
        p_crit = 0.0 if w.auto_hit or w.crit_immune else float(F(21 - w.crit_low, 20) * w.stands)
        steps = w.steps_first if number == 1 else w.steps_rest
        e_normal, e_crit = (float(saves.expected(normal, steps)), float(saves.expected(crit, steps))) if steps else (normal, crit)
        expected = round((p_hit - p_crit) * e_normal + p_crit * e_crit, 4) if not w.auto_hit else round(float(e_normal * w.stands), 4)
        p_defeat = None
        if hp_left is not None:
            d_normal, d_crit = float(saves.p_at_least(normal, steps, hp_left)), float(saves.p_at_least(crit, steps, hp_left))
            p_defeat = round((p_hit - p_crit) * d_normal + p_crit * d_crit, 4) if not w.auto_hit else round(float(w.stands) * d_normal, 4)
            if w.defeat_on_natural_20:
                # the natural 20 (1 in 20, a hit that stands) defeats it outright; the other rolls as counted
                p20 = float(F(1, 20) * w.stands)
                rest_crit = max(0.0, p_crit - p20)
                rest_normal = (p_hit - p20 - rest_crit) if not w.auto_hit else float(w.stands) - p20
                p_defeat = round(p20 + rest_normal * d_normal + rest_crit * d_crit, 4)
            if w.defeat_avoided:
                p_defeat = round(p_defeat * float(1 - w.defeat_avoided), 4)
        return OneAttack(number, cond, bonus, needs, p_hit, normal, crit, expected, p_defeat)

    attacks: list[OneAttack] = []
    if lines:
        for i, (bonus, base, _condition) in enumerate(lines, 1):
            attacks.append(one(i, attack_bonus - atk + bonus, base, condition if i > 1 else "first attack", first_plus if i == 1 else 0))
    else:
        for i in range(1, n_attacks + 1):
            attacks.append(one(len(attacks) + 1, attack_bonus, dmg, condition if i > 1 else "first attack", first_plus if i == 1 else 0))
            if twin:  # an extra attack of its own (PL p.65): numbered in turn, never a second "first attack" (R36)
                attacks.append(one(len(attacks) + 1, attack_bonus, dmg, TWIN_CONDITION))
    first = attacks[0]
    critical_on = tuple(range(w.crit_low, 21))
    reroll = None
    force = pos.stats_of(a).force
    if w.no_force_reroll:
        w.notes.append(Reason(w.no_force_reroll, w.no_force_reroll_rule or _cite(pos, "PL p.44, p.67")))
    elif find_edition(pos.edition).attack.force_reroll and force and not w.auto_hit and first.p_hit < 1:
        # SWM: 1 Force point rerolls the attack roll just made, a natural 1 included; the second
        # result stands (PL p.11, CS r.9). Mettle adds +4 to the reroll (PL p.54).
        abl = _abilities(pos, a)
        bonus = 4 if has(abl, "Mettle") or has(abl, "Karmic Mettle") else 0
        again = one(1, first.attack_bonus + bonus, dmg if not lines else lines[0][1], "reroll", first_plus)
        reroll = ForceReroll(
            1,
            bonus,
            again.needs,
            round(first.p_hit + (1 - first.p_hit) * again.p_hit, 4),
            round(first.expected_damage + (1 - first.p_hit) * again.expected_damage, 4),
            _cite(pos, "PL p.11 (Force points: reroll); CS r.9" + ("; PL p.54 Mettle" if bonus else "")),
        )
        if has(abl, "Karmic Mettle"):
            w.notes.append(Reason(_("Karmic Mettle: if the reroll still misses, {a} takes 10 damage").format(a=a.id), _cite(pos, "PL p.50-51")))
    elsewhere = _applied_elsewhere(pos, a, t)
    if elsewhere:
        w.notes.append(Reason(elsewhere, "reading R359 in docs/readings.md"))
    return AttackAnswer(
        pos.edition,
        a.id,
        t.id,
        kind,
        not w.illegal,
        tuple(w.illegal),
        first.attack_bonus,
        defense,
        first.needs,
        first.p_hit,
        critical_on,
        first.damage,
        first.critical_damage,
        first.expected_damage,
        tuple(w.mods),
        _not_modelled(pos, a, t),
        tuple(attacks),
        tuple(w.notes),
        tuple(helpers),
        tuple(refused),
        reroll,
        tuple(w.steps_first),
        first.p_defeat,
        hp_left,
        not w.never,
        spend_force=w.spend_force,
        spend_cost=w.spend_cost,
    )


def _applied_elsewhere(pos: Position, *figs: Figure) -> str:
    """Why abilities of these figures the answer lists as not modelled are left out: the assistant
    applies them under another edition's rules only (a later set's Melee Reach, Twin Attack, ...
    under the 2004 rules, which do not name them; reading R359). Empty: none is."""
    rec = find_edition(pos.edition)
    by: dict[str, list[str]] = {}
    for f in figs:
        for text in _abilities(pos, f):
            if classify(rec.family, text, rec.name, ("attack", "power")).status != "known" or session_only(rec.family, rec.name, text):
                continue
            for other in editions():
                if other.family == rec.family and other.name != rec.name and classify(rec.family, text, other.name, ("attack", "power")).status == "modelled":
                    by.setdefault(other.name, []).append(f"{f.id}: {text}")
    return "; ".join(_("applied under the {other} rules only, not under these ({edition}): {abilities}; check by hand").format(
        abilities=", ".join(dict.fromkeys(names)), other=other, edition=rec.name) for other, names in by.items())


def _not_modelled(pos: Position, *figs: Figure) -> tuple[str, ...]:
    rec = find_edition(pos.edition)
    game, ed = rec.family, rec.name
    out: list[str] = []
    for f in figs:
        for text in _abilities(pos, f):
            c = classify(game, text, ed, ("attack", "power"))  # the attack verb's places; the session's are its own
            if c.status == "known" and session_only(game, ed, text):
                continue  # applied where it acts (a checked move, the turn, the squad): nothing this question asks (R252)
            if c.status == "known":
                out.append(f"{f.id}: {text}")
            elif c.status == "unknown":
                out.append(_("{figure}: {ability} (not a {game} glossary name the assistant knows)").format(figure=f.id, ability=text, game=game.upper()))
        for cond in f.conditions:
            rule = rec.conditions.get(cond)
            if cond not in rec.attack.modelled_conditions and not (rule is not None and rule.no_attack):  # applied: condition_refusals
                out.append(_("{figure}: condition '{condition}'").format(figure=f.id, condition=cond))
    return tuple(dict.fromkeys(out))


def targets(pos: Position, attacker: str, *, moved: bool = False, kind: str | None = None) -> list[dict[str, Any]]:
    """Every enemy with legal/why-not and, where the stats are known, needs and p_hit."""
    a = pos.figure(attacker)
    out = []
    for e in _enemies(pos, a):
        row: dict[str, Any] = {"target": e.id}
        try:
            ans = attack(pos, a.id, e.id, moved=moved, kind=kind)
        except AssistantError as exc:
            row.update({"legal": None, "error": str(exc)})
            if isinstance(exc, MissingStatError):  # which numbers, and how to give them
                row["missing"] = [m.as_json() for m in exc.missing]
        else:
            row.update(
                {
                    "legal": ans.legal,
                    "illegal_reasons": [r.as_json() for r in ans.illegal_reasons],
                    "needs": ans.needs,
                    "p_hit": ans.p_hit if ans.odds else 0.0,  # a Light Spirit: no attack can be made, it never hits
                    "expected_damage": ans.expected_damage if ans.odds else 0.0,
                    "odds": ans.odds,
                    # what the row's numbers leave out (an ability, an unknown commander effect): the attack
                    # answer's own list, so that the table is no surer than the answer it sums up (R342)
                    "not_modelled": list(ans.not_modelled),
                }
            )
        out.append(row)
    return out
