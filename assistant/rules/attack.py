"""What an attack needs to roll: legality, every modifier itemised and cited, odds, damage.

SWM (``shared/rules/swm.md`` §6-8): d20 + Attack + modifiers >= Defense + cover + modifiers;
natural 1 misses, natural 20 (and any wider critical range) hits and doubles the *base*
damage (Droids and Resilient take no double), bonus damage is never multiplied.
DDM (``shared/rules/ddm.md`` §5-7): the same shape against AC, with the melee and ranged
modifier tables (charge, flanking, stunned, helpless, target in melee, cover).

Everything an answer depends on comes with its rule. Every ability on either figure that
is not applied here is listed in ``not_modelled``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction as F
from itertools import product
from typing import Any

from ..abilities import classify, effects_for, has
from ..cards import DdmCard, SwmCard, named_in, split_ability
from ..coords import count_squares
from ..editions import Edition, SquareTerrain, cite_for
from ..errors import AssistantError
from ..i18n import N_, _, n_, source_names
from ..model import Figure, Position, Stats
from . import ddm_effects, engine, saves
from .ddm.family import HELPLESS, INACTIVE
from .engine import Board, Reason
from .record import EditionRecord, find_edition


@dataclass(frozen=True)
class Modifier:
    source: str  # English, whatever the reader's language: a value machines may rely on
    applies_to: str  # attack | defense | damage
    value: int
    rule: str
    label: str = ""  # the source as the reader reads it (the same as ``source`` in English)

    def as_json(self) -> dict[str, Any]:
        return {"source": self.source, "applies_to": self.applies_to, "value": self.value, "rule": self.rule,
                "label": self.label or self.source}


def _both(message: str, **values: Any) -> tuple[str, str]:
    """A text in English and in the reader's language. Values that are themselves worded (a list
    of cover sources) are given as functions, so each language words them its own way."""
    from .. import i18n

    def fill(text: str) -> str:
        return text.format(**{k: v() if callable(v) else v for k, v in values.items()})

    with i18n.language("en"):
        english = fill(message)
    return english, fill(_(message))


def _mod(message: str, applies_to: str, value: int, rule: str, **values: Any) -> Modifier:
    """A modifier whose source is worded: English in ``source``, the reader's words in ``label``."""
    english, local = _both(message, **values)
    return Modifier(english, applies_to, value, rule, local)


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

    def as_json(self) -> dict[str, Any]:
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
    card = pos.card_of(f)
    return bool(card is not None and card.unique)


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


def _active(f: Figure) -> bool:
    return not (set(f.conditions) & INACTIVE)


def _enemies(pos: Position, f: Figure) -> list[Figure]:
    return [e for e in pos.figures if e.side != f.side]


def _allies(pos: Position, f: Figure) -> list[Figure]:
    return [a for a in pos.figures if a.side == f.side and a.id != f.id]


def _cite(pos: Position, where: str) -> str:
    return cite_for(pos.edition, where)


# --- commander effects (SWM) ---------------------------------------------------------------


def _commander_bonuses(pos: Position, affected: Figure, stat: str, *, moved: bool, target: Figure | None,
                       mods: list[Modifier], notes: list[Reason]) -> None:
    """Add the best commander-effect bonus to ``stat`` for ``affected`` (duplicates never
    stack; only the highest bonus to a stat counts -- swm.md §8.2)."""
    best: tuple[int, tuple[str, str], str] | None = None
    seen_cards: set[str] = set()
    for cmd in pos.figures:
        if cmd.side != affected.side:
            continue
        card = pos.card_of(cmd)
        if not isinstance(card, SwmCard) or card.commander_effect is None or isinstance(card.commander_effect, str):
            continue  # none, or "none"
        if card.name in seen_cards:  # the same effect from two commanders counts once
            continue
        ce = card.commander_effect
        for eff in ce.effects:
            value = getattr(eff, stat)
            if not value or cmd.id == affected.id:
                continue
            if eff.affects == "followers":
                acard = pos.card_of(affected)
                if isinstance(acard, SwmCard) and acard.commander_effect not in (None, "none"):
                    continue  # a commander is not a follower
            elif eff.affects not in ("allies",):
                continue
            abl = _abilities(pos, affected)
            excluded = [x for x in ("Droid", "Savage") if has(abl, x) and x not in eff.overrides] + ([p] if (p := _phantom(pos, affected)) else [])
            if excluded:
                notes.append(
                    Reason(
                        _("{id}'s commander effect does not affect {id2} ({excluded})").format(id=cmd.id, id2=affected.id, excluded=excluded[0]),
                        _cite(pos, "PL p.36; CS g.3"),
                    )
                )
                continue
            if eff.name_contains and eff.name_contains.lower() not in (affected.card or affected.id).lower():
                continue
            if eff.requires and not has(abl, eff.requires):
                continue
            if eff.range is not None:
                d = engine.squares_between(pos, cmd, affected)
                if d is None or d > eff.range:
                    continue
            ok = True
            for cond in eff.conditions:
                if cond == "did-not-move" and moved:
                    ok = False
                elif cond == "target-adjacent" and (target is None or not engine.adjacent(pos, affected, target)):
                    ok = False
                elif cond == "ally-within-6" and not any((engine.squares_between(pos, affected, o) or 99) <= 6 for o in _allies(pos, affected)):
                    ok = False
            if not ok:
                continue
            if best is None or value > best[0]:
                rule = f"{card.source} (commander effect); only the highest counts: reading R3 in docs/readings.md"
                best = (value, _both(N_("commander effect of {commander} ({card})"), commander=cmd.id, card=card.name), rule)
            seen_cards.add(card.name)
            if ce.reading:
                notes.append(Reason(_("reading: {reading}").format(reading=_(ce.reading)), card.source))
    if best is not None:
        mods.append(Modifier(best[1][0], stat, best[0], best[2], best[1][1]))


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
    #: why the attacker cannot reroll with Force here (Force Immunity, Ysalamiri)
    no_force_reroll: str | None = None
    #: added to the printed Damage itself, so a critical hit multiplies it (Shaper)
    base_extra: int = 0
    #: the base damage's factor before any critical (DDM Double Damage from ENERGY: 2; Immune ENERGY: 0)
    base_factor: int = 1
    #: DDM: a sneak attack applies to this attack
    sneak: bool = False


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
) -> AttackAnswer:
    """``opportunity``: an attack of opportunity (SWM): one attack, no combined fire, no
    own-turn abilities; swm2008 applies no targeting rules to it (PL p.33)."""
    a, t = pos.figure(attacker), pos.figure(target)
    if a.id == t.id:
        raise AssistantError(_("{id!r} cannot attack itself").format(id=a.id))
    # the edition's family chooses the attack model (SWM or DDM): never a test of the edition's name
    run = find_edition(pos.edition).attack.run_attack()
    answer: AttackAnswer = run(pos, a, t, moved=moved, helpers=combined_fire, kind=kind, charge=charge, opportunity=opportunity, for_power=for_power)
    return answer


def swm_attack(
    pos: Position, a: Figure, t: Figure, *, moved: bool, helpers: tuple[str, ...], kind: str | None, charge: bool, opportunity: bool, for_power: bool
) -> AttackAnswer:
    """The SWM attack model (:mod:`.swm.family` names it)."""
    return _swm_attack(pos, a, t, moved=moved, helpers=helpers, kind=kind, charge=charge, opportunity=opportunity, for_power=for_power)


def ddm_attack(
    pos: Position, a: Figure, t: Figure, *, moved: bool, helpers: tuple[str, ...], kind: str | None, charge: bool, opportunity: bool, for_power: bool
) -> AttackAnswer:
    """The DDM attack model (:mod:`.ddm.family` names it). ``for_power`` has no DDM meaning:
    a DDM power checks its own targets (powers.py)."""
    if opportunity and kind == "ranged":
        raise AssistantError(_("a DDM attack of opportunity is a melee attack"))
    return _ddm_attack(pos, a, t, moved=moved, charge=charge, kind="melee" if opportunity else kind, helpers=helpers, opportunity=opportunity)


def _require(value: int | None, what: str, fig: Figure) -> int:
    if value is None:
        raise AssistantError(
            _(
                "{id}'s {what} is unknown (its card does not give it): add 'stats: {{{key}: N}}' to {id} in the position file, read off the physical card"
            ).format(id=fig.id, what=what, key=what.lower().replace(' ', '_'))
        )
    return value


