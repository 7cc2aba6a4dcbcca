"""The Star Wars TCG table: the two sides, their units in the arenas and the build zone,
pilots, missions, Force and build points, the step of the shared turn, and the attack under
way. Frozen values; :mod:`.engine` turns a command into the next table.

A table file is YAML, ``format: swtcg-table/1``. The two players are ``DS`` and ``LS``
(reading R6 in docs/readings.md: every DS-first rule needs one of each).

>>> t = parse_table('''
... format: swtcg-table/1
... step: battle-space
... players: {DS: {force: 3}, LS: {}}
... units:
...   - {id: dcs, owner: DS, name: Droid Control Ship, type: "Space - Trade Federation Capital Ship", cost: 7, power: 6, health: 7, speed: 10, zone: space}
... ''')
>>> t.unit("dcs").subtypes, t.player("DS").force
(('Trade', 'Federation', 'Capital', 'Ship'), 3)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..cardgame.tablefile import TableFileError, load_model
from ..errors import Problem, UnknownNameError, did_you_mean
from ..i18n import N_, _
from ..yamlio import dump_yaml

FORMAT = "swtcg-table/1"
SIDES = ("DS", "LS")
ARENAS = ("space", "ground", "character")  # reading R7 in docs/readings.md: listing order, not sourced
#: the words of a card's text that reach cards other than itself ("each of your other units gets +2 power",
#: "Equipped Character gets ..."): the import gives such a keyword to nobody, an attack names such a sentence (R296)
REACHES_OTHERS = re.compile(r"\b(each|all|every|your|one of|up to|any|equipped)\b", re.I)
Zone = Literal["space", "ground", "character", "build", "hand", "discard"]
Kind = Literal["unit", "mission", "location", "battle", "equipment"]
#: reading R6 in docs/readings.md: the shared turn's steps (the FAQ's old phase names are aliases)
STEPS = ("setup", "untap", "build-points", "force", "build-start", "build", "retreat",
         "battle-space", "battle-ground", "battle-character", "end")
STEP_ALIASES = {"ready": "untap", "command": "build-start", "battle": "battle-space"}
#: each step's name as a message says it after "step" (pl "etap budowy", cs "krok stavby": the
#: genitive, in the Polish clarifications' words); English keeps the step's own word, the one typed
STEP_NAMES = {
    # TRANSLATORS: a step of the SWTCG turn, as said after "step" ("etap ...", "krok ..."); see table.py
    "setup": N_("step:setup"), "untap": N_("step:untap"), "build-points": N_("step:build-points"), "force": N_("step:force"),
    "build-start": N_("step:build-start"), "build": N_("step:build"), "retreat": N_("step:retreat"),
    "battle-space": N_("step:battle-space"), "battle-ground": N_("step:battle-ground"), "battle-character": N_("step:battle-character"),
    "end": N_("step:end"),
}


def step_name(step: str) -> str:
    """The step as the reader says it ("build"; pl "budowy", cs "stavby")."""
    key = STEP_NAMES.get(step)
    if key is None:
        return step
    said = _(key)
    return step if said == key else said  # English (no catalog): the step's own word


@dataclass(frozen=True)
class Unit:
    """A card on the table. Units have a type line ("Space - Trade Federation Capital Ship");
    a pilot names the vehicle subtype it flies (``pilots: Starfighter``) and, when aboard,
    the unit it is on. ``grants`` are the bonuses printed after the word "Pilot"."""

    id: str
    owner: str
    name: str = ""
    kind: Kind = "unit"
    type: str = ""
    unique: bool = False
    cost: int = 0
    power: int = 0
    health: int = 0
    speed: int = 0
    damage: int = 0
    tapped: bool = False
    zone: Zone = "hand"
    status: Literal["", "partial", "retreated"] = ""
    counters: int = 0
    stacked: int = 0
    keywords: tuple[tuple[str, Any], ...] = ()
    pilots: str = ""  # the vehicle subtype before "Pilot" (Starfighter, Speeder, ...)
    aboard: str | None = None
    grants: tuple[tuple[str, Any], ...] = ()
    upkeep: int = 0
    bounty: bool = False
    cannot_attack: bool = False  # e.g. under Han Enchained
    speed_bonus: int = 0
    power_bonus: int = 0  # until end of battle (Stun and similar)
    #: Force paid to use a keyword, as printed ("Pay 1 Force: Retaliate 2" -> retaliate: 1); Evade: one per instance
    costs: tuple[tuple[str, Any], ...] = ()
    side: str = ""  # the card's side: DS, LS, neutral (either may play it) or "" (not given)
    variable: tuple[str, ...] = ()  # stats printed "*": set by the card's text, asked for before they are used
    #: what the card prints for each stat a set-stat changed (None: '*'), so a later set-stat still names it
    printed: tuple[tuple[str, int | None], ...] = ()
    conditional: tuple[str, ...] = ()  # keywords the card gives under a condition: listed, not applied
    grant_costs: tuple[tuple[str, Any], ...] = ()  # the Force cost of a keyword this pilot grants its vehicle
    upkeep_text: str = ""  # Upkeep as printed ("Pay 1 build point or tap this unit"): its choices are paid at pay-upkeep

    @property
    def label(self) -> str:
        return self.name or self.id

    @property
    def arena(self) -> str:
        return {"space": "Space", "ground": "Ground", "character": "Character"}.get(self.type.split(" - ")[0].strip().lower(), "")

    @property
    def subtypes(self) -> tuple[str, ...]:
        _, _, rest = self.type.partition(" - ")
        return tuple(rest.split())

    def kw(self, name: str, default: Any = 0) -> Any:
        return dict(self.keywords).get(name, default)


@dataclass(frozen=True)
class Player:
    side: str
    force: int = 0
    bp: int = 0
    setup_bp: int = 30
    hand: int = 7
    deck: int = 40
    discard: int = 0
    setup_done: bool = False
    setup_partial: bool = False
    bounties: int = 0  # earned last turn, collected at the start of the build step
    upkeep_owed: int = 0
    drew: bool = False
    bp_spent: int = 0  # build points spent this turn: the entered BP can no longer be changed


@dataclass(frozen=True)
class AttackState:
    attacker: str
    defender: str
    power: int
    rolls: tuple[int, ...] = ()
    hits: int = 0
    damage: int = 0
    critical: int = 0
    window: str = ""  # "" / "before-roll" / "reroll" / "prevention"
    window_turn: str = "DS"
    passes: int = 0
    used: tuple[str, ...] = ()  # "UNIT:ABILITY" used in this chance
    retaliate: tuple[tuple[str, int], ...] = ()  # (unit, dice) at the end of the attack
    overload_self: int = 0
    prevented: int = 0
    lucky_used: tuple[str, ...] = ()


@dataclass(frozen=True)
class Table:
    players: tuple[Player, ...]
    units: tuple[Unit, ...] = ()
    turn: int = 1
    step: str = "build"
    attack: AttackState | None = None
    pilots_moved: frozenset[str] = frozenset()
    triggers: tuple[tuple[str, str], ...] = ()  # (side, text) waiting
    contest: tuple[str, str, int, int, str, int] | None = None  # ds unit, ls unit, ds bid, ls bid, whose turn, declines
    result: str = ""
    notes: tuple[str, ...] = field(default=())

    @property
    def names(self) -> tuple[str, ...]:
        return SIDES

    def player(self, side: str) -> Player:
        for p in self.players:
            if p.side == side:
                return p
        raise UnknownNameError("side (DS or LS)", side, SIDES)

    def unit(self, uid: str) -> Unit:
        for u in self.units:
            if u.id == uid:
                return u
        raise UnknownNameError("card", uid, [u.id for u in self.units])

    def in_arena(self, arena: str | None = None, owner: str | None = None) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.zone in ARENAS and u.aboard is None and u.kind == "unit"
                     and (arena is None or u.zone == arena) and (owner is None or u.owner == owner))

    def pilot_of(self, uid: str) -> Unit | None:
        return next((u for u in self.units if u.aboard == uid), None)

    def with_unit(self, u: Unit) -> Table:
        return replace(self, units=tuple(u if q.id == u.id else q for q in self.units))

    def with_player(self, p: Player) -> Table:
        return replace(self, players=tuple(p if q.side == p.side else q for q in self.players))


def other(side: str) -> str:
    return "LS" if side == "DS" else "DS"


# --- the file boundary ------------------------------------------------------------------

_UPKEEP_CHOICES = (
    ("bp", re.compile(r"^pay\s+(\d{1,2})\s+build\s+points?$", re.I)),
    ("force", re.compile(r"^pay\s+(\d{1,2})\s+force$", re.I)),
    # tapping the unit itself ("tap this unit", "tap Jango"), never "tap one of your Assassins" (another unit, done by hand)
    ("tap", re.compile(r"^tap\s+(?:this unit|it|him|her|(?!(?:one|a|an|another|each|up to|two|\d+)\b)(?!.*\byour\b)[\w' -]+?)()$", re.I)),
    ("discard", re.compile(r"^discard\s+(\d{1,2}|a|one)\s+cards?\s+from\s+(?:your\s+)?hand$", re.I)),
    ("damage", re.compile(r"^put\s+(\d{1,2})\s+damage\s+counters?\s+on\s+(?:this unit|it|(?!(?:one|a|an|another|each|up to)\b)(?!.*\byour\b)[\w' -]+?)$",
                          re.I)),
)


#: a choice of Upkeep starts with what the player does; a piece that does not is the rest of the one before it
_UPKEEP_VERB = r"(?:pay|tap|discard|put|remove|return|lose|gain|draw|reveal|shuffle|add|move|retreat|search|sacrifice)\b"


def upkeep_choices(text: str) -> tuple[list[tuple[str, int]], list[str]]:
    """Upkeep's choices as printed ("Pay 1 build point, discard 1 card from your hand, or tap this
    unit"): those the engine applies, and the others as text.

    >>> upkeep_choices("Pay 1 build point or tap this unit.")
    ([('bp', 1), ('tap', 0)], [])
    >>> upkeep_choices("Put the top 3 cards of your deck into your discard pile.")
    ([], ['Put the top 3 cards of your deck into your discard pile'])
    >>> upkeep_choices("Remove 1 corruption or captivity counter from one of your units.")
    ([], ['Remove 1 corruption or captivity counter from one of your units'])
    """
    parts: list[str] = []
    for p in (p.strip() for p in re.split(r",\s*(?:or\s+)?|\s+or\s+", text.strip().rstrip(".")) if p.strip()):
        if parts and not re.match(_UPKEEP_VERB, p, re.I):
            parts[-1] += " or " + p  # "tap one of your Assassins or Death Watch units": one choice, its "or" inside
        else:
            parts.append(p)
    got: list[tuple[str, int]] = []
    unread: list[str] = []
    for p in parts:
        for key, rx in _UPKEEP_CHOICES:
            m = rx.match(p)
            if m:
                got.append((key, 1 if m[1].lower() in ("a", "one") else int(m[1]) if m[1] else 0))  # "discard a card"
                break
        else:
            unread.append(p)
    if not got:
        return [], [text.strip().rstrip(".")]  # "Remove 1 corruption or captivity counter ...": one choice, not split at its "or"
    return got, unread


#: the largest number a table file or a play gives a stat, a boost, a keyword's X or a count: no card
#: comes near it (speeds run to about 90, the other stats to about 20, a deck to 60 cards); 10**20
#: was taken and carried into every later answer (trial27, readings R286 and R300)
MAX_NUMBER = 999
#: a whole number of the table file: from 0 to MAX_NUMBER
Count = Annotated[int, Field(ge=0, le=MAX_NUMBER)]
#: a keyword's value: a number (Accuracy 1), a yes (Overkill), or a list (Evade [2])
KeywordValue = int | bool | list[int]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _PlayerModel(_Strict):
    # each default is Player's, read from it: a file that leaves a count out gets what the engine assumes
    force: Count = Player.force
    bp: Count = Player.bp
    setup_bp: Count = Player.setup_bp
    hand: Count = Player.hand
    deck: Count = Player.deck
    discard: Count = Player.discard
    bounties: Count = Player.bounties
    upkeep_owed: Count = Player.upkeep_owed
    bp_spent: Count = Player.bp_spent


class _UnitModel(_Strict):
    id: str = Field(min_length=1)
    owner: Literal["DS", "LS"]
    name: str = ""
    kind: Literal["unit", "mission", "location", "battle", "equipment"] = "unit"
    type: str = ""
    unique: bool = False
    cost: Count = 0
    power: Count = 0
    health: Count = 0
    speed: Count = 0
    damage: Count = 0
    tapped: bool = False
    zone: Literal["space", "ground", "character", "build", "hand", "discard"] = "hand"
    status: Literal["", "partial", "retreated"] = ""
    counters: Count = 0
    stacked: Count = 0
    keywords: dict[str, KeywordValue] = {}
    pilots: str = ""
    aboard: str | None = None
    grants: dict[str, KeywordValue] = {}
    upkeep: Count = 0
    bounty: bool = False
    cannot_attack: bool = False
    costs: dict[str, Count | list[Count]] = {}
    side: Literal["DS", "LS", "neutral", ""] = ""
    variable: list[Literal["cost", "speed", "power", "health"]] = []
    conditional: list[str] = []
    grant_costs: dict[str, Count | list[Count]] = {}
    upkeep_text: str = ""


class _TableModel(_Strict):
    format: Literal["swtcg-table/1"]
    turn: Annotated[int, Field(ge=1, le=MAX_NUMBER)] = 1
    step: str = "build"
    players: dict[Literal["DS", "LS"], _PlayerModel]
    units: list[_UnitModel] = []


def _freeze(d: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in d.items())


def parse_table(text: str, name: str = "<table>") -> Table:
    m, lines = load_model(text, name, _TableModel)
    probs: list[Problem] = []
    step = STEP_ALIASES.get(m.step, m.step)
    if step not in STEPS:
        probs.append(
            Problem(
                _("{step!r} is not a step{hint}; steps: {names}").format(step=m.step, hint=did_you_mean(m.step, STEPS), names=', '.join(STEPS)),
                name,
                lines.line(("step",)),
                "step",
                m.step,
            )
        )
    if set(m.players) != set(SIDES):
        probs.append(
            Problem(_("a game has one DS and one LS player (reading R6 in docs/readings.md)"), name, lines.line(("players",)), "players", sorted(m.players))
        )
    units = []
    ids: set[str] = set()
    for i, um in enumerate(m.units):
        if um.id in ids:
            probs.append(Problem(_("a second card with this id"), name, lines.line(("units", i, "id")), f"units[{i}].id", um.id))
        ids.add(um.id)
        units.append(
            Unit(
                um.id,
                um.owner,
                um.name,
                um.kind,
                um.type,
                um.unique,
                um.cost,
                um.power,
                um.health,
                um.speed,
                um.damage,
                um.tapped,
                um.zone,
                um.status,
                um.counters,
                um.stacked,
                _freeze(um.keywords),
                um.pilots,
                um.aboard,
                _freeze(um.grants),
                um.upkeep,
                um.bounty,
                um.cannot_attack,
                costs=_freeze(um.costs),
                side=um.side,
                variable=tuple(dict.fromkeys(um.variable)),
                conditional=tuple(um.conditional),
                grant_costs=_freeze(um.grant_costs),
                upkeep_text=um.upkeep_text,
            )
        )
        for part, given in (("keywords", um.keywords), ("grants", um.grants)):
            for key, value in given.items():
                past = [v for v in (value if isinstance(value, list) else [value]) if not isinstance(v, bool) and abs(v) > MAX_NUMBER]
                if past:
                    # a keyword's X is bounded as a stat is (reading R300); checked here, not in the
                    # model's union, which said it three times ("not a boolean", "not a list")
                    probs.append(Problem(_("{value} is past what any card gives: a keyword's number is from {least} to {most}").format(
                        value=past[0], least=-MAX_NUMBER, most=MAX_NUMBER), name, lines.line(("units", i, part, key)), f"units[{i}].{part}.{key}", value))
        if um.side in SIDES and um.side != um.owner:
            probs.append(
                Problem(
                    _("a {side} card: {owner} can't play it (a neutral card may be played by either side)").format(side=um.side, owner=um.owner),
                    name,
                    lines.line(("units", i, "side")),
                    f"units[{i}].side",
                    um.side,
                )
            )
    for i, u in enumerate(units):
        if u.aboard is not None and u.aboard not in ids:
            probs.append(
                Problem(
                    _("not a card on the table{hint}").format(hint=did_you_mean(u.aboard, ids)),
                    name,
                    lines.line(("units", i, "aboard")),
                    f"units[{i}].aboard",
                    u.aboard,
                )
            )
    if probs:
        raise TableFileError(name, probs)
    players = tuple(
        Player(s, pm.force, pm.bp, pm.setup_bp, pm.hand, pm.deck, pm.discard, bounties=pm.bounties, upkeep_owed=pm.upkeep_owed, bp_spent=pm.bp_spent)
        for s, pm in sorted(m.players.items())
    )
    return Table(players, tuple(units), m.turn, step)


def dump_table(t: Table) -> str:
    default = Unit("", "DS")
    units = []
    for u in t.units:
        d: dict[str, Any] = {"id": u.id, "owner": u.owner}
        for k in (
            "name",
            "kind",
            "type",
            "unique",
            "cost",
            "power",
            "health",
            "speed",
            "damage",
            "tapped",
            "zone",
            "status",
            "counters",
            "stacked",
            "pilots",
            "aboard",
            "upkeep",
            "bounty",
            "cannot_attack",
            "side",
            "upkeep_text",
        ):
            if getattr(u, k) != getattr(default, k):
                d[k] = getattr(u, k)
        for k in ("keywords", "grants", "costs", "grant_costs"):
            if getattr(u, k):
                d[k] = {a: list(b) if isinstance(b, tuple) else b for a, b in getattr(u, k)}
        for k in ("variable", "conditional"):
            if getattr(u, k):
                d[k] = list(getattr(u, k))
        units.append(d)
    pd = Player("")
    data = {
        "format": FORMAT,
        "turn": t.turn,
        "step": t.step,
        "players": {
            p.side: {
                k: getattr(p, k)
                for k in ("force", "bp", "setup_bp", "hand", "deck", "discard", "bounties", "upkeep_owed", "bp_spent")
                if getattr(p, k) != getattr(pd, k)
            }
            for p in t.players
        },
        "units": units,
    }
    return dump_yaml(data)
