"""The stat-card library: SWM and DDM cards as frozen records, read from ``cards/*.yaml``.

A card file (format ``tabletop-cards/1``) holds the cards of one game and set::

    format: tabletop-cards/1
    game: swm                     # swm | ddm
    set: Clone Wars starter (2008)
    cards:
      - name: Security Battle Droid
        source: swm2008 PL p.10, p.24-25
        cost: unknown
        ...

Every numeric field is required and is either a number or ``unknown``: a card never
silently lacks a value, and no number is filled in that a source does not give. A card
with ``complete: false`` reproduces only what its source states; its ability lists may be
incomplete.

>>> split_ability("Careful Shot +4")
('Careful Shot', 4)
>>> split_ability("Master of the Force 2")
('Master of the Force', 2)
>>> split_ability("Force Renewal (1)")
('Force Renewal', 1)
>>> split_ability("Melee Attack")
('Melee Attack', None)
"""

from __future__ import annotations

import os
import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cache, lru_cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any, Literal

from .cache import Key, cached
from .errors import AmbiguousNameError, CardLibraryError, Problem, UnknownNameError, plain
from .fileread import file_marks, read_limited
from .i18n import N_, _, current
from .overrides import LINE_KEYS, OVERRIDES_FILE, CardOverride, overrides_path, read_overrides
from .resources import data_dir, user_cards_dir
from .stats import Stats
from .yamlio import MAX_FILE_BYTES, LineMap, YamlReadError, parse_yaml, problems_from_validation, read_text

if TYPE_CHECKING:  # at run time these are put here when a card file is first read: see _validation
    from pydantic import ConfigDict, Field, StrictInt, TypeAdapter

    from .cardvalidation import KnownBool, KnownCount, KnownInt, KnownNames, KnownSize, KnownText, NoneOrUnknown, Unknown

CARD_FORMAT = "tabletop-cards/1"
Game = Literal["swm", "ddm"]
GAMES: tuple[str, ...] = ("swm", "ddm")

#: Environment variable naming extra card folders (separated like PATH).
CARDS_ENV = "TABLETOP_CARDS"


_ABILITY_RE = re.compile(r"^(?P<name>.*?)\s*(?:\(\s*(?P<paren>[+-]?\d+)\s*\)|(?P<num>[+-]?\d+))$")


def split_ability(text: str) -> tuple[str, int | None]:
    """A glossary name and its ``[#]`` value, from how a card writes it; an ally the ability
    names, in brackets, is not part of the name (``Gang +2 (Gamorrean Guard)``: see
    :func:`named_in`).

    >>> split_ability("Careful Shot +4"), split_ability("Synergy (Chewbacca)"), split_ability("Gang 2 (Gamorrean)")
    (('Careful Shot', 4), ('Synergy', None), ('Gang', 2))
    """
    return _split_ability(text)


@lru_cache(maxsize=4096)  # pure, and asked thousands of times per answer (abilities.has): a shell or server asks again every query
def _split_ability(text: str) -> tuple[str, int | None]:
    text = _NAMED_RE.sub("", text.strip()).strip()
    m = _ABILITY_RE.match(text)
    if m and m.group("name"):
        return m.group("name"), int(m.group("paren") or m.group("num"))
    return text, None


#: an ally an ability names, as a card writes it: "Synergy (Chewbacca)" (never a number: "(+4)" is a value)
_NAMED_RE = re.compile(r"\s*\((?P<who>[^()0-9+\-][^()]*)\)\s*$")


def named_in(text: str) -> str | None:
    """The ally an ability names (``Synergy (Chewbacca)`` -> ``Chewbacca``), or None."""
    m = _NAMED_RE.search(text.strip())
    return m.group("who").strip() if m else None


_FORBID: ConfigDict = {"extra": "forbid"}

#: Conditions a commander-effect bonus can carry (the vocabulary the rules engine applies).
CommanderCondition = Literal[
    "did-not-move",  # the affected character did not move in the turn it attacks
    "target-adjacent",  # only against adjacent enemies
    "ally-within-6",  # while another ally is within 6 squares of the affected character
]


@dataclass(frozen=True)
class CommanderBonus:
    """One structured part of a commander effect, in a form the rules engine can apply."""

    __pydantic_config__ = _FORBID

    affects: Literal["followers", "allies", "enemies", "self"]
    #: squares from the commander, counted around walls; None: the text sets no limit
    range: Annotated[StrictInt, Field(ge=0)] | None = None
    attack: StrictInt = 0
    defense: StrictInt = 0
    damage: StrictInt = 0
    save: StrictInt = 0
    speed: StrictInt = 0
    #: only characters whose name contains this text (case-insensitive)
    name_contains: str | None = None
    #: only characters with this ability or type (e.g. Droid)
    requires: str | None = None
    conditions: tuple[CommanderCondition, ...] = ()
    #: exclusions this effect overrides (commander effects normally skip Droids, Savage)
    overrides: tuple[str, ...] = ()


