"""D&D Miniatures spells and spell-format abilities that deal damage (``attack --power NAME``).

A card prints them in one format (§ Czytanie opisów czarów p.23; glossary 'Breath Weapon',
'Gaze Attack'): ``name (range; area if any; effect and conditions; DC if any)``, for example
``flame strike (sight; radius 2; 30 fire damage; DC 16)`` or ``Breath Weapon (cone; 40 fire
damage; DC 17)``. The assistant reads that text as written on the figure (its abilities, or its
card's spells) and answers who may be chosen and what the chosen creature takes:

* **range** -- ``touch``: a creature next to it (or in its reach); ``range N``: within N
  squares and in sight; ``sight``: in sight. A ranged spell or ability affects only the nearest
  enemy or the nearest ally (unless its text says ``any``);
* **threatened** -- a creature in an active enemy's threatened area casts only touch spells;
  spell-format abilities (Breath Weapon, Gaze Attack) are not spells and are not restricted;
* **the save** -- d20 + Level against the DC: success halves damage, rounded down to a multiple
  of 5 (§ Rzuty obronne p.19), or cancels it when the text says "negates";
* **energy** -- Immune ENERGY, Resist N ENERGY, Double Damage from ENERGY; DR never reduces it;
* **Spell Resistance** -- a spell works on a d20 of 11+; SR All: never.

An area (``radius N``, ``cone``, ``line 12``) strikes every creature in its template; the
template is not drawn here, so the answer is for the chosen creature and says so.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction as F
from typing import Any

from ..abilities import has
from ..cards import DdmCard
from ..errors import AssistantError
from ..i18n import _
from ..model import Figure, Position
from . import ddm_effects, engine
from .engine import Reason
from .record import find_edition

#: spell-format abilities: special abilities, not spells (no Spell Resistance, usable while threatened)
ABILITIES = ("breath weapon", "gaze attack")


@dataclass(frozen=True)
class SpellText:
    """One spell or spell-format ability as its card prints it."""

    name: str
    written: str
    range: str  # "touch", "self", "sight", "range", "cone", "line"
    reach: int | None  # range N; line 12
    any_target: bool  # "any": not only the nearest
    area: str | None  # "radius 2", "cone", "line 12"
    damage: int | None
    energy: str | None
    dc: int | None
    negates: bool
    is_spell: bool


def parse(text: str) -> SpellText | None:
    """``name (range; area; effect; DC)`` as printed, or None when the text has no such part.

    >>> s = parse("flame strike (sight; radius 2; 30 fire damage; DC 16)")
    >>> (s.name, s.range, s.area, s.damage, s.energy, s.dc, s.is_spell)
    ('flame strike', 'sight', 'radius 2', 30, 'fire', 16, True)
    >>> b = parse("Breath Weapon (cone; 40 fire damage; DC 17)")
    >>> (b.range, b.area, b.is_spell)
    ('cone', 'cone', False)
    >>> parse("Cleave") is None
    True
    """
    m = re.match(r"\s*([^()]+?)\s*(?:\d+\s*)?\((.*)\)\s*$", text)
    if not m:
        return None
    name, inner = re.sub(r"[^\w' -]", "", m.group(1)).strip(), m.group(2)  # the card's use boxes (□) dropped
    parts = [p.strip().lower() for p in re.split(r"[;,]", inner) if p.strip()]
    rng, reach, area = "sight", None, None
    any_target = any(re.search(r"\bany\b", p) for p in parts)
    for p in parts:
        if p.startswith("touch"):
            rng = "touch"
        elif p.startswith("self"):
            rng = "self"
        elif (r := re.match(r"range\s+(\d+)", p)):
            rng, reach = "range", int(r.group(1))
        elif p.startswith("sight"):
            rng = "sight"
        elif p.startswith("cone"):
            rng, area = "cone", "cone"
        elif (r := re.match(r"line\s+(\d+)", p)):
            rng, reach, area = "line", int(r.group(1)), f"line {r.group(1)}"
        elif (r := re.match(r"radius\s+(\d+)", p)):
            area = f"radius {r.group(1)}"
    damage = energy = None
    for p in parts:
        if (r := re.search(r"(\d+)\s+(?:([a-z]+)\s+)?damage", p)):
            damage, energy = int(r.group(1)), r.group(2)
            break
    dc = negates = None
    for p in parts:
        if (r := re.search(r"\bdc\s*(\d+)(\s+negates)?", p)):
            dc, negates = int(r.group(1)), bool(r.group(2))
    return SpellText(name, text.strip(), rng, reach, any_target, area, damage, energy, dc, bool(negates),
                     name.lower() not in ABILITIES)


def written_spells(pos: Position, f: Figure, abilities: tuple[str, ...]) -> list[str]:
    """Every text in spell format the figure has: its abilities, and its card's spells."""
    out = [a for a in abilities if "(" in a]
    card = pos.card_of(f)
    if isinstance(card, DdmCard):
        out += [f"{s.name} {s.text}" if s.text and s.text.strip().startswith("(") else s.name for s in card.spells]
    return out


