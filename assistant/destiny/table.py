"""The Star Wars: Destiny table: players, characters, upgrades, supports, dice, battlefield.

Frozen values; :mod:`.engine` turns a command into the next table. A table file (YAML,
``format: destiny-table/1``) describes a table at any moment -- a setup or the middle of a
round -- and round-trips through :func:`dump_table`. Pydantic checks it at the boundary and
every problem is reported with its file line.

>>> t = parse_table('''
... format: destiny-table/1
... players: {A: {resources: 2}, B: {}}
... battlefield: {owner: A, controller: A}
... characters:
...   - {id: han, owner: A, health: 8, dice: {han1: [melee:2, ranged:1, blank, special, melee:1/1, resource:1]}}
...   - {id: vader, owner: B, health: 13}
... pool: {han1: ranged:1}
... ''')
>>> t.card("han").health, str(t.die("han1").showing), t.turn
(8, 'ranged:1', 'A')
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..cardgame.tablefile import TableFileError, load_model, problem_at
from ..errors import NotationError, Problem, UnknownNameError, did_you_mean
from ..i18n import _
from ..yamlio import dump_yaml
from .characters import MAX_SHIELDS
from .dice import Face
from .importers import said_word

FORMAT = "destiny-table/1"
Kind = Literal["character", "upgrade", "support", "event", "plot", "downgrade"]
Phase = Literal["setup", "action", "upkeep", "over"]


@dataclass(frozen=True)
class Die:
    """A die in the game: its faces (may be unknown: ``()``), and the face ``showing`` while it
    is in its owner's pool (``None`` when it sits on its card)."""

    id: str
    card: str
    owner: str
    faces: tuple[Face, ...] = ()
    showing: Face | None = None
    set_aside_after: bool = False  # rolled in from a card not in play (Ace in the Hole, D-53)


@dataclass(frozen=True)
class Card:
    """A card in play. Characters carry health, damage and shields; upgrades sit ``on`` a
    character. ``replaces_defeat`` names cards whose effect replaces this character's defeat
    with a heal of the given amount (Second Chance, P7 › Efekty zastępujące)."""

    id: str
    owner: str
    kind: Kind
    title: str = ""
    cost: int = 0
    color: str = "grey"
    unique: bool = False
    health: int = 0
    damage: int = 0
    shields: int = 0
    exhausted: bool = False
    defeated: bool = False
    on: str | None = None
    keywords: frozenset[str] = frozenset()
    replaces_defeat: tuple[tuple[str, int], ...] = ()
    discard_when: str | None = None  # "takes-melee-damage" (Take Cover #164, D-22)

    @property
    def name(self) -> str:
        return self.title or self.id


@dataclass(frozen=True)
class Player:
    name: str
    side: str = "hero"
    resources: int = 0
    hand: int = 5
    deck: int = 20
    discard: int = 0
    hand_limit: int = 5
    battlefield: str = ""
    free_cost_dice: bool = False  # a battlefield or card lets cost-bearing dice resolve free (reading R28 in docs/readings.md)
    mulliganed: bool = False
    upkeep_done: bool = False


@dataclass(frozen=True)
class Table:
    players: tuple[Player, ...]
    cards: tuple[Card, ...] = ()
    dice: tuple[Die, ...] = ()
    round: int = 1
    phase: Phase = "action"
    bf_owner: str = ""
    bf_controller: str = ""
    turn: str = ""
    passes_in_row: int = 0
    claimed_by: str | None = None
    extra_action: str | None = None  # Ambush: this player acts again at once (P7 › Zasadzka)
    resolved_this_action: frozenset[str] = frozenset()
    indirect: tuple[tuple[str, int], ...] = ()  # player -> indirect damage they must assign now (reading R42 in docs/readings.md)
    discard_down: tuple[tuple[str, int], ...] = ()  # character -> upgrades its controller must discard (reading R24 in docs/readings.md)
    delayed: tuple[tuple[str, str], ...] = ()  # (effect, card) after the round ends (P7 › Efekty opóźnione)
    setup_rolls: tuple[tuple[str, int], ...] = ()
    roll_winner: str | None = None
    winner: str | None = None
    result: str = ""
    notes: tuple[str, ...] = field(default=())

    # -- lookups -------------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise UnknownNameError("player", name, self.names)

    def card(self, cid: str) -> Card:
        for c in self.cards:
            if c.id == cid:
                return c
        raise UnknownNameError("card", cid, [c.id for c in self.cards])

    def die(self, did: str) -> Die:
        for d in self.dice:
            if d.id == did:
                return d
        raise UnknownNameError("die", did, [d.id for d in self.dice])

    def pool(self, owner: str | None = None) -> tuple[Die, ...]:
        return tuple(d for d in self.dice if d.showing is not None and (owner is None or d.owner == owner))

    def characters(self, owner: str | None = None, alive: bool = True) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.kind == "character" and (owner is None or c.owner == owner)
                     and not (alive and c.defeated))

    def upgrades_on(self, cid: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.kind == "upgrade" and c.on == cid)

    def downgrades_on(self, cid: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.kind == "downgrade" and c.on == cid)

    def dice_of(self, cid: str) -> tuple[Die, ...]:
        return tuple(d for d in self.dice if d.card == cid)

    def opponents(self, name: str) -> tuple[str, ...]:
        return tuple(n for n in self.names if n != name)

    # -- updates -------------------------------------------------------------------------

    def with_player(self, p: Player) -> Table:
        return replace(self, players=tuple(p if q.name == p.name else q for q in self.players))

    def with_card(self, c: Card) -> Table:
        return replace(self, cards=tuple(c if q.id == c.id else q for q in self.cards))

    def with_die(self, d: Die) -> Table:
        return replace(self, dice=tuple(d if q.id == d.id else q for q in self.dice))

    def without_dice(self, ids: set[str]) -> Table:
        return replace(self, dice=tuple(d for d in self.dice if d.id not in ids))

    def without_cards(self, ids: set[str]) -> Table:
        return replace(self, cards=tuple(c for c in self.cards if c.id not in ids))


