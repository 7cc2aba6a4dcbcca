"""What the importers of community card-data files share: reading the file (its size, its
encoding), refusing what is not a card list, and reading yes/no fields as real dumps write them.
Nothing is downloaded; the user points at a file they have. Each game's package reads its own
format and says how through a :class:`CardImporter` in its record.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import AmbiguousNameError, AssistantError, UnknownNameError, plain
from ..fileread import read_limited
from ..i18n import _, n_
from ..importreport import ImportReport


@dataclass(frozen=True)
class EntryOptions:
    """What ``import --entry`` was told about the card's place on the table; each game reads
    the options it has (an elite character's two dice, the character an upgrade is on, the
    zone a unit is in)."""

    owner: str
    elite: bool = False
    zone: str = ""  # "": the game has no zones (the importer's ``default_zone`` where it has)
    on: str | None = None
    dice: int | None = None  # how many dice a card brings, where its game lets a player choose (points per choice)
    owner_given: bool = True  # False: ``owner`` is the importer's default (a game may choose by the card instead)


@dataclass(frozen=True)
class ImportedCards:
    """The cards a community card-data file holds, as one game's importer read them."""

    cards: tuple[Any, ...]
    by_key: Mapping[str, Any]  # what ``--entry`` may name (a code, a name)
    unused_columns: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()  # rows that could not be read as a card, each saying why
    #: every card of the file(s) and what became of it: imported, partial (what is not modelled), refused (why)
    report: ImportReport | None = None
    #: a name several cards share -> a line for each (code, subtitle, set), for the player to choose
    ambiguous: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


#: the most cards a part of a name lists when it names several (the rest are counted)
MAX_LISTED = 12


def entry_card(read: ImportedCards, entry: str) -> Any:
    """The card ``import --entry`` names (reading R199 in docs/readings.md): a key exactly as the
    importer keeps it (a code, a name, "name, subtitle", "SET/name"), where no other card's key is
    the same but for case and accents (R217); else the key it equals case- and accent-insensitively
    (:func:`~..errors.plain`), or by its words alone (:func:`~..cards.name_words`: "anakin
    skywalker a", R219); else the one card a key of which holds it from a word's start
    (``phasma``; ``y wing`` is no part of "Flanked by Wingmen", R219), or holds its words. A name
    several cards share, or a part of several cards' names, is refused listing them (the first
    :data:`MAX_LISTED`), never resolved silently; a name no key holds is refused with the names
    that look like it."""
    want = plain(entry)
    if entry in read.by_key:  # as the data writes it: unless another card's key is the same but for case and accents
        card = read.by_key[entry]  # ("Padmé Amidala" 09075 and "Padme Amidala" 01048 in the real data: R217)
        if not any(plain(k) == want for k in read.ambiguous) and all(c is card for k, c in read.by_key.items() if plain(k) == want):
            return card
    if entry in read.ambiguous:
        raise AmbiguousNameError("card", entry, read.ambiguous[entry])
    keys_of: dict[int, list[str]] = {}  # each card once, with every key that names it, in the importer's order
    for key, card in read.by_key.items():
        keys_of.setdefault(id(card), []).append(key)
    from ..cards import name_words  # start-up time: only where no key is the name as typed

    words = name_words(entry)  # where nothing else matches, the name's words alone ("anakin skywalker a", "obi wan": R219)
    starts_word = re.compile(r"(?<!\w)" + re.escape(want))  # a part of a name from a word's start: "y wing" is no part of "by wingmen"
    for test in (lambda k: plain(k) == want, lambda k: bool(words) and name_words(k) == words,
                 lambda k: bool(want) and starts_word.search(plain(k)) is not None,
                 lambda k: bool(words) and f" {words} " in f" {name_words(k)} "):
        cards = {id(card): card for key, card in read.by_key.items() if test(key)}
        shared_lines = {line for key, same in read.ambiguous.items() if test(key) for line in same}  # a shared name's cards
        if len(cards) == 1 and not shared_lines:
            return next(iter(cards.values()))
        if cards or shared_lines:
            lines = {line.split(" ", 1)[0]: line for same in read.ambiguous.values() for line in same}
            # a card that says how a choice names it (its code, name, subtitle, kind and set) says so, as a shared name's line does (R220)
            labels = sorted({str(c.choice) if hasattr(c, "choice") else _entry_label(keys_of[i], lines) for i, c in cards.items()} | shared_lines)
            more = len(labels) - MAX_LISTED
            listed = labels[:MAX_LISTED] + ([n_("and {n} more", "and {n} more", more).format(n=more)] if more > 0 else [])
            raise AmbiguousNameError("card", entry, listed)
    raise UnknownNameError("card", entry, [*read.by_key, *read.ambiguous])