def _swm_attack(
    pos: Position,
    a: Figure,
    t: Figure,
    *,
    moved: bool,
    helpers: tuple[str, ...],
    kind: str | None,
    charge: bool,
    opportunity: bool = False,
    for_power: bool = False,
) -> AttackAnswer:
    """``for_power``: only whom it may choose, for a Force power subject to the targeting rules
    (no attack stats needed, and Melee Attack does not limit a power)."""
    w = _Work()
    sa, st = pos.stats_of(a), pos.stats_of(t)
    rec = find_edition(pos.edition)
    game, ed = rec.family, rec.name
    abl_a, abl_t = _abilities(pos, a), _abilities(pos, t)
    if kind is not None or charge:
        w.notes.append(Reason(_("--melee/--ranged/--charge are D&D Miniatures options; SWM melee is the Melee Attack ability"), _cite(pos, "PL p.54; CS g.9")))
    atk = (sa.attack or 0) if for_power else _require(sa.attack, "Attack", a)
    dfn = (st.defense or 0) if for_power else _require(st.defense, "Defense", t)
    dmg = (sa.damage or 0) if for_power else _require(sa.damage, "Damage", a)

    # legality (swm.md §6.4)
    if opportunity:
        w.notes.append(
            Reason(
                _("attack of opportunity: a single attack, no combined fire, no abilities limited to the attacker's own turn"),
                _cite(pos, "PL p.22-23, p.33; CS r.8"),
            )
        )
        if helpers:
            w.notes.append(Reason(_("combined fire is not possible on an attack of opportunity"), _cite(pos, "PL p.21; CS r.8")))
            helpers = ()
    ally: Reason | None = None
    if t.side == a.side:
        ally = Reason(_("{t} is an ally of {a}: a character may not attack allies").format(t=t.id, a=a.id), _cite(pos, "PL p.21; CS r.7"))
        w.illegal.append(ally)
    if rec.defines("Light Spirit") and has(abl_t, "Light Spirit"):
        w.illegal.append(Reason(_("{t} is a Light Spirit: it is never a legal target and takes no damage").format(t=t.id), _cite(pos, "PL p.51")))
    if rec.defines("Light Spirit") and has(abl_a, "Light Spirit"):
        w.illegal.append(Reason(_("{a} is a Light Spirit: it cannot attack").format(a=a.id), _cite(pos, "PL p.51")))
    los = engine.sight(pos, a.id, t.id)
    adjacent = engine.adjacent(pos, a, t) and not _phantom(pos, a) and not _phantom(pos, t)
    for f in (a, t):
        if _phantom(pos, f) and engine.adjacent(pos, a, t):
            w.notes.append(
                Reason(
                    _("{f} is a {ability}: it does not count as adjacent to other characters").format(f=f.id, ability=_phantom(pos, f)),
                    _cite(pos, "PL p.49, p.51"),
                )
            )
    sniper = has(abl_a, "Sniper")
    cov = engine.cover(pos, a.id, t.id, los, ignore_figures=sniper)
    if not los.line_of_sight:
        w.illegal.append(Reason(_("{a} has no line of sight to {t}: {why}").format(a=a.id, t=t.id, why=los.reasons[0].text), los.reasons[0].rule))
    reach = _reach(pos, a)
    if reach and not adjacent:
        d = engine.squares_between(pos, a, t)
        if d is not None and d <= reach and los.line_of_sight:
            adjacent = True
            w.notes.append(
                Reason(
                    _("Melee Reach {reach}: {t} at {squares} counts as adjacent on {a}'s turn").format(reach=reach, t=t.id, squares=count_squares(d), a=a.id),
                    _cite(pos, "PL p.54"),
                )
            )
    adj_enemies = [
        e for e in _enemies(pos, a) if not _phantom(pos, e) and not _phantom(pos, a) and (engine.adjacent(pos, a, e) or _within_reach(pos, a, e, reach))
    ]
    if adj_enemies and not adjacent and t.side != a.side:
        w.illegal.append(
            Reason(
                n_(
                    "{enemies} is adjacent to {a}: only adjacent enemies are legal targets",
                    "{enemies} are adjacent to {a}: only adjacent enemies are legal targets",
                    len(adj_enemies),
                ).format(enemies=", ".join(e.id for e in adj_enemies), a=a.id),
                _cite(pos, "PL p.51; CS r.6, g.8"),
            )
        )
    if has(abl_a, "Melee Attack") and not adjacent and not for_power:
        w.illegal.append(Reason(_("{a} has Melee Attack: it may attack only adjacent enemies").format(a=a.id), _cite(pos, "PL p.54; CS g.9")))
    if rec.defines("Invisibility") and has(abl_t, "Invisibility") and not adjacent:
        w.illegal.append(Reason(_("{t} has Invisibility: only an adjacent character can attack it").format(t=t.id), _cite(pos, "PL p.50")))
    if rec.defines("Cloaked") and has(abl_t, "Cloaked") and cov.cover and not adjacent:
        w.illegal.append(Reason(_("{t} is Cloaked and has cover: non-adjacent enemies cannot target it").format(t=t.id), _cite(pos, "PL p.37")))
    if rec.defines("Diplomat") and has(abl_t, "Diplomat"):
        others = [e for e in _enemies(pos, a) if e.id != t.id and not has(_abilities(pos, e), "Diplomat") and engine.sight(pos, a.id, e.id).line_of_sight]
        if others:
            w.illegal.append(
                Reason(
                    _("{t} has Diplomat and {other} (no Diplomat) is in {a}'s line of sight").format(t=t.id, other=others[0].id, a=a.id), _cite(pos, "PL p.40")
                )
            )
    if los.line_of_sight and cov.cover and not adjacent and not has(abl_a, "Accurate Shot"):
        near, ids = _swm_nearest(pos, a, sniper)
        if t.id not in ids:
            w.illegal.append(
                Reason(
                    _("{t} has cover and is not {a}'s nearest enemy ({nearest} at {squares})").format(
                        t=t.id, a=a.id, nearest=", ".join(ids) or _("none"), squares=count_squares(near)
                    ),
                    _cite(pos, "PL p.8, p.10; CS r.6"),
                )
            )
    if opportunity:
        if not engine.adjacent(pos, a, t):
            w.illegal.append(
                Reason(
                    _("{t} is not adjacent to {a}: an attack of opportunity is against an adjacent enemy leaving").format(t=t.id, a=a.id),
                    _cite(pos, "PL p.22-23; CS r.8"),
                )
            )
        elif rec.opportunity_ignores_targeting:
            w.illegal = [r for r in w.illegal if r is ally]  # only "no attacking allies" still holds
            w.notes.append(Reason(_("targeting rules do not apply to an attack of opportunity"), _cite(pos, "PL p.33")))
    if sniper:
        w.notes.append(Reason(_("Sniper: {a} ignores characters other than the target for cover").format(a=a.id), _cite(pos, "PL p.62; CS g.12")))

    # defense: cover
    if cov.cover:
        bonus = 8 if has(abl_t, "Advantageous Cover") else 4
        extra = ", Advantageous Cover" if bonus == 8 else ""
        english, local = _both(N_("cover ({sources})"), sources=lambda: source_names(cov.sources))
        w.mods.append(Modifier(english + extra, "defense", bonus, cov.reasons[0].rule, local + extra))

    # combined fire (§7.7)
    used_helpers, refused = _combined_fire(pos, a, t, helpers, w)

    # card abilities
    ctx = {
        "target-not-activated": not t.activated,
        "target-activated": t.activated,
        "not-moved": not moved,
        "moved": moved,
        "target-adjacent": adjacent,
        "attacker-adjacent": adjacent,
        "target-unique": _unique(pos, t),
        "target-force-user": _force_user(pos, t),
        "attacker-force-user": _force_user(pos, a),
        "target-droid": _droid(pos, t),
        "no-ally-within-6": not any((engine.squares_between(pos, a, o) or 99) <= 6 for o in _allies(pos, a)),
        "ally-within-6": any((engine.squares_between(pos, a, o) or 99) <= 6 for o in _allies(pos, a)),
        "own-turn": not opportunity,
        "opportunity": opportunity,
    }
    _apply_effects(pos, game, ed, a, abl_a, "attacker", ctx, w)
    _apply_effects(pos, game, ed, t, abl_t, "target", ctx, w)
    if has(abl_t, "Cyborg"):
        w.crit_immune = False
    _situational(pos, a, t, rec, w)
    # commander effects
    _commander_bonuses(pos, a, "attack", moved=moved, target=t, mods=w.mods, notes=w.notes)
    _commander_bonuses(pos, a, "damage", moved=moved, target=t, mods=w.mods, notes=w.notes)
    _commander_bonuses(pos, t, "defense", moved=False, target=None, mods=w.mods, notes=w.notes)

    n_attacks, condition = 1, "single attack"
    for name, n in (("Quadruple Attack", 4), ("Triple Attack", 3), ("Double Attack", 2), ("Double Claw Attack", 2)):
        if has(abl_a, name) and not opportunity:
            ambush = moved and rec.defines("Ambush") and has(abl_a, "Ambush") and not t.activated
            mobile = moved and rec.defines("Greater Mobile Attack") and has(abl_a, "Greater Mobile Attack")
            if ambush:
                w.notes.append(
                    Reason(
                        _("Ambush: {id} may move and still make all its attacks, each against {t}, who has not activated this round").format(id=a.id, t=t.id),
                        _cite(pos, "PL p.33"),
                    )
                )
            elif mobile:
                w.notes.append(
                    Reason(
                        _("Greater Mobile Attack: {id} may move and still make all its attacks, stopping on a legal square to make them").format(id=a.id),
                        _cite(pos, "PL p.48"),
                    )
                )
            if moved and not (ambush or mobile):
                w.notes.append(Reason(_("{name}: {id} moved, so it makes one attack").format(name=name, id=a.id), _cite(pos, "PL p.40; CS g.4")))
            elif name == "Double Claw Attack" and not adjacent:
                w.notes.append(
                    Reason(
                        _("Double Claw Attack: both attacks only against adjacent enemies; {t} is not adjacent, so one attack").format(t=t.id),
                        _cite(pos, "PL p.40-41; CS g.4"),
                    )
                )
            else:
                n_attacks, condition = n, f"{name} (did not move)"
            break
    twin = has(abl_a, "Twin Attack") and rec.defines("Twin Attack") and not opportunity
    melee = has(abl_a, "Melee Attack")
    _swm_special(pos, a, t, adjacent=adjacent, melee=melee, moved=moved, w=w)
    answer = _finish(pos, a, t, "melee" if melee else "nonmelee", atk, dfn, dmg, 0, w, n_attacks, condition, twin, used_helpers, refused)
    return _swm_after(pos, a, t, answer, w, adjacent=adjacent)


