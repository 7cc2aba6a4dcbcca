"""Star Wars Miniatures figures from the community's drafting database: SW_Minis_Drafter's SQLite
file (``DB/SWminis.db``, published at github.com/diomeneus/SW_Minis_Drafter; the user downloads
their own copy, the project ships none of it), read into card files of the user's library.

The table ``minis_list`` holds one row a figure: name, set, collector number (``id``), faction,
rarity, cost, size, hit points, defense, attack, damage, special ability names and Force power
names (each ``;``-separated), and Force points. It has no commander-effect text, no Force power
costs and no speed, so:

- a figure whose abilities (or, on some rows, Force powers) name ``Commander Effect`` gets
  ``commander_effect: unknown`` and a note (never an invented text), and the report lists it as
  partial;
- each Force power is imported by name with its cost ``unknown``;
- speed is 6 unless the card has ``Speed N`` (the rules: "Default speed is 6", swm2008 PL p.6,
  p.63; swm2004 CS r.5: move 6, or 12 without attacking; a Speed ability says otherwise).

Each figure is *imported*, *partial* (an ability or Force power the engine does not apply, a
commander effect whose text the data lacks, a value the row leaves empty) or *refused* (a row
that cannot be a card: no name, a stat that is not a number, ...), each with why
(:class:`~.importreport.ImportReport`).

>>> parse_names("Unique; Double Attack;;Melee Attack ")
('Unique', 'Double Attack', 'Melee Attack')
>>> parse_names(None)
()
>>> faction_name("Seperatist")
'Separatists'
>>> faction_name("Imperial"), faction_name("The New Republic"), faction_name("Yuuzhan Vong")
('Empire', 'New Republic', 'Yuuzhan Vong')
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from .abilities import RAPPORT_STATED, classify
from .cards import (
    CARD_FORMAT,
    NOTE_AFFINITY,
    NOTE_COMMANDER,
    NOTE_POWERS,
    NOTE_SPEED,
    NOTE_SPEED_ABILITY,
    NOTE_SPEED_BARE,
    NOTE_SPELLING,
    card_problems,
    split_ability,
)
from .errors import AssistantError
from .fileread import check_regular
from .i18n import _, n_
from .importreport import ImportedItem, ImportReport
from .rules.applied import applied_names
from .rules.powers import unanswered
from .yamlio import FileWriteError

#: where the database is published (the README says so too)
PUBLISHED = "github.com/diomeneus/SW_Minis_Drafter, DB/SWminis.db"
SOURCE = "SW_Minis_Drafter DB/SWminis.db"
TABLE = "minis_list"
#: the columns read, as the database names them
COLUMNS = ("name", "set", "id", "faction", "rarity", "cost", "size", "hit points", "defense", "attack", "damage",
           "special abilities", "force points", "force powers")
#: the stats, as the database and the card file name them
STATS = (("cost", "cost"), ("hit points", "hp"), ("defense", "defense"), ("attack", "attack"), ("damage", "damage"),
         ("force points", "force"))
#: a stat that may be below zero (a card's Attack may be; no other number may)
SIGNED = frozenset({"attack"})
SIZES = ("small", "medium", "large", "huge", "gargantuan", "colossal")
#: the data's spellings of a faction, as the shipped cards and the era table write it (swm2008 PL p.15,
#: ``game.squads.SWM_ERAS``): the database says "Rebel", "Imperial", "The New Republic", where the
#: squad rules name the Rebel Alliance, the Empire, the New Republic
FACTIONS = {
    "seperatist": "Separatists", "separatist": "Separatists", "separatists": "Separatists",
    "rebel": "Rebel Alliance", "rebels": "Rebel Alliance",
    "imperial": "Empire", "imperials": "Empire",
    "the new republic": "New Republic",
    "the old republic": "Old Republic",
    "mandalorian": "Mandalorians",
}
DEFAULT_SPEED = 6
#: the editions a figure of the database may be played in
SWM_EDITIONS = ("swm2004", "swm2008")
#: a card's notes are kept in English and said in the reader's language when shown (cards.said_note, R223)
SPEED_NOTE = NOTE_SPEED

#: the data's misspellings of an ability the rulebook names, by the misspelt name (lower case, without
#: its [#] value): the rulebook's name and page (reading R325 in docs/readings.md). Only a word that
#: names no other ability and whose figure's card is the rulebook's: "Energy Shield" (Gungan
#: Shieldbearer) and the "... Style Mastery" abilities of later sets are not listed, as no source
#: here says they are the rulebook's "Energy Shields" or "... Style Master"
MISSPELT = {
    "pheremones": ("Pheromones", "swm2008 PL p.57"),
    "playeryin bol": ("Plaeryin Bol", "swm2008 PL p.57"),
    "flux destiny": ("Flux Density", "swm2008 PL p.43"),
}

_SPEED_RE = re.compile(r"^speed\s+(\d+)$", re.IGNORECASE)


class SwmDatabaseError(AssistantError):
    """A file that is not the SW_Minis_Drafter database (or cannot be read)."""


def parse_names(text: str | None) -> tuple[str, ...]:
    """A ``;``-separated list of ability or Force power names, as the database writes it."""
    if text is None:
        return ()
    return tuple(n for n in (part.strip() for part in str(text).split(";")) if n)


def faction_name(text: str) -> str:
    """A faction as the rules name it, from the database's (or a card file's) spelling."""
    return FACTIONS.get(text.strip().lower(), text.strip())


#: a stat cell that says the card prints no number (older releases of the database)
_NONE_PRINTED = frozenset({"-", "\u2013", "\u2014"})


def _number(value: Any) -> int | None:
    """A whole number from a cell (an INTEGER, a REAL with no fraction, a text of digits), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d{1,6}\s*", value):
        return int(value)
    return None