def _entry_label(keys: list[str], lines: Mapping[str, str]) -> str:
    """A card as a list of choices names it, from the keys that name it: its first (a code,
    "SET/name") and its longest, when that says more (``01001 Captain Phasma, Elite Trooper``);
    a card whose name is shared by the line the shared name lists for it (its subtitle, kind, set)."""
    first, longest = keys[0], max(keys[1:] or keys, key=len)
    if first in lines:
        return lines[first]
    return max(first, longest, key=len) if first in longest or longest in first else f"{first} {longest}"


@dataclass(frozen=True)
class CardImporter:
    """One game's reader of a community card-data format (file text, file name)."""

    read: Callable[[str, str], ImportedCards]
    entry: Callable[[Any, str, EntryOptions], dict[str, Any]]  # a table-file entry: (card, id, options)
    line: Callable[[Any], str]  # one card as a line of the listing
    default_owner: str  # the owner of an entry when none is given: the first player's name
    default_zone: str = ""  # the zone of an entry when none is given ("": the game has no zones)
    #: a folder of card files as one import (file text, file name) -> one merged report; None: one file at a time
    read_many: Callable[[list[tuple[str, str]]], ImportedCards] | None = None
    suffix: str = ""  # the card files of a folder (".json")
    #: where the community's data keeps its set files below its top folder ("set" in swdestinydb's):
    #: a folder given that holds one of these is read there, so its top's other files are not cards
    sets_under: tuple[str, ...] = ()
    #: the table file's list an entry of this card goes in ("upgrades"): said beside a printed entry
    table_key: Callable[[Any], str] | None = None
    #: for a card whose entry is no item of a list but fields of another entry (a player's
    #: battlefield, say), where they go, given the owner; None otherwise
    fields_of: Callable[[Any, str], str | None] | None = None
    #: the cards of a folder read with the community's own translation into the answer's
    #: language, where it has one beside the set files: (folder, cards read, language) ->
    #: (the cards, what was read from where); None where the data has no translations
    localize: Callable[[Path, ImportedCards, str], tuple[ImportedCards, list[str]]] | None = None


