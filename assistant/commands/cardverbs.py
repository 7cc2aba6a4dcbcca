"""The card library's verbs. ``cards import`` reads the community's SWM database into the user's
own card library (:func:`~assistant.resources.user_cards_dir`), which every command reads after
the shipped cards. ``cards set`` (a number a card's source does not give) and ``cards commander``
(a commander effect, entered once per card in a small structured form with its free text beside
it) keep the user's own numbers in the overrides file (:mod:`assistant.overrides`), which every
later question reads over the library."""

from __future__ import annotations

import dataclasses
import enum
import time
import typing
from pathlib import Path
from typing import Any

from ..cards import GAMES, Card, CommanderCondition, forget_loaded_libraries, play_values, said_note
from ..errors import AssistantError
from ..i18n import N_, _
from ..overrides import LINE_KEYS, describe, read_overrides, save_override, stat_value
from ..resources import user_cards_dir
from .context import Session
from .registry import verb
from .result import Result, escape

#: whom a commander effect reaches, and the conditions it may carry (the card records' own words)
AFFECTS: tuple[str, ...] = ("followers", "allies", "enemies", "self")  # CommanderBonus.affects (tests/test_bundled_answers.py checks)
CONDITIONS: tuple[str, ...] = typing.get_args(CommanderCondition)


def _card(s: Session, name: str, in_set: str | None) -> Card:
    """The card a player names: a unique part of its name, within a set when one is said (the
    library's own resolution, as a position file's figure is resolved)."""
    return s.library().find(name, set=in_set)


def _source(source: str | None, default: str) -> str:
    if source is None:
        return default
    if not source.strip() or len(source) > 500 or "\n" in source:
        raise AssistantError(_("--source is one line of up to 500 characters"))
    return source.strip()


def card_json(card: Card) -> dict[str, Any]:
    """A card as JSON: unknown values as the string "unknown", enums as their names."""

    def conv(value: Any) -> Any:
        if value is None:
            return "unknown"
        if isinstance(value, enum.Enum):
            return value.value
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return {
                f.name: conv(getattr(value, f.name))
                for f in dataclasses.fields(value)
                if not (f.name in ("reading", "text", "name_contains", "requires", "damage_type", "range") and getattr(value, f.name) is None)
            }
        if isinstance(value, (list, tuple)):
            return [conv(v) for v in value]
        if isinstance(value, dict) or hasattr(value, "items"):
            return {k: conv(v) for k, v in value.items()}
        return value

    return dict(conv(card))


def check_game(game: str | None) -> str | None:
    """``--game``: swm or ddm (any case), or None for every game."""
    if game is None:
        return None
    g = game.strip().lower()
    if g not in GAMES:
        raise AssistantError(_("unknown game {game!r}; games: {names}").format(game=game, names=", ".join(GAMES)))
    return g


#: a card's fields as ``cards show`` says them, in the rulebooks' words (reading R233 in docs/readings.md: the Polish
#: and Czech pages said "cost", "hp", "special_abilities"); the JSON keys stay English. A field not
#: listed is said as its key, its underscores as spaces.
CARD_FIELDS = {
    "cost": N_("cost"), "factions": N_("factions"), "unique": N_("unique"), "size": N_("size"), "hp": N_("hit points"),
    "defense": N_("defense"), "attack": N_("attack"), "damage": N_("damage"), "speed": N_("speed"), "force": N_("Force points"),
    "special_abilities": N_("special abilities"), "force_powers": N_("Force powers"), "commander_effect": N_("commander effect"),
    "level": N_("level"), "flight": N_("flight"), "ac": N_("AC"), "melee": N_("melee attack"), "ranged": N_("ranged attack"),
    "type": N_("type"), "commander_rating": N_("commander rating"), "spells": N_("spells"), "epic": N_("epic"),
    # inside a Force power, an attack line, a commander effect
    "name": N_("name"), "text": N_("text"), "bonus": N_("bonus"), "damage_type": N_("damage type"), "extra": N_("extra damage"),
    "affects": N_("affects"), "range": N_("range"), "save": N_("save"), "condition": N_("on condition"), "amount": N_("amount of damage"),
}
#: the factions as the rulebooks name them (swm2008 PL p.5, p.14; CS names Republic, Separatists,
#: Empire, Rebels and keeps "Fringe"); a faction the catalogs do not translate is said as printed.
#: Ability and Force power names stay as the cards print them (the catalogs translate none).
FACTION_NAMES = {
    "Republic": N_("Republic"), "Separatists": N_("Separatists"), "Empire": N_("Empire"), "Rebel Alliance": N_("Rebel Alliance"),
    "New Republic": N_("New Republic"), "Old Republic": N_("Old Republic"), "Mandalorians": N_("Mandalorians"), "Sith": N_("Sith"),
    "Fringe": N_("Fringe"),
}
#: a card's value words: the JSON's "unknown" (no source gives it), "none", a yes-or-no, a size
CARD_WORDS = {"unknown": N_("not given"), "none": N_("none on the card"), "small": N_("small"), "medium": N_("medium"),
              "large": N_("large"), "huge": N_("huge"), "gargantuan": N_("gargantuan"), "colossal": N_("colossal")}