def _swm_special(pos: Position, a: Figure, t: Figure, *, adjacent: bool, melee: bool, moved: bool, w: _Work) -> None:
    """SWM abilities that decide whether the attack happens, and what stands between its hits and
    their damage (saves.py): legality, the saves made before the roll, Squad Assault,
    Disintegration, and who may spend Force on this attack."""
    rec = find_edition(pos.edition)
    abl_a, abl_t = _abilities(pos, a), _abilities(pos, t)
    if has(abl_t, "Frozen in Carbonite") and rec.defines("Frozen in Carbonite"):
        w.illegal.append(Reason(_("{t} is Frozen in Carbonite: it is never a legal target").format(t=t.id), _cite(pos, "PL p.47")))
    if has(abl_t, "Execute Order 66") and has(abl_a, "Order 66"):
        w.illegal.append(Reason(_("{t} has Execute Order 66: characters with Order 66 cannot target it").format(t=t.id), _cite(pos, "PL p.42; CS g.5")))
    fragile = next((split_ability(x)[1] for x in abl_a if split_ability(x)[0].lower() == "fragile"), None)
    if fragile and rec.defines("Fragile"):
        hp = pos.stats_of(a).hp
        if hp is not None and hp - a.damage_taken < fragile:
            w.illegal.append(
                Reason(
                    _("{a} is Fragile {n}: with {left} Hit Points left it cannot attack").format(a=a.id, n=fragile, left=hp - a.damage_taken),
                    _cite(pos, "PL p.47"),
                )
            )
    # saves made before the attack roll: the attack may never reach this target
    if has(abl_t, "Bombad Gungan") and rec.defines("Bombad Gungan"):
        w.stands *= 1 - saves.p_save(11)
        w.notes.append(
            Reason(
                _(
                    "{t} is a Bombad Gungan: before the roll it makes a save of 11; on a success the attack goes to another character within 6 squares (the "
                    "chances count only the attack on {t})"
                ).format(t=t.id),
                _cite(pos, "PL p.35"),
            )
        )
    if saves.is_living(abl_a) and rec.defines("Pheromones"):
        for f in _enemies(pos, a):
            if has(_abilities(pos, f), "Pheromones") and _within(pos, f, a, 6):
                w.stands *= saves.p_save(11)
                w.notes.append(
                    Reason(
                        _(
                            "{f}'s Pheromones: {a}, a living enemy within 6 squares, must make a save of 11 or the attack is negated (it still counts as made)"
                        ).format(f=f.id, a=a.id),
                        _cite(pos, "PL p.57"),
                    )
                )
                break
    if has(abl_a, "Squad Assault"):
        same = [f for f in _allies(pos, a) if f.card and f.card == a.card and _within(pos, a, f, 6)]
        if len(same) >= 3:
            w.mods.append(_mod(N_("Squad Assault ({n} same-name allies within 6)"), "attack", 4, _cite(pos, "PL p.63"), n=len(same)))
    if has(abl_a, "Disintegration") and not w.crit_immune:
        if t.size.footprint > 1 and rec.disintegration_large_extra:
            w.crit_extra += rec.disintegration_large_extra
            w.notes.append(
                Reason(_("Disintegration: a natural 20 against a Large or bigger character adds 40 damage after doubling"), _cite(pos, "PL p.39-40"))
            )
        else:
            w.notes.append(
                Reason(
                    _("Disintegration: on a natural 20 (5%) {t} is defeated whatever its Hit Points, even if it avoids the damage").format(t=t.id),
                    _cite(pos, "PL p.39-40; CS g.4"),
                )
            )
    if has(abl_t, "Force Immunity") and rec.defines("Force Immunity") and pos.stats_of(a).force:
        w.no_force_reroll = _("{t} has Force Immunity: {a} cannot spend Force points to reroll an attack against it").format(t=t.id, a=a.id)
    elif pos.stats_of(a).force and (who := saves.force_blocked(pos, a, lambda f: _abilities(pos, f))):
        w.no_force_reroll = _("{a} is within 6 squares of {who}'s Ysalamiri: it cannot spend Force points").format(a=a.id, who=who)
    _swm_damage_abilities(pos, a, t, adjacent=adjacent, moved=moved, w=w)
    # the defender's side may move the attack or its damage to another character (its choice)
    for f in _allies(pos, t):
        abl_f = _abilities(pos, f)
        card_t = pos.card_of(t)
        name_t = (card_t.name if card_t is not None else t.id).lower()  # typed in without a card: its id names it
        guards = [
            g
            for g, ok in (("Bodyguard", True), ("Emperor's Bodyguard", "emperor" in name_t or "palpatine" in name_t), ("Xizor's Bodyguard", "xizor" in name_t))
            if ok and has(abl_f, g)
        ]
        if guards and engine.adjacent(pos, f, t):
            w.notes.append(
                Reason(
                    _("{f}'s {ability}: adjacent to {t}, it may take the damage of this attack instead (decided before Shields and Damage Reduction)").format(
                        f=f.id, ability=guards[0], t=t.id
                    ),
                    _cite(pos, "PL p.35, p.42, p.67; CS g.2, g.5"),
                )
            )
        for name, ok in (("Draw Fire", True), ("Droid Defender", _droid(pos, t))):
            if ok and has(abl_f, name) and _within(pos, f, t, 6) and engine.sight(pos, a.id, f.id).line_of_sight:
                w.notes.append(
                    Reason(
                        _("{f}'s {ability}: {a} may be made to attack {f} instead, unless it makes a save of 11 (decided before the roll)").format(
                            f=f.id, ability=name, a=a.id
                        ),
                        _cite(pos, "PL p.41; CS g.4"),
                    )
                )

    # between each hit and its damage
    def abilities_of(f: Figure) -> tuple[str, ...]:
        return _abilities(pos, f)

    def cite(where: str) -> str:
        return _cite(pos, where)

    w.steps_first = saves.damage_steps(pos, a, t, melee=melee, adjacent=adjacent, abilities_of=abilities_of, cite=cite, first_attack=True)
    w.steps_rest = saves.damage_steps(pos, a, t, melee=melee, adjacent=adjacent, abilities_of=abilities_of, cite=cite, first_attack=False)
    for text, where in saves.notes(pos, a, t, melee=melee, adjacent=adjacent, abilities_of=abilities_of):
        w.notes.append(Reason(text, _cite(pos, where)))
    if w.steps_first:
        w.notes.append(
            Reason(
                _(
                    "the expected damage counts what stands between a hit and its damage (after_hit): each save the defender can make is made, Force-costed "
                    "ones on the first attack only"
                ),
                "reading R36 in docs/readings.md",
            )
        )
    if sum(1 for s in w.steps_first if s.effect == "avoid") > 1:
        w.notes.append(Reason(_("several abilities avoid the same hit: each is a save of its own, tried in turn"), "reading R37 in docs/readings.md"))


def _swm_damage_abilities(pos: Position, a: Figure, t: Figure, *, adjacent: bool, moved: bool, w: _Work) -> None:
    """Abilities that change what a hit deals here: Shaper, Charging Assault, Shockstaff,
    Programmed Target."""
    rec = find_edition(pos.edition)
    abl_a, abl_t = _abilities(pos, a), _abilities(pos, t)
    card_a = pos.card_of(a)
    vong = "yuuzhan vong" in ((card_a.name if card_a is not None else "") + " " + a.id).lower().replace("-", " ")
    for f in _allies(pos, a) if vong else []:
        shaper = _ability_value(_abilities(pos, f), "Shaper")
        if shaper and _within(pos, f, a, 6):
            w.base_extra += shaper  # an increase of the printed Damage: a critical hit doubles it (PL p.61)
            w.notes.append(
                Reason(
                    _("{f}'s Shaper +{n}: {a}'s printed Damage is {n} higher, and a critical hit doubles it").format(f=f.id, n=shaper, a=a.id),
                    _cite(pos, "PL p.61"),
                )
            )
            break
    gallop = next((n for n in ("Galloping Attack", "Gallop Attack") if has(abl_a, n)), None)
    if gallop and adjacent:
        w.notes.append(
            Reason(
                _("{ability}: an attack on {t} made while {a} moves (at least 1 square first, each enemy once) gets +4 Attack").format(
                    ability=gallop, t=t.id, a=a.id
                ),
                _cite(pos, "PL p.48; CS g.7"),
            )
        )
    if has(abl_a, "Strafe Attack"):
        w.notes.append(
            Reason(
                _(
                    "Strafe Attack: flying, {a} may attack {t} as it passes over its space (the roll before entering it), each enemy once, choosing where "
                    "it ends first"
                ).format(a=a.id, t=t.id),
                _cite(pos, "PL p.64; CS g.13"),
            )
        )
    charging = _ability_value(abl_a, "Charging Assault")
    if charging and moved and adjacent and rec.defines("Charging Assault"):
        w.mods.append(_mod(N_("Charging Assault (the turn is a move of up to double speed and this one attack)"), "damage", charging, _cite(pos, "PL p.36")))
    # one ability under two names (PL p.61 "Shockstaff/Electrostaff"): said as the card writes it
    staff_name = next((n for n in ("Shockstaff", "Electrostaff") if has(abl_a, n)), None)
    staff = _ability_value(abl_a, staff_name) if staff_name else None
    if staff_name is not None and adjacent:
        if saves.is_living(abl_t):
            w.notes.append(
                Reason(
                    _("{a}'s {ability}: a hit stuns {t} for this round unless it makes a save of 11").format(a=a.id, ability=staff_name, t=t.id),
                    _cite(pos, "PL p.61"),
                )
            )
        elif staff:
            w.mods.append(_mod(N_("{ability} (an adjacent nonliving enemy)"), "damage", staff, _cite(pos, "PL p.61"), ability=staff_name))
    for text in abl_a:
        if split_ability(text)[0].lower() == "programmed target" and rec.defines("Programmed Target"):
            chosen = named_in(text)
            if chosen is None:
                w.notes.append(
                    Reason(_("Programmed Target: write the enemy chosen after setup in brackets, e.g. 'Programmed Target (obi)'"), _cite(pos, "PL p.57"))
                )
            elif _is_named(pos, t, chosen):
                w.mods.append(_mod(N_("Programmed Target ({t})"), "attack", 4, _cite(pos, "PL p.57"), t=t.id))


def _ability_value(abilities: tuple[str, ...], name: str) -> int | None:
    """The [#] an ability is written with (``Shaper +10`` -> 10); 0 when written without one."""
    for text in abilities:
        n, v = split_ability(text)
        if n.lower() == name.lower():
            return v or 0
    return None