@dataclass(frozen=True)
class CommanderEffect:
    __pydantic_config__ = _FORBID

    text: str
    effects: tuple[CommanderBonus, ...] = ()
    #: how an unclear text is read, with the reason (shown in answers that apply it)
    reading: str | None = None


@dataclass(frozen=True)
class ForcePower:
    __pydantic_config__ = _FORBID

    #: as printed, with its [#] value (``Force Push 3``, ``Master of the Force 2``)
    name: str
    #: Force points spent to use it; ``none`` for a power that is never paid for
    cost: Annotated[Literal["none"] | Annotated[StrictInt, Field(ge=0)] | None, NoneOrUnknown]
    text: str | None = None


@dataclass(frozen=True)
class SwmCard:
    """A Star Wars Miniatures stat card."""

    __pydantic_config__ = _FORBID

    name: str
    source: str
    cost: KnownCount
    factions: KnownNames
    unique: KnownBool
    size: KnownSize
    hp: KnownCount
    defense: KnownCount
    attack: KnownInt
    damage: KnownCount
    speed: KnownCount
    force: KnownCount
    special_abilities: tuple[str, ...] = ()
    force_powers: tuple[ForcePower, ...] = ()
    commander_effect: Annotated[Literal["none"] | CommanderEffect | None, NoneOrUnknown] = "none"
    #: the factions whose squads the figure may join by Affinity (swm2008 PL p.33), its faction then
    #: counting as the squad's; unknown: the card has Affinity and the faction it names is not given (R166)
    affinity: KnownNames = ()
    complete: bool = False
    notes: Mapping[str, str] = field(default_factory=dict)
    game: Literal["swm"] = "swm"
    set: str = ""

    def base_stats(self) -> Stats:
        abilities = self.special_abilities + tuple(p.name for p in self.force_powers)
        return Stats(
            hp=self.hp, defense=self.defense, attack=self.attack, damage=self.damage,
            speed=self.speed, force=self.force, abilities=abilities or None,
        )


@dataclass(frozen=True)
class ExtraDamage:
    __pydantic_config__ = _FORBID

    amount: KnownCount
    type: str


@dataclass(frozen=True)
class AttackLine:
    """One attack of a DDM attack line (``+12/+12`` is two of these)."""

    __pydantic_config__ = _FORBID

    bonus: KnownInt
    damage: KnownCount
    #: base damage type when it is not plain melee/ranged (e.g. ``magic``)
    damage_type: str | None = None
    extra: tuple[ExtraDamage, ...] = ()
    #: ranged attacks limited to this many squares (None: unlimited)
    range: Annotated[StrictInt, Field(ge=1)] | None = None


@dataclass(frozen=True)
class Spell:
    __pydantic_config__ = _FORBID

    name: str
    uses: KnownCount
    text: str | None = None


@dataclass(frozen=True)
class DdmCard:
    """A D&D Miniatures stat card (battle side)."""

    __pydantic_config__ = _FORBID

    name: str
    source: str
    cost: KnownCount
    factions: Annotated[tuple[Literal["LG", "CG", "LE", "CE"], ...] | None, Unknown]
    level: KnownInt
    speed: KnownCount
    flight: KnownBool
    ac: KnownCount
    hp: KnownCount
    melee: Annotated[tuple[AttackLine, ...] | None, Unknown]
    ranged: Annotated[tuple[AttackLine, ...] | None, Unknown]
    type: KnownText
    size: KnownSize
    commander_rating: Annotated[Literal["none"] | Annotated[StrictInt, Field(ge=0)] | None, NoneOrUnknown]
    commander_effect: Annotated[Literal["none"] | CommanderEffect | None, NoneOrUnknown] = "none"
    special_abilities: tuple[str, ...] = ()
    spells: tuple[Spell, ...] = ()
    unique: KnownBool = False
    epic: bool = False
    complete: bool = False
    notes: Mapping[str, str] = field(default_factory=dict)
    game: Literal["ddm"] = "ddm"
    set: str = ""

    def base_stats(self) -> Stats:
        first_melee = self.melee[0] if self.melee else None
        first_ranged = self.ranged[0] if self.ranged else None
        return Stats(
            hp=self.hp,
            defense=self.ac,
            attack=first_melee.bonus if first_melee else None,
            damage=first_melee.damage if first_melee else None,
            ranged_attack=first_ranged.bonus if first_ranged else None,
            ranged_damage=first_ranged.damage if first_ranged else None,
            speed=self.speed,
            level=self.level,
            commander_rating=self.commander_rating if isinstance(self.commander_rating, int) else None,
            # the card's "F" before its Speed is the Flight ability (glossary Flight): read the same as the name
            abilities=(self.special_abilities + (("Flight",) if self.flight is True and "flight" not in [a.lower() for a in self.special_abilities] else ()))
            or None,
        )