def find(pos: Position, f: Figure, name: str, abilities: tuple[str, ...]) -> SpellText:
    wanted = " ".join(name.split()).lower()
    texts = written_spells(pos, f, abilities)
    for text in texts:
        s = parse(text)
        if s is not None and wanted in (s.name.lower(), s.written.lower()):
            return s
    known = [parse(t) for t in texts]
    have = ", ".join(s.name for s in known if s is not None) or _("none")
    if any(n in wanted for n in ("breath weapon", "gaze attack")) or wanted in [t.lower() for t in abilities]:
        raise AssistantError(
            _("{f}'s {power} needs its card's text to be answered: write it as the card prints it, e.g. 'Breath Weapon (cone; 40 fire damage; DC 17)'").format(
                f=f.id, power=name
            )
        )
    raise AssistantError(_("{f} has no spell or ability {power!r} written in the card's format (its ones: {have})").format(f=f.id, power=name, have=have))


def uses(pos: Position, f: Figure, s: SpellText) -> int | None:
    """How many times the figure may use it in a game: its card's count for the spell, else the use
    boxes (□) written after its name (§ Czary › Ilość użyć p.22); None when neither says."""
    card = pos.card_of(f)
    if isinstance(card, DdmCard):
        for sp in card.spells:
            if sp.name.strip().lower() == s.name.lower() and isinstance(sp.uses, int):
                return sp.uses
    boxes = s.written.split("(", 1)[0].count("□")
    return boxes or None


def half(damage: int) -> int:
    """A successful save halves damage, rounded down to a multiple of 5 (15 -> 5, 25 -> 10).

    >>> [half(x) for x in (5, 15, 25, 30)]
    [0, 5, 10, 15]
    """
    return damage // 2 // 5 * 5