# --- the file boundary ------------------------------------------------------------------

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _PlayerModel(_Strict):
    # each default is Player's, read from it: a file that leaves a count out gets what the engine assumes
    side: Literal["hero", "villain"] = "hero"
    resources: int = Field(Player.resources, ge=0)
    hand: int = Field(Player.hand, ge=0)
    deck: int = Field(Player.deck, ge=0)
    discard: int = Field(Player.discard, ge=0)
    hand_limit: int = Field(Player.hand_limit, ge=0)
    battlefield: str = Player.battlefield
    free_cost_dice: bool = Player.free_cost_dice
    mulliganed: bool = Player.mulliganed


class _CardModel(_Strict):
    id: str = Field(min_length=1)
    owner: str
    title: str = ""
    cost: int = Field(0, ge=0)
    color: Literal["red", "blue", "yellow", "grey"] = "grey"
    unique: bool = False
    health: int = Field(0, ge=0)
    damage: int = Field(0, ge=0)
    shields: int = Field(0, ge=0, le=MAX_SHIELDS)
    exhausted: bool = False
    defeated: bool = False
    attached_to: str | None = None
    keywords: list[Literal["guardian", "ambush", "redeploy"]] = []
    replaces_defeat: dict[str, int] = {}
    discard_when: Literal["takes-melee-damage"] | None = None
    dice: dict[str, list[str]] = {}


class _BattlefieldModel(_Strict):
    owner: str = ""
    controller: str = ""


class _TableModel(_Strict):
    format: Literal["destiny-table/1"]
    round: int = Field(1, ge=1)
    phase: Literal["setup", "action", "upkeep", "over"] = "action"
    turn: str = ""
    claimed_by: str | None = None
    players: dict[str, _PlayerModel] = Field(min_length=2)
    battlefield: _BattlefieldModel = _BattlefieldModel()
    characters: list[_CardModel] = []
    upgrades: list[_CardModel] = []
    supports: list[_CardModel] = []
    plots: list[_CardModel] = []  # chosen when building the deck, in play from the start
    downgrades: list[_CardModel] = []  # sit on a character, as upgrades do, but are not upgrades
    pool: dict[str, str] = {}


