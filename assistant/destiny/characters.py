"""Star Wars: Destiny damage, shields, healing and defeat (P6 › Obrażenia, Osłony,
Pokonane postacie; P8 › Zadawanie obrażeń, Nieblokowalne obrażenia, Poruszanie, Ulecz;
digest ``destiny.md`` §7).

Damage is recorded twice (reading R21 in docs/readings.md): *dealt* (assigned, blocked or not) and *taken* (tokens
actually placed). A "takes damage" trigger needs ``taken > 0``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import AssistantError
from ..i18n import _

MAX_SHIELDS = 3
MAX_UPGRADES = 3


class IllegalTargetError(AssistantError):
    """An effect aimed at a card it may not target (P8 › Wybierz (cel))."""


@dataclass(frozen=True)
class Character:
    id: str
    health: int
    damage: int = 0
    shields: int = 0
    exhausted: bool = False
    defeated: bool = False
    upgrades: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not 0 <= self.shields <= MAX_SHIELDS:
            raise ValueError(_("{id}: {shields} shields; a character holds 0 to {most}").format(id=self.id, shields=self.shields, most=MAX_SHIELDS))
        if not 0 <= self.damage <= self.health:
            raise ValueError(_("{id}: {damage} damage with health {health}").format(id=self.id, damage=self.damage, health=self.health))


@dataclass(frozen=True)
class DamageResult:
    character: Character
    dealt: int
    blocked: int
    taken: int
    defeated_now: bool
    ignored_excess: int
    rule: str


def _alive(c: Character) -> None:
    if c.defeated:
        raise IllegalTargetError(_("{id} is defeated and is no legal target (Destiny P8 › Wybierz (cel))").format(id=c.id))


def deal_damage(c: Character, amount: int, unblockable: bool = False) -> DamageResult:
    """Deal ``amount`` damage: shields block first and must be used (P6 › Osłony), unless the
    damage is unblockable (P8 › Nieblokowalne obrażenia). At damage == health the character is
    defeated at once and the excess is ignored (P6 › Pokonane postacie).

    >>> r = deal_damage(Character("han", health=8, shields=2), 3)   # D-07
    >>> (r.blocked, r.taken, r.character.shields, r.character.damage)
    (2, 1, 0, 1)
    """
    _alive(c)
    blocked = 0 if unblockable else min(c.shields, amount)
    placed = amount - blocked
    room = c.health - c.damage
    taken = min(placed, room)
    defeated = c.damage + taken >= c.health
    new = replace(c, shields=c.shields - blocked, damage=c.damage + taken, defeated=defeated,
                  upgrades=() if defeated else c.upgrades)
    rule = (_("Destiny P8 › Nieblokowalne obrażenia: shields stay and are ignored") if unblockable
            else _("Destiny P6 › Osłony: each shield blocks 1 damage and is removed; using them is mandatory"))
    if defeated:
        rule += _("; P6 › Pokonane postacie: defeated at once, its dice and its upgrades' dice leave the game, upgrades are discarded")
    return DamageResult(new, amount, blocked, taken, defeated and not c.defeated, placed - taken, rule)


def move_damage(src: Character, dst: Character, amount: int) -> tuple[Character, Character, int]:
    """Move damage tokens (P8 › Poruszanie): shields are ignored and ``dst`` is *not* dealt
    damage. Returns both characters and how many tokens moved."""
    _alive(dst)
    if src.id == dst.id:
        return src, dst, 0  # a move must go somewhere else; with nowhere to go nothing happens
    moved = min(amount, src.damage, dst.health - dst.damage)
    dst2 = replace(dst, damage=dst.damage + moved)
    if dst2.damage >= dst2.health:
        dst2 = replace(dst2, defeated=True, upgrades=())
    return replace(src, damage=src.damage - moved), dst2, moved


def give_shields(c: Character, amount: int) -> tuple[Character, int]:
    """Shields up to 3; the excess is ignored (P2 › Osłona). Returns the character and the
    shields ignored (D-06: 2 + 3 gives 3, 2 ignored)."""
    _alive(c)
    new = min(MAX_SHIELDS, c.shields + amount)
    return replace(c, shields=new), c.shields + amount - new


def heal(c: Character, amount: int) -> tuple[Character, int]:
    """Heal as much as possible (P8 › Ulecz). Returns the character and the damage removed;
    0 removed means the character was *not* healed."""
    _alive(c)
    removed = min(amount, c.damage)
    return replace(c, damage=c.damage - removed), removed


def lose_resources(have: int, amount: int) -> int:
    """Disrupt (P2 › Zakłócenie): resources never go below 0."""
    return max(0, have - amount)


def discard_count(hand: int, amount: int) -> int:
    """Discard V random cards (P2 › Odrzucenie): all of them if the hand holds fewer."""
    return min(hand, amount)