Card = SwmCard | DdmCard

_CARD_TYPES: dict[str, type] = {"swm": SwmCard, "ddm": DdmCard}


@cache
def _validation() -> ModuleType:
    """The card files' validators (:mod:`.cardvalidation`), imported when a card file is first
    read: pydantic costs ~100 ms, which a question answered from the cached library does not
    pay. Pydantic reads the records' annotations from this module, so their names are put here."""
    from . import cardvalidation  # start-up time: see above

    globals().update(cardvalidation.ANNOTATION_NAMES)
    return cardvalidation


@cache
def _card_adapter(game: str) -> TypeAdapter[Any]:
    # built on first use: schema building costs ~40 ms, which `--help` should not pay
    return _validation().TypeAdapter(_CARD_TYPES[game])


def card_problems(game: str, set_name: str, raw: Mapping[str, Any]) -> list[str]:
    """Why the card file's validator refuses this card (as a card file writes it, in the set
    ``set_name``); empty when it reads. For an importer: what it writes is what the library reads."""
    validation = _validation()
    try:
        _card_adapter(game).validate_python({**raw, "set": set_name})
    except validation.ValidationError as exc:  # in the reader's language, as a card file's problems are
        problems = problems_from_validation(exc, LineMap(), set_name, _CARD_TYPES[game])
        return [f"{p.where}: {p.message}" if p.where else p.message for p in problems]
    return []


def load_card_file(path: Path | str, display: str | None = None) -> tuple[list[Card], list[Problem]]:
    """The cards of one file and every problem found in it (cards with problems are left out)."""
    try:
        text, name = read_text(path, display)
        data, lines, problems = parse_yaml(text, name)
    except YamlReadError as exc:
        return [], exc.problems
    return cards_from_data(data, lines, name, problems)


def cards_from_data(data: Any, lines: LineMap, name: str, problems: list[Problem]) -> tuple[list[Card], list[Problem]]:
    problems = list(problems)
    if not isinstance(data, dict):
        problems.append(Problem(_("a card file must be a mapping with format, game, set and cards"), name, lines.line(())))
        return [], problems
    validation = _validation()
    try:
        header = validation.CardFile.model_validate(data)
    except validation.ValidationError as exc:
        problems += problems_from_validation(exc, lines, name, validation.CardFile)
        return [], problems
    cards: list[Card] = []
    adapter, ctype = _card_adapter(header.game), _CARD_TYPES[header.game]
    for i, raw in enumerate(header.cards):
        if not isinstance(raw, dict):
            problems.append(Problem(_("each card must be a mapping of fields"), name, lines.line(("cards", i)), f"cards[{i}]"))
            continue
        if "game" in raw or "set" in raw:
            problems.append(Problem(_("'game' and 'set' belong in the file header, not in a card"), name, lines.line(("cards", i)), f"cards[{i}]"))
            continue
        try:
            card = adapter.validate_python({**raw, "set": header.set})
        except validation.ValidationError as exc:
            problems += problems_from_validation(exc, lines, name, ctype, prefix=("cards", i))
            continue
        cards.append(card)
    return cards, problems


def play_values(card: Card) -> tuple[Any, ...]:
    """What a card plays with: every value but its name, set, source, notes and completeness.
    Two printings of one figure with equal play values are the same card to the rules (a
    figure named without its set may use either). A list of names is compared as a set: the order a
    file writes a card's abilities or factions in changes nothing in play (reading R167 in docs/readings.md).

    >>> a = SwmCard(name="X", source="a", cost=1, factions=("Republic",), unique=True, size=None, hp=1, defense=1,
    ...             attack=1, damage=1, speed=6, force=0, special_abilities=("Order 66", "Accurate Shot"))
    >>> play_values(a) == play_values(replace(a, special_abilities=("Accurate Shot", "Order 66"), source="b"))
    True
    """
    skip = {"name", "set", "source", "notes", "complete"}
    return tuple((f.name, _unordered(f.name, getattr(card, f.name))) for f in fields(card) if f.name not in skip)


