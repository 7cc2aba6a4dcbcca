"""The D&D Miniatures attack model (``shared/rules/ddm.md`` §5-7), named by :mod:`.family`.

d20 + the card's attack line against AC, with the melee and ranged modifier tables (charge,
flanking, stunned, helpless, target in melee, cover), the special abilities and what follows a hit.
The answer's shape and arithmetic are shared with SWM (:mod:`assistant.rules.attack`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction as F
from itertools import product

from ...abilities import has
from ...cards import CommanderEffect, DdmCard, split_ability
from ...coords import count_squares
from ...editions import SquareTerrain
from ...errors import AssistantError, MissingStatError
from ...i18n import N_, _, source_names
from ...model import Figure, Position, Stats
from .. import ddm_effects, engine
from ..attack import (
    AttackAnswer,
    Modifier,
    _abilities,
    _ability_value,
    _allies,
    _apply_effects,
    _both,
    _cite,
    _ddm_type,
    _enemies,
    _finish,
    _mod,
    _reach,
    _require,
    _within,
    _Work,
    missing_stat,
)
from ..engine import Board, Reason
from ..record import find_edition
from .family import HELPLESS

#: a commander effect's reach in DDM: allies (and enemies) within 6 squares (§ Wpływy dowodzenia p.19-20)
COMMAND_SQUARES = 6


def _active(pos: Position, f: Figure) -> bool:
    """Able to act (glossary 'active'): it threatens, flanks, is in melee (R185)."""
    return not find_edition(pos.edition).inactive(f.conditions)


def ddm_attack(
    pos: Position, a: Figure, t: Figure, *, moved: bool, helpers: tuple[str, ...], kind: str | None, charge: bool, opportunity: bool, for_power: bool,
    spend_force: str | None = None, force_paid: bool = False,
) -> AttackAnswer:
    """The DDM attack model (:mod:`.family` names it). ``for_power`` has no DDM meaning:
    a DDM power checks its own targets (powers.py); D&D Miniatures has no Force points to spend."""
    if spend_force is not None:
        raise AssistantError(_("--spend-force {power!r}: Force points are a Star Wars Miniatures rule; D&D Miniatures has none to spend").format(
            power=spend_force))
    if opportunity and kind == "ranged":
        raise AssistantError(_("a DDM attack of opportunity is a melee attack"))
    return _ddm_attack(pos, a, t, moved=moved, charge=charge, kind="melee" if opportunity else kind, helpers=helpers, opportunity=opportunity)



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
    if not lines:  # the card gives no attack line of this kind: both its numbers are asked for
        raise MissingStatError([missing_stat(f"{kind} attack", a, pos), missing_stat(f"{kind} damage", a, pos)])
    bonus0 = _require(lines[0][0], f"{kind} attack", a, pos)
    base0 = _require(lines[0][1], f"{kind} damage", a, pos)
    ac = _require(pos.stats_of(t).defense, "AC", t, pos)
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
        if _invisible(pos, t) and not has(_abilities(pos, a), "Blindsight"):
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
                if not _active(pos, ally) or not engine.adjacent(pos, ally, t):
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
            if _active(pos, e) and engine.adjacent(pos, a, e):
                shield = engine.cover(pos, e.id, a.id, force_kind="melee")
                if shield.cover is False:  # None: that enemy cannot see it, which also lifts the ban
                    w.illegal.append(
                        Reason(
                            _("{a} is in {e}'s threatened area: no ranged attacks while threatened").format(a=a.id, e=e.id),
                            _cite(pos, "§ Obszar zagrożenia p.11"),
                        )
                    )
        in_melee = [al for al in _allies(pos, a) if engine.adjacent(pos, al, t) and (_active(pos, al) or _active(pos, t))]
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
    magic = a_on(SquareTerrain.SACRED_CIRCLE)  # its attacks' damage is magic damage, which DR never reduces
    if magic:
        w.mods.append(_mod(N_("sacred circle"), "attack", 2, _cite(pos, "§ Święty krąg p.26")))
    if _invisible(pos, a) and not has(_abilities(pos, t), "Blindsight"):
        w.mods.append(_mod(N_("Invisible: {t} cannot see {a}"), "attack", 2, _cite(pos, "glossary 'Invisible'; § Modyfikatory ataku p.17"), t=t.id, a=a.id))
    if opportunity and has(_abilities(pos, a), "No Reach"):
        w.illegal.append(Reason(_("{a} has No Reach: it makes no attacks of opportunity").format(a=a.id), _cite(pos, "glossary 'No Reach'")))
    if opportunity and _invisible(pos, t) and not has(_abilities(pos, a), "Blindsight"):
        w.illegal.append(Reason(_("{t} is Invisible: {a} cannot see it, so it makes no attack of opportunity against it").format(t=t.id, a=a.id),
                                _cite(pos, "glossary 'Invisible'")))
    ctx = {"ranged": kind == "ranged", "melee": kind == "melee"}
    rec = find_edition(pos.edition)
    _apply_effects(pos, rec.family, rec.name, t, _abilities(pos, t), "target", ctx, w, other=a)
    _hit_stands(pos, a, t, w, melee=kind == "melee")
    dr = next((split_ability(x)[1] for x in _abilities(pos, t) if split_ability(x)[0].lower() == "dr"), None)
    card = pos.card_of(a)
    line0 = (card.melee if kind == "melee" else card.ranged) if isinstance(card, DdmCard) else None
    base_type = (line0[0].damage_type if line0 else None) or kind
    if dr and magic:
        w.notes.append(
            Reason(
                _("{id}'s DR {dr} does not reduce this attack: from a sacred circle its damage is magic damage").format(id=t.id, dr=dr),
                _cite(pos, "§ Święty krąg p.26; glossary 'DR'"),
            )
        )
    elif dr:
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
    unapplied = _ddm_commander_effects(pos, a, t, moved=moved, w=w)
    known_lines = [(b if b is not None else bonus0, d if d is not None else base0, x) for b, d, x in lines]
    _ddm_special(pos, a, t, kind=kind, charge=charge, w=w)
    if opportunity and has(_abilities(pos, t), "Mobility"):
        w.mods.append(_mod(N_("Mobility (against an attack of opportunity)"), "defense", 4, _cite(pos, "glossary 'Mobility'")))
    answer = _finish(
        pos, a, t, kind, bonus0, ac, base0, lines[0][2], w, len(known_lines), "next attack of the line (did not move)", False, [], [], lines=known_lines
    )
    if unapplied:
        answer = replace(answer, not_modelled=tuple(dict.fromkeys(answer.not_modelled + tuple(unapplied))))
    return _ddm_after(pos, a, t, answer, w, kind=kind)


def _is_commander(pos: Position, f: Figure) -> bool:
    r = pos.stats_of(f).commander_rating
    return bool(r) or (isinstance(card := pos.card_of(f), DdmCard) and isinstance(card.commander_rating, int) and card.commander_rating > 0)


def _commands(pos: Position, cmd: Figure, f: Figure, affects: str) -> bool:
    """Whether ``cmd``'s effect for ``affects`` reaches ``f`` (§ Wpływy dowodzenia p.19-20): followers are
    allies that are not commanders, in command range (Wild never; Independent always; else in sight
    or within 6) and within 6 squares; enemy effects reach every enemy within 6, commanders too."""
    if affects == "self":
        return cmd.id == f.id
    if cmd.id == f.id:
        return False
    if affects == "enemies":
        if cmd.side == f.side:
            return False
    elif cmd.side != f.side or (affects == "followers" and _is_commander(pos, f)) or has(_abilities(pos, f), "Wild"):
        return False
    d = engine.squares_between(pos, cmd, f)
    return d is not None and d <= COMMAND_SQUARES


def _ddm_commander_effects(pos: Position, a: Figure, t: Figure, *, moved: bool, w: _Work) -> list[str]:
    """The commander effects on the attacker's attack and damage and the target's AC, the best per
    stat (bonuses to the same stat from different commanders do not add up, § Wpływy dowodzenia p.19-20);
    a commander that routs, is stunned or helpless commands no one (§ Kiedy dowódca nie może dowodzić
    p.20). Returns what is not applied: an effect known only as text, or not known at all, of an
    active commander within 6 squares of either figure -- listed as not modelled, never ignored."""
    best: dict[tuple[str, str], tuple[int, Figure, str]] = {}  # (figure, stat) -> value, commander, card
    unapplied: list[str] = []
    wanted = ((a, "attack"), (a, "damage"), (t, "defense"))
    for cmd in pos.figures:
        card = pos.card_of(cmd)
        if not isinstance(card, DdmCard) or card.commander_effect == "none" or find_edition(pos.edition).unable_to_react(cmd.conditions):
            continue
        ce = card.commander_effect
        near = any((d := engine.squares_between(pos, cmd, f)) is not None and d <= COMMAND_SQUARES for f in (a, t))
        if not isinstance(ce, CommanderEffect) or not ce.effects:
            if near:
                unapplied.append(
                    _("{id}: commander effect \"{text}\" (free text: enter its parts with 'cards commander')").format(id=cmd.id, text=ce.text)
                    if isinstance(ce, CommanderEffect) else
                    _("{id}: commander effect of {card} (not known: enter it with 'cards commander')").format(id=cmd.id, card=card.name)
                )
            continue
        for eff in ce.effects:
            for f, stat in wanted:
                value = getattr(eff, stat)
                if not value or not _commands(pos, cmd, f, eff.affects):
                    continue
                if eff.range is not None and (engine.squares_between(pos, cmd, f) or 0) > eff.range:
                    continue
                if eff.name_contains and eff.name_contains.lower() not in (f.card or f.id).lower():
                    continue
                if eff.requires and not (has(_abilities(pos, f), eff.requires) or eff.requires.lower() in _ddm_type(pos, f)):
                    continue
                if ("did-not-move" in eff.conditions and (moved or f.id != a.id)) or ("target-adjacent" in eff.conditions and not engine.adjacent(pos, a, t)):
                    continue
                if "ally-within-6" in eff.conditions and not any((engine.squares_between(pos, f, o) or 99) <= 6 for o in _allies(pos, f)):
                    continue
                key = (f.id, stat)
                if key not in best or value > best[key][0]:
                    best[key] = (value, cmd, card.name)
    for (_fid, stat), (value, cmd, name) in best.items():
        english, local = _both(N_("commander effect of {commander} ({card})"), commander=cmd.id, card=name)
        w.mods.append(Modifier(english, stat, value, _cite(pos, "§ Wpływy dowodzenia p.19-20") + f"; {name}", local))
    return unapplied


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


def _invisible(pos: Position, f: Figure) -> bool:
    """Invisible by its card or for now (Ghost Step's condition)."""
    return has(_abilities(pos, f), "Invisible") or "invisible" in f.conditions


def _hit_stands(pos: Position, a: Figure, t: Figure, w: _Work, melee: bool = False) -> None:
    """Conceal N and Incorporeal: after a hit the attacker rolls again (TC-38)."""
    abl_a, abl_t = _abilities(pos, a), _abilities(pos, t)
    conceal = max((split_ability(x)[1] or 0 for x in abl_t if split_ability(x)[0].lower() == "conceal"), default=0)
    if _invisible(pos, t) and not has(abl_a, "Blindsight") and conceal < 11:
        # an attacker that cannot see its defender meets Conceal 11 (glossary 'Invisible'; p.17's table), melee too
        conceal = 11
        w.notes.append(Reason(_("{t} is Invisible: {a} cannot see it, so it has Conceal 11").format(t=t.id, a=a.id),
                              _cite(pos, "glossary 'Invisible'; § Modyfikatory ataku p.17")))
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
        if _invisible(pos, e):
            return True
        return has(abl_e, "Hide") and not engine.adjacent(pos, a, e) and bool(engine.cover(pos, a.id, e.id, s, ignore_figures=True, force_kind="ranged").cover)

    return engine.nearest_enemies(pos, a.id, skip)