# --- reading the file ------------------------------------------------------------------


#: the database's own glossary of commander effects (name, description): the program of
#: SW_Minis_Drafter reads its glossary from DB/commandereffects.tsv instead, a file never published
COMMANDER_GLOSSARY = "gloss_commander"


def commander_glossary_size(path: Path | str) -> int | None:
    """How many entries the database's commander glossary holds: 0 in every published release (the
    table is there, empty), None where the file has no such table or it cannot be read."""
    try:
        con = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)
    except (sqlite3.Error, UnicodeDecodeError, OSError):
        return None
    try:
        count = con.execute(f'SELECT count(*) FROM "{COMMANDER_GLOSSARY}"').fetchone()
        return int(count[0]) if count else None
    except (sqlite3.Error, UnicodeDecodeError, ValueError, TypeError):
        return None
    finally:
        con.close()


#: the first bytes of every SQLite 3 database file (sqlite.org/fileformat2.html, 1.3)
SQLITE_HEADER = b"SQLite format 3\x00"


def _damaged(p: Path, head: bytes) -> str | None:
    """Why ``p``, an SQLite database by its first bytes, is cut short (a download broken off), or
    None. ``head``: its first 100 bytes. The header names the page size (bytes 16-17, 1 for 65,536) and the pages
    (28-31), a number SQLite keeps true where bytes 92-95 repeat the change counter (24-27)."""
    size = p.stat().st_size
    if not head.startswith(SQLITE_HEADER):
        return None
    if len(head) < 100:
        return _("{path} is an SQLite database cut short inside its 100-byte header ({size} bytes): a download broken off; nothing "
                 "imported: download it again ({where})").format(path=p, size=size, where=PUBLISHED)
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(head[28:32], "big")
    if pages == 0 or head[24:28] != head[92:96] or size >= page * pages:
        return None
    return _("{path} is an SQLite database cut short: {size} of the {expected} bytes its header names ({pages} pages of {page}): a "
             "download broken off; nothing imported: download it again ({where})").format(
        path=p, size=size, expected=page * pages, pages=pages, page=page, where=PUBLISHED)