def _ddm_gap(a: Figure, b: Figure, slack: int = 0) -> int:
    """The fewest squares between two spaces on an open board (DDM diagonals 1-2-1-2; walls ignored),
    each axis first shortened by ``slack``: with ``slack=1``, the squares between ``b`` and the nearest
    2x2 middle of a template that holds a square of ``a``.

    >>> from assistant.model import Figure
    >>> from assistant.coords import Square
    >>> f = lambda c, r: Figure(id="x", side="a", at=Square(c, r))
    >>> _ddm_gap(f(4, 1), f(9, 1)), _ddm_gap(f(4, 1), f(9, 1), slack=1), _ddm_gap(f(0, 0), f(2, 2))
    (5, 4, 3)
    """
    best = 1 << 30
    for s in a.space:
        for t in b.space:
            dx, dy = max(0, abs(s.col - t.col) - slack), max(0, abs(s.row - t.row) - slack)
            best = min(best, max(dx, dy) + min(dx, dy) // 2)
    return best


def _area_reach(s: SpellText, user: Figure, nearest: list[Figure], target: Figure, cite: Callable[[str], str]) -> tuple[bool | None, Reason]:
    """Can the area, placed as the seed places it on the nearest creature, hold ``target``? True,
    False, or None where only the template at the table can tell (its edge, a cone's angle, a line)."""
    ids = ", ".join(f.id for f in nearest)
    if s.area and s.area.startswith("radius"):
        n = int(s.area.split()[1])
        # the template's 4-square middle holds the nearest creature; it strikes every creature within n squares
        # of that middle (glossary 'radius 2', reading R54 in docs/readings.md): the middle may reach 1 square
        # past the nearest creature toward the target on each axis
        gap = min(_ddm_gap(f, target, slack=1) for f in nearest)
        rule = cite(f"glossary '{s.area}'; § Czary p.22 (Wybieranie celu)")
        if gap <= n:
            return True, Reason(_("{t} is within {n} squares of a {area} template's middle that holds {nearest} (the nearest): it is struck").format(
                t=target.id, n=n, nearest=ids, area=s.area), rule)
        return False, Reason(_("{t} is {gap} squares from any {area} template's middle that holds {nearest} (the nearest): it cannot be struck").format(
            t=target.id, gap=gap, nearest=ids, area=s.area), rule)
    reach = 6 if s.area == "cone" else s.reach
    rule = cite("glossary 'cone'" if s.area == "cone" else "glossary 'line 12'")
    if reach is not None and _ddm_gap(user, target) > reach:
        return False, Reason(_("{t} is farther than the {area} reaches ({n} squares from {u})").format(t=target.id, area=s.area, n=reach, u=user.id), rule)
    return None, Reason(_("whether the {area} aimed at {nearest} (the nearest) also strikes {t} is for the template at the table").format(
        area=s.area, nearest=ids, t=target.id), rule)


def answer(
    pos: Position,
    user: Figure,
    target: Figure,
    name: str,
    *,
    abilities_of: Callable[[Figure], tuple[str, ...]],
    cite: Callable[[str], str],
    type_of: Callable[[Figure], str],
    undecided: list[Reason] | None = None,
) -> tuple[SpellText, list[Reason], list[Reason], dict[str, Any] | None, int, int, float]:
    """(the spell, why it may not be used on ``target``, notes, the save, the damage, the damage
    after a made save, the expected damage). ``undecided`` receives what only the table can tell
    (an area's template at its edge): the answer's legality is then unknown, never ``true``."""
    undecided = undecided if undecided is not None else []
    from .ddm.attack import _ddm_nearest  # start-up time: the DDM attack only when a DDM figure attacks

    s = find(pos, user, name, abilities_of(user))
    rule = cite("§ Czary p.22-23; glossary 'Breath Weapon', 'Gaze Attack'" if not s.is_spell else "§ Czary p.22-23")
    illegal: list[Reason] = []
    notes: list[Reason] = []
    if s.damage is None:
        raise AssistantError(
            _("{power} deals no damage as written ({text}): only spells and abilities that deal damage are answered here").format(power=s.name, text=s.written)
        )
    if target.id == user.id:
        raise AssistantError(_("{u} cannot be the target of its own {power}: name a creature it strikes").format(u=user.id, power=s.name))
    sight = engine.sight(pos, user.id, target.id)
    distance = engine.squares_between(pos, user, target)
    if s.range == "touch":
        if not engine.adjacent(pos, user, target):
            illegal.append(Reason(_("{power} has range touch: {t} is not next to {u}").format(power=s.name, t=target.id, u=user.id), rule))
    elif s.range == "self":
        illegal.append(Reason(_("{power} has range self: it affects {u} only").format(power=s.name, u=user.id), rule))
    else:
        if not sight.line_of_sight:
            illegal.append(Reason(_("{u} has no line of sight to {t}").format(u=user.id, t=target.id), rule))
        if s.reach is not None and (distance is None or distance > s.reach):
            illegal.append(Reason(_("{t} is not within {n} squares of {u}").format(t=target.id, n=s.reach, u=user.id), rule))
        if not s.any_target and sight.line_of_sight:
            nearest = _nearest(pos, user, target, _ddm_nearest)
            if nearest and s.area:  # an area is placed on (or must hold) the nearest; others in it are struck too
                held, why = _area_reach(s, user, [pos.figure(i) for i in nearest.split(", ")], target, cite)
                (notes if held else illegal if held is False else undecided).append(why)
            elif nearest:
                illegal.append(
                    Reason(
                        _("a ranged spell or ability affects only the nearest enemy or the nearest ally: {nearest}").format(nearest=nearest),
                        cite("§ Czary p.22; glossary 'nearest enemy'"),
                    )
                )
    if s.is_spell and s.range != "touch":
        threat = [e.id for e in pos.figures if e.side != user.side and not find_edition(pos.edition).inactive(e.conditions) and engine.adjacent(pos, user, e)]
        if threat:
            illegal.append(
                Reason(
                    _("{u} is in the threatened area of {who}: it may cast only touch spells").format(u=user.id, who=", ".join(threat)),
                    cite("§ Obszar zagrożenia p.11"),
                )
            )
    if s.area:
        notes.append(
            Reason(
                _("{power} strikes every creature in its {area} alike; this answer is for {t}").format(power=s.name, area=s.area, t=target.id),
                cite("§ Zasięg p.23"),
            )
        )
    # what the chosen creature takes
    abl_t = abilities_of(target)
    immune = ddm_effects.immunities(type_of(target), abl_t)
    resist, factor, works = 0, 1, F(1)
    if s.energy and s.energy in immune:
        notes.append(Reason(_("{t} is immune to {energy}: no damage").format(t=target.id, energy=s.energy), cite("glossary 'Immune EFFECT'")))
        factor = 0
    for text in abl_t if s.energy else ():
        low = text.lower()
        if (r := re.match(rf"resist\s+(\d+)\s+{s.energy}\b", low)) or (r := re.match(rf"resist\s+{s.energy}\s+(\d+)", low)):
            notes.append(Reason(_("{t} resists {n} {energy}").format(t=target.id, n=r.group(1), energy=s.energy), cite("glossary 'Resist'")))
            resist = int(r.group(1))
        if low.startswith(f"double damage from {s.energy}") or low.startswith(f"vulnerable {s.energy}"):
            notes.append(
                Reason(
                    _("{t} takes double damage from {energy} (after any Resist: reading R41 in docs/readings.md)").format(t=target.id, energy=s.energy),
                    cite("glossary 'Double Damage from ENERGY'"),
                )
            )
            factor *= 2
    if s.is_spell and (has(abl_t, "SR All") or has(abl_t, "Spell Resistance All")):
        notes.append(Reason(_("{t} has Spell Resistance All: the spell does not affect it").format(t=target.id), cite("glossary 'Spell Resistance'")))
        works = F(0)
    elif s.is_spell and (has(abl_t, "Spell Resistance") or has(abl_t, "SR")):
        notes.append(
            Reason(_("{t} has Spell Resistance: the spell works on a d20 of 11 or more (50%)").format(t=target.id), cite("glossary 'Spell Resistance'"))
        )
        works = F(1, 2)

    def taken(d: int) -> int:  # the save first, then Resist, then doubling
        return max(0, d - resist) * factor

    save: dict[str, Any] | None = None
    p = ddm_effects.save_chance(s.dc, pos.stats_of(target).level)
    if s.dc is not None:
        effect = "no damage" if s.negates else "half damage"
        save = {"needs": s.dc, "chance": float(p) if p is not None else None, "effect": effect}
        notes.append(
            Reason(
                (
                    _("{t} saves against DC {dc} with d20 + Level ({chance}): the damage is cancelled")
                    if s.negates
                    else _("{t} saves against DC {dc} with d20 + Level ({chance}): half damage, rounded down to a multiple of 5")
                ).format(t=target.id, dc=s.dc, chance=f"{float(p) * 100:.0f}%" if p is not None else "?"),
                cite("§ Rzuty obronne p.19"),
            )
        )
    dmg = taken(s.damage)
    on_save = 0 if s.negates else taken(half(s.damage))
    expected = float(works * ((1 - p) * dmg + p * on_save)) if p is not None else float(works * dmg)
    notes.append(
        Reason(_("{power} replaces {u}'s attack this turn; it needs no attack roll, and DR does not reduce its damage").format(power=s.name, u=user.id), rule)
    )
    return s, illegal, notes, save, dmg, on_save, round(expected, 4)


def _nearest(pos: Position, user: Figure, target: Figure, nearest_enemies: Callable[[Position, Figure], tuple[int | None, list[str]]]) -> str | None:
    """Who the spell must go to instead of ``target`` (None: the target is a nearest enemy or ally)."""
    if target.side != user.side:
        _d, ids = nearest_enemies(pos, user)
        return None if target.id in ids else ", ".join(ids)
    allies = [
        (engine.squares_between(pos, user, f), f.id)
        for f in pos.figures
        if f.side == user.side and f.id != user.id and engine.sight(pos, user.id, f.id).line_of_sight
    ]
    known = [(d, i) for d, i in allies if d is not None]
    if not known:
        return None
    best = min(d for d, _i in known)
    ids = [i for d, i in known if d == best]
    return None if target.id in ids else ", ".join(ids)
