"""The Star Wars Miniatures attack model (``shared/rules/swm.md`` §6-8), named by :mod:`.family`.

d20 + Attack + modifiers >= Defense + cover + modifiers, with commander effects, combined fire,
the targeting rules (nearest enemy, Stealth, Sniper) and the abilities that follow an attack.
The answer's shape and arithmetic are shared with DDM (:mod:`assistant.rules.attack`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction as F
from typing import Any

from ...abilities import NAME_TRAITS, counts_as_named, has, has_order_66
from ...cards import SwmCard, named_in, split_ability
from ...coords import count_squares
from ...editions import Size
from ...errors import AssistantError
from ...i18n import N_, _, decimal, n_, rule_phrase, source_names
from ...model import Figure, Position
from .. import engine, saves
from ..attack import (
    AttackAnswer,
    Modifier,
    OneAttack,
    _abilities,
    _ability_value,
    _allies,
    _apply_effects,
    _both,
    _cite,
    _droid,
    _enemies,
    _finish,
    _force_user,
    _mod,
    _nonliving,
    _reach,
    _require,
    _unique,
    _within,
    _Work,
)
from ..engine import Reason
from ..record import EditionRecord, find_edition

# --- commander effects (SWM) ---------------------------------------------------------------

#: a commander effect's citation after its card's source (R3); a text answer says it translated (R275)
COMMANDER_EFFECT_RULE = rule_phrase(N_(" (commander effect); only the highest counts: reading R3 in docs/readings.md"))


def named_as(pos: Position, phrase: str, name: str, abilities: tuple[str, ...] | None) -> bool:
    """Does a character called ``name`` count as one whose name contains ``phrase``, by its name or by a
    Pilot, Trooper or Wookiee special ability the edition gives (PL p.57, p.65, p.67; reading R287)?"""
    rec = find_edition(pos.edition)
    return counts_as_named(phrase, name, abilities, tuple(t for t in NAME_TRAITS if rec.defines(t)), rec.trait_names)


def _commander_bonuses(pos: Position, affected: Figure, stat: str, *, moved: bool, target: Figure | None,
                       mods: list[Modifier], notes: list[Reason]) -> None:
    """Add the best commander-effect bonus to ``stat`` for ``affected`` (duplicates never
    stack; only the highest bonus to a stat counts -- swm.md §8.2)."""
    best: tuple[int, tuple[str, str], str] | None = None
    seen_cards: set[str] = set()
    for cmd in pos.figures:
        card = pos.card_of(cmd)
        if not isinstance(card, SwmCard) or card.commander_effect is None or isinstance(card.commander_effect, str):
            continue  # none, or "none"
        if card.name in seen_cards:  # the same effect from two commanders counts once
            continue
        ce = card.commander_effect
        for eff in ce.effects:
            value = getattr(eff, stat)
            if not value:
                continue
            # whom it reaches: the commander itself (self), the other side (enemies), else its own side
            if (eff.affects == "self") != (cmd.id == affected.id):
                continue
            if (eff.affects == "enemies") != (cmd.side != affected.side):
                continue
            if eff.affects == "followers":
                acard = pos.card_of(affected)
                if isinstance(acard, SwmCard) and acard.commander_effect not in (None, "none"):
                    continue  # a commander is not a follower
            elif eff.affects not in ("allies", "enemies", "self"):
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
            # a Pilot, Trooper or Wookiee special ability counts as the word in the name (PL p.57, p.65, p.67; R287)
            if eff.name_contains and not named_as(pos, eff.name_contains, affected.card or affected.id, abl):
                continue
            if eff.requires and not has(abl, eff.requires):
                continue
            voice = None
            if eff.range is not None:
                d = engine.squares_between(pos, cmd, affected)
                if d is None or d > eff.range:
                    # swm2008 PL p.35: an ally of a figure with Booming Voice has its 6-square limit lifted (R168)
                    voice = _booming_voice(pos, cmd) if d is not None and eff.range == 6 else None
                    if voice is None:
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
            if voice is not None:
                notes.append(Reason(_("{voice}'s Booming Voice lifts the 6-square limit of {commander}'s commander effect: it reaches {id}").format(
                    voice=voice, commander=cmd.id, id=affected.id), _cite(pos, "PL p.35")))
            if best is None or value > best[0]:
                rule = f"{card.source}{COMMANDER_EFFECT_RULE}"
                best = (value, _both(N_("commander effect of {commander} ({card})"), commander=cmd.id, card=card.name), rule)
            seen_cards.add(card.name)
            if ce.reading:
                notes.append(Reason(_("reading: {reading}").format(reading=_(ce.reading)), card.source))
    if best is not None:
        mods.append(Modifier(best[1][0], stat, best[0], best[2], best[1][1]))


def swm_attack(
    pos: Position, a: Figure, t: Figure, *, moved: bool, helpers: tuple[str, ...], kind: str | None, charge: bool, opportunity: bool, for_power: bool,
    spend_force: str | None = None, force_paid: bool = False,
) -> AttackAnswer:
    """The SWM attack model (:mod:`.family` names it)."""
    answer = _swm_attack(pos, a, t, moved=moved, helpers=helpers, kind=kind, charge=charge, opportunity=opportunity, for_power=for_power,
                         spend_force=spend_force, force_paid=force_paid)
    unapplied = _commander_effects_not_known(pos)
    if unapplied:
        answer = replace(answer, not_modelled=tuple(dict.fromkeys((*answer.not_modelled, *unapplied))))
    return answer


def _commander_effects_not_known(pos: Position) -> tuple[str, ...]:
    """Each commander on the map whose effect the library holds only as text, or not at all (a card
    imported from SW_Minis_Drafter, whose database names an effect but not its words): listed as not
    modelled, never ignored. Its reach is in those words (most say within 6 squares, some reach every
    follower), so every such commander on the map is listed."""
    unapplied: list[str] = []
    for cmd in pos.figures:
        card = pos.card_of(cmd)
        if not isinstance(card, SwmCard) or card.commander_effect == "none":
            continue
        ce = card.commander_effect
        if ce is None:
            unapplied.append(_("{id}: commander effect of {card} (not known: enter it with 'cards commander')").format(id=cmd.id, card=card.name))
        elif not ce.effects:
            unapplied.append(_("{id}: commander effect \"{text}\" (free text: enter its parts with 'cards commander')").format(id=cmd.id, text=ce.text))
    return tuple(unapplied)


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
    spend_force: str | None = None,
    force_paid: bool = False,
) -> AttackAnswer:
    """``for_power``: only whom it may choose, for a Force power subject to the targeting rules
    (no attack stats needed, and Melee Attack does not limit a power). ``spend_force``: the Force
    power spent before the roll (reading R251), ``force_paid`` when this turn paid for it already."""
    w = _Work()
    sa, st = pos.stats_of(a), pos.stats_of(t)
    rec = find_edition(pos.edition)
    game, ed = rec.family, rec.name
    abl_a, abl_t = _abilities(pos, a), _abilities(pos, t)
    if kind is not None or charge:
        w.notes.append(Reason(_("--melee/--ranged/--charge are D&D Miniatures options; SWM melee is the Melee Attack ability"), _cite(pos, "PL p.54; CS g.9")))
    atk = (sa.attack or 0) if for_power else _require(sa.attack, "Attack", a, pos)
    dfn = (st.defense or 0) if for_power else _require(st.defense, "Defense", t, pos)
    dmg = (sa.damage or 0) if for_power else _require(sa.damage, "Damage", a, pos)

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
        w.never = True
    if rec.defines("Light Spirit") and has(abl_a, "Light Spirit"):
        w.illegal.append(Reason(_("{a} is a Light Spirit: it cannot attack").format(a=a.id), _cite(pos, "PL p.51")))
        w.never = True
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
        w.illegal.append(Reason(_("{t} is Cloaked and has cover: non-adjacent enemies cannot target it").format(t=t.id), _cite(pos, "PL p.36")))
    if rec.defines("Diplomat") and has(abl_t, "Diplomat"):
        others = [e for e in _enemies(pos, a) if e.id != t.id and not has(_abilities(pos, e), "Diplomat") and engine.sight(pos, a.id, e.id).line_of_sight]
        if others:
            w.illegal.append(
                Reason(
                    _("{t} has Diplomat and {other} (no Diplomat) is in {a}'s line of sight").format(t=t.id, other=others[0].id, a=a.id), _cite(pos, "PL p.39")
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
            _force_sense(pos, a, t, sniper, w)
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
        "target-nonliving": _nonliving(pos, t),
        "target-living": saves.is_living(abl_t),  # a Cyborg is living and nonliving both (PL p.37; R270)
        "no-ally-within-6": not any((engine.squares_between(pos, a, o) or 99) <= 6 for o in _allies(pos, a)),
        "ally-within-6": any((engine.squares_between(pos, a, o) or 99) <= 6 for o in _allies(pos, a)),
        "own-turn": not opportunity,
        "opportunity": opportunity,
    }
    _apply_effects(pos, game, ed, a, abl_a, "attacker", ctx, w, other=t)
    _apply_effects(pos, game, ed, t, abl_t, "target", ctx, w, other=a)
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
    if rec.defines("Extra Attack") and has(abl_a, "Extra Attack") and not opportunity:
        # one more attack in its own turn, on top of the others, at the price of not moving (PL p.42)
        if moved:
            w.notes.append(Reason(_("Extra Attack: {id} moved, so it makes no extra attack (making it forbids moving)").format(id=a.id),
                                  _cite(pos, "PL p.42")))
        else:
            n_attacks += 1
            condition = "Extra Attack" if n_attacks == 2 else f"{condition} + Extra Attack"
            w.notes.append(Reason(_("Extra Attack: {id} makes one more attack, and may not move this turn if it does").format(id=a.id),
                                  _cite(pos, "PL p.42")))
    twin = has(abl_a, "Twin Attack") and rec.defines("Twin Attack") and not opportunity
    melee = has(abl_a, "Melee Attack")
    _swm_special(pos, a, t, adjacent=adjacent, melee=melee, moved=moved, w=w)
    if spend_force is not None:
        _spend_force(pos, a, spend_force, force_paid, w)
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
    card_a = pos.card_of(a)
    if has(abl_t, "Execute Order 66") and has_order_66(rec.order_66_names, card_a.name if card_a is not None else None, abl_a):
        w.illegal.append(Reason(_("{t} has Execute Order 66: characters with Order 66 cannot target it").format(t=t.id),
                                _cite(pos, "PL p.42, p.56; CS g.5, g.10") + "; reading R230 in docs/readings.md"))
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
    # a natural 20, not a critical hit: a Droid, which takes no critical damage, is defeated too
    if has(abl_a, "Disintegration"):
        if t.size.footprint > 1 and rec.disintegration_large_extra:
            w.crit_extra += rec.disintegration_large_extra
            w.notes.append(
                Reason(_("Disintegration: a natural 20 against a Large or bigger character adds 40 damage after doubling"), _cite(pos, "PL p.39-40"))
            )
        else:
            w.defeat_on_natural_20 = True
            w.notes.append(
                Reason(
                    _("Disintegration: on a natural 20 (5%) {t} is defeated whatever its Hit Points, even if it avoids the damage").format(t=t.id),
                    _cite(pos, "PL p.39-40; CS g.4"),
                )
            )
    # Avoid Defeat (PL p.34; CS g.2): were it defeated, two saves of 11, both made and it stays in play with
    # 10 Hit Points: the chance to defeat it counts them (R290); the game session rolls them (game/effects.py)
    avoid = saves.avoid_defeat_from(pos, t)
    if avoid is not None:
        w.defeat_avoided = F(1, 4)
        w.notes.append(Reason(_("Avoid Defeat: were {t} defeated, it makes two saves of 11 and, both made (25%), stays in play with 10 Hit Points; "
                                "the chance to defeat it counts them (reading R290 in docs/readings.md)").format(t=t.id), _cite(pos, "PL p.34; CS g.2")))
        if avoid != "Avoid Defeat":
            w.notes.append(Reason(_("{t} has Avoid Defeat by {ally}'s Emergency Life Support: a non-Droid ally next to it").format(t=t.id, ally=avoid),
                                  _cite(pos, "CS g.5")))
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
    if rec.defines("Paralysis") and has(abl_a, "Paralysis") and saves.is_living(abl_t):
        # PL p.56: "Jeśli postać ta trafi żywego przeciwnika ... Cel jest ogłuszony (strona 64). Cel może uniknąć
        # tego efektu rzutem obronnym na 11" (reading R273: said, as Shockstaff's stun is)
        w.notes.append(Reason(_("{a}'s Paralysis: a hit stuns {t} unless it makes a save of 11 (50%)").format(a=a.id, t=t.id),
                              _cite(pos, "PL p.56, p.64")))
    if has(abl_a, "Jolt"):
        # PL p.50: "Wróg trafiony przez atak tej postaci jest ogłuszony (strona 64). Wróg może uniknąć tego efektu
        # rzutem obronnym na 11. Wielkie lub duże postacie ignorują ten efekt" (reading R410: Large and bigger)
        if t.size.rank >= Size.LARGE.rank:
            w.notes.append(Reason(_("{a}'s Jolt: {t} is Large or bigger and ignores its stun").format(a=a.id, t=t.id), _cite(pos, "PL p.50")))
        else:
            w.notes.append(Reason(_("{a}'s Jolt: a hit stuns {t} unless it makes a save of 11 (50%)").format(a=a.id, t=t.id),
                                  _cite(pos, "PL p.50, p.64")))
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
        if staff and saves.is_nonliving(abl_t):  # a Cyborg is both: stunned and the bonus (PL p.37; R270)
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


def _swm_after(pos: Position, a: Figure, t: Figure, ans: AttackAnswer, w: _Work, *, adjacent: bool) -> AttackAnswer:
    """What depends on the whole attack: Rend's second hit, Flurry Attack's extra attacks,
    Overwhelming Force against the defender's saves."""
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
                    names=", ".join(dict.fromkeys(s.ability for s in blocked)), expected=decimal(plain)
                ),
                _cite(pos, "PL p.56") + "; reading R38 in docs/readings.md",
            )
        )
    notes += _force_boosts(pos, a, attacks, w)
    return replace(ans, attacks=tuple(attacks), notes=tuple(notes))