def read_rows(path: Path | str) -> list[dict[str, Any]]:
    """Every row of ``minis_list``, read-only; a file that is not this database is refused
    naming the file and what is wrong (:class:`SwmDatabaseError`)."""
    p = Path(path)
    if not p.exists():
        raise SwmDatabaseError(_("{path}: no such file").format(path=p))
    if p.is_dir():
        raise SwmDatabaseError(_("{path} is a folder, not the SW_Minis_Drafter database file (SWminis.db)").format(path=p))
    try:
        check_regular(p)  # SQLite would wait on a FIFO
    except OSError as exc:
        raise SwmDatabaseError(_("{path}: cannot be read ({why})").format(path=p, why=exc.strerror or exc)) from None
    try:
        if p.stat().st_size == 0:  # SQLite opens an empty file as an empty database: "no table" would hide why
            raise SwmDatabaseError(_("{path} is empty (0 bytes): not the SW_Minis_Drafter database; download it again ({where})").format(
                path=p, where=PUBLISHED))
        with p.open("rb") as f:
            head = f.read(100)
        cut = _damaged(p, head)
    except OSError as exc:
        raise SwmDatabaseError(_("{path}: cannot be read ({why})").format(path=p, why=exc.strerror or exc)) from None
    if cut is not None:
        raise SwmDatabaseError(cut)
    try:
        con = sqlite3.connect(p.resolve().as_uri() + "?mode=ro", uri=True)
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        raise SwmDatabaseError(_("{path}: cannot open it as an SQLite database ({why})").format(path=p, why=exc)) from None
    try:
        try:
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            if head.startswith(SQLITE_HEADER):  # SQLite's own file, its pages damaged
                raise SwmDatabaseError(_("{path} is an SQLite database that SQLite cannot read ({why}): the file is damaged; nothing "
                                         "imported: download it again ({where})").format(path=p, why=exc, where=PUBLISHED)) from None
            raise SwmDatabaseError(_("{path} is not an SQLite database ({why})").format(path=p, why=exc)) from None
        if TABLE not in tables:
            raise SwmDatabaseError(
                _("{path} has no table {table!r}: it is not the SW_Minis_Drafter database (published at {where})").format(
                    path=p, table=TABLE, where=PUBLISHED
                )
            )
        try:  # a damaged schema text (a byte that is not UTF-8 in a name) fails as either
            have = {r[1] for r in con.execute(f'PRAGMA table_info("{TABLE}")')}
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise SwmDatabaseError(_("{path}: cannot read the table {table!r} ({why})").format(path=p, table=TABLE, why=exc)) from None
        missing = [c for c in COLUMNS if c not in have]
        if missing:
            raise SwmDatabaseError(
                _("{path}: the table {table!r} lacks the columns {names}").format(path=p, table=TABLE, names=", ".join(map(repr, missing)))
            )
        select = ", ".join(f'"{c}"' for c in COLUMNS)
        try:
            return [dict(zip(COLUMNS, row, strict=True)) for row in con.execute(f'SELECT {select} FROM "{TABLE}" ORDER BY rowid')]
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise SwmDatabaseError(_("{path}: cannot read the table {table!r} ({why})").format(path=p, table=TABLE, why=exc)) from None
    finally:
        con.close()


# --- one row, one card ------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """One row read: the card's fields (as a card file writes them) or why it cannot be one."""

    label: str  # how the report names it: "Clone Trooper (Revenge of the Sith #8)"
    set: str
    number: str  # the collector number as the row gives it ('' when none)
    card: dict[str, Any] | None
    partial: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()
    #: the rows (their order in the table) this card was read from: several when merged
    rows: tuple[int, ...] = ()


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def not_modelled(names: Sequence[str], applied: frozenset[str]) -> list[str]:
    """Why each name is not applied: known by the catalogue's glossary only, or not in it."""
    out = []
    for text in names:
        base = split_ability(text)[0].lower()
        status = classify("swm", text).status
        verdicts = [unanswered(text, edition) for edition in SWM_EDITIONS]
        if True in verdicts and False not in verdicts:
            # the catalogue knows the power by its name, not with this number (Net Gun 11, Force Push 1; R328)
            out.append(_("{name}: not modelled (a power the rulebooks print with no such number: 'attack --power' cannot answer it)").format(name=text))
            continue
        if status == "modelled" or base in applied or text.strip().lower() in applied:
            continue
        if status == "known":
            out.append(_("{name}: not modelled (known by name)").format(name=text))
        else:
            out.append(_("{name}: not modelled (not in the ability catalogue)").format(name=text))
    return out


#: the set under which the database prints each figure with Affinity again, of the faction it may join
AFFINITY_SET = "affinity"