def card_field(key: str) -> str:
    """A card's field as the reader says it (``hp``: "hit points", "punkty obrażeń", "životy")."""
    return _(CARD_FIELDS[key]) if key in CARD_FIELDS else key.replace("_", " ")


def _plain(value: Any, key: str = "") -> str:
    if isinstance(value, list):
        return ", ".join(_plain(v, key) for v in value) if value else _(CARD_WORDS["none"])
    if isinstance(value, dict):
        said = "; ".join(f"{card_field(k)} {_plain(v, k)}" for k, v in value.items() if k != "name")
        if "name" in value:  # a power or an ability: its name first, its numbers after it ("Force Leap (cost 1)")
            return f"{_plain(value['name'])} ({said})" if said else _plain(value["name"])
        return said
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, str) and value in CARD_WORDS:
        return _(CARD_WORDS[value])
    if key in ("factions", "affinity") and isinstance(value, str) and value in FACTION_NAMES:
        return _(FACTION_NAMES[value])
    return str(value)


@verb("cards show", positional=("name",), query="card", anywhere=True)
def cards_show(s: Session, name: str, game: str | None = None, in_set: str | None = None) -> Result:
    """One card with every value, 'unknown' where the source gives none, its set, its source and
    its notes in the reader's language (R223): what a player at the table asks of a card, on the
    command line, in the shell and on the phone alike."""
    lib = s.library()
    card = lib.find(name, check_game(game), in_set)
    data = card_json(card)
    # the same figure with the same values in other sets (any of them serves: see CardLibrary.resolve)
    also = [c.set for c in lib.candidates(card.game, card.name, partial=False) if c is not card and play_values(c) == play_values(card)]
    lines = [f"[bold]{escape(card.name)}[/]  ({card.game.upper()}, {escape(card.set)})"]
    if also:
        lines.append(_("  [dim]the same values in: {sets}[/]").format(sets=escape("; ".join(also))))
    lines.append(_("[dim]source:[/] {source}{value}").format(
        source=escape(card.source), value="" if card.complete else _("  [yellow](partial: the source does not reproduce the whole card)[/]")))
    skip = {"name", "source", "game", "set", "complete", "notes"}
    for key, value in data.items():
        if key in skip or value in ((), []):
            continue
        lines.append(f"  [bold]{escape(card_field(key))}[/]: {escape(_plain(value, key))}")
    for key, note in card.notes.items():
        lines.append(_("  [dim]note on {key}: {note}[/]").format(key=escape(card_field(key)), note=escape(said_note(note))))
    return Result({"query": "card", "card": data, "same_in_sets": also}, tuple(lines))


def _printed(card: Card, key: str) -> tuple[int | None, ...]:
    """The number(s) the card's source gives for a key ``cards set`` keeps (None: not given)."""
    if key in LINE_KEYS:  # a DDM attack line: one bonus or damage per attack
        kind, what = key.split("_")
        return tuple(line.bonus if what == "attack" else line.damage for line in (getattr(card, kind, None) or ()))
    value = getattr(card, key, None)
    return (value if isinstance(value, int) and not isinstance(value, bool) else None,)


def _refuse_printed(card: Card, stats: dict[str, Any]) -> None:
    """'cards set "Count Dooku" hp=5' changed the 130 his card prints, for every later answer and,
    in a game, voided the attacks recorded before (R203): the verb keeps numbers a card does not
    give. A number the source gives and the user has not kept before is changed only with
    --source, saying where the new one comes from (reading R250)."""
    kept = {key for e in read_overrides()[0] if e.matches(card.game, card.name, card.set or "") for key in e.stats}
    for key, value in stats.items():
        if key in kept:
            continue  # the user's own number, given before: theirs to change
        printed = _printed(card, key)
        wanted = value if isinstance(value, tuple) else (value,)
        if any(p is not None for p in printed) and tuple(printed) != tuple(wanted):
            shown = "/".join("?" if p is None else str(p) for p in printed)
            raise AssistantError(_("{card}'s {key} is {printed} in its source ({source}): 'cards set' keeps the numbers a card does not give. "
                                   "To correct a printed number, say where the new one comes from: --source \"...\" (reading R250 in "
                                   "docs/readings.md)").format(card=card.name, key=key, printed=shown, source=card.source))