def _swm_after(pos: Position, a: Figure, t: Figure, ans: AttackAnswer, w: _Work, *, adjacent: bool) -> AttackAnswer:
    """What depends on the whole attack: Rend's second hit, Flurry Attack's extra attacks,
    Overwhelming Force against the defender's saves."""
    from dataclasses import replace

    rec = find_edition(pos.edition)
    abl_a = _abilities(pos, a)
    notes = list(ans.notes)
    attacks = list(ans.attacks)
    rend = next((split_ability(x)[1] or rec.rend_default for x in abl_a if split_ability(x)[0].lower() == "rend"), None)
    if rend and adjacent and len(attacks) >= 2:
        first, second = attacks[0], attacks[1]
        # the second hit gets +[#] only when the first hit too: expected damage over both cases
        with_rend = _expected_of(second, w, plus=rend)
        extra = round(first.p_hit * (with_rend - second.expected_damage), 4)
        attacks[1] = replace(
            second, expected_damage=round(second.expected_damage + extra, 4), condition=second.condition + f"; Rend +{rend} if the first hit too"
        )
        notes.append(
            Reason(
                _("Rend +{n}: if both attacks hit {t}, the second deals {n} more ({chance} that both hit)").format(
                    n=rend, t=t.id, chance=f"{first.p_hit * second.p_hit * 100:.0f}%"
                ),
                _cite(pos, "PL p.59; CS g.11"),
            )
        )
    notes += _swm_follow_ups(pos, a, t, ans, w, adjacent=adjacent)
    if has(abl_a, "Flurry Attack"):
        notes.append(
            Reason(
                _("Flurry Attack: each critical hit ({chance} per attack) gives {a} one more attack at once, against any legal target").format(
                    chance=f"{(21 - w.crit_low) * 5}%", a=a.id
                ),
                _cite(pos, "PL p.43; CS g.5"),
            )
        )
    force = pos.stats_of(a).force
    blocked = [s for s in ans.after_hit if s.effect != "extra"]
    if has(abl_a, "Overwhelming Force") and rec.defines("Overwhelming Force") and blocked and (force is None or force >= 1):
        plain = round(_expected_of(attacks[0], w, steps=[s for s in w.steps_first if s.effect == "extra"]), 4)
        notes.append(
            Reason(
                _("with Overwhelming Force (1 Force point) {names} do not apply: expected {expected} per attack").format(
                    names=", ".join(dict.fromkeys(s.ability for s in blocked)), expected=f"{plain:g}"
                ),
                _cite(pos, "PL p.56") + "; reading R38 in docs/readings.md",
            )
        )
    return replace(ans, attacks=tuple(attacks), notes=tuple(notes))


def _swm_follow_ups(pos: Position, a: Figure, t: Figure, ans: AttackAnswer, w: _Work, *, adjacent: bool) -> list[Reason]:
    """What a hit or a defeat sets off, with its chance: Cleave, Rolling Cleave, Impulsive Shot and
    Sweep, Djem So Style, Cortosis Gauntlet, Splash, Flanking Support."""
    rec = find_edition(pos.edition)
    abl_a, abl_t = _abilities(pos, a), _abilities(pos, t)
    out: list[Reason] = []
    defeat = ans.p_defeat
    def pct(p: float) -> str:
        return f"{p * 100:.0f}%"

    others = [e for e in _enemies(pos, a) if e.id != t.id and engine.adjacent(pos, a, e)]
    for name, where in (("Cleave", "PL p.36; CS g.2"), ("Rolling Cleave", "PL p.59-60; CS g.11")):
        if has(abl_a, name) and adjacent:
            chance = pct(defeat) if defeat is not None else _("unknown: the Hit Points left are not known")
            if name == "Cleave" and not others:
                continue
            out.append(
                Reason(
                    _(
                        "{ability}: if this attack defeats {t} ({chance}), {a} makes one immediate attack against another adjacent enemy{how} (once per turn)"
                    ).format(
                        ability=name,
                        t=t.id,
                        chance=chance,
                        a=a.id,
                        how=_(" after moving 1 square, provoking no attack of opportunity") if name == "Rolling Cleave" else "",
                    ),
                    _cite(pos, where),
                )
            )
            break
    if _unique(pos, t):
        for f in _allies(pos, t):
            for name, what in (("Impulsive Shot", _("one immediate attack")), ("Impulsive Sweep", _("one attack against each adjacent enemy"))):
                if has(_abilities(pos, f), name):
                    chance = pct(defeat) if defeat is not None else "?"
                    out.append(
                        Reason(
                            _("{f}'s {ability}: if {t}, a Unique ally, is defeated ({chance}), {f} makes {what} at once (once per turn)").format(
                                f=f.id, ability=name, t=t.id, chance=chance, what=what
                            ),
                            _cite(pos, "PL p.50; CS g.7"),
                        )
                    )
    melee = ans.kind == "melee"
    if has(abl_t, "Djem So Style") and melee and rec.defines("Djem So Style"):
        out.append(
            Reason(
                _(
                    "{t}'s Djem So Style: after each melee hit ({chance}) it makes a save of 11, and on a success attacks {a} at once ({both} per attack)"
                ).format(t=t.id, chance=pct(ans.p_hit), a=a.id, both=pct(ans.p_hit * 0.5)),
                _cite(pos, "PL p.40"),
            )
        )
    cortosis = _ability_value(abl_t, "Cortosis Gauntlet")
    if cortosis and has(abl_t, "Lightsaber Block") and melee and saves.has_lightsaber(abl_a) and rec.defines("Cortosis Gauntlet"):
        out.append(
            Reason(
                _("{t}'s Cortosis Gauntlet {n}: a Lightsaber Block save of {n} or more ({chance}) gives {a} -20 Damage for the rest of the skirmish").format(
                    t=t.id, n=cortosis, chance=pct(float(saves.p_save(cortosis))), a=a.id
                ),
                _cite(pos, "PL p.37"),
            )
        )
    splash = _ability_value(abl_a, "Splash")
    if splash and rec.defines("Splash"):
        near = [f.id for f in pos.figures if f.id not in (a.id, t.id) and engine.adjacent(pos, f, t)]
        out.append(
            Reason(
                _(
                    "{a}'s Splash {n}: hit or miss, each character next to {t} ({near}) takes {n} unless it makes a save of 11; on a miss {t} takes {n} too "
                    "(save 11)"
                ).format(a=a.id, n=splash, t=t.id, near=", ".join(near) or _("none")),
                _cite(pos, "PL p.63"),
            )
        )
    for hid in ans.helpers:
        h = pos.figure(hid)
        if has(_abilities(pos, h), "Flanking Support") and _within(pos, h, t, 6) and rec.defines("Flanking Support"):
            out.append(
                Reason(
                    _(
                        "{h}'s Flanking Support: if this attack hits ({chance}), {t} has -4 Defense for the rest of the round against allies without "
                        "Mounted Weapon"
                    ).format(h=h.id, chance=pct(ans.p_hit), t=t.id),
                    _cite(pos, "PL p.43"),
                )
            )
    return out


def _expected_of(one: OneAttack, w: _Work, *, plus: int = 0, steps: list[Any] | None = None) -> float:
    """An attack's expected damage with ``plus`` more damage per hit, or through other steps."""
    use = (w.steps_first if one.number == 1 else w.steps_rest) if steps is None else steps
    p_crit = 0.0 if w.auto_hit or w.crit_immune else float(F(21 - w.crit_low, 20) * w.stands)
    e_normal = float(saves.expected(one.damage + plus, use))
    e_crit = float(saves.expected(one.critical_damage + plus, use))
    return (one.p_hit - p_crit) * e_normal + p_crit * e_crit


def _reach(pos: Position, f: Figure) -> int | None:
    for text in _abilities(pos, f):
        name, value = split_ability(text)
        if name.lower() == "melee reach":
            return value
    return None


def _within_reach(pos: Position, a: Figure, e: Figure, reach: int | None) -> bool:
    if not reach:
        return False
    d = engine.squares_between(pos, a, e)
    return d is not None and d <= reach and engine.sight(pos, a.id, e.id).line_of_sight


def _within(pos: Position, x: Figure, y: Figure, n: int) -> bool:
    d = engine.squares_between(pos, x, y)
    return d is not None and d <= n


def _situational(pos: Position, a: Figure, t: Figure, rec: EditionRecord, w: _Work) -> None:
    """Abilities whose bonus depends on who stands where (swm.md §8.4 A, B)."""
    abl_a = _abilities(pos, a)
    if has(abl_a, "Crowd Fighting"):
        crowd = [f for f in pos.figures if f.id not in (a.id, t.id) and engine.adjacent(pos, a, f)]
        if crowd:
            w.mods.append(_mod(N_("Crowd Fighting ({n} adjacent besides the target)"), "attack", 2 * len(crowd), _cite(pos, "PL p.37; CS g.3"), n=len(crowd)))
    swarm = split_ability(next((x for x in abl_a if split_ability(x)[0].lower() == "swarm"), "Swarm"))[1]
    if has(abl_a, "Swarm"):
        same = [f for f in _allies(pos, a) if f.card and f.card == a.card and engine.adjacent(pos, f, t)]
        if same:
            w.mods.append(
                _mod(
                    N_("Swarm ({n} same-name allies adjacent to {t})"), "attack", (swarm or 1) * len(same), _cite(pos, "PL p.64; CS g.13"), n=len(same), t=t.id
                )
            )
    if rec.defines("Ataru Style") and has(abl_a, "Ataru Style"):
        near = [e for e in _enemies(pos, a) if _within(pos, a, e, 6)]
        if has(_abilities(pos, t), "Makashi Style Master"):
            w.notes.append(Reason(_("Ataru Style does not work against {id}, a Makashi Style Master").format(id=t.id), _cite(pos, "PL p.53")))
        elif len(near) == 1:
            w.mods.append(_mod(N_("Ataru Style (one enemy within 6)"), "attack", 4, _cite(pos, "PL p.34")))
    _named_allies(pos, a, t, w)
    if _droid(pos, a) and not _unique(pos, a):
        for f in _allies(pos, a):
            if has(_abilities(pos, f), "Fire Control"):
                w.mods.append(_mod(N_("Fire Control ({f})"), "attack", 4, _cite(pos, "PL p.42; CS g.5"), f=f.id))
                break
    if rec.defines("Traps"):
        for f in [a, *_allies(pos, a)]:
            if has(_abilities(pos, f), "Traps") and _within(pos, f, t, 6):
                w.mods.append(_mod(N_("Traps ({f} within 6 of {t})"), "defense", -4, _cite(pos, "PL p.65"), f=f.id, t=t.id))
                break
    if rec.defines("Doctrine of Fear"):
        for f in [t, *_allies(pos, t)]:
            if has(_abilities(pos, f), "Doctrine of Fear") and _within(pos, f, a, 6):
                w.mods.append(_mod(N_("Doctrine of Fear ({f} within 6 of {a})"), "attack", -4, _cite(pos, "PL p.40"), f=f.id, a=a.id))
                break