#: the attacker's Force powers that add Damage, decided before the roll (1 Force point each): the name,
#: the bonus, whether it lasts the whole turn (every attack) or only the next attack, and the rule
FORCE_BOOSTS = (
    ("Sith Rage", 10, True, "PL p.62; CS g.12; reading R228 in docs/readings.md"),
    ("Lightsaber Precision", 10, False, "PL p.52; CS g.8; reading R228 in docs/readings.md"),
)


def _boost_named(name: str) -> tuple[str, int, bool, str] | None:
    """The Force power of :data:`FORCE_BOOSTS` a player names (any case), or None."""
    return next((b for b in FORCE_BOOSTS if b[0].lower() == name.strip().lower()), None)


def _spends_allowed(pos: Position, a: Figure) -> int:
    """How many times a turn ``a`` may spend Force points: once (PL p.26; CS r.9), or Master of the
    Force's number (PL p.53; CS g.9, "Master of Force")."""
    abl = _abilities(pos, a)
    return max(1, _ability_value(abl, "Master of the Force") or _ability_value(abl, "Master of Force") or 1)


def _spend_force(pos: Position, a: Figure, name: str, paid: bool, w: _Work) -> None:
    """The Force power the attacker says it spends its Force point on before the roll (``attack
    --spend-force``, reading R251): Sith Rage (+10 Damage on every attack this turn) or Lightsaber
    Precision (+10 Damage on the next attack), a modifier with its rule. Refused where the figure
    has no Force point left or a Ysalamiri within 6 forbids the spend; the once-a-turn spend it uses
    leaves no Force reroll unless Master of the Force allows another (PL p.26, p.53; CS r.9, g.9).
    ``paid``: Sith Rage already bought this turn (its bonus lasts the turn, its point is not spent
    again)."""
    rec = find_edition(pos.edition)
    boost = _boost_named(name)
    if boost is None:
        raise AssistantError(_("--spend-force {power!r}: the assistant applies a Force point spent before the attack roll on {known}; "
                               "a power used instead of an attack is asked with --power").format(
            power=name, known=", ".join(b[0] for b in FORCE_BOOSTS)))
    power, plus, whole_turn, where = boost
    abl_a = _abilities(pos, a)
    if not (has(abl_a, power) and rec.defines(power)):
        raise AssistantError(_("--spend-force {power!r}: {a} has no such Force power ({edition})").format(power=power, a=a.id, edition=rec.name))
    rule = _cite(pos, where.replace("reading R228", "readings R228, R251"))
    cost = 0 if paid and whole_turn else 1
    force = pos.stats_of(a).force
    if cost:
        if force is not None and force < cost:
            w.illegal.append(Reason(_("{a} has no Force point left to spend on {power}").format(a=a.id, power=power),
                                    _cite(pos, "PL p.25-26; CS r.9")))
        blocker = saves.force_blocked(pos, a, lambda f: _abilities(pos, f))
        if blocker is not None:
            w.illegal.append(Reason(_("{a} is within 6 squares of {who}'s Ysalamiri: it cannot spend the Force point on {power}").format(
                a=a.id, who=blocker, power=power), _cite(pos, "PL p.67")))
        if force is None:
            w.notes.append(Reason(_("{a}'s Force points are not known: check that it has 1 to spend on {power}").format(a=a.id, power=power),
                                  _cite(pos, "PL p.25-26; CS r.9")))
    label = (N_("{power} (1 Force point, chosen before the roll: every attack this turn)") if whole_turn and cost else
             N_("{power} (paid this turn: every attack this turn)") if whole_turn else
             N_("{power} (1 Force point, chosen before the roll: this attack only)"))
    w.mods.append(_mod(label, "damage", plus, rule, only_first=not whole_turn, power=power))
    w.spend_force, w.spend_cost = power, cost
    if cost and w.no_force_reroll is None:
        left = None if force is None else force - cost
        if _spends_allowed(pos, a) < 2:
            w.no_force_reroll = _("{a} spends its Force point on {power} before the roll: a figure spends Force points once a turn, "
                                  "so no Force reroll").format(a=a.id, power=power)
            w.no_force_reroll_rule = _cite(pos, "PL p.26; CS r.9")
        elif left is not None and left < 1:
            w.no_force_reroll = _("{a} has no Force point left after {power}: no Force reroll").format(a=a.id, power=power)
            w.no_force_reroll_rule = _cite(pos, "PL p.25-26; CS r.9")