def affinity_factions(rows: Sequence[Mapping[str, Any]]) -> dict[str, tuple[str, ...]]:
    """Each Affinity figure's printings by name (lower case): the factions of its rows that have the
    ability or stand in the database's "Affinity" set, which prints the figure again as of the faction
    it may join (Mas Amedda: Champions of the Force #30, Republic, with Affinity; Affinity #1,
    Imperial). Reading R166 in docs/readings.md.

    >>> affinity_factions([{"name": "Mas Amedda", "set": "Champions of the Force", "faction": "Republic",
    ...     "special abilities": "Unique;Affinity"}, {"name": "Mas Amedda", "set": "Affinity", "faction": "Imperial"}])
    {'mas amedda': ('Republic', 'Empire')}
    """
    found: dict[str, dict[str, None]] = {}
    for row in rows:
        name, faction = _text(row.get("name")).lower(), _text(row.get("faction"))
        has = any(a.lower() == "affinity" for a in parse_names(_text(row.get("special abilities")) or None))
        if name and faction and (has or _text(row.get("set")).lower() == AFFINITY_SET):
            found.setdefault(name, {})[faction_name(faction)] = None
    return {name: tuple(factions) for name, factions in found.items()}


def rulebook_spelling(text: str) -> tuple[str, tuple[str, str] | None]:
    """An ability as the rulebook spells it, and (the rulebook's name, its page) where the data misspells it.

    >>> rulebook_spelling("Flux Destiny 10")
    ('Flux Density 10', ('Flux Density', 'swm2008 PL p.43'))
    >>> rulebook_spelling("Stealth")
    ('Stealth', None)
    """
    name, value = split_ability(text)
    right = MISSPELT.get(name.strip().lower())
    if right is None:
        return text, None
    return (right[0] if value is None else f"{right[0]} {value}"), right