def _is_named(pos: Position, f: Figure, name: str) -> bool:
    """Does ``f`` answer to the name an ability gives: its card's name contains it, or its id is
    the name with a number after it (``gamorrean2`` for Gamorrean)?"""
    import re

    card = pos.card_of(f)
    wanted = re.sub(r"[\s_-]+", "-", name.strip().lower())
    bare = re.sub(r"[\s_-]*\d*$", "", f.id.lower())
    return name.lower() in ((card.name if card else "") or "").lower() or bare == wanted or f.id.lower() == wanted


def _named_allies(pos: Position, a: Figure, t: Figure, w: _Work) -> None:
    """Abilities that name an ally, written ``Synergy (Chewbacca)``: Synergy, Gang, Protective."""
    for text in _abilities(pos, a):
        name, value = split_ability(text)
        who = named_in(text)
        low = name.lower()
        if low not in ("synergy", "gang", "protective"):
            continue
        if who is None:
            w.notes.append(
                Reason(
                    _("{ability} names an ally on the card: write it in brackets, e.g. '{ability} (Chewbacca)'").format(ability=text.strip()),
                    _cite(pos, {"synergy": "PL p.64", "gang": "PL p.48", "protective": "PL p.57"}[low]),
                )
            )
            continue
        allies = [f for f in _allies(pos, a) if _is_named(pos, f, who)]
        if low == "synergy":
            near = [f for f in allies if _within(pos, f, a, 6)]
            if near:
                w.mods.append(_mod(N_("Synergy ({ally} within 6)"), "attack", 4, _cite(pos, "PL p.64"), ally=near[0].id))
        elif low == "gang":
            near = [f for f in allies if _within(pos, f, t, 6)]
            if near and value:
                w.mods.append(
                    _mod(
                        N_("Gang +{n} ({count} named allies within 6 of {t})"),
                        "attack",
                        value * len(near),
                        _cite(pos, "PL p.48"),
                        n=value,
                        count=len(near),
                        t=t.id,
                    )
                )
        else:  # Protective +[#]: while the named ally is wounded and within 6
            hurt = [f for f in allies if f.damage_taken > 0 and _within(pos, f, a, 6)]
            if hurt and value:
                w.mods.append(_mod(N_("Protective ({ally} is wounded and within 6)"), "damage", value, _cite(pos, "PL p.57"), ally=hurt[0].id))


def _phantom(pos: Position, f: Figure) -> str | None:
    """SWM 2008 Hologram or Light Spirit (PL p.49, p.51): never adjacent to anyone, never the
    nearest enemy, never affected by commander effects."""
    rec = find_edition(pos.edition)
    return next((n for n in ("Hologram", "Light Spirit") if rec.defines(n) and has(_abilities(pos, f), n)), None)


def _swm_nearest(pos: Position, a: Figure, sniper: bool) -> tuple[int | None, list[str]]:
    """Nearest enemies in line of sight, leaving out those that never count as nearest:
    Stealth with cover beyond 6 squares; (2008) Invisibility, and Cloaked with cover; (2008)
    Hologram and Light Spirit."""
    rec = find_edition(pos.edition)

    def skip(e: Figure, s: engine.SightAnswer) -> bool:
        abl_e = _abilities(pos, e)
        if _phantom(pos, e):
            return True
        def covered() -> bool | None:  # asked only when it decides: cover is the costly check
            return engine.cover(pos, a.id, e.id, s, ignore_figures=sniper).cover

        trapped = rec.defines("It's a Trap!") and any(
            has(_abilities(pos, f), "It's a Trap!") and _within(pos, f, e, 6) for f in [a, *_allies(pos, a)])
        if has(abl_e, "Stealth") and not trapped and (engine.squares_between(pos, a, e) or 0) > 6 and covered():
            return True
        return (rec.defines("Invisibility") and has(abl_e, "Invisibility")) or (
            rec.defines("Cloaked") and has(abl_e, "Cloaked") and not engine.adjacent(pos, a, e) and bool(covered())
        )

    return engine.nearest_enemies(pos, a.id, skip)


def _combined_fire(pos: Position, a: Figure, t: Figure, helpers: tuple[str, ...], w: _Work) -> tuple[list[str], list[Reason]]:
    used: list[str] = []
    refused: list[Reason] = []
    if not helpers:
        return used, refused
    rule = _cite(pos, "PL p.21-22; CS r.8")
    abl_a = _abilities(pos, a)
    if has(abl_a, "Melee Attack") or pos.stats_of(a).damage == 0:
        refused += [Reason(_("{h}: {id} has Melee Attack or deals no damage, so it cannot receive combined fire").format(h=h, id=a.id), rule) for h in helpers]
        return used, refused
    sync = has(abl_a, "Synchronized Fire")
    mounted = has(abl_a, "Mounted Weapon")
    for hid in helpers:
        h = pos.figure(hid)
        abl_h = _abilities(pos, h)
        why, why_rule = None, rule
        if h.id == a.id:
            why = _("the attacker cannot help itself")
        elif h.side != a.side:
            why = _("{h} is not an ally of {a}").format(h=h.id, a=a.id)
        elif h.activated:
            why = _("{h} has already activated this round").format(h=h.id)
        elif not engine.sight(pos, h.id, t.id).line_of_sight:
            why = _("{h} has no line of sight to {t}").format(h=h.id, t=t.id)
        elif has(abl_h, "Melee Attack"):
            why = _("{h} has Melee Attack").format(h=h.id)
        elif pos.stats_of(h).damage == 0:
            why = _("{h} deals no damage").format(h=h.id)
        elif mounted and not has(abl_h, "Mounted Weapon") and not (has(abl_h, "Gunner") and engine.adjacent(pos, h, a)):
            why = _("{a} has Mounted Weapon: only allies with Mounted Weapon, or an adjacent Gunner, combine fire with it").format(a=a.id)
            why_rule = _cite(pos, "PL p.48, p.55; CS g.9")
        if why:
            refused.append(Reason(why, why_rule))
            continue
        bonus = 6 if sync and _droid(pos, h) else 4
        extra = " (Synchronized Fire: +6)" if bonus == 6 else ""
        english, local = _both(N_("combined fire from {helper}"), helper=h.id)
        w.mods.append(Modifier(english + extra, "attack", bonus, rule if bonus == 4 else _cite(pos, "PL p.10, p.64; CS g.13"), local + extra))
        if pos.stats_of(h).damage is None:
            w.notes.append(Reason(_("{helper}'s Damage is unknown; a helper must deal damage (check the card)").format(helper=h.id), rule))
        spot = next((split_ability(x)[1] for x in abl_h if split_ability(x)[0].lower() == "spotter"), None)
        if has(abl_h, "Spotter") and _within(pos, h, t, 6):
            if spot:
                w.mods.append(_mod(N_("Spotter ({helper})"), "damage", spot, _cite(pos, "PL p.63; CS g.12"), helper=h.id))
            else:
                w.notes.append(
                    Reason(
                        _("{helper}'s Spotter: the card's damage bonus is not written in; add it as 'Spotter +N'").format(helper=h.id),
                        _cite(pos, "PL p.63; CS g.12"),
                    )
                )
        used.append(h.id)
    if has(abl_a, "Flux Density") and any(_droid(pos, pos.figure(x)) for x in used):
        w.mods.append(_mod(N_("Flux Density (a Droid combines fire)"), "damage", 10, _cite(pos, "PL p.43")))
    if used:
        w.notes.append(
            Reason(
                n_(
                    "{helpers} activates now and does not count against the phase's activations; helpers are declared before the roll",
                    "{helpers} activate now and do not count against the phase's activations; helpers are declared before the roll",
                    len(used),
                ).format(helpers=", ".join(used)),
                rule,
            )
        )
    return used, refused


def _apply_effects(pos: Position, game: str, ed: str, owner: Figure, abilities: tuple[str, ...], role: str, ctx: dict[str, bool], w: _Work) -> None:
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
            for stat in ("attack", "damage", "defense"):
                amount = getattr(eff, stat)
                if stat in eff.uses_value:
                    amount = v if v is not None else amount
                if amount:
                    w.mods.append(Modifier(eff.name, stat, amount, rule))
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
    dmg_bonus = extra + sum(m.value for m in w.mods if m.applies_to == "damage")
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
        return OneAttack(number, cond, bonus, needs, p_hit, normal, crit, expected, p_defeat)

    attacks: list[OneAttack] = []
    if lines:
        for i, (bonus, base, _condition) in enumerate(lines, 1):
            attacks.append(one(i, attack_bonus - atk + bonus, base, condition if i > 1 else "first attack"))
    else:
        for i in range(1, n_attacks + 1):
            attacks.append(one(i, attack_bonus, dmg, condition if i > 1 else "first attack"))
            if twin:
                attacks.append(one(i, attack_bonus, dmg, "Twin Attack: same target, only if it is still standing"))
    first = attacks[0]
    critical_on = tuple(range(w.crit_low, 21))
    reroll = None
    force = pos.stats_of(a).force
    if w.no_force_reroll:
        w.notes.append(Reason(w.no_force_reroll, _cite(pos, "PL p.44, p.67")))
    elif find_edition(pos.edition).attack.force_reroll and force and not w.auto_hit and first.p_hit < 1:
        # SWM: 1 Force point rerolls the attack roll just made, a natural 1 included; the second
        # result stands (PL p.11, CS r.9). Mettle adds +4 to the reroll (PL p.54).
        abl = _abilities(pos, a)
        bonus = 4 if has(abl, "Mettle") or has(abl, "Karmic Mettle") else 0
        again = one(1, first.attack_bonus + bonus, dmg if not lines else lines[0][1], "reroll")
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
    )