def parse_table(text: str, name: str = "<table>") -> Table:
    m, lines = load_model(text, name, _TableModel)
    probs: list[Problem] = []

    def bad(where: str, value: Any, msg: str) -> None:
        probs.append(problem_at(name, lines, where, value, msg))

    players = tuple(Player(n, pm.side, pm.resources, pm.hand, pm.deck, pm.discard, pm.hand_limit, pm.battlefield,
                           pm.free_cost_dice, pm.mulliganed) for n, pm in m.players.items())
    names = [p.name for p in players]
    cards: list[Card] = []
    dice: list[Die] = []
    for key, kind, items in (("characters", "character", m.characters), ("upgrades", "upgrade", m.upgrades),
                             ("supports", "support", m.supports), ("plots", "plot", m.plots), ("downgrades", "downgrade", m.downgrades)):
        for i, cm in enumerate(items):
            where = f"{key}[{i}]"
            if cm.owner not in names:
                bad(f"{where}.owner", cm.owner, _("not a player{hint}").format(hint=did_you_mean(cm.owner, names)))
            if any(c.id == cm.id for c in cards):
                bad(f"{where}.id", cm.id, _("a second card with this id"))
            if kind == "character" and cm.health < 1:
                bad(f"{where}.health", cm.health, _("a character needs health of at least 1"))
            if kind == "character" and cm.damage > cm.health:
                bad(f"{where}.damage", cm.damage, _("more damage than health {health}").format(health=cm.health))
            if kind == "upgrade" and not cm.attached_to:
                bad(f"{where}.attached_to", None, _("an upgrade sits on a character: give 'attached_to: CHARACTER'"))
            if kind == "downgrade" and not cm.attached_to:
                bad(f"{where}.attached_to", None, _("a downgrade sits on a character: give 'attached_to: CHARACTER'"))
            if kind in ("plot", "downgrade") and cm.dice:
                bad(f"{where}.dice", cm.dice,
                    _("the die of a {kind} is not modelled: roll it in with 'roll-in' when its text says so").format(kind=said_word(kind)))
            for did, faces in cm.dice.items():
                try:
                    parsed = tuple(Face.parse(f) for f in faces)
                except NotationError as e:
                    bad(f"{where}.dice.{did}", faces, str(e))
                    continue
                if parsed and len(parsed) != 6:
                    bad(f"{where}.dice.{did}", faces, _("a die has 6 faces, not {n} (or give [] when unknown)").format(n=len(parsed)))
                if any(d.id == did for d in dice):
                    bad(f"{where}.dice.{did}", did, _("a second die with this id"))
                dice.append(Die(did, cm.id, cm.owner, parsed))
            cards.append(Card(cm.id, cm.owner, kind, cm.title, cm.cost, cm.color, cm.unique, cm.health, cm.damage,  # type: ignore[arg-type]
                              cm.shields, cm.exhausted, cm.defeated, cm.attached_to, frozenset(cm.keywords),
                              tuple(cm.replaces_defeat.items()), cm.discard_when))
    ids = {c.id for c in cards}
    for c in cards:
        if c.kind in ("upgrade", "downgrade") and c.on and (c.on not in ids or next(x for x in cards if x.id == c.on).kind != "character"):
            bad(
                f"{c.kind}s[{[x.id for x in cards if x.kind == c.kind].index(c.id)}].attached_to",
                c.on,
                _("not a character in play{hint}").format(hint=did_you_mean(c.on, ids)),
            )
    pooled: list[Die] = []
    for did, face in m.pool.items():
        d = next((x for x in dice if x.id == did), None)
        if d is None:
            bad(f"pool.{did}", did, _("no such die on any card{hint}").format(hint=did_you_mean(did, [x.id for x in dice])))
            continue
        try:
            f = Face.parse(face)
        except NotationError as e:
            bad(f"pool.{did}", face, str(e))
            continue
        if d.faces and f not in d.faces:
            bad(f"pool.{did}", face, _("die {did} has no such face ({names})").format(did=did, names=', '.join(map(str, d.faces))))
        pooled.append(replace(d, showing=f))
    dice = [next((p for p in pooled if p.id == d.id), d) for d in dice]
    for key, who in (
        ("battlefield.owner", m.battlefield.owner),
        ("battlefield.controller", m.battlefield.controller),
        ("turn", m.turn),
        ("claimed_by", m.claimed_by or ""),
    ):
        if who and who not in names:
            bad(key, who, _("not a player{hint}").format(hint=did_you_mean(who, names)))
    if probs:
        raise TableFileError(name, probs)
    controller = m.battlefield.controller or m.battlefield.owner
    turn = m.turn or (controller if m.phase == "action" else "")
    return Table(players, tuple(cards), tuple(dice), m.round, m.phase, m.battlefield.owner, controller, turn, claimed_by=m.claimed_by)


def dump_table(t: Table) -> str:
    """The table as a canonical table file (round-trips through :func:`parse_table` for the
    state a file can hold: pending discards, delayed effects and the log are not in it)."""

    def card(c: Card) -> dict[str, Any]:
        out: dict[str, Any] = {"id": c.id, "owner": c.owner}
        defaults = Card(c.id, c.owner, c.kind)
        for k in ("title", "cost", "color", "unique", "health", "damage", "shields", "exhausted", "defeated", "on", "discard_when"):
            if getattr(c, k) != getattr(defaults, k):
                out["attached_to" if k == "on" else k] = getattr(c, k)
        if c.keywords:
            out["keywords"] = sorted(c.keywords)
        if c.replaces_defeat:
            out["replaces_defeat"] = dict(c.replaces_defeat)
        ds = t.dice_of(c.id)
        if ds:
            out["dice"] = {d.id: [str(f) for f in d.faces] for d in ds}
        return out

    pdefault = Player("")
    data: dict[str, Any] = {"format": FORMAT, "round": t.round, "phase": t.phase}
    if t.turn:
        data["turn"] = t.turn
    if t.claimed_by:
        data["claimed_by"] = t.claimed_by
    data["players"] = {
        p.name: {
            k: getattr(p, k)
            for k in ("side", "resources", "hand", "deck", "discard", "hand_limit", "battlefield", "free_cost_dice", "mulliganed")
            if getattr(p, k) != getattr(pdefault, k)
        }
        for p in t.players
    }
    data["battlefield"] = {"owner": t.bf_owner, "controller": t.bf_controller}
    for key, kind in (("characters", "character"), ("upgrades", "upgrade"), ("supports", "support"), ("plots", "plot"), ("downgrades", "downgrade")):
        cs = [card(c) for c in t.cards if c.kind == kind]
        if cs:
            data[key] = cs
    pool = {d.id: str(d.showing) for d in t.dice if d.showing is not None}
    if pool:
        data["pool"] = pool
    return dump_yaml(data)