def _force_boosts(pos: Position, a: Figure, attacks: list[OneAttack], w: _Work) -> list[Reason]:
    """Sith Rage and Lightsaber Precision: spending the Force point is the player's choice, made
    before the attack roll, so the answer's numbers stay those without it and each power is said with
    the numbers it gives (reading R228), as Overwhelming Force is (R38). Both work on an attack of
    opportunity too (PL p.52, p.62; CS g.8, g.12). Not where the attacker has no Force point left or a
    Ysalamiri forbids spending one."""
    rec = find_edition(pos.edition)
    abl_a = _abilities(pos, a)
    force = pos.stats_of(a).force
    out: list[Reason] = []
    if not attacks or (force is not None and force < 1):
        return out
    blocker = saves.force_blocked(pos, a, lambda f: _abilities(pos, f))
    if w.spend_force is not None and w.spend_cost and _spends_allowed(pos, a) < 2:
        return out  # the turn's one spend is said (--spend-force): no other power is offered (R251)
    for name, plus, whole_turn, where in FORCE_BOOSTS:
        if not (has(abl_a, name) and rec.defines(name)) or name == w.spend_force:
            continue
        if blocker is not None:
            out.append(Reason(_("{name}: {a} is within 6 squares of {who}'s Ysalamiri, so it cannot spend the Force point").format(
                name=name, a=a.id, who=blocker), _cite(pos, where) + "; " + _cite(pos, "PL p.67")))
            continue
        boosted = attacks if whole_turn else attacks[:1]
        before = sum(one.expected_damage for one in boosted)
        after = sum(_expected_of(one, w, plus=plus) for one in boosted)
        text = (_("with {name} (1 Force point, chosen before the attack roll): +{n} Damage on every attack this turn: a hit deals {hit}; "
                  "expected {after} over {count} instead of {before}") if whole_turn else
                _("with {name} (1 Force point, chosen before the attack roll): +{n} Damage on the next attack: a hit deals {hit}; "
                  "expected {after} over {count} instead of {before}"))
        out.append(Reason(text.format(name=name, n=plus, hit=boosted[0].damage + plus, after=decimal(round(after, 4)),
                                      count=n_("{n} attack", "{n} attacks", len(boosted)).format(n=len(boosted)),
                                      before=decimal(round(before, 4))),
                          _cite(pos, where) + ("; " + rec.turns.cite_force_once if rec.turns.cite_force_once else "")))
    return out


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
    out += _force_answers(pos, a, t, ans, melee=melee, auto_hit=w.auto_hit)
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
    out += _betrayal_and_self_destruct(pos, a, t, ans)
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