def _not_modelled(pos: Position, *figs: Figure) -> tuple[str, ...]:
    rec = find_edition(pos.edition)
    game, ed = rec.family, rec.name
    out: list[str] = []
    for f in figs:
        for text in _abilities(pos, f):
            c = classify(game, text, ed)
            if c.status == "known":
                out.append(f"{f.id}: {text}")
            elif c.status == "unknown":
                out.append(f"{f.id}: {text} (not a {game.upper()} glossary name the assistant knows)")
        for cond in f.conditions:
            if cond not in rec.attack.modelled_conditions:
                out.append(f"{f.id}: condition '{cond}'")
    return tuple(dict.fromkeys(out))


# --- D&D Miniatures --------------------------------------------------------------------------


def _ddm_lines(pos: Position, f: Figure, kind: str) -> list[tuple[int | None, int | None, int]]:
    """(bonus, base damage, extra damage) per attack of the chosen line; inline stats set the first."""
    card = pos.card_of(f)
    stats: Stats = f.stats
    lines: list[tuple[int | None, int | None, int]] = []
    if isinstance(card, DdmCard):
        src = card.melee if kind == "melee" else card.ranged
        for line in src or ():
            lines.append((line.bonus, line.damage, sum(x.amount or 0 for x in line.extra)))
    first_bonus = stats.attack if kind == "melee" else stats.ranged_attack
    first_damage = stats.damage if kind == "melee" else stats.ranged_damage
    if first_bonus is not None or first_damage is not None:
        if lines:
            b, d, x = lines[0]
            lines[0] = (first_bonus if first_bonus is not None else b, first_damage if first_damage is not None else d, x)
        else:
            lines = [(first_bonus, first_damage, 0)]
    return lines


def _centre_line_flanks(att: tuple[int, int], partner: tuple[int, int], t: Figure) -> bool:
    """TC-21: the line between the centres passes through opposite sides of the defender's space."""
    n = t.size.footprint
    x0, y0, x1, y1 = t.at.col, t.at.row, t.at.col + n, t.at.row + n
    p = (F(2 * att[0] + 1, 2), F(2 * att[1] + 1, 2))
    q = (F(2 * partner[0] + 1, 2), F(2 * partner[1] + 1, 2))

    def crosses(side: str) -> bool:
        (ax, ay), (bx, by) = p, q
        if side in ("W", "E"):
            x = x0 if side == "W" else x1
            if (ax - x) * (bx - x) > 0 or ax == bx:
                return False
            return y0 <= ay + (by - ay) * (x - ax) / (bx - ax) <= y1
        y = y0 if side == "N" else y1
        if (ay - y) * (by - y) > 0 or ay == by:
            return False
        return x0 <= ax + (bx - ax) * (y - ay) / (by - ay) <= x1

    return (crosses("W") and crosses("E")) or (crosses("N") and crosses("S"))


def _ddm_attack(
    pos: Position, a: Figure, t: Figure, *, moved: bool, charge: bool, kind: str | None, helpers: tuple[str, ...], opportunity: bool = False
) -> AttackAnswer:
    w = _Work()
    board = Board.of(pos)
    adjacent = engine.adjacent(pos, a, t)
    if kind is None:
        kind = "melee" if adjacent or not _ddm_lines(pos, a, "ranged") else "ranged"
    lines = _ddm_lines(pos, a, kind)
    if not lines:
        raise AssistantError(
            _("{id} has no {kind} attack line (its card gives none): add 'stats: {{{attack_key}: N, {damage_key}: N}}'").format(
                id=a.id, kind=kind, attack_key='attack' if kind == 'melee' else 'ranged_attack', damage_key='damage' if kind == 'melee' else 'ranged_damage'
            )
        )
    bonus0 = _require(lines[0][0], f"{kind} attack", a)
    base0 = _require(lines[0][1], f"{kind} damage", a)
    ac = _require(pos.stats_of(t).defense, "AC", t)
    if helpers:
        w.notes.append(Reason(_("combined fire is a Star Wars Miniatures rule; ignored here"), _cite(pos, "§ Testy ataku p.11")))
    if t.side == a.side:
        w.illegal.append(
            Reason(
                _("{t} is friendly: friendly creatures are never the target of a melee or ranged attack").format(t=t.id), _cite(pos, "§ Ataki dystansowe p.15")
            )
        )
    los = engine.sight(pos, a.id, t.id)
    cov = engine.cover(pos, a.id, t.id, los, force_kind=kind)
    terrain = board.terrain
    def a_on(kind_: SquareTerrain) -> bool:
        return any((s.col, s.row) in terrain.get(kind_, frozenset()) for s in a.space)


    reach = _reach(pos, a)
    if kind == "melee" and not adjacent and reach:
        d = engine.squares_between(pos, a, t)
        if d is not None and d <= reach:
            if not los.line_of_sight:
                w.illegal.append(Reason(_("Melee Reach {reach}: {a} cannot see {t}").format(reach=reach, a=a.id, t=t.id), _cite(pos, "glossary 'Melee Reach'")))
            w.notes.append(
                Reason(
                    _("Melee Reach {reach}: {id} at {value}; sight and cover follow the ranged rules, no flanking").format(
                        reach=reach, id=t.id, value=count_squares(d)
                    ),
                    _cite(pos, "glossary 'Melee Reach'"),
                )
            )
            cov = engine.cover(pos, a.id, t.id, los, force_kind="ranged")
            adjacent = True
            reach_attack = True
        else:
            reach_attack = False
    else:
        reach_attack = False
    if kind == "ranged":
        abl_t = _abilities(pos, t)
        if (has(abl_t, "Invisible") or "invisible" in t.conditions) and not has(_abilities(pos, a), "Blindsight"):
            w.illegal.append(Reason(_("{t} is Invisible: {a} cannot see it to shoot").format(t=t.id, a=a.id), _cite(pos, "glossary 'Invisible'")))
        elif has(abl_t, "Hide") and not engine.adjacent(pos, a, t) and not has(_abilities(pos, a), "Blindsight"):
            if engine.cover(pos, a.id, t.id, los, ignore_figures=True, force_kind="ranged").cover:
                w.illegal.append(
                    Reason(
                        _("{t} Hides: it has cover from something other than a creature, so it is Invisible to {a}").format(t=t.id, a=a.id),
                        _cite(pos, "glossary 'Hide'"),
                    )
                )
    if kind == "melee":
        if not adjacent:
            w.illegal.append(
                Reason(
                    _("{t} is not adjacent to {a}: melee attacks reach adjacent enemies only").format(t=t.id, a=a.id),
                    _cite(pos, "p.4 Melee Attack; § Ataki wręcz p.10"),
                )
            )
        if charge:
            w.mods.append(_mod(N_("charge"), "attack", 2, _cite(pos, "§ Szarżowanie p.13")))
            w.notes.append(
                Reason(
                    _("the charge's own conditions (nearest enemy, clear straight route, 2 squares to double Speed) are not checked here"),
                    _cite(pos, "§ Szarżowanie p.13"),
                )
            )
        # flanking (§6.4)
        immune = any(x in _ddm_type(pos, t) for x in ("ooze", "elemental"))
        if not immune and adjacent and not reach_attack:
            for ally in _allies(pos, a):
                if not _active(ally) or not engine.adjacent(pos, ally, t):
                    continue
                if any(_centre_line_flanks((sa.col, sa.row), (sp.col, sp.row), t) for sa, sp in product(a.space, ally.space)):
                    w.mods.append(_mod(N_("flanking with {ally}"), "attack", 2, _cite(pos, "§ Flankowanie p.12 (centre-line test)"), ally=ally.id))
                    break
        if a_on(SquareTerrain.BLOOD_ROCK):
            w.crit_low = 19
            w.notes.append(Reason(_("{id} is on blood rock: melee criticals on 19-20, automatic hits").format(id=a.id), _cite(pos, "§ Krwawe skały p.25")))
        if a_on(SquareTerrain.RISKY):
            w.mods.append(_mod(N_("risky terrain"), "damage", 5, _cite(pos, "§ Teren ryzykowny p.26")))
        if set(t.conditions) & HELPLESS:
            w.auto_hit = w.double_damage = True
            w.notes.append(
                Reason(
                    _("{id} is helpless: a melee attack hits without a roll and deals double damage (extra damage not doubled)").format(id=t.id),
                    _cite(pos, "§ Modyfikatory ataku p.17"),
                )
            )
    else:
        if not los.line_of_sight:
            w.illegal.append(Reason(_("{a} cannot see {t}: a ranged attack needs line of sight").format(a=a.id, t=t.id), _cite(pos, "§ Ataki dystansowe p.15")))
        else:
            near, ids = _ddm_nearest(pos, a)
            if t.id not in ids:
                w.illegal.append(
                    Reason(
                        _("a ranged attack must target the nearest enemy {a} can see: {nearest} at {squares}").format(
                            a=a.id, nearest=", ".join(ids), squares=count_squares(near)
                        ),
                        _cite(pos, "§ Ataki dystansowe p.15; glossary 'nearest enemy'"),
                    )
                )
        for e in _enemies(pos, a):
            if _active(e) and engine.adjacent(pos, a, e):
                shield = engine.cover(pos, e.id, a.id, force_kind="melee")
                if shield.cover is False:  # None: that enemy cannot see it, which also lifts the ban
                    w.illegal.append(
                        Reason(
                            _("{a} is in {e}'s threatened area: no ranged attacks while threatened").format(a=a.id, e=e.id),
                            _cite(pos, "§ Obszar zagrożenia p.11"),
                        )
                    )
        in_melee = [al for al in _allies(pos, a) if engine.adjacent(pos, al, t) and (_active(al) or _active(t))]
        if in_melee:
            if has(_abilities(pos, a), "Precise Shot"):
                w.notes.append(
                    Reason(
                        _("Precise Shot: no +4 for firing into melee ({id} is fighting {id2})").format(id=in_melee[0].id, id2=t.id),
                        _cite(pos, "glossary 'Precise Shot'"),
                    )
                )
            else:
                w.mods.append(
                    _mod(N_("target in melee with {other}"), "defense", 4, _cite(pos, "§ Modyfikatory ataku dystansowego p.17"), other=in_melee[0].id)
                )
        if set(t.conditions) & HELPLESS:
            w.mods.append(_mod(N_("{t} is helpless"), "attack", 4, _cite(pos, "§ Modyfikatory ataku dystansowego p.17"), t=t.id))
    if cov.cover:
        english, local = _both(N_("melee cover ({sources})") if cov.kind == "melee" else N_("cover ({sources})"), sources=lambda: source_names(cov.sources))
        w.mods.append(Modifier(english, "defense", 4, cov.reasons[0].rule, local))
    if "stunned" in t.conditions:
        w.mods.append(_mod(N_("{t} is stunned"), "defense", -2, _cite(pos, "§ Modyfikatory ataku p.17"), t=t.id))
    if a_on(SquareTerrain.SACRED_CIRCLE):
        w.mods.append(_mod(N_("sacred circle"), "attack", 2, _cite(pos, "§ Święty krąg p.26")))
    ctx = {"ranged": kind == "ranged", "melee": kind == "melee"}
    rec = find_edition(pos.edition)
    _apply_effects(pos, rec.family, rec.name, t, _abilities(pos, t), "target", ctx, w)
    _hit_stands(pos, a, t, w, melee=kind == "melee")
    dr = next((split_ability(x)[1] for x in _abilities(pos, t) if split_ability(x)[0].lower() == "dr"), None)
    card = pos.card_of(a)
    line0 = (card.melee if kind == "melee" else card.ranged) if isinstance(card, DdmCard) else None
    base_type = (line0[0].damage_type if line0 else None) or kind
    if dr:
        if base_type in ("melee", "ranged"):
            w.reduction = dr
            w.notes.append(
                Reason(
                    _("{id} has DR {dr}: {kind} base damage is reduced by {dr} after doubling; energy and magic damage are not").format(
                        id=t.id, dr=dr, kind=kind
                    ),
                    _cite(pos, "glossary 'DR', 'damage'"),
                )
            )
        else:
            w.notes.append(
                Reason(
                    _("{id}'s DR {dr} does not reduce {base_type} damage").format(id=t.id, dr=dr, base_type=base_type), _cite(pos, "glossary 'DR', 'damage'")
                )
            )
    if "critical hits" in ddm_effects.immunities(_ddm_type(pos, t), _abilities(pos, t)):
        w.crit_immune = True
        w.notes.append(
            Reason(_("{id} is immune to critical hits (creature type); a natural 20 still hits").format(id=t.id), _cite(pos, "glossary creature types"))
        )
    immune_t = ddm_effects.immunities(_ddm_type(pos, t), _abilities(pos, t))
    if base_type.lower() in immune_t:
        w.base_factor = 0
        w.notes.append(
            Reason(_("{t} is immune to {kind} damage: the base damage does not hurt it").format(t=t.id, kind=base_type), _cite(pos, "glossary 'Immune EFFECT'"))
        )
    for text in _abilities(pos, t):
        name = split_ability(text)[0]
        if name.lower().startswith("double damage from ") and name[19:].strip().lower() == base_type.lower():
            w.base_factor = 2
            w.notes.append(
                Reason(
                    _("{t} takes double damage from {kind}: every 5 of the base damage deals 5 more").format(t=t.id, kind=base_type),
                    _cite(pos, "glossary 'Double Damage from ENERGY'"),
                )
            )
    if charge and kind == "melee" and has(_abilities(pos, a), "Pounce"):
        if len(lines) > 1:
            w.notes.append(
                Reason(
                    _("Pounce: charging, {a} makes all its melee attacks against {t}, each with the charge's +2").format(a=a.id, t=t.id),
                    _cite(pos, "glossary 'Pounce'"),
                )
            )
    elif (moved or charge) and len(lines) > 1:
        w.notes.append(Reason(_("{id} moved: one attack only").format(id=a.id), _cite(pos, "§ Aktywowanie istot p.9")))
        lines = lines[:1]
    known_lines = [(b if b is not None else bonus0, d if d is not None else base0, x) for b, d, x in lines]
    _ddm_special(pos, a, t, kind=kind, charge=charge, w=w)
    if opportunity and has(_abilities(pos, t), "Mobility"):
        w.mods.append(_mod(N_("Mobility (against an attack of opportunity)"), "defense", 4, _cite(pos, "glossary 'Mobility'")))
    answer = _finish(
        pos, a, t, kind, bonus0, ac, base0, lines[0][2], w, len(known_lines), "next attack of the line (did not move)", False, [], [], lines=known_lines
    )
    return _ddm_after(pos, a, t, answer, w, kind=kind)