@verb("cards set", positional=("name", "values"), library=True)
def cards_set(s: Session, name: str, values: list[str], in_set: str | None = None, source: str | None = None) -> Result:
    """Keep numbers a card's source does not give (``attack=14``; a DDM attack line one per
    attack, ``melee_attack=12/7``) for every later question."""
    if not values:
        raise AssistantError(_("say what to keep, as KEY=N (for example: cards set \"General Obi-Wan Kenobi\" attack=14)"))
    card = _card(s, name, in_set)
    stats: dict[str, Any] = {}
    for text in values:  # every value is checked before anything is written
        key, eq, value = text.partition("=")
        if not eq or not key.strip():
            raise AssistantError(_("{text!r} is not KEY=N (for example attack=14)").format(text=text))
        stats[key.strip().lower()] = stat_value(card.game, key.strip().lower(), value)
    if source is None:
        _refuse_printed(card, stats)
    said = _source(source, _("entered with 'cards set'"))
    path = save_override(card.game, card.name, card.set or None, stats=stats, source=said)
    s.cards_library = None  # the edge's library is read again, with these numbers
    obj = {"query": "cards set", "card": card.name, "game": card.game, "set": card.set,
           "stats": {k: list(v) if isinstance(v, tuple) else v for k, v in stats.items()}, "source": said, "file": str(path)}
    line = _("kept for {card}: {values} (in {file})").format(card=card.name, values=describe(stats), file=path)
    return Result(obj, (escape(line),))


@verb("cards commander", positional=("name",), library=True)
def cards_commander(s: Session, name: str, affects: str | None = None, text: str | None = None, range: int | None = None,
                    attack: int = 0, defense: int = 0, damage: int = 0, save: int = 0, speed: int = 0,
                    condition: list[str] | None = None, name_contains: str | None = None, requires: str | None = None,
                    in_set: str | None = None, source: str | None = None) -> Result:
    """Enter a card's commander effect once: whom it reaches (``--affects``), how far (``--range``),
    what it changes (``--attack 4`` ...), when (``--condition``), with the card's own words
    (``--text``) kept beside it. Every later answer applies it, citing it."""
    if affects is None or affects not in AFFECTS:
        raise AssistantError(_("--affects is one of {names}, not {value!r}").format(names=", ".join(AFFECTS), value=affects))
    if text is None or not text.strip() or len(text) > 500:
        raise AssistantError(_("--text is the effect as the card words it (up to 500 characters)"))
    if range is not None and not 0 <= range <= 100:
        raise AssistantError(_("--range is a number of squares, 0 to 100, not {value}").format(value=range))
    changes = {"attack": attack, "defense": defense, "damage": damage, "save": save, "speed": speed}
    for key, value in changes.items():
        if abs(value) > 100:
            raise AssistantError(_("--{key} {value}: a commander effect changes a stat by at most 100").format(key=key, value=value))
    if not any(changes.values()):
        raise AssistantError(_("say what the effect changes: --attack, --defense, --damage, --save or --speed"))
    bad = [c for c in condition or () if c not in CONDITIONS]
    if bad:
        raise AssistantError(_("--condition {value!r} is not one the rules engine applies: {names}").format(value=bad[0], names=", ".join(CONDITIONS)))
    card = _card(s, name, in_set)
    bonus: dict[str, Any] = {"affects": affects}
    if range is not None:
        bonus["range"] = range
    bonus.update({k: v for k, v in changes.items() if v})
    for key, said in (("name_contains", name_contains), ("requires", requires)):
        if said is not None:
            if not said.strip() or len(said) > 100:
                raise AssistantError(_("--{key} is a short text").format(key=key.replace("_", "-")))
            bonus[key] = said.strip()
    if condition:
        bonus["conditions"] = list(dict.fromkeys(condition))
    effect = {"text": text.strip(), "effects": [bonus]}
    said = _source(source, _("entered with 'cards commander'"))
    path = save_override(card.game, card.name, card.set or None, commander_effect=effect, source=said)
    s.cards_library = None  # the edge's library is read again, with this effect
    obj = {"query": "cards commander", "card": card.name, "game": card.game, "set": card.set, "commander_effect": effect,
           "source": said, "file": str(path)}
    line = _("kept {card}'s commander effect: {what} (in {file})").format(
        card=card.name, what=", ".join(f"{k} {v}" for k, v in bonus.items()), file=path)
    return Result(obj, (escape(line),))


#: partial and refused figures the text answer lists (all of them under --json)
SHOWN = 25


@verb("cards import", positional=("path",), query="cards import", local=True)
def import_cards(s: Session, path: Path) -> Result:
    """Read SW_Minis_Drafter's database (DB/SWminis.db) into your card library, a file a set; say
    what each figure became: imported, imported with a part not modelled, or refused (and why)."""
    from ..swmdb import import_database, write_files  # start-up time: sqlite3 and the catalogue only when importing

    started = time.perf_counter()
    imported = import_database(path)
    folder = user_cards_dir() / "swm"
    written = write_files(folder, imported.files)
    forget_loaded_libraries()  # a shell or the web app asks again in this process: read the new files
    seconds = round(time.perf_counter() - started, 2)
    report = imported.report
    json = {
        "query": "cards import",
        "game": "swm",
        "folder": str(folder),
        "files": [{"file": str(p), "set": imported.sets[p.name]} for p in written],
        "report": report.to_json(),
        "seconds": seconds,
    }
    lines = [escape(line) for line in report.lines(SHOWN)]
    lines.append(
        _("[green]wrote[/] {n} card files (one a set) to {folder}: every command now reads them after the shipped cards").format(
            n=len(written), folder=escape(str(folder))
        )
    )
    return Result(json, tuple(lines))
