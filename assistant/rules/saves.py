"""Between the hit and the damage (Star Wars Miniatures): the saves and reductions a hit meets.

A hit's damage can still be avoided (Parry, Lightsaber Block, Evade, ...: the target's save; or
Illusion, Molecular Shielding, Energy Shields: the *attacker's* save, which it must make or the
damage is lost), reduced (Damage Reduction, Dark Armor, Shields, ...) or raised by an extra that
the target may save against (Poison). A save is a d20 against a number: a natural 20 succeeds and a
natural 1 fails (PL p.24, "Save").

What the advisor assumes (reading R36 in docs/readings.md): the defender uses every such ability
that applies; a Force-costed one (Lightsaber Block, Lightsaber Deflect, Absorb Energy, Illusion)
only while it has the Force points, and on the first attack of the turn only, since a character
spends Force once per turn (PL p.26); several avoiding abilities are separate saves, tried in turn
(reading R37). The order is the rulebook's: the extra damage and its save, then avoidance decided
"at once after the hit", then the reductions, which come after any Bodyguard decision (PL p.38).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction as F
from itertools import product
from math import comb
from typing import Any, Literal

from ..abilities import has, known
from ..cards import split_ability
from ..i18n import _
from ..model import Figure, Position
from . import engine
from .record import find_edition

Effect = Literal["avoid", "reduce", "extra"]


@dataclass(frozen=True)
class DamageStep:
    """One ability standing between a hit and its damage."""

    ability: str  # as the card names it (English: a value machines may rely on)
    owner: str  # the figure whose ability it is
    effect: Effect  # avoid: no damage; reduce: less damage; extra: more damage unless saved
    saver: Literal["target", "attacker", ""]  # who rolls the save ("" when none is rolled)
    save: int | None  # the d20 the save needs; None: no save (a fixed reduction)
    amount: int  # damage taken off or added (0 when the damage is avoided)
    saves: int  # how many saves are rolled (Shields [#])
    force_cost: int  # Force points the owner spends to use it
    rule: str
    text: str  # what it does here, in the reader's language

    def p_success(self) -> F:
        """The chance it does what it says: the damage avoided (the target's save made, or the
        attacker's failed), the reduction made, the extra damage landing (the target's save failed)."""
        made = p_save(self.save) if self.save is not None else F(1)
        return 1 - made if self.saver == "attacker" or self.effect == "extra" else made

    def as_json(self) -> dict[str, Any]:
        return {"ability": self.ability, "owner": self.owner, "effect": self.effect, "saver": self.saver or None,
                "save": self.save, "amount": self.amount, "saves": self.saves, "force_cost": self.force_cost,
                "chance": float(self.p_success()), "rule": self.rule, "text": self.text}


def p_save(needs: int) -> F:
    """A save of ``needs`` or better on a d20: a natural 20 always succeeds, a natural 1 fails.

    >>> p_save(11), p_save(25), p_save(1)
    (Fraction(1, 2), Fraction(1, 20), Fraction(19, 20))
    """
    return F(min(19, max(1, 21 - needs)), 20)


def outcomes(damage: int, steps: list[DamageStep]) -> dict[int, F]:
    """What a hit of ``damage`` deals through ``steps``, as {damage dealt: chance} (exact)."""
    p_through = F(1)
    for s in steps:
        if s.effect == "avoid":
            p_through *= 1 - s.p_success()
    # the reductions' total, as a distribution: a fixed one always, a save-based one per save made
    reductions: dict[int, F] = {0: F(1)}
    for s in steps:
        if s.effect == "reduce":
            p = s.p_success()
            one = {s.amount: F(1)} if s.save is None else {s.amount * k: _binomial(s.saves, k) * p ** k * (1 - p) ** (s.saves - k)
                                                           for k in range(s.saves + 1)}
            reductions = _convolve(reductions, one)
    extras = [s for s in steps if s.effect == "extra"]
    out: dict[int, F] = {0: 1 - p_through} if p_through != 1 else {}
    for landed in product((True, False), repeat=len(extras)):
        p_case, dmg = p_through, damage
        for s, lands in zip(extras, landed, strict=True):
            p_case *= s.p_success() if lands else 1 - s.p_success()
            dmg += s.amount if lands else 0
        for r, pr in reductions.items():
            dealt = max(0, dmg - r)
            out[dealt] = out.get(dealt, F(0)) + p_case * pr
    return out


def expected(damage: int, steps: list[DamageStep]) -> F:
    """The damage a hit of ``damage`` is expected to deal through ``steps`` (exact).

    >>> parry = DamageStep("Parry", "t", "avoid", "target", 11, 0, 1, 0, "", "")
    >>> expected(20, [parry]), expected(20, [parry, parry])
    (Fraction(10, 1), Fraction(5, 1))
    >>> shields = DamageStep("Shields", "t", "reduce", "target", 11, 10, 2, 0, "", "")
    >>> expected(20, [shields]), expected(10, [shields])
    (Fraction(10, 1), Fraction(5, 2))
    """
    return sum((d * p for d, p in outcomes(damage, steps).items()), F(0))


def p_at_least(damage: int, steps: list[DamageStep], threshold: int) -> F:
    """The chance a hit of ``damage`` still deals ``threshold`` or more through ``steps``.

    >>> parry = DamageStep("Parry", "t", "avoid", "target", 11, 0, 1, 0, "", "")
    >>> p_at_least(20, [parry], 20), p_at_least(20, [], 30)
    (Fraction(1, 2), Fraction(0, 1))
    """
    if threshold <= 0:
        return F(1)
    return sum((p for d, p in outcomes(damage, steps).items() if d >= threshold), F(0))


def _binomial(n: int, k: int) -> int:
    return comb(n, k)


def _convolve(a: dict[int, F], b: dict[int, F]) -> dict[int, F]:
    out: dict[int, F] = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, F(0)) + px * py
    return out


def _value(abilities: tuple[str, ...], name: str) -> int | None:
    for text in abilities:
        n, v = split_ability(text)
        if n.lower() == name.lower():
            return v
    return None


def _in_edition(name: str, ed: str) -> bool:
    entry = known().get(("swm", name.lower()))
    return entry is None or ed in entry.editions


def is_living(abilities: tuple[str, ...]) -> bool:
    """Living: no Mounted Weapon, and a non-Droid or a Cyborg (PL p.53, "Living": "Żywe postacie nie
    posiadają umiejętności Broń Pokładowa oraz są nie-Droidami czy Cyborgami"; PL p.37: a Cyborg is
    "jednocześnie żywą, Droida i nie-Droida"; reading R270)."""
    if has(abilities, "Mounted Weapon"):
        return False
    return has(abilities, "Cyborg") or not has(abilities, "Droid")


def is_nonliving(abilities: tuple[str, ...]) -> bool:
    """Struck by what works only on the nonliving (Ion Gun, Shockstaff's damage, Atlatl's stun): a Droid,
    a Mounted Weapon, and a Cyborg, which PL p.37 makes vulnerable to what works only on Droids ("Broń
    Jonowa +20") though it is living (reading R270)."""
    return any(has(abilities, n) for n in ("Droid", "Cyborg", "Mounted Weapon"))


def has_lightsaber(abilities: tuple[str, ...]) -> bool:
    """A character "with a lightsaber": the Lightsaber ability, or a Force power with "Lightsaber"
    in its name (PL p.66, "with lightsaber")."""
    return any("lightsaber" in split_ability(x)[0].lower() for x in abilities)


def avoid_defeat_from(pos: Position, f: Figure) -> str | None:
    """Whence ``f`` has Avoid Defeat (PL p.34; CS g.2): ``"Avoid Defeat"`` its own, the id of an
    adjacent ally whose Emergency Life Support gives it to a non-Droid (swm2004 CS g.5: "Nedroidové
    přátelské postavy získávají Avoid Defeat ..., pokud sousedí s touto postavou"; a Cyborg is a
    non-Droid too, R270), or None (reading R290)."""

    rec = find_edition(pos.edition)
    abl = pos.stats_of(f).abilities or ()
    if not rec.defines("Avoid Defeat"):
        return None
    if has(abl, "Avoid Defeat"):
        return "Avoid Defeat"
    if rec.defines("Emergency Life Support") and (not has(abl, "Droid") or has(abl, "Cyborg")):
        return next((o.id for o in pos.figures if o.side == f.side and o.id != f.id and has(pos.stats_of(o).abilities, "Emergency Life Support")
                     and engine.adjacent(pos, o, f)), None)
    return None


def force_blocked(pos: Position, f: Figure, abilities_of: Any) -> str | None:
    """Why ``f`` may not spend Force points now, or None: a Ysalamiri within 6 squares (PL p.67)."""
    for other in pos.figures:
        if has(abilities_of(other), "Ysalamiri") and (engine.squares_between(pos, other, f) or 99) <= 6:
            return other.id
    return None


def damage_steps(pos: Position, a: Figure, t: Figure, *, melee: bool, adjacent: bool, abilities_of: Any,
                 cite: Any, first_attack: bool = True) -> list[DamageStep]:
    """Every step between a hit of ``a`` on ``t`` and its damage, in the order they are resolved."""
    ed = pos.edition.value
    abl_a, abl_t = abilities_of(a), abilities_of(t)
    steps: list[DamageStep] = []

    def avail(name: str) -> bool:
        return has(abl_t, name) and _in_edition(name, ed)

    living = is_living(abl_t)
    # 1. extra damage the target may save against
    for name, amount, cond, where in (
        ("Poison", 10, living, "PL p.57"),
        ("Rakghoul Disease", 10, living, "PL p.58"),
        ("Poisoned Blade", 20, living and adjacent, "PL p.57"),
    ):
        if has(abl_a, name) and _in_edition(name, ed) and cond:
            steps.append(DamageStep(name, a.id, "extra", "target", 11, amount, 1, 0, cite(where),
                                    _("{owner}'s {ability}: +{amount} damage, which {target} avoids with a save of 11").format(
                                        owner=a.id, ability=name, amount=amount, target=t.id)))
    # 2. avoiding the damage
    makashi_attacker = has(abl_a, "Makashi Style Master")
    target_force = pos.stats_of(t).force
    force_refused = (_("{a} has Force Immunity: no Force points are spent to answer its attacks").format(a=a.id)
                     if has(abl_a, "Force Immunity") and _in_edition("Force Immunity", ed) else None)
    ysalamiri = force_blocked(pos, t, abilities_of)
    for name, applies, cost, where in (
        ("Parry", melee, 0, "PL p.56"),
        ("Soresu Style Master", melee and not makashi_attacker, 0, "PL p.53, p.62"),
        ("Makashi Style Master", melee, 0, "PL p.53"),
        ("Evade", not adjacent, 0, "PL p.42; CS g.5"),
        ("Lightsaber Block", melee, 1, "PL p.52; CS g.8"),
        ("Lightsaber Deflect", not melee, 1, "PL p.52; CS g.8"),
        ("Absorb Energy", not melee, 2, "PL p.32"),
    ):
        if not avail(name) or not applies:
            continue
        if cost and (not first_attack or force_refused or ysalamiri or (target_force is not None and target_force < cost)):
            continue
        text = (_("{owner}'s {ability}: a save of 11 avoids the damage").format(owner=t.id, ability=name) if not cost else
                _("{owner}'s {ability} ({cost} Force): a save of 11 avoids the damage").format(owner=t.id, ability=name, cost=cost))
        steps.append(DamageStep(name, t.id, "avoid", "target", 11, 0, 1, cost, cite(where), text))
    if avail("Illusion") and first_attack and not force_refused and not ysalamiri and (target_force is None or target_force >= 1):
        steps.append(DamageStep("Illusion", t.id, "avoid", "attacker", 11, 0, 1, 1, cite("PL p.49"),
                                _("{owner}'s Illusion (1 Force): no damage unless {a} makes a save of 11").format(owner=t.id, a=a.id)))
    if avail("Molecular Shielding") and not adjacent:
        steps.append(DamageStep("Molecular Shielding", t.id, "avoid", "attacker", 11, 0, 1, 0, cite("PL p.55"),
                                _("{owner}'s Molecular Shielding: unless {a} makes a save of 11, no damage, and {a} takes it instead").format(
                                    owner=t.id, a=a.id)))
    for f in [t, *[x for x in pos.figures if x.side == t.side and x.id != t.id and engine.adjacent(pos, x, t)]]:
        if has(abilities_of(f), "Energy Shields") and _in_edition("Energy Shields", ed) \
                and not adjacent and not engine.adjacent(pos, a, f):
            steps.append(DamageStep("Energy Shields", f.id, "avoid", "attacker", 11, 0, 1, 0, cite("PL p.42"),
                                    _("{owner}'s Energy Shields: unless {a} makes a save of 11, no damage, and {a} takes it instead").format(
                                        owner=f.id, a=a.id)))
            break
    # 3. reductions, after any Bodyguard decision (PL p.38)
    lightsaber_adjacent = adjacent and has_lightsaber(abl_a)
    dr = _value(abl_t, "Damage Reduction")
    if avail("Damage Reduction") and dr:
        if lightsaber_adjacent:
            pass  # said by the caller's note below
        elif has(abl_a, "Demolish") and adjacent and _in_edition("Demolish", ed):
            pass
        else:
            pen = _value(abl_a, "Penetration") if _in_edition("Penetration", ed) else None
            left = max(0, dr - (pen or 0))
            if left:
                text = _("{owner}'s Damage Reduction {dr}: {left} less damage").format(owner=t.id, dr=dr, left=left)
                if pen:
                    text += _(" (Penetration {pen})").format(pen=pen)
                steps.append(DamageStep("Damage Reduction", t.id, "reduce", "", None, left, 1, 0,
                                        cite("PL p.38" + ("; p.56-57" if pen else "")), text))
    if avail("Dark Armor") and not lightsaber_adjacent:
        steps.append(DamageStep("Dark Armor", t.id, "reduce", "target", 11, 10, 1, 0, cite("PL p.38"),
                                _("{owner}'s Dark Armor: a save of 11 takes 10 off the damage").format(owner=t.id)))
    crab = _value(abl_t, "Vonduun Crab Armor")
    if avail("Vonduun Crab Armor"):
        needs = crab or 11
        steps.append(DamageStep("Vonduun Crab Armor", t.id, "reduce", "target", needs, 10, 1, 0, cite("PL p.66"),
                                _("{owner}'s Vonduun Crab Armor: a save of {needs} takes 10 off the damage").format(owner=t.id, needs=needs)))
    if avail("Shields"):
        n = _value(abl_t, "Shields") or 2
        steps.append(DamageStep("Shields", t.id, "reduce", "target", 11, 10, n, 0, cite("PL p.61; CS g.12"),
                                _("{owner}'s Shields {n}: {n} saves of 11, each taking 10 off the damage").format(owner=t.id, n=n)))
    return steps


def notes(pos: Position, a: Figure, t: Figure, *, melee: bool, adjacent: bool, abilities_of: Any) -> list[tuple[str, str]]:
    """What the steps leave out and why, as (text, rule): the reader sees every ability that
    could have applied and did not."""
    ed = pos.edition.value
    abl_a, abl_t = abilities_of(a), abilities_of(t)
    out: list[tuple[str, str]] = []
    if has(abl_a, "Makashi Style Master") and has(abl_t, "Soresu Style Master"):
        out.append((_("{t}'s Soresu Style Master cannot be used against {a}, a Makashi Style Master").format(t=t.id, a=a.id), "PL p.10, p.53"))
    if adjacent and has_lightsaber(abl_a):
        for name in ("Damage Reduction", "Dark Armor"):
            if has(abl_t, name) and _in_edition(name, ed):
                out.append((_("{a} attacks from an adjacent square with a lightsaber: {t}'s {ability} does not apply").format(a=a.id, t=t.id, ability=name),
                            "PL p.38, p.66"))
    if has(abl_a, "Demolish") and adjacent and has(abl_t, "Damage Reduction"):
        out.append((_("{a}'s Demolish: the damage ignores {t}'s Damage Reduction").format(a=a.id, t=t.id), "PL p.39"))
    if has(abl_a, "Force Immunity") and _in_edition("Force Immunity", ed) and any(
            has(abl_t, n) for n in ("Lightsaber Block", "Lightsaber Deflect", "Absorb Energy", "Illusion")):
        out.append((_("{a} has Force Immunity: {t} spends no Force points to answer its attacks").format(a=a.id, t=t.id), "PL p.44"))
    who = force_blocked(pos, t, abilities_of)
    if who and any(has(abl_t, n) for n in ("Lightsaber Block", "Lightsaber Deflect", "Absorb Energy", "Illusion")):
        out.append((_("{t} is within 6 squares of {who}'s Ysalamiri: it cannot spend Force points").format(t=t.id, who=who), "PL p.67"))
    if has(abl_t, "Avoid Defeat"):
        out.append((_("{t}'s Avoid Defeat: when this damage would defeat it, two saves of 11; if both succeed it stays with 10 Hit Points").format(t=t.id),
                    "PL p.34; CS g.2"))
    return out