#: the fields that are lists of names, whose order means nothing to the rules
_NAME_SETS = frozenset({"special_abilities", "factions", "affinity"})


def _unordered(field_name: str, value: Any) -> Any:
    if field_name in _NAME_SETS and isinstance(value, tuple) and all(isinstance(v, str) for v in value):
        return tuple(sorted(value))
    return value


#: a version named in parentheses after the character (SW_Minis_Drafter's ``Han Solo (Rogue)``),
#: not a collector number (``Antarian Ranger (#2)``, kept apart as it is)
_PARENTHESISED_VERSION = re.compile(r"^(.+?)\s*\(([^()#][^()]*)\)$")


def name_key(name: str) -> str:
    """A card's name as names are matched: case- and accent-insensitive (R198), and a version in
    parentheses the same as after a comma -- the printed card says ``Han Solo, Rogue`` where the
    community's database writes ``Han Solo (Rogue)``, and a player types what the card says.

    >>> name_key("Han Solo (Rogue)") == name_key("han solo, rogue")
    True
    >>> name_key("Antarian Ranger (#2)")
    'antarian ranger (#2)'
    >>> name_key("Padmé Amidala (Senator)")
    'padme amidala, senator'
    """
    key = plain(name)
    m = _PARENTHESISED_VERSION.match(key)
    return f"{m.group(1)}, {m.group(2).strip()}" if m else key


def name_words(name: str) -> str:
    """A card's name as its words alone (:func:`name_key` without the punctuation): what a name
    typed without the card's commas and parentheses matches, where nothing matches it as typed
    (R198). A collector number keeps its ``#``.

    >>> name_words("Padmé Amidala (Senator)") == name_words("padme amidala senator")
    True
    >>> name_words("Imperial Knight (#20)")
    'imperial knight #20'
    """
    return " ".join(re.findall(r"[#\w]+", plain(name)))


#: the notes ``cards import`` keeps on a card (swmdb.py), written in English whatever the import's
#: language and said in the reader's when shown (R223): a note stored in the language of the
#: import printed Polish to a Czech reader and English to a Polish one
NOTE_SPEED = N_("not in the data; 6 unless a Speed ability says otherwise (swm2008 PL p.6; swm2004 CS r.5)")
NOTE_SPEED_ABILITY = N_("the card's {ability}")
NOTE_SPEED_BARE = N_("the data writes 'Speed' with no number")
NOTE_COMMANDER = N_("the card has a commander effect; {source} does not give its text")
NOTE_POWERS = N_("names from {source}; their costs and texts are not in it")
NOTE_AFFINITY = N_("the faction it may join: the data prints the same figure as of {factions} (in its set Affinity or with Affinity)")
NOTE_SPELLING = N_("the data writes {written}: read as the rulebook's {name} ({rule})")
CARD_NOTES = (NOTE_SPEED, NOTE_SPEED_ABILITY, NOTE_SPEED_BARE, NOTE_COMMANDER, NOTE_POWERS, NOTE_AFFINITY, NOTE_SPELLING)


@cache
def _note_pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    return re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts)), re.S)


def said_note(note: str) -> str:
    """A card's note in the reader's language: one of :data:`CARD_NOTES` as the import wrote it
    in English is said from its translation, its values kept; any other note (a card file's own,
    the data's rarity, a note an older import stored translated) as written (R223).

    >>> said_note("the card's Speed 8")
    "the card's Speed 8"
    >>> said_note("very rare")
    'very rare'
    """
    for template in CARD_NOTES:
        m = _note_pattern(template).fullmatch(note)
        if m:
            return _(template).format(**m.groupdict())
    return note


def card_label(card: Card) -> str:
    """A card as a choice names it: ``Clone Trooper (Revenge of the Sith)``."""
    return f"{card.name} ({card.set})" if card.set else card.name