def _betrayal_and_self_destruct(pos: Position, a: Figure, t: Figure, ans: AttackAnswer) -> list[Reason]:
    """What the target's Betrayal and Self-Destruct set off, with their chance (reading R410)."""
    rec = find_edition(pos.edition)
    abl_t = _abilities(pos, t)
    out: list[Reason] = []
    then, rule = rec.betrayal_words
    if has(abl_t, "Betrayal") and then and ans.attacks:
        # "Jeśli rzut ataku wroga wykonywany przeciwko tej postaci jest Naturalną 1, to wróg ten staje się członkiem
        # drużyny tej postaci do końca pojedynku" (PL p.34; CS g.2): a natural 1 on any of its rolls, 1 in 20 each
        turned = 1 - 0.95 ** len(ans.attacks)
        out.append(Reason(
            _("{t}'s Betrayal: a natural 1 on {a}'s attack roll ({chance}) makes {a} a member of {t}'s squad until the end of the skirmish, "
              "or until {t} is defeated; {then}").format(t=t.id, a=a.id, chance=f"{turned * 100:.0f}%", then=_(then)),
            _cite(pos, rule)))
    destruct = _ability_value(abl_t, "Self-Destruct")
    if destruct:
        # "Kiedy postać ta jest pokonana, natychmiast zadaje [#] punktów obrażeń wszystkim postaciom z nią
        # sąsiadującym (zarówno wrogom jak i sojusznikom)" (PL p.60; CS g.11)
        near = [f.id for f in pos.figures if f.id != t.id and engine.adjacent(pos, f, t)]
        chance = f"{ans.p_defeat * 100:.0f}%" if ans.p_defeat is not None else _("unknown: the Hit Points left are not known")
        out.append(Reason(
            _("{t}'s Self-Destruct {n}: if this attack defeats {t} ({chance}), each character next to it, friend or foe, takes {n} at once: "
              "{who}").format(t=t.id, n=destruct, chance=chance, who=", ".join(near) or _("none")),
            _cite(pos, "PL p.60; CS g.11")))
    return out