def figure_from_row(row: Mapping[str, Any], applied: frozenset[str] = frozenset(),
                    affinity: Mapping[str, tuple[str, ...]] | None = None) -> Figure:
    """A row as a card (the card file's fields), with what is partial, or why it is refused;
    ``affinity``: :func:`affinity_factions` of the rows it was read with."""
    name, set_name, number = _text(row.get("name")), _text(row.get("set")), _text(row.get("id"))
    label = f"{name or '?'} ({set_name or '?'}{' #' + number if number else ''})"
    refused: list[str] = []
    partial: list[str] = []
    if not name:
        refused.append(_("no name"))
    if not set_name:
        refused.append(_("no set"))
    notes: dict[str, str] = {}
    stats: dict[str, int | None] = {}
    for column, key in STATS:
        raw = row.get(column)
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            stats[key] = None
            partial.append(_("{what}: not in the data (left unknown)").format(what=column))
            continue
        if isinstance(raw, str) and raw.strip() in _NONE_PRINTED:
            # the database's releases of 2019 write a dash where the card prints none (Darth Sidious
            # Hologram's Attack); its later releases write 0 for the same figures (reading R150 in docs/readings.md)
            stats[key] = 0
            partial.append(_("{what}: the data writes {value!r} (none printed): read as 0, as the database's later releases write it").format(
                what=column, value=raw.strip()))
            continue
        value = _number(raw)
        if value is None:
            refused.append(_("{what} {value!r} is not a whole number").format(what=column, value=raw))
        elif value < 0 and key not in SIGNED:
            refused.append(_("{what} {value} is below zero").format(what=column, value=value))
        else:
            stats[key] = value
    size_text = _text(row.get("size")).lower()
    size: str | None = None
    if not size_text:
        partial.append(_("size: not in the data (left unknown)"))
    elif size_text not in SIZES:
        refused.append(_("size {value!r} is not one of {sizes}").format(value=row.get("size"), sizes=", ".join(SIZES)))
    else:
        size = size_text
    faction = _text(row.get("faction"))
    if not faction:
        partial.append(_("faction: not in the data (left unknown)"))
    abilities = parse_names(_text(row.get("special abilities")) or None)
    # the data writes "Commander Effect" among the Force powers on 9 rows (Yoda (Force Spirit), Lord
    # Hoth, Darth Malak, ...): it is the card's commander effect wherever it stands, never a power
    listed_powers = parse_names(_text(row.get("force powers")) or None)
    powers = tuple(p for p in listed_powers if p.lower() != "commander effect")
    unique = any(a.lower() == "unique" for a in abilities)
    commander = any(a.lower() == "commander effect" for a in (*abilities, *listed_powers))
    kept = tuple(a for a in abilities if a.lower() not in ("unique", "commander effect"))
    spelt = [(a, rulebook_spelling(a)) for a in kept]
    kept = tuple(right for _written, (right, _rule) in spelt)
    misspelt = [NOTE_SPELLING.format(written=repr(written), name=rule[0], rule=rule[1]) for written, (_right, rule) in spelt if rule]
    if misspelt:
        notes["special_abilities"] = "; ".join(misspelt)
    speed: int | None = DEFAULT_SPEED
    notes["speed"] = SPEED_NOTE
    for a in kept:
        m = _SPEED_RE.match(a)
        if m:
            speed = int(m.group(1))
            notes["speed"] = NOTE_SPEED_ABILITY.format(ability=a)
        elif a.lower() == "speed":
            speed = None
            notes["speed"] = NOTE_SPEED_BARE
            partial.append(_("Speed: no number in the data (speed left unknown)"))
    if commander:  # why no text is anywhere is said once, in the report's note (commander_note, R341)
        partial.append(_("commander effect: its text is not in the data"))
        notes["commander_effect"] = NOTE_COMMANDER.format(source=SOURCE)
    if powers:
        notes["force_powers"] = NOTE_POWERS.format(source=SOURCE)
    partial += not_modelled(kept + powers, applied)
    if any(a.lower() == "rapport" for a in kept) and name.lower() not in RAPPORT_STATED:
        partial.append(_("Rapport: not modelled (whom it makes cheaper is on the card, in no source here; only Clone Commander Cody's "
                         "and Queen Amidala's are in the rulebook)"))
    joins: list[str] | None = None
    has_affinity = any(a.lower() == "affinity" for a in kept)
    if has_affinity:
        own = faction_name(faction) if faction else None
        joins = [f for f in (affinity or {}).get(name.lower(), ()) if f != own] or None
        if joins:
            notes["affinity"] = NOTE_AFFINITY.format(
                factions=", ".join(joins))
        else:
            partial.append(_("Affinity: the faction it may join is not in the data (left unknown)"))
    rarity = _text(row.get("rarity"))
    if rarity:
        notes["rarity"] = rarity
    if refused:
        return Figure(label, set_name, number, None, refused=tuple(refused))
    card: dict[str, Any] = {
        "name": name,
        "source": f"{SOURCE}, {set_name}" + (f" #{number}" if number else ""),
        # every value the card prints is here (not: the engine applies every ability; that is the report's)
        "complete": None not in (*stats.values(), size, speed) and bool(faction) and not commander and not powers
        and not (has_affinity and not joins),
        "cost": stats["cost"],
        "factions": [faction_name(faction)] if faction else None,
        "unique": unique,
        "size": size,
        "hp": stats["hp"],
        "defense": stats["defense"],
        "attack": stats["attack"],
        "damage": stats["damage"],
        "speed": speed,
        "force": stats["force"],
        "special_abilities": list(kept),
        "force_powers": [{"name": p, "cost": None} for p in powers],
        "commander_effect": None if commander else "none",
        # only on the figures that have it: the other cards' files stay as they were
        **({"affinity": joins} if has_affinity else {}),
        "notes": notes,
    }
    return Figure(label, set_name, number, card, partial=tuple(partial))


# --- figures, card files -----------------------------------------------------------------


def _play(card: Mapping[str, Any]) -> str:
    """What a card plays with (every field but its name, source and notes), to merge duplicates."""
    return repr(sorted((k, v) for k, v in card.items() if k not in ("name", "source", "notes")))