class CardLibrary:
    """All cards, by game; a card is identified by its name and its set (the same figure is
    printed in several sets, and may differ between them). Names and sets match
    case-insensitively.

    >>> a = SwmCard("Trooper", "x", 9, None, False, None, 10, 13, 6, 20, 6, 0, set="Universe")
    >>> b = SwmCard("Trooper", "y", 9, None, False, None, 10, 13, 6, 20, 6, 0, set="Clone Strike")
    >>> lib = CardLibrary([a, b])
    >>> lib.resolve("swm", "troop").set  # equal numbers: either serves; the first set by name
    'Clone Strike'
    >>> lib.resolve("swm", "Trooper", "universe").source
    'x'
    """

    def __init__(self, cards: Sequence[Card], files: Sequence[str] = (), key: bytes | None = None):
        self.files = tuple(files)
        #: everything read into it (see :func:`_cache_key`), when it was read from
        #: files: what a position checked against it is cached under; None for one built in code
        self.key = key
        self._cards: dict[str, dict[tuple[str, str], Card]] = {g: {} for g in GAMES}
        for card in cards:  # a later card of the same name and set replaces an earlier one
            self._cards[card.game][(card.name.lower(), card.set.lower())] = card

    @classmethod
    def load(cls, folders: Sequence[Path | str]) -> CardLibrary:
        """Every ``*.yaml`` below ``folders``; raises :class:`CardLibraryError` listing all problems."""
        key, (cards, problems, files) = _keyed_load(folders)
        errors = [p for p in problems if p.severity == "error"]
        if errors:
            raise CardLibraryError(errors)
        return cls(cards, files, key)

    def cards(self, game: str | None = None) -> list[Card]:
        games = [game] if game else list(GAMES)
        return [c for g in games for c in sorted(self._cards[g].values(), key=lambda c: (c.name, c.set))]

    def names(self, game: str | None = None) -> list[str]:
        return list(dict.fromkeys(c.name for c in self.cards(game)))

    def sets(self, game: str | None = None) -> list[str]:
        return sorted({c.set for c in self.cards(game)})

    def lookup(self, game: str, name: str, set: str | None = None) -> Card | None:
        """The card of exactly this name (and set, when given); None when there is none, or
        when several sets print it with different values."""
        try:
            return self.resolve(game, name, set, partial=False)
        except (UnknownNameError, AmbiguousNameError):
            return None

    def get(self, game: str, name: str, set: str | None = None) -> Card:
        """The card of exactly this name (and set); raises when unknown or ambiguous."""
        return self.resolve(game, name, set, partial=False)

    def candidates(self, game: str, text: str, set: str | None = None, partial: bool = True) -> list[Card]:
        """The cards ``text`` names: of exactly that name if any, else (``partial``) those whose
        name contains it; only of ``set`` when one is given. Names match as :func:`name_key`
        reads them (``Han Solo, Rogue`` names ``Han Solo (Rogue)``), else by their words alone
        (:func:`name_words`: ``padme amidala senator`` names ``Padmé Amidala (Senator)``), R198."""
        key, words = name_key(text), name_words(text)
        pool = self.cards(game)
        if set is not None:
            pool = [c for c in pool if c.set.lower() == set.strip().lower()]
        exact = [c for c in pool if name_key(c.name) == key] or [c for c in pool if words and name_words(c.name) == words]
        if exact or not partial:
            return exact
        return ([c for c in pool if key and key in name_key(c.name)]
                or [c for c in pool if words and f" {words} " in f" {name_words(c.name)} "])

    def resolve(self, game: str, text: str, set: str | None = None, partial: bool = True) -> Card:
        """The card ``text`` names (see :meth:`candidates`). Several candidates are an error
        listing each with its set, unless they are one figure printed with the same values in
        several sets (:func:`play_values`): then the first by set serves."""
        found = self.candidates(game, text, set, partial)
        if not found:
            if set is not None and self.candidates(game, text, None, partial):
                others = [card_label(c) for c in self.candidates(game, text, None, partial)]
                raise UnknownNameError(f"{game.upper()} card", f"{text} ({set})", others)
            raise UnknownNameError(f"{game.upper()} card", text, self.names(game))
        found = _one_per_printing(found)
        first = found[0]
        if all(c.name.lower() == first.name.lower() and play_values(c) == play_values(first) for c in found[1:]):
            return first
        raise AmbiguousNameError("card", text, [card_label(c) for c in found])

    def find(self, text: str, game: str | None = None, set: str | None = None) -> Card:
        """A card a player names (``cards show``, ``cards set``): by exact name, else by a unique part
        of its name (``cards show dooku``), of any game unless one is given. An exact name that
        other cards carry with a version after it is listed with them, never one silently (R222:
        as a name the data writes twice is at ``import --entry``, R217); ``set`` chooses."""
        games = [game] if game else [g for g in GAMES if self.candidates(g, text, set)]
        if not games and set is None and (label := self._label(text, game)) is not None:
            return self.find(*label)  # a choice typed back as the list wrote it: "Darth Maul (Clone Strike)"
        if len(games) > 1:
            both = [f"{card_label(c)} ({c.game})" for g in games for c in self.candidates(g, text, set)]
            raise AmbiguousNameError("card", text, both)
        if not games:
            raise UnknownNameError("card", text if set is None else f"{text} ({set})", [c.name for c in self.cards()])
        exact = self.candidates(games[0], text, set, partial=False)
        versions = self.versions(games[0], text, set) if exact else []
        if versions:  # "Padmé Amidala" is Clone Strike's card and the name of The Clone Wars' Senator too (R222)
            raise AmbiguousNameError("card", text, [card_label(c) for c in _one_per_printing(exact) + versions])
        return self.resolve(games[0], text, set)

    def _label(self, text: str, game: str | None) -> tuple[str, str | None, str | None] | None:
        """``Darth Maul (Clone Strike)``, as :func:`card_label` writes a choice, read back as the
        name and the set (and its game) when a card of that name is printed in that set; None
        otherwise. A list to choose from names each card so (R217): a player types one back."""
        stripped = text.strip()
        if not stripped.endswith(")") or "(" not in stripped:
            return None
        head, _, tail = stripped[:-1].rpartition("(")
        named_game = tail.strip().lower()
        if named_game in GAMES and (game is None or game == named_game) and head.strip():
            # "Obi-Wan Kenobi (swm)", as a choice between games is listed: that game's card
            inner = self._label(head, named_game)  # "Darth Maul (Clone Strike) (swm)": name, game and set
            if inner is not None:
                return inner
            if self.candidates(named_game, head.strip()):
                return head.strip(), named_game, None
        for g in [game] if game else list(GAMES):
            if head.strip() and self.candidates(g, head.strip(), tail, partial=False):  # of that name, printed in that set
                return head.strip(), g, tail.strip()
        return None

    def versions(self, game: str, text: str, set: str | None = None) -> list[Card]:
        """The cards whose name is ``text`` with a version after it (``Padmé Amidala (Senator)``
        for ``Padme Amidala``; not a collector number's ``Imperial Knight (#20)``), as
        :func:`name_key` reads names: what a name a player types shares with its versions (R222)."""
        head = name_key(text) + ", "
        return [c for c in self.cards(game) if name_key(c.name).startswith(head) and (set is None or c.set.lower() == set.strip().lower())]