def _can_spend(pos: Position, f: Figure) -> str | None:
    """Why ``f`` cannot spend a Force point now (none left, a Ysalamiri within 6), or None."""
    force = pos.stats_of(f).force
    if force is not None and force < 1:
        return _("{f} has no Force point").format(f=f.id)
    who = saves.force_blocked(pos, f, lambda x: _abilities(pos, x))
    return None if who is None else _("{f} is within 6 squares of {who}'s Ysalamiri").format(f=f.id, who=who)


def _force_answers(pos: Position, a: Figure, t: Figure, ans: AttackAnswer, *, melee: bool, auto_hit: bool) -> list[Reason]:
    """What the defender's side may spend a Force point on, with its chance: Lightsaber Riposte (the
    target, hit in melee, attacks back at once: PL p.52, CS g.8-9, reading R228) and Force Alter (an
    enemy within 6 squares of the attacker makes it roll the attack again: PL p.43, reading R228).
    Neither works on an attacker with Force Immunity (PL p.44: no Force spent to affect it or to
    answer its attacks); a character spends Force once a turn (PL p.26; CS r.9), so each is once."""
    rec = find_edition(pos.edition)
    out: list[Reason] = []
    if not ans.attacks:
        return out
    immune = rec.defines("Force Immunity") and has(_abilities(pos, a), "Force Immunity")
    p_any = 1.0
    for one in ans.attacks:
        p_any *= 1 - one.p_hit
    p_any = 1 - p_any
    if has(_abilities(pos, t), "Lightsaber Riposte") and rec.defines("Lightsaber Riposte") and melee:
        why = _("{a} has Force Immunity").format(a=a.id) if immune else _can_spend(pos, t)
        if why is not None:
            out.append(Reason(_("{t}'s Lightsaber Riposte cannot answer this attack: {why}").format(t=t.id, why=why), _cite(pos, "PL p.52; CS g.8")))
        else:
            out.append(Reason(
                _("{t}'s Lightsaber Riposte (1 Force point, decided right after the hit): when a melee attack hits it ({chance} that one of {count} "
                  "does), it may make one immediate attack against {a}").format(
                    t=t.id, chance=f"{p_any * 100:.0f}%", count=n_("{n} attack", "{n} attacks", len(ans.attacks)).format(n=len(ans.attacks)), a=a.id),
                _cite(pos, "PL p.11, p.52; CS g.8") + "; reading R228 in docs/readings.md"))
    first = ans.attacks[0]
    if rec.defines("Force Alter") and not auto_hit:
        for f in [t, *_allies(pos, t)]:
            if not (has(_abilities(pos, f), "Force Alter") and _within(pos, f, a, 6)):
                continue
            why = _("{a} has Force Immunity").format(a=a.id) if immune else _can_spend(pos, f)
            if why is not None:
                out.append(Reason(_("{f}'s Force Alter cannot make {a} roll again: {why}").format(f=f.id, a=a.id, why=why), _cite(pos, "PL p.43")))
                continue
            out.append(Reason(
                _("{f}'s Force Alter (1 Force point, {a} within 6 squares, decided right after the roll): it may make {a} roll a hit again; "
                  "used on the first attack it then hits {after} instead of {before}").format(
                    f=f.id, a=a.id, after=f"{first.p_hit * _roll_hits(first) * 100:.0f}%", before=f"{first.p_hit * 100:.0f}%"),
                _cite(pos, "PL p.26, p.43") + "; reading R228 in docs/readings.md"))
            break
    return out