SNEAK_IMMUNE_TYPES = ("construct", "elemental", "ooze", "plant", "undead")


def _ddm_living(pos: Position, f: Figure) -> bool:
    """Every creature is living but Constructs and the Undead (glossary 'living'); a Living Construct is."""
    kinds = _ddm_type(pos, f)
    return "living construct" in kinds or not ("construct" in kinds or "undead" in kinds)


def _ddm_special(pos: Position, a: Figure, t: Figure, *, kind: str, charge: bool, w: _Work) -> None:
    """D&D Miniatures abilities that change this attack: Sneak Attack and Backstab, Smite,
    Powerful Charge, Set against Charge, Phalanx Fighting, Stench."""
    abl_a, abl_t = _abilities(pos, a), _abilities(pos, t)
    flanking = any(m.source.startswith("flanking with") for m in w.mods)
    unaware = not engine.sight(pos, t.id, a.id).line_of_sight
    helpless = bool(set(t.conditions) & (HELPLESS | {"stunned"}))
    sneak_immune = any(x in _ddm_type(pos, t) for x in SNEAK_IMMUNE_TYPES) and "living construct" not in _ddm_type(pos, t)
    why = _("flanking") if flanking else _("{t} is stunned or helpless").format(t=t.id) if helpless else _("{t} cannot see {a}").format(t=t.id, a=a.id)
    sneak = None
    if kind == "melee" and (flanking or helpless or unaware):
        sneak = ("Melee Sneak Attack", _ability_value(abl_a, "Melee Sneak Attack"))
    elif kind == "ranged" and (helpless or unaware) and _within(pos, a, t, 6):
        sneak = ("Ranged Sneak Attack", _ability_value(abl_a, "Ranged Sneak Attack"))
    w.sneak = bool(sneak and sneak[1] and not sneak_immune)
    if sneak and sneak[1]:
        if sneak_immune:
            w.notes.append(
                Reason(
                    _("{t} is immune to sneak attacks (creature type): no {ability}").format(t=t.id, ability=sneak[0]),
                    _cite(pos, "glossary 'Construct', 'Elemental', 'Ooze'"),
                )
            )
        else:
            w.mods.append(
                _mod(N_("{ability} ({why})"), "damage", sneak[1], _cite(pos, "glossary 'Melee Sneak Attack', 'Ranged Sneak Attack'"), ability=sneak[0], why=why)
            )
            backstab = _ability_value(abl_a, "Backstab")
            if backstab:
                w.mods.append(_mod(N_("Backstab (with a sneak attack)"), "damage", backstab, _cite(pos, "glossary 'Backstab'")))
    if kind == "melee":
        for text in abl_a:
            name, value = split_ability(text)
            if not name.lower().startswith("smite") or not value:
                continue
            foe = name[5:].strip()
            if _ddm_is(pos, t, foe):
                w.mods.append(
                    _mod(
                        N_("{ability} (limited uses: declared before the roll, a miss uses it up)"),
                        "damage",
                        value,
                        _cite(pos, "glossary 'Smite CREATURE'"),
                        ability=name,
                    )
                )
            break
        power = _ability_value(abl_a, "Powerful Charge")
        if charge and power:
            w.mods.append(_mod(N_("Powerful Charge"), "damage", power, _cite(pos, "glossary 'Powerful Charge'")))
        against = _ability_value(abl_t, "Set against Charge")
        if charge and against:
            w.notes.append(
                Reason(
                    _("{t} is Set against Charge {n}: {a} takes {n} damage after its charge move, before this attack (no DR)").format(
                        t=t.id, n=against, a=a.id
                    ),
                    _cite(pos, "glossary 'Set against Charge'"),
                )
            )
    if has(abl_t, "Phalanx Fighting") and any(has(_abilities(pos, f), "Phalanx Fighting") and engine.adjacent(pos, f, t) for f in _allies(pos, t)):
        w.mods.append(_mod(N_("Phalanx Fighting (next to an ally with it)"), "defense", 2, _cite(pos, "glossary 'Phalanx Fighting'")))
    for who, stat, sign in ((a, "attack", -2), (t, "defense", -2)):
        if has(_abilities(pos, who), "Stench") or not _ddm_living(pos, who):
            continue
        smelly = next((f for f in pos.figures if f.id != who.id and has(_abilities(pos, f), "Stench") and engine.adjacent(pos, f, who)), None)
        if smelly:
            w.mods.append(_mod(N_("Stench ({f} next to {who})"), stat, sign, _cite(pos, "glossary 'Stench'"), f=smelly.id, who=who.id))