#: a row of SW_Minis_Drafter's database as a card's source names it: its set and collector number
_DATABASE_ROW = re.compile(r"SW_Minis_Drafter DB/SWminis\.db, ([^;#]+?) #(\w+)")


def _one_per_printing(found: list[Card]) -> list[Card]:
    """``found`` with one card a printing: a card imported from one row of SW_Minis_Drafter's
    database (its whole source) and a card of the same name that cites that row beside the
    rulebook (a shipped card: "swm2008 PL p.7-8; ... Clone Wars Starter #1") are one printing under
    two set names ("Clone Wars Starter", "The Clone Wars starter (2008)"); the one that cites more
    serves, so the import the README asks for leaves no name ambiguous with itself (reading R315).

    >>> ship = SwmCard("Tarfful", "swm2004 CS g.13; SW_Minis_Drafter DB/SWminis.db, Revenge of the Sith #21", 9, None, True, None,
    ...                10, 13, 6, 20, 6, 0, set="Revenge of the Sith (2004 rules)")
    >>> row = replace(ship, source="SW_Minis_Drafter DB/SWminis.db, Revenge of the Sith #21", set="Revenge of the Sith", hp=90)
    >>> [c.set for c in _one_per_printing([row, ship])]
    ['Revenge of the Sith (2004 rules)']
    """
    def rows(card: Card) -> set[tuple[str, str]]:
        return set(_DATABASE_ROW.findall(card.source or ""))

    def bare(card: Card) -> bool:  # its whole source is one row of the database: an import
        return _DATABASE_ROW.fullmatch((card.source or "").strip()) is not None

    kept = [c for c in found if not (bare(c) and any(o is not c and not bare(o) and o.name.lower() == c.name.lower() and rows(c) <= rows(o)
                                                     for o in found))]
    return kept or found


def _card_paths(folder: Path) -> list[Path]:
    # anything but a folder is read as a file: a FIFO or a device is then refused, naming it
    return [folder] if not folder.is_dir() else sorted(folder.rglob("*.yaml")) + sorted(folder.rglob("*.yml"))


#: the cache of the last library read (see :func:`load_folders`) from one list of folders, in one language
CACHE_FILE = "cards-library-{slot}.pickle"


def cache_file(folders: Sequence[Path | str]) -> str:
    """The cache file (under :func:`~.resources.cache_dir`) of the library read from ``folders`` in
    the language of the answers: one slot each. One file for every library let two installs (or
    checkouts, or card folders) read alternately evict each other's, so each read validated its
    cards anew, pydantic imported: ~0.5 CPU-seconds a call (round 17 of issue 28)."""
    named = "\0".join([current(), *(str(folder) for folder in folders)])
    return CACHE_FILE.format(slot=f"{zlib.crc32(named.encode('utf-8', 'surrogatepass')):08x}")  # two in one slot: each reads anew