def _roll_hits(one: OneAttack) -> float:
    """The chance that a d20 alone hits (the needed roll or better): a reroll must hit again."""
    return float(F(21 - one.needs, 20))


def _expected_of(one: OneAttack, w: _Work, *, plus: int = 0, steps: list[Any] | None = None) -> float:
    """An attack's expected damage with ``plus`` more damage per hit, or through other steps."""
    use = (w.steps_first if one.number == 1 else w.steps_rest) if steps is None else steps
    p_crit = 0.0 if w.auto_hit or w.crit_immune else float(F(21 - w.crit_low, 20) * w.stands)
    e_normal = float(saves.expected(one.damage + plus, use))
    e_crit = float(saves.expected(one.critical_damage + plus, use))
    return (one.p_hit - p_crit) * e_normal + p_crit * e_crit


def _within_reach(pos: Position, a: Figure, e: Figure, reach: int | None) -> bool:
    if not reach:
        return False
    d = engine.squares_between(pos, a, e)
    return d is not None and d <= reach and engine.sight(pos, a.id, e.id).line_of_sight


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


def _booming_voice(pos: Position, commander: Figure) -> str | None:
    """The figure of ``commander``'s side, other than it, whose Booming Voice lifts the 6-square
    limit of its commander effect (swm2008 PL p.35: "każdy sojusznik z efektem dowódcy normalnie
    ograniczonym do 6 pól ma usunięte to ograniczenie"; reading R168 in docs/readings.md), or None."""
    if not find_edition(pos.edition).defines("Booming Voice"):
        return None
    return next((f.id for f in pos.figures if f.side == commander.side and f.id != commander.id and has(_abilities(pos, f), "Booming Voice")), None)