def read_card_folder(path: Path, suffix: str, sets_under: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """Every card file (by ``suffix``) of a folder, in name order, each as (text, file name); of
    its first subfolder named in ``sets_under`` where it has one (a checkout of the community's
    whole data: its set files there, other data at its top)."""
    path = next((path / sub for sub in sets_under if (path / sub).is_dir()), path)
    files = sorted(f for f in path.iterdir() if f.is_file() and f.name.lower().endswith(suffix))
    if not files:
        raise ImportFileError(_("{path}: no {suffix} card files in this folder").format(path=path, suffix=suffix))
    out = []
    for f in files:
        text, _notes = read_card_file(f)
        out.append((text, str(f)))
    return out


class ImportFileError(AssistantError):
    """A card-data file that cannot be read; says which entry and field."""


#: a full card dump of a card game is a few MB; anything this large is not a card file
MAX_IMPORT_BYTES = 64 * 1024 * 1024
MAX_JSON_DEPTH = 64


def read_card_file(path: Path | str) -> tuple[str, list[str]]:
    """The text of a card-data file and notes on how it was read.

    Real files come in UTF-8 (with or without a byte-order mark) or, from older Windows tools,
    in Windows-1252/Latin-1: a file that is not UTF-8 is read as Windows-1252 and said so.
    """
    p = Path(path)
    try:
        if p.is_dir():
            raise ImportFileError(_("{path}: is a directory, not a card file").format(path=path))
        size = p.stat().st_size
        if size > MAX_IMPORT_BYTES:
            raise ImportFileError(
                _("{path}: {size} bytes; card files over {value} MiB are refused (is this the right file?)").format(
                    path=path, size=size, value=MAX_IMPORT_BYTES // (1024 * 1024)
                )
            )
        raw = read_limited(p, MAX_IMPORT_BYTES)
    except FileNotFoundError:
        raise ImportFileError(_("{path}: no such file").format(path=path)) from None
    except OSError as exc:
        raise ImportFileError(_("{path}: cannot be read ({why})").format(path=path, why=exc.strerror or exc)) from None
    notes: list[str] = []
    if raw.startswith(b"\xef\xbb\xbf"):
        notes.append(_("a UTF-8 byte-order mark at the start was skipped"))
    utf16 = raw.startswith((b"\xff\xfe", b"\xfe\xff"))
    if utf16:
        # Windows' "Unicode" (Notepad's Save as, Excel's "Unicode text"): UTF-16 that its byte-order mark names (R343)
        try:
            text = raw.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise ImportFileError(_("{path}: starts as UTF-16 text (its byte-order mark) but breaks off at byte {at}: save it again as UTF-8").format(
                path=path, at=exc.start + 2)) from None
        notes.append(_("read as UTF-16, as its byte-order mark says (Windows' \"Unicode\")"))
    else:
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            text = raw.decode("cp1252", errors="replace")
            notes.append(_("not UTF-8 (line {line}, byte {raw:#04x}): read as Windows-1252 (Latin-1); check accented names").format(
                line=line, raw=raw[exc.start]))
    if "\x00" in text:  # one check, whichever way the bytes were read
        head = raw[:400]
        if not utf16 and len(head) >= 8 and (head[1::2].count(0) >= len(head) // 2 * 0.9 or head[0::2].count(0) >= len(head) // 2 * 0.9):
            # every other byte NUL: text of one byte a character saved as UTF-16 without its byte-order mark
            raise ImportFileError(_("{path}: UTF-16 text without a byte-order mark (every other byte is NUL): save it again as UTF-8").format(path=path))
        raise ImportFileError(_("{path}: contains NUL bytes: a binary file, not a card list").format(path=path))
    return text, notes


def _depth(obj: Any, limit: int = MAX_JSON_DEPTH) -> int:
    """How deeply lists and objects nest (stops counting past ``limit``), without recursion."""
    deepest, stack = 0, [(obj, 1)]
    while stack:
        o, d = stack.pop()
        if d > deepest:
            deepest = d
            if deepest > limit:
                return deepest
        if isinstance(o, dict):
            stack.extend((v, d + 1) for v in o.values())
        elif isinstance(o, list):
            stack.extend((v, d + 1) for v in o)
    return deepest


def json_nesting(text: str) -> int:
    """The deepest bracket nesting in JSON text, found before parsing (so the parser never recurses too far)."""
    return _json_brackets(text)[0]


def json_left_open(text: str) -> bool:
    """Does JSON text end with a bracket still open or inside a string, every bracket before closed by
    its own kind: a file cut short (a download broken off), not JSON written wrong (reading R357)?

    >>> json_left_open('[{"code": "01001"}]'), json_left_open('[{"code": "01001"}, {"name": "Kylo'), json_left_open('[{"code": 1]')
    (False, True, False)
    """
    _deepest, open_, in_str, crossed = _json_brackets(text)
    return (open_ > 0 or in_str) and not crossed


def _json_brackets(text: str) -> tuple[int, int, bool, bool]:
    """The deepest bracket nesting of JSON text, the brackets still open at its end, whether it ends
    inside a string, and whether a bracket was closed by the other kind ("[{]")."""
    opened: list[str] = []
    deepest = 0
    in_str = esc = crossed = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            opened.append(ch)
            deepest = max(deepest, len(opened))
        elif ch in "]}":
            if not opened or opened.pop() != "[{"["]}".index(ch)]:
                crossed = True
    return deepest, len(opened), in_str, crossed


_TRUE = {"true", "yes", "1", "y", "t"}
_FALSE = {"false", "no", "0", "n", "f", ""}


def flag(value: Any, where: str, key: str) -> bool:
    """A yes/no field as real dumps write it: true, "true", "yes", 1, "no", "0", null."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise ImportFileError(_("{where}: {key} {value!r} is not yes or no").format(where=where, key=key, value=value))