def _cache_key(folders: Sequence[Path | str]) -> bytes:
    """What a read library depends on: every file it would read (name and contents), the folders
    asked for, what every cached answer depends on (:class:`~.cache.Key`), and the code that reads
    them: a library kept by an older reading (a card compared otherwise, R167) is read anew."""
    key = Key()
    for module in (__file__, Path(__file__).with_name("cardvalidation.py")):
        stat = os.stat(module)
        key.add(str(module), stat.st_size, stat.st_mtime_ns)
    for folder in folders:
        folder = Path(folder)
        key.add(str(folder), folder.exists())
        for path in _card_paths(folder) if folder.exists() else ():
            key.add(str(path), read_limited(path, MAX_FILE_BYTES))  # a FIFO or a device: refused, the reading names it
    _add_overrides_to_key(key)
    return key.value()


def load_folders(folders: Sequence[Path | str]) -> tuple[list[Card], list[Problem], list[str]]:
    """Cards, problems (including a name and set defined twice with different values) and the
    files read. The user's own card folder (:func:`~.resources.user_cards_dir`) may be missing."""
    return _keyed_load(folders)[1]


def _keyed_load(folders: Sequence[Path | str]) -> tuple[bytes | None, tuple[list[Card], list[Problem], list[str]]]:
    """:func:`load_folders`, and the key of what it read (None when a file could not be read).

    Reading and validating the library costs more than the rest of a one-shot question, so the
    answer is kept in the cache folder (:mod:`~.cache`) under a key of everything it depends on
    (:func:`_cache_key`): an edited file reads anew.
    """
    try:
        key = _cache_key(folders)
    except Exception:  # a file that cannot be read now is reported by the reading below
        return None, _with_overrides(_load_folders(folders))
    return key, cached(cache_file(folders), key, lambda: _with_overrides(_load_folders(folders)))


def _load_folders(folders: Sequence[Path | str]) -> tuple[list[Card], list[Problem], list[str]]:
    """:func:`load_folders` without the cache."""
    cards: list[Card] = []
    problems: list[Problem] = []
    files: list[str] = []
    first_seen: dict[tuple[str, str, str], tuple[str, Card]] = {}
    optional = {str(user_cards_dir())}  # the user's own folder exists once they import or set a card
    for folder in folders:
        folder = Path(folder)
        if not folder.exists():
            if str(folder) not in optional:
                problems.append(Problem(_("no such card file or folder"), str(folder)))
            continue
        paths = _card_paths(folder)
        for path in paths:
            files.append(str(path))
            got, probs = load_card_file(path)
            problems += probs
            for card in got:
                key = (card.game, card.name.lower(), card.set.lower())
                if key in first_seen:
                    where, earlier = first_seen[key]
                    if play_values(earlier) != play_values(card):  # the same card twice is one card
                        problems.append(
                            Problem(
                                _("card {name!r} of the set {set!r} is defined twice with different values (also in {first_seen})").format(
                                    name=card.name, set=card.set, first_seen=where
                                ),
                                str(path),
                                value=card.name,
                            )
                        )
                    continue
                first_seen[key] = (str(path), card)
                cards.append(card)
    return cards, problems, files


def library_folders(extra: Sequence[Path | str] = ()) -> list[Path]:
    """The shipped library, then the user's own (:func:`~.resources.user_cards_dir`: what ``cards
    import`` writes; a missing one is no error), then folders from ``$TABLETOP_CARDS``, then ``extra``."""
    folders = [data_dir("cards"), user_cards_dir()]
    env = os.environ.get(CARDS_ENV, "")
    folders += [Path(p) for p in env.split(os.pathsep) if p.strip()]
    folders += [Path(p) for p in extra]
    return folders


@lru_cache(maxsize=8)
def _cached_library(folders: tuple[str, ...], overrides: tuple[int, int] | None = None) -> CardLibrary:
    # ``overrides``: the overrides file's stamp, so that a number kept with `cards set` is read at once
    return CardLibrary.load([Path(f) for f in folders])


def default_library(extra: Sequence[Path | str] = ()) -> CardLibrary:
    return _cached_library(tuple(str(p) for p in library_folders(extra)), _overrides_stamp())


def forget_loaded_libraries() -> None:
    """Drop the libraries this process has read (after the user's card files were written: a
    shell or a web app asks again in the same process). The file cache needs no help: its key
    is the files' contents."""
    _cached_library.cache_clear()


