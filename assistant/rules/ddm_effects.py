"""D&D Miniatures 2005: what a hit carries besides its damage, and who is immune to it.

An effect keyword on the attacker's card (Poison, Paralysis, Stunning Attack, Death Attack, ...)
is resolved on a hit: the target makes a save (d20 + its Level against the DC written with the
ability; a natural 20 succeeds and a natural 1 fails, § Rzuty obronne p.19) or suffers it. A
creature type grants immunities (glossary: Construct, Elemental, Ooze, Plant, Undead, Living
Construct, Dragon, Elf, Vermin), and so does an "Immune EFFECT" ability. The advisor says each
effect with its chance, and which ones the target is immune to.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F

from ..abilities import has
from ..cards import split_ability
from ..i18n import N_, _
from ..model import Figure, Position

#: immunities each creature type brings (the glossary's entry for the type)
TYPE_IMMUNITIES: dict[str, tuple[str, ...]] = {
    "living construct": ("level drain", "paralysis", "poison", "sleep"),
    "construct": ("confusion", "critical hits", "domination", "incite", "paralysis", "poison", "sleep", "sneak attack", "stun"),
    "elemental": ("critical hits", "flanking", "paralysis", "poison", "sleep", "sneak attack", "stun"),
    "ooze": ("confusion", "critical hits", "domination", "flanking", "gaze", "incite", "paralysis", "poison", "sleep", "sneak attack", "stun"),
    "plant": ("confusion", "critical hits", "domination", "incite", "paralysis", "poison", "sleep", "sneak attack", "stun"),
    "undead": ("confusion", "critical hits", "domination", "incite", "paralysis", "poison", "sleep", "sneak attack", "stun"),
    "dragon": ("paralysis", "sleep"),
    "elf": ("sleep",),
    "vermin": ("confusion", "domination", "incite", "sleep"),
}


def immunities(type_text: str, abilities: tuple[str, ...]) -> set[str]:
    """Everything a creature is immune to: its types' immunities and its "Immune ..." abilities.

    >>> sorted(immunities("living construct", ()))
    ['level drain', 'paralysis', 'poison', 'sleep']
    >>> "critical hits" in immunities("", ("Immune Critical Hits, Fire",))
    True
    """
    kinds = type_text.lower()
    out: set[str] = set()
    if "living construct" in kinds:
        out |= set(TYPE_IMMUNITIES["living construct"])
        kinds = kinds.replace("living construct", "")
    for kind, immune in TYPE_IMMUNITIES.items():
        if kind in kinds:
            out |= set(immune)
    for text in abilities:
        name, _value = split_ability(text)
        if name.lower().startswith("immune "):
            out |= {x.strip().lower() for x in name[7:].split(",") if x.strip()}
    return out


def save_chance(dc: int | None, level: int | None) -> F | None:
    """d20 + Level against the DC; a natural 20 succeeds and a natural 1 fails.

    >>> save_chance(15, 4), save_chance(30, 1), save_chance(2, 5)
    (Fraction(1, 2), Fraction(1, 20), Fraction(19, 20))
    """
    if dc is None or level is None:
        return None
    return F(min(19, max(1, 21 - (dc - level))), 20)


#: effects a hit carries: (ability, what the target suffers, immunity that stops it, melee only, rule)
ON_HIT: tuple[tuple[str, str, str, bool, str], ...] = (
    ("Poison", N_("poisoned, with the effect its card gives"), "poison", False, "glossary 'Poison'"),
    ("Paralysis", N_("paralyzed (helpless; it saves again at the end of each of its turns)"), "paralysis", False, "glossary 'Paralysis'"),
    ("Stunning Attack", N_("stunned (declared before the roll; only if the hit deals damage)"), "stun", True, "glossary 'Stunning Attack'"),
    ("Stun", N_("stunned"), "stun", False, "glossary 'Stun'"),
    (
        "Constitution Drain",
        N_("dealt the card's extra damage, which the attacker gains as Hit Points"),
        "constitution drain",
        True,
        "glossary 'Constitution Drain'",
    ),
)


def on_hit_notes(
    pos: Position,
    a: Figure,
    t: Figure,
    *,
    kind: str,
    p_hit: float,
    p_defeat: float | None,
    sneak: bool,
    abilities_of: Callable[[Figure], tuple[str, ...]],
    type_of: Callable[[Figure], str],
    living: bool,
    cite: Callable[[str], str],
) -> list[tuple[str, str]]:
    """What this attack's hits carry, as (text, rule): every effect keyword with the target's save
    chance, or the immunity that stops it; Level Drain, Life Drain, Feed, Death Attack."""
    abl_a, abl_t = abilities_of(a), abilities_of(t)
    immune = immunities(type_of(t), abl_t)
    level = pos.stats_of(t).level
    def pct(p: float | F) -> str:
        return f"{float(p) * 100:.0f}%"

    out: list[tuple[str, str]] = []
    for name, what, stopped_by, melee_only, rule in ON_HIT:
        if not has(abl_a, name) or (melee_only and kind != "melee"):
            continue
        if stopped_by in immune or (name == "Constitution Drain" and not living):
            out.append((_("{t} is immune to {ability}").format(t=t.id, ability=name), cite(rule)))
            continue
        dc = next((split_ability(x)[1] for x in abl_a if split_ability(x)[0].lower() == name.lower()), None)
        p = save_chance(dc, level)
        if p is None:
            out.append(
                (
                    _("{ability}: on a hit ({chance}), {t} makes a save against the DC on the card or is {what}").format(
                        ability=name, chance=pct(p_hit), t=t.id, what=_(what)
                    ),
                    cite(rule),
                )
            )
        else:
            out.append(
                (
                    _("{ability} (DC {dc}): on a hit ({chance}), {t} saves with d20 + Level {level} ({save}) or is {what}: {fails} per attack").format(
                        ability=name, dc=dc, chance=pct(p_hit), t=t.id, level=level, save=pct(p), what=_(what), fails=pct(p_hit * float(1 - p))
                    ),
                    cite(rule),
                )
            )
    if has(abl_a, "Level Drain") and kind == "melee":
        if not living or "level drain" in immune:
            out.append((_("{t} is immune to {ability}").format(t=t.id, ability="Level Drain"), cite("glossary 'Level Drain'")))
        else:
            out.append(
                (
                    _("Level Drain: each melee hit that deals damage ({chance}) gives {t} -1 to attack and saves, and {a} +5 Hit Points").format(
                        chance=pct(p_hit), t=t.id, a=a.id
                    ),
                    cite("glossary 'Level Drain'"),
                )
            )
    drain = next((split_ability(x)[1] for x in abl_a if split_ability(x)[0].lower() == "life drain"), None)
    if has(abl_a, "Life Drain") and living:
        out.append(
            (
                _("Life Drain: a hit on a living creature ({chance}) gives {a} +{n} Hit Points").format(chance=pct(p_hit), a=a.id, n=drain or "[#]"),
                cite("glossary 'Life Drain'"),
            )
        )
    feed = next((split_ability(x)[1] for x in abl_a if split_ability(x)[0].lower() == "feed"), None)
    if has(abl_a, "Feed") and "humanoid" in type_of(t).lower():
        out.append(
            (
                _("Feed: if this attack kills {t}, a Humanoid ({chance}), {a} gains {n} Hit Points").format(
                    t=t.id, chance=pct(p_defeat) if p_defeat is not None else "?", a=a.id, n=feed or "[#]"
                ),
                cite("glossary 'Feed'"),
            )
        )
    if has(abl_a, "Death Attack") and sneak:
        if "sneak attack" in immune:
            out.append((_("{t} is immune to {ability}").format(t=t.id, ability="Death Attack"), cite("glossary 'Death Attack'")))
        else:
            dc = next((split_ability(x)[1] for x in abl_a if split_ability(x)[0].lower() == "death attack"), None)
            p = save_chance(dc, level)
            extra = _(" (d20 + Level {level}: {save})").format(level=level, save=pct(p)) if p is not None else ""
            out.append(
                (
                    _("Death Attack, with this sneak attack: declared before the roll; on a hit {t} saves against DC {dc}{extra} or is killed").format(
                        t=t.id, dc=dc if dc is not None else "[#]", extra=extra
                    ),
                    cite("glossary 'Death Attack'"),
                )
            )
    return out