def _phantom(pos: Position, f: Figure) -> str | None:
    """SWM 2008 Hologram or Light Spirit (PL p.49, p.51): never adjacent to anyone, never the
    nearest enemy, never affected by commander effects."""
    rec = find_edition(pos.edition)
    return next((n for n in ("Hologram", "Light Spirit") if rec.defines(n) and has(_abilities(pos, f), n)), None)


def _force_sense(pos: Position, a: Figure, t: Figure, sniper: bool, w: _Work) -> None:
    """swm2008 Force Sense (PL p.46: "(Moc; 1 Punkt Mocy) Wszystkie wrogie postacie tracą umiejętność
    specjalną Skradanie się (Stealth) do końca rundy"): where the target is no legal target only
    because Stealth keeps it from counting as the nearest enemy, the answer says whose Force Sense
    would make it one (reading R273)."""
    rec = find_edition(pos.edition)
    if not (rec.defines("Force Sense") and has(_abilities(pos, t), "Stealth")):
        return
    users = [f for f in [a, *_allies(pos, a)]
             if has(_abilities(pos, f), "Force Sense") and (pos.stats_of(f).force is None or (pos.stats_of(f).force or 0) >= 1)]
    if not users or t.id not in _swm_nearest(pos, a, sniper, stealth=False)[1]:
        return
    w.notes.append(Reason(_("{who}'s Force Sense (1 Force point): every enemy loses Stealth until the end of the round, and {t} then counts as "
                            "{a}'s nearest enemy").format(who=", ".join(f.id for f in users), t=t.id, a=a.id),
                          _cite(pos, "PL p.46; reading R273 in docs/readings.md")))


