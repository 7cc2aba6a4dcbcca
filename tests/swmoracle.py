"""An independent check of the SWM import (used only in tests and bench): every row of an
SW_Minis_Drafter database, read here with plain ``sqlite3`` (none of the importer's code), compared
with the card the library holds for it; and the shipped starter cards compared with the rows of
the same name, where both give a number."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

from assistant.cards import CardLibrary, SwmCard

#: the database's spelling of a faction -> how the shipped cards and the era table (swm2008 PL p.15) write it
FACTION = {"Seperatist": "Separatists", "Rebel": "Rebel Alliance", "Imperial": "Empire", "The New Republic": "New Republic",
           "The Old Republic": "Old Republic", "Mandalorian": "Mandalorians"}
#: the database's misspellings of an ability the rulebook names, written here from the rulebook's glossary
#: (swm2008 PL p.43, p.57), not taken from the importer: the card says the rulebook's word (R325)
RULEBOOK_WORD = {"Pheremones": "Pheromones", "Playeryin Bol": "Plaeryin Bol", "Flux Destiny": "Flux Density"}
NUMBERS = (("cost", "cost"), ("hit points", "hp"), ("defense", "defense"), ("attack", "attack"), ("damage", "damage"),
           ("force points", "force"))


def rows(db: Path | str) -> list[dict[str, Any]]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in con.execute("SELECT * FROM minis_list ORDER BY uniq_id")]
    finally:
        con.close()


def names(text: str | None) -> list[str]:
    return [n.strip() for n in (text or "").split(";") if n.strip()]


def card_of_row(library: CardLibrary, row: dict[str, Any]) -> SwmCard | None:
    """The card the library holds for this row: its set, its name (or its name with collector
    numbers, where one set prints a name with different values), its number in the source."""
    for card in library.cards("swm"):
        if card.set != row["set"] or not isinstance(card, SwmCard):
            continue
        if card.name != row["name"] and not card.name.startswith(row["name"] + " (#"):
            continue
        if re.search(rf"#{row['id']}\b", card.source):
            return card
    return None


def rulebook_word(ability: str) -> str:
    for written, word in RULEBOOK_WORD.items():
        if ability == written or ability.startswith(written + " "):
            return word + ability[len(written):]
    return ability


def expected(row: dict[str, Any]) -> dict[str, Any]:
    """What the card must say, from the row alone (speed: 6 unless the card has Speed N; unknown
    for a bare "Speed")."""
    abilities = names(row["special abilities"])
    speeds: list[int | None] = [int(a.split()[1]) for a in abilities if re.fullmatch(r"Speed \d+", a)]
    speeds += [None for a in abilities if a == "Speed"]  # no number: the card's speed is not in the row
    return {
        **{key: row[col] for col, key in NUMBERS},
        "size": row["size"],
        "factions": (FACTION.get(row["faction"], row["faction"]),),
        "unique": "Unique" in abilities,
        # compared in no order: the order a file lists them in changes nothing in play (R167)
        "special_abilities": tuple(sorted(rulebook_word(a) for a in abilities if a not in ("Unique", "Commander Effect"))),
        # some rows list the commander effect among the Force powers: it is no power
        "force_powers": tuple(p for p in names(row["force powers"]) if p != "Commander Effect"),
        "speed": speeds[0] if speeds else 6,
        "commander_effect": None if "Commander Effect" in (*abilities, *names(row["force powers"])) else "none",
    }


def actual(card: SwmCard) -> dict[str, Any]:
    return {
        **{key: getattr(card, key) for _col, key in NUMBERS},
        "size": card.size.value if card.size is not None else None,
        "factions": card.factions,
        "unique": card.unique,
        "special_abilities": tuple(sorted(card.special_abilities)),
        "force_powers": tuple(p.name for p in card.force_powers),
        "speed": card.speed,
        "commander_effect": card.commander_effect,
    }


def mismatches(db: Path | str, library: CardLibrary) -> tuple[int, list[str]]:
    """(rows checked, every difference between a row and its card, or a row with no card)."""
    out: list[str] = []
    all_rows = rows(db)
    for row in all_rows:
        card = card_of_row(library, row)
        label = f"{row['name']} ({row['set']} #{row['id']})"
        if card is None:
            out.append(f"{label}: no card")
            continue
        want, got = expected(row), actual(card)
        out += [f"{label}: {k} is {got[k]!r}, the database says {want[k]!r}" for k in want if got[k] != want[k]]
    return len(all_rows), out


def starter_disagreements(db: Path | str, shipped: CardLibrary) -> tuple[int, list[str]]:
    """(numbers compared, every shipped starter number no row of the same name gives)."""
    by_name: dict[str, list[dict[str, Any]]] = {}
    for row in rows(db):
        by_name.setdefault(row["name"].lower(), []).append(row)
    compared, out = 0, []
    for card in shipped.cards("swm"):
        assert isinstance(card, SwmCard)
        printings = by_name.get(card.name.lower(), [])
        if not printings:
            continue
        for col, key in NUMBERS:
            value = getattr(card, key)
            if value is None:
                continue
            compared += 1
            if all(r[col] != value for r in printings):
                out.append(f"{card.name} ({card.set}): {key} {value}, the database: {sorted({r[col] for r in printings})}")
    return compared, out