# --- the user's own numbers, laid over the library (assistant/overrides.py) -------------------


def _overrides_stamp() -> tuple[int, int] | None:
    return file_marks(overrides_path())


def _add_overrides_to_key(key: Key) -> None:
    """The overrides file is part of what a read library depends on (its cache key)."""
    path = overrides_path()
    key.add("overrides", str(path), read_limited(path, MAX_FILE_BYTES) if path.is_file() else None)


def _with_overrides(loaded: tuple[list[Card], list[Problem], list[str]]) -> tuple[list[Card], list[Problem], list[str]]:
    """The library with the user's overrides laid over its cards, and every problem of the file."""
    cards, problems, files = loaded
    entries, found, lines = read_overrides()
    problems = problems + found
    if not entries:
        return cards, problems, files
    name = str(overrides_path())
    cards = list(cards)
    for e in entries:
        where = ("overrides", e.index)
        hits = [i for i, c in enumerate(cards) if e.matches(c.game, c.name, c.set)]
        if len(hits) != 1:
            text = (_("no {game} card {name!r} in the library: this entry is not used").format(game=e.game.upper(), name=e.name) if not hits else
                    _("{name!r} names {n} cards: add 'set:' to say which ({sets})").format(
                        name=e.name, n=len(hits), sets=", ".join(cards[i].set for i in hits)))
            problems.append(Problem(text, name, lines.line(where), f"overrides[{e.index}]", e.name, "warning"))
            continue
        changed, probs = _override_card(cards[hits[0]], e, lines, name)
        problems += probs
        cards[hits[0]] = changed
    return cards, problems, files


def with_user_overrides(cards: list[Card]) -> list[Card]:
    """These cards with the user's overrides (``cards set``, ``cards commander``) laid over them, as
    over the library's: a game's kept copy of a user's card file reads a number kept for its card
    after the game began, as the message asking for it says (the file's problems are the
    library's to report)."""
    return _with_overrides((cards, [], []))[0]


def _override_card(card: Card, e: CardOverride, lines: LineMap, name: str) -> tuple[Card, list[Problem]]:
    """One card with one entry's numbers and commander effect over it; each changed value's note
    says that the user gave it, and where they took it from."""
    problems: list[Problem] = []
    said = _("given in {file}").format(file=OVERRIDES_FILE) + (f": {e.source}" if e.source else "")
    changes: dict[str, Any] = {}
    notes = dict(card.notes)
    # the attack lines' bonuses before their damage: a line the card lacks is made by the first
    for key in sorted(e.stats, key=lambda k: (k in LINE_KEYS, k.endswith("_damage"))):
        value = e.stats[key]
        if key in LINE_KEYS and isinstance(card, DdmCard):
            kind, what = key.split("_")
            current = changes.get(kind, getattr(card, kind))
            got = _override_line(current, what, value)
            if got is None:
                problems.append(Problem(_("{card!r} has {n} attacks in its {kind} line: give one value each, as N/N").format(
                    card=card.name, n=len(current or ()), kind=kind), name, lines.line(("overrides", e.index, "stats", key)),
                    f"overrides[{e.index}].stats.{key}", "/".join(map(str, value)) if isinstance(value, tuple) else value))
                continue
            changes[kind] = got
            notes[kind] = said
        else:
            changes[key] = value
            notes[key] = said
    if e.commander_effect is not None:
        validation = _validation()
        try:
            changes["commander_effect"] = validation.TypeAdapter(CommanderEffect).validate_python(dict(e.commander_effect))
            notes["commander_effect"] = said
        except validation.ValidationError as exc:
            problems += problems_from_validation(exc, lines, name, CommanderEffect, prefix=("overrides", e.index, "commander_effect"))
    if not changes:
        return card, problems
    source = card.source + "; " + _("your numbers in {file}").format(file=OVERRIDES_FILE)
    return replace(card, **changes, notes=notes, source=source), problems


def _override_line(current: tuple[AttackLine, ...] | None, what: str, value: int | tuple[int, ...]) -> tuple[AttackLine, ...] | None:
    """A DDM attack line with the bonuses (``what`` = attack) or damages set, one per attack; a
    line the card lacks is made with as many attacks as values. None: the counts do not agree."""
    values = value if isinstance(value, tuple) else (value,)
    field_name = "bonus" if what == "attack" else "damage"
    if not current:
        return tuple(AttackLine(bonus=v if what == "attack" else None, damage=v if what != "attack" else None) for v in values)
    if len(values) != len(current):
        return None
    return tuple(replace(line, bonus=v) if field_name == "bonus" else replace(line, damage=v) for line, v in zip(current, values, strict=True))