def _merged(figs: list[Figure]) -> tuple[list[Figure], list[str]]:
    """One set's figures with duplicates merged: rows of one name with the same values are one
    card (its source lists each collector number); rows of one name with different values are
    each a card of its own, named with its collector numbers (``Imperial Knight (#20)``). Also
    the names given so."""
    by_name: dict[str, dict[str, list[Figure]]] = {}
    for f in figs:
        assert f.card is not None
        by_name.setdefault(f.card["name"].lower(), {}).setdefault(_play(f.card), []).append(f)
    out: list[Figure] = []
    renamed: list[str] = []
    for groups in by_name.values():
        for same in groups.values():
            first = same[0]
            assert first.card is not None
            card = dict(first.card)
            numbers = [f.number for f in same if f.number]
            card["source"] = f"{SOURCE}, {first.set}" + (" " + ", ".join(f"#{n}" for n in numbers) if numbers else "")
            if len(groups) > 1:
                card["name"] = f"{card['name']} ({', '.join('#' + n for n in numbers) or '?'})"
                renamed.append(card["name"])
            rows = tuple(r for f in same for r in f.rows)
            out.append(Figure(first.label, first.set, ", ".join(numbers), card, first.partial, rows=rows))
    return out, renamed


def set_file_name(set_name: str) -> str:
    """The card file of one set: ``Revenge of the Sith`` -> ``revenge-of-the-sith.yaml``."""
    slug = re.sub(r"[^a-z0-9]+", "-", set_name.lower()).strip("-") or "set"
    return f"{slug[:80]}.yaml"


def _yaml_card(card: Mapping[str, Any]) -> dict[str, Any]:
    """A card as its file writes it: unknown values as ``unknown``, empty lists and notes left out."""
    out: dict[str, Any] = {}
    for key, value in card.items():
        if key in ("special_abilities", "force_powers", "notes") and not value:
            continue
        if key == "force_powers":
            value = [{"name": p["name"], "cost": "unknown"} for p in value]
        out[key] = "unknown" if value is None else value
    return out


HEADER = (
    "# Star Wars Miniatures figures of the set {set}, imported from {source} ({where})\n"
    "# by 'python -m assistant cards import'. Importing again replaces this file.\n"
)


@cache
def _dumper() -> type[yaml.SafeDumper]:
    """libyaml's safe dumper where it is installed (the whole database as YAML costs ~4 s with
    PyYAML's own, ~0.3 s with libyaml), writing strings as :func:`~.yamlio.dump_yaml` does:
    NEL, LS and PS escaped in double quotes, so that they read back as written."""
    base: type[yaml.SafeDumper] = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

    class Dumper(base):  # type: ignore[valid-type,misc]
        pass

    def represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
        if any(ch in value for ch in "\x85\u2028\u2029"):
            return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')
        return dumper.represent_str(value)

    Dumper.add_representer(str, represent_str)
    return Dumper


def set_file_text(set_name: str, cards: Sequence[Mapping[str, Any]]) -> str:
    data = {"format": CARD_FORMAT, "game": "swm", "set": set_name, "cards": [_yaml_card(c) for c in cards]}
    body = yaml.dump(data, Dumper=_dumper(), sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)
    return HEADER.format(set=set_name, source=SOURCE, where=PUBLISHED) + body


def _checked(set_name: str, figs: list[Figure]) -> tuple[list[Figure], list[Figure]]:
    """The figures whose cards the card files' own validator accepts, and those it refuses (with
    its message): what is written is what the library will read."""
    good, refused = [], []
    for f in figs:
        assert f.card is not None
        why = card_problems("swm", set_name, _yaml_card(f.card))
        if why:
            refused.append(Figure(f.label, f.set, f.number, None, refused=tuple(why), rows=f.rows))
        else:
            good.append(f)
    return good, refused


@dataclass(frozen=True)
class Imported:
    """What an import read: the report, and the card files' texts by file name."""

    report: ImportReport
    files: Mapping[str, str]
    #: each file's set
    sets: Mapping[str, str]