def _ddm_said(pos: Position, a: Figure, t: Figure, ans: AttackAnswer, *, kind: str) -> list[Reason]:
    """DDM abilities the advisor states with their chance rather than folds into the numbers:
    Arrow Catching Shield, Hurling Charge, Mounted Melee Attack, Pushback, Whirlwind Attack,
    Simultaneous Attack, Death Strike, Death Burst."""
    abl_a, abl_t = _abilities(pos, a), _abilities(pos, t)
    out: list[Reason] = []
    def pct(p: float | None) -> str:
        return f"{p * 100:.0f}%" if p is not None else "?"

    if kind == "ranged":
        for f in _allies(pos, t):
            if has(_abilities(pos, f), "Arrow Catching Shield") and engine.adjacent(pos, f, t):
                out.append(
                    Reason(
                        _(
                            "{f}'s Arrow Catching Shield: this ranged attack goes to {f} instead, with sight, range and cover as if {t} were still the target"
                        ).format(f=f.id, t=t.id),
                        _cite(pos, "glossary 'Arrow Catching Shield'"),
                    )
                )
                break
    if has(abl_a, "Hurling Charge"):
        out.append(
            Reason(
                _(
                    "Hurling Charge: when charging, {a} may make a ranged attack on the creature it charges before the melee attack; if that creature "
                    "leaves its square, the charge ends without a melee attack"
                ).format(a=a.id),
                _cite(pos, "glossary 'Hurling Charge'"),
            )
        )
    if has(abl_a, "Mounted Melee Attack"):
        out.append(
            Reason(
                _("Mounted Melee Attack: {a} may move double its speed and make one melee attack at any point of the move (not when charging)").format(a=a.id),
                _cite(pos, "glossary 'Mounted Melee Attack'"),
            )
        )
    if has(abl_a, "Pushback") and t.size.rank < a.size.rank:
        out.append(
            Reason(
                _("Pushback: if a hit damages {t} ({chance}), {a} may push it 1 square (no attack of opportunity)").format(
                    t=t.id, chance=pct(ans.p_hit), a=a.id
                ),
                _cite(pos, "glossary 'Pushback'"),
            )
        )
    near = [e for e in _enemies(pos, a) if engine.adjacent(pos, a, e)]
    if has(abl_a, "Whirlwind Attack") and len(near) > 1:
        out.append(
            Reason(
                _("Whirlwind Attack: moving at most 1 square, {a} may instead make one melee attack against each enemy in its reach ({enemies})").format(
                    a=a.id, enemies=", ".join(e.id for e in near)
                ),
                _cite(pos, "glossary 'Whirlwind Attack'"),
            )
        )
    for f in _enemies(pos, a):
        if has(_abilities(pos, f), "Slow Effect") and engine.adjacent(pos, f, a):
            dc = _ability_value(_abilities(pos, f), "Slow Effect")
            p = ddm_effects.save_chance(dc or None, pos.stats_of(a).level)
            out.append(
                Reason(
                    _(
                        "{f}'s Slow Effect: {a}, next to it when it activated, makes at most one melee or ranged attack this turn unless it saves against "
                        "DC {dc}{chance}"
                    ).format(f=f.id, a=a.id, dc=dc or "[#]", chance=f" ({float(p) * 100:.0f}%)" if p is not None else ""),
                    _cite(pos, "glossary 'Slow Effect'"),
                )
            )
            break
    # written as a card prints it ("Leap (replaces attacks: +12, 20 damage)") or shortened ("Leap +12 20")
    leap = next((re.findall(r"\d+", text) for text in abl_a if re.match(r"leap\b(?!\s*[a-z])", text.strip(), re.I)), None)
    if leap is not None and kind == "melee":
        # the seed: "one melee attack at +[#], [#] damage" -- the listed bonus replaces the card's
        bonus, dmg = (int(leap[0]) if leap else None), (leap[1] if len(leap) > 1 else "[#]")
        ac = ans.defense
        out.append(
            Reason(
                _("Leap: instead of its attacks, {a} may make one melee attack at +{n}, {damage} damage (against AC {ac}: {needs}+)").format(
                    a=a.id, n=bonus if bonus is not None else "[#]", damage=dmg, ac=ac, needs=max(2, min(20, ac - bonus)) if bonus is not None else "?"
                ),
                _cite(pos, "glossary 'Leap'"),
            )
        )
    if has(abl_a, "Simultaneous Attack"):
        out.append(
            Reason(
                _("Simultaneous Attack: if {a} does not move, it may use the attacks and abilities its card combines, one after another").format(a=a.id),
                _cite(pos, "glossary 'Simultaneous Attack'"),
            )
        )
    if has(abl_t, "Death Strike"):
        out.append(
            Reason(
                _("{t}'s Death Strike: if this attack brings it to 0 Hit Points ({chance}), it makes one melee attack at once, and then dies").format(
                    t=t.id, chance=pct(ans.p_defeat)
                ),
                _cite(pos, "glossary 'Death Strike'"),
            )
        )
    if has(abl_t, "Death Burst"):
        out.append(
            Reason(
                _(
                    "{t}'s Death Burst: if this attack brings it to 0 Hit Points ({chance}), every creature within the burst takes the damage its card "
                    "gives (save against its DC)"
                ).format(t=t.id, chance=pct(ans.p_defeat)),
                _cite(pos, "glossary 'Death Burst'"),
            )
        )
    return out


def _ddm_is(pos: Position, t: Figure, foe: str) -> bool:
    """Is ``t`` of the kind, type or faction a Smite names ("Evil", "Undead"); none named: every enemy."""
    if not foe:
        return True
    low = foe.lower()
    card = pos.card_of(t)
    factions = [f.upper() for f in ((card.factions or ()) if isinstance(card, DdmCard) else ())]
    align = {"evil": "E", "good": "G"}
    if low in align:
        return any(f.endswith(align[low]) for f in factions)
    if low in ("lawful", "chaotic"):
        return any(f.startswith(low[0].upper()) for f in factions)
    return low in _ddm_type(pos, t)


def _ddm_after(pos: Position, a: Figure, t: Figure, ans: AttackAnswer, w: _Work, *, kind: str) -> AttackAnswer:
    """What a DDM attack's hits and kills set off: Rend on the second hit, Cleave after a kill."""
    from dataclasses import replace

    abl_a = _abilities(pos, a)
    notes, attacks = list(ans.notes), list(ans.attacks)
    rend = _ability_value(abl_a, "Rend")
    if rend and len(attacks) >= 2:
        first, second = attacks[0], attacks[1]
        extra = round(first.p_hit * second.p_hit * rend * float(w.stands), 4) if not w.auto_hit else float(rend)
        attacks[1] = replace(
            second, expected_damage=round(second.expected_damage + extra, 4), condition=second.condition + f"; Rend +{rend} if the first hit too"
        )
        notes.append(
            Reason(
                _("Rend +{n}: if both attacks hit {t}, the second deals {n} more ({chance} that both hit)").format(
                    n=rend, t=t.id, chance=f"{first.p_hit * second.p_hit * 100:.0f}%"
                ),
                _cite(pos, "glossary 'Rend'"),
            )
        )
    for text, rule in ddm_effects.on_hit_notes(
        pos,
        a,
        t,
        kind=kind,
        p_hit=ans.p_hit,
        p_defeat=ans.p_defeat,
        sneak=w.sneak,
        abilities_of=lambda f: _abilities(pos, f),
        type_of=lambda f: _ddm_type(pos, f),
        living=_ddm_living(pos, t),
        cite=lambda where: _cite(pos, where),
    ):
        notes.append(Reason(text, rule))
    notes += _ddm_said(pos, a, t, ans, kind=kind)
    if has(abl_a, "Cleave") and kind == "melee":
        chance = f"{ans.p_defeat * 100:.0f}%" if ans.p_defeat is not None else _("unknown: the Hit Points left are not known")
        notes.append(
            Reason(
                _(
                    "Cleave: if this attack kills {t} ({chance}), {a} makes one more melee attack at once against another enemy, with the same attack (once "
                    "per turn)"
                ).format(t=t.id, chance=chance, a=a.id),
                _cite(pos, "glossary 'Cleave'"),
            )
        )
    return replace(ans, attacks=tuple(attacks), notes=tuple(notes))


def _hit_stands(pos: Position, a: Figure, t: Figure, w: _Work, melee: bool = False) -> None:
    """Conceal N and Incorporeal: after a hit the attacker rolls again (TC-38)."""
    abl_a, abl_t = _abilities(pos, a), _abilities(pos, t)
    conceal = max((split_ability(x)[1] or 0 for x in abl_t if split_ability(x)[0].lower() == "conceal"), default=0)
    if conceal and not has(abl_a, "Blindsight") and has(abl_a, "Blind-Fight") and melee:
        w.stands *= 1 - (1 - F(21 - conceal, 20)) ** 2
        w.notes.append(
            Reason(
                _("Blind-Fight: {a} rolls twice against {t}'s Conceal {conceal}; either success stands").format(a=a.id, t=t.id, conceal=conceal),
                _cite(pos, "glossary 'Blind-Fight'"),
            )
        )
    elif conceal and not has(abl_a, "Blindsight"):
        w.stands *= F(21 - conceal, 20)
        w.notes.append(
            Reason(
                _("{id} has Conceal {conceal}: a hit stands only on a further d20 of {conceal}+, even a natural 20").format(id=t.id, conceal=conceal),
                _cite(pos, "glossary 'Conceal'"),
            )
        )
    if has(abl_t, "Incorporeal") and not has(abl_a, "Incorporeal"):
        w.stands *= F(10, 20)
        w.notes.append(Reason(_("{id} is Incorporeal: a hit deals damage only on a further d20 of 11+").format(id=t.id), _cite(pos, "glossary 'Incorporeal'")))


def _ddm_nearest(pos: Position, a: Figure) -> tuple[int | None, list[str]]:
    """The nearest enemy the creature can see: Invisible ones and those that Hide from it
    do not count (unless it has Blindsight)."""
    if has(_abilities(pos, a), "Blindsight"):
        return engine.nearest_enemies(pos, a.id)

    def skip(e: Figure, s: engine.SightAnswer) -> bool:
        abl_e = _abilities(pos, e)
        if has(abl_e, "Invisible") or "invisible" in e.conditions:
            return True
        return has(abl_e, "Hide") and not engine.adjacent(pos, a, e) and bool(engine.cover(pos, a.id, e.id, s, ignore_figures=True, force_kind="ranged").cover)

    return engine.nearest_enemies(pos, a.id, skip)


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
        else:
            row.update(
                {
                    "legal": ans.legal,
                    "illegal_reasons": [r.as_json() for r in ans.illegal_reasons],
                    "needs": ans.needs,
                    "p_hit": ans.p_hit,
                    "expected_damage": ans.expected_damage,
                }
            )
        out.append(row)
    return out