def _swm_nearest(pos: Position, a: Figure, sniper: bool, stealth: bool = True) -> tuple[int | None, list[str]]:
    """Nearest enemies in line of sight, leaving out those that never count as nearest:
    Stealth with cover beyond 6 squares (``stealth`` False: every enemy's Stealth taken away, as
    2008 Force Sense does); (2008) Invisibility, and Cloaked with cover; (2008) Hologram and Light
    Spirit."""
    rec = find_edition(pos.edition)

    def skip(e: Figure, s: engine.SightAnswer) -> bool:
        abl_e = _abilities(pos, e)
        if _phantom(pos, e):
            return True
        def covered() -> bool | None:  # asked only when it decides: cover is the costly check
            return engine.cover(pos, a.id, e.id, s, ignore_figures=sniper).cover

        trapped = rec.defines("It's a Trap!") and any(
            has(_abilities(pos, f), "It's a Trap!") and _within(pos, f, e, 6) for f in [a, *_allies(pos, a)])
        if stealth and has(abl_e, "Stealth") and not trapped and (engine.squares_between(pos, a, e) or 0) > 6 and covered():
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
        gunner = _ability_value(abl_h, "Gunner")
        if mounted and gunner and engine.adjacent(pos, h, a) and find_edition(pos.edition).defines("Gunner"):
            # "sojusznik z Bronią Pokładową otrzymuje bonus +[#] do Obrażeń" besides the combined fire's Attack bonus
            w.mods.append(_mod(N_("Gunner +{n} ({helper})"), "damage", gunner, _cite(pos, "PL p.48"), n=gunner, helper=h.id))
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
