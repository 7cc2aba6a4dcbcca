"""Star Wars: Destiny dice: symbols, faces, and which dice one action may resolve.

Rules: Destiny rulebook (Polish), P2 "Kości" and P5 "Rozpatrzenie kości"; digest
``destiny.md`` §5.3 and §6. Face notation (ours, round-trips exactly)::

    >>> Face.parse("+ranged:2")
    Face(symbol=<Symbol.RANGED: 'ranged'>, value=2, modifier=True, cost=0, x=False)
    >>> str(Face.parse("ranged:3/1"))   # value 3, costs 1 resource
    'ranged:3/1'
    >>> str(Face.parse("blank"))
    'blank'

swdestinydb's side codes are read too, wherever a face is written (``3RD1`` ranged 3 costing
1, ``+1MD`` a melee modifier, ``1Sh``, ``Sp``, ``-``)::

    >>> [str(Face.parse(c)) for c in ("3RD1", "+1MD", "1Sh", "2R", "Sp1", "-")]
    ['ranged:3/1', '+melee:1', 'shield:1', 'resource:2', 'special/1', 'blank']

Later sets add three shapes the data's schema allows: indirect damage (``2ID`` -> ``indirect:2``),
a modifier of any symbol (``+1*`` -> ``+any:1``) and a value set by the card (``XRD1`` ->
``ranged:X/1``: the value is asked when the die is resolved)::

    >>> [str(Face.parse(c)) for c in ("2ID", "+2ID1", "+1*", "XRD1", "+XMD")]
    ['indirect:2', '+indirect:2/1', '+any:1', 'ranged:X/1', '+melee:X']
    >>> Face.parse("ranged:X").x, Face.parse("ranged:X").with_x(3)
    (True, Face(symbol=<Symbol.RANGED: 'ranged'>, value=3, modifier=False, cost=0, x=False))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from ..cardgame.notation import LONG_NUMBER, MAX_DIGITS
from ..errors import AssistantError, NotationError
from ..i18n import _


class Symbol(Enum):
    MELEE = "melee"
    RANGED = "ranged"
    SHIELD = "shield"
    RESOURCE = "resource"
    DISRUPT = "disrupt"
    DISCARD = "discard"
    FOCUS = "focus"
    INDIRECT = "indirect"  # damage the receiving player assigns among their characters (reading R42 in docs/readings.md)
    ANY = "any"  # "+1*": a modifier added to a die of any symbol (reading R43 in docs/readings.md)
    SPECIAL = "special"
    BLANK = "blank"


VALUELESS = (Symbol.SPECIAL, Symbol.BLANK)  # value 0 (P2 › Specjalny, Pusta ścianka)
_FACE = re.compile(r"^(?P<plus>\+)?(?P<sym>[a-z]+)(?::(?P<value>\d+|X))?(?:/(?P<cost>\d+))?$")
#: swdestinydb die-side codes, as the data's schema allows them: [+]VALUE SYMBOL [COST] where
#: VALUE may be X (set by the card) and SYMBOL may be * (a modifier of any symbol), Sp [COST], -
SIDE_CODE = re.compile(r"^(?:(?P<plus>\+)?(?P<value>\d+|X)(?P<sym>MD|RD|ID|F|Dr|Dc|Sh|R|\*)|(?P<sp>Sp))(?P<cost>\d+)?$")
SIDE_SYMBOLS = {"MD": "melee", "RD": "ranged", "ID": "indirect", "F": "focus", "Dr": "disrupt", "Dc": "discard", "Sh": "shield", "R": "resource",
                "*": "any"}
#: the symbols that deal damage to a character when resolved (indirect damage goes to a player, who assigns it)
DAMAGE = (Symbol.MELEE, Symbol.RANGED)


class IllegalResolveError(AssistantError):
    """A resolve-dice action the rules do not allow; the message names the rule."""


@dataclass(frozen=True)
class Face:
    symbol: Symbol
    value: int = 0
    modifier: bool = False
    cost: int = 0
    x: bool = False  # the value is X, set by the card: asked when the die is resolved

    @classmethod
    def parse(cls, text: str) -> Face:
        code = text.strip()
        long = LONG_NUMBER.search(code)
        if long is not None:  # Python refuses to read a number of over 4,300 digits: a ValueError, not a refusal
            raise NotationError(_("{text!r}: a number of {n:,} digits; a die face's numbers have at most {limit} digits").format(
                text=code if len(code) <= 80 else code[:40] + "..." + code[-20:], n=len(long.group()), limit=MAX_DIGITS))
        if code == "-":
            return cls(Symbol.BLANK)
        side = SIDE_CODE.match(code)
        if side is not None:
            return cls._from_side_code(code, side)
        m = _FACE.match(code)
        sym = None if m is None else next((s for s in Symbol if s.value == m["sym"]), None)
        if m is None or sym is None:
            raise NotationError(_("{text!r} is not a die face (e.g. 'melee:2', '+ranged:1', 'ranged:3/1', 'special', 'blank')").format(text=text))
        if sym in VALUELESS and (m["value"] or m["plus"]):
            raise NotationError(_("{text!r}: a {value} face has no value and is never a modifier").format(text=text, value=sym.value))
        if sym not in VALUELESS and m["value"] is None:
            raise NotationError(_("{text!r}: a {value} face needs a value, e.g. '{value}:1'").format(text=text, value=sym.value))
        x = m["value"] == "X"
        return cls(sym, 0 if x else int(m["value"] or 0), bool(m["plus"]), int(m["cost"] or 0), x)

    @classmethod
    def _from_side_code(cls, code: str, m: re.Match[str]) -> Face:
        cost = int(m["cost"] or 0)
        if m["sp"]:
            return cls(Symbol.SPECIAL, 0, False, cost)
        x = m["value"] == "X"
        return cls(Symbol(SIDE_SYMBOLS[m["sym"]]), 0 if x else int(m["value"]), bool(m["plus"]), cost, x)

    def with_x(self, value: int) -> Face:
        """This face with its X set (the card's text says what X is; the player gives it)."""
        return Face(self.symbol, value, self.modifier, self.cost)

    def __str__(self) -> str:
        value = "X" if self.x else str(self.value)
        body = self.symbol.value if self.symbol in VALUELESS else f"{'+' if self.modifier else ''}{self.symbol.value}:{value}"
        return body + (f"/{self.cost}" if self.cost else "")


@dataclass(frozen=True)
class PoolDie:
    """A die in a player's pool, showing ``face``; ``owner`` is the player who controls it."""

    id: str
    owner: str
    face: Face


@dataclass(frozen=True)
class ResolutionUnit:
    """Dice resolved at the same moment against one target: a base die plus its modifiers
    (P2 › Modyfikator; reading R31 in docs/readings.md). A plain die is a unit of one."""

    base: PoolDie
    modifiers: tuple[PoolDie, ...] = ()

    @property
    def value(self) -> int:
        return self.base.face.value + sum(m.face.value for m in self.modifiers)

    @property
    def cost(self) -> int:
        return self.base.face.cost + sum(m.face.cost for m in self.modifiers)  # every die's cost is paid (reading R23 in docs/readings.md)


@dataclass(frozen=True)
class ResolvePlan:
    symbol: Symbol
    units: tuple[ResolutionUnit, ...]
    cost: int
    notes: tuple[str, ...]


def check_resolve(
    player: str, groups: list[list[PoolDie]], resources: int, resolved_this_action: frozenset[str] = frozenset(), free: bool = False
) -> ResolvePlan:
    """Check one resolve-dice action: ``groups`` lists the resolution units, each a base die
    followed by the modifiers added to it. Raises :class:`IllegalResolveError` with the rule.

    >>> r1, p2 = PoolDie("a", "me", Face.parse("ranged:1")), PoolDie("b", "me", Face.parse("+ranged:2"))
    >>> check_resolve("me", [[r1, p2]], resources=0).units[0].value   # D-01
    3
    """
    where = "Destiny P5 › Rozpatrzenie kości"
    if not groups or not any(groups):
        raise IllegalResolveError(_("a resolve-dice action must resolve at least one die ({where}, L247)").format(where=where))
    notes: list[str] = []
    units: list[ResolutionUnit] = []
    seen: set[str] = set()
    symbols: set[Symbol] = set()
    for group in groups:
        if not group:
            raise IllegalResolveError(_("an empty group of dice"))
        for d in group:
            if d.owner != player:
                raise IllegalResolveError(
                    _("die {id} is in {owner}'s pool: a player resolves only dice in their own pool ({where})").format(id=d.id, owner=d.owner, where=where)
                )
            if d.id in seen or d.id in resolved_this_action:
                raise IllegalResolveError(
                    _("die {id} was already resolved in this action: a die is resolved at most once per action ({where}, L249)").format(id=d.id, where=where)
                )
            seen.add(d.id)
            if d.face.x:
                raise IllegalResolveError(
                    _("die {id} shows {face}: X is set by its card's text; give X when resolving it, e.g. 'x=2' (reading R44 in docs/readings.md)").format(
                        id=d.id, face=d.face
                    )
                )
            if d.face.symbol is not Symbol.ANY:  # a modifier of any symbol takes the symbol of the die it is added to
                symbols.add(d.face.symbol)
        base, mods = group[0], tuple(group[1:])
        if base.face.symbol is Symbol.ANY and not base.face.modifier:
            raise IllegalResolveError(
                _("die {id} shows {face}: a side of any symbol without '+' is not in the rules; turn it to the symbol its card names first").format(
                    id=base.id, face=base.face
                )
            )
        if base.face.symbol is Symbol.BLANK:
            raise IllegalResolveError(_("die {id} shows a blank, which can never be resolved (Destiny P2 › Pusta ścianka)").format(id=base.id))
        if base.face.modifier:
            why = _(
                "die {id} shows a modifier ({face}); a modifier is resolved only together with a die showing the same symbol without a plus (Destiny P2 "
                "› Modyfikator)"
            ).format(id=base.id, face=base.face)
            # 'B resolve bane1 pks1 -> boba' named the base die beside it: say how the notation adds it ('bane1+pks1')
            beside = next((g[0] for g in groups if g and not g[0].face.modifier and g[0].face.symbol not in VALUELESS
                           and base.face.symbol in (g[0].face.symbol, Symbol.ANY)), None)
            if beside is not None:
                why += "; " + _("to add it to die {base}, write them joined by '+': '{base}+{id}'").format(base=beside.id, id=base.id)
            raise IllegalResolveError(why)
        for m in mods:
            if m.face.symbol is Symbol.ANY and base.face.symbol in VALUELESS:
                raise IllegalResolveError(
                    _("die {id} ({face}) modifies a value, and die {base} shows {showing}, which has none (Destiny P2 › Wartość)").format(
                        id=m.id, face=m.face, base=base.id, showing=base.face
                    )
                )
            if not m.face.modifier:
                raise IllegalResolveError(
                    _(
                        "die {id} ({face}) is not a modifier: only '+' faces are added to another die; resolve it as its own unit (Destiny P2 › Modyfikator)"
                    ).format(id=m.id, face=m.face)
                )
        if len(mods) > 1:
            notes.append(
                _("{n} modifiers added to die {id}; the rulebook is silent on more than one — allowed, ask the judge (reading R23 in docs/readings.md)").format(
                    n=len(mods), id=base.id
                )
            )
        units.append(ResolutionUnit(base, mods))
    if len(symbols) > 1:
        names = ", ".join(sorted(s.value for s in symbols))
        raise IllegalResolveError(_("one action resolves dice of one symbol; these show {names} ({where}, L246)").format(names=names, where=where))
    cost = 0 if free else sum(u.cost for u in units)
    if cost > resources:
        raise IllegalResolveError(
            _("the faces cost {cost} resources and {player} has {resources} (Destiny P2 › Koszt)").format(cost=cost, player=player, resources=resources)
        )
    if free and any(u.cost for u in units):
        notes.append(_("face costs not paid: an effect lets these dice resolve free (Destiny P8 › Za darmo)"))
    if any(m.face.symbol is Symbol.ANY for u in units for m in u.modifiers):
        notes.append(_("a modifier of any symbol ('+any') adds its value to the die it is added to, whatever that die shows (reading R43 in docs/readings.md)"))
    return ResolvePlan(symbols.pop(), tuple(units), cost, tuple(notes))


def total_value(faces: list[Face]) -> int:
    """The total value of the dice referred to (P8 › Łączna wartość): ranged 2 + ranged 1 = 3."""
    return sum(f.value for f in faces)