def commander_note(figures: int, glossary: int | None) -> str:
    """Why no commander effect's text came with the figures that name one, said once for them all
    (reading R341 in docs/readings.md): where the community's data was looked for it."""
    if glossary is None:
        where = _("the database has no commander glossary (table {table})").format(table=COMMANDER_GLOSSARY)
    elif glossary == 0:
        where = _("the database's commander glossary (table {table}) is empty").format(table=COMMANDER_GLOSSARY)
    else:
        where = n_("the database's commander glossary (table {table}) holds {n} entry, which the import does not read",
                   "the database's commander glossary (table {table}) holds {n} entries, which the import does not read",
                   glossary).format(table=COMMANDER_GLOSSARY, n=glossary)
    return n_(
        "{n} figure names a commander effect whose text no file of SW_Minis_Drafter gives: {where}, and the glossary file its program "
        "reads (DB/commandereffects.tsv) was never published; enter an effect from the card, once, with 'cards commander NAME' "
        "(reading R341 in docs/readings.md)",
        "{n} figures name a commander effect whose text no file of SW_Minis_Drafter gives: {where}, and the glossary file its program "
        "reads (DB/commandereffects.tsv) was never published; enter an effect from the card, once, with 'cards commander NAME' "
        "(reading R341 in docs/readings.md)",
        figures).format(n=figures, where=where)


def import_rows(rows: Sequence[Mapping[str, Any]], source: str, commander_glossary: int | None = 0) -> Imported:
    """The card files (one a set) and the report of these rows: one item a row, in their order;
    ``commander_glossary``: the entries of the database's commander glossary (see :func:`commander_note`)."""
    applied = frozenset(n.lower() for n in applied_names("swm"))
    joins = affinity_factions(rows)
    figures = [replace(figure_from_row(r, applied, joins), rows=(i,)) for i, r in enumerate(rows)]
    items: dict[int, ImportedItem] = {}
    by_set: dict[str, list[Figure]] = {}
    for i, f in enumerate(figures):
        if f.card is None:
            items[i] = ImportedItem(f.label, "refused", f.refused)
        else:
            by_set.setdefault(f.set, []).append(f)
    files: dict[str, str] = {}
    sets: dict[str, str] = {}
    notes: list[str] = []
    for set_name, members in sorted(by_set.items()):
        merged, renamed = _merged(members)
        good, refused = _checked(set_name, merged)
        why_refused = {r: f.refused for f in refused for r in f.rows}
        for f in members:
            i = f.rows[0]
            if i in why_refused:
                items[i] = ImportedItem(f.label, "refused", why_refused[i])
            else:
                items[i] = ImportedItem(f.label, "partial" if f.partial else "imported", f.partial)
        if renamed:
            notes.append(_("{set}: one name printed with different values: imported as {names}").format(set=set_name, names="; ".join(renamed)))
        if good:
            name = set_file_name(set_name)
            if name in files:  # two sets whose names make one file name: keep both
                name = name[:-5] + f"-{len(files)}.yaml"
            files[name] = set_file_text(set_name, [f.card for f in good if f.card is not None])
            sets[name] = set_name
    ordered = tuple(items[i] for i in range(len(figures)))
    commanders = sum(1 for i, f in enumerate(figures) if f.card is not None and f.card["commander_effect"] is None and items[i].status != "refused")
    if commanders:
        notes.append(commander_note(commanders, commander_glossary))
    return Imported(ImportReport(source, "swm", ordered, tuple(notes)), files, sets)


def import_database(path: Path | str) -> Imported:
    """Read the database at ``path`` into card files (not written: see :func:`write_files`)."""
    rows = read_rows(path)
    return import_rows(rows, str(path), commander_glossary_size(path))


def write_files(folder: Path, files: Mapping[str, str]) -> list[Path]:
    """Write every file into ``folder``, all or none: each is written beside its place under a
    temporary name first, and only when all are written are they renamed into place (a rename
    is atomic). Re-importing replaces the same files; files of other sets are left as they are."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FileWriteError(_("cannot write {target}: {why}").format(target=folder, why=exc.strerror or exc)) from None
    temps: list[tuple[Path, Path]] = []
    try:
        for name, text in files.items():
            target = folder / name
            tmp = folder / f".{name}.import.tmp"
            tmp.write_text(text, encoding="utf-8")
            temps.append((tmp, target))
        for tmp, target in temps:
            tmp.replace(target)
    except OSError as exc:
        for tmp, _target in temps:
            tmp.unlink(missing_ok=True)
        raise FileWriteError(_("cannot write {target}: {why}").format(target=folder, why=exc.strerror or exc)) from None
    return [target for _tmp, target in temps]
