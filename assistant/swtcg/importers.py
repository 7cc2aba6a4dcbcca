"""SW TCG cards from **LackeyCCG set files**, so a table file can be filled from a card list
instead of typed by hand: tab-separated text, one card per line, a header row whose first three
columns are Lackey's Name, Set and ImageFile. The SW TCG plugin's other column names are matched
by common synonyms (Type, Cost, Speed, Power, Health, Side, Text...); columns not used are
reported, never silently dropped. Keywords are read from the text (Accuracy 1, Armor, Lucky 2,
Evade 1, Critical Hit 2, ...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..cardgame.importers import CardImporter, EntryOptions, ImportedCards, ImportFileError
from ..i18n import _

_COLUMNS = {
    "type": ("type", "cardtype", "card type"),
    "subtype": ("subtype", "subtypes"),
    "cost": ("cost", "buildcost", "build cost", "bp"),
    "speed": ("speed", "spd"),
    "power": ("power", "pow"),
    "health": ("health", "hp"),
    "side": ("side", "alignment", "faction"),
    "text": ("text", "rules", "gametext", "game text", "ability", "abilities"),
    "rarity": ("rarity",),
}
_KEYWORDS = {"accuracy": "accuracy", "armor": "armor", "lucky": "lucky", "evade": "evade", "critical hit": "critical_hit",
             "shields": "shields", "stun": "stun", "retaliate": "retaliate", "intercept": "intercept", "deflect": "deflect",
             "overkill": "overkill", "bounty": "bounty", "upkeep": "upkeep"}
_KW = re.compile(r"\b(accuracy|armor|lucky|evade|critical hit|shields|stun|retaliate|intercept|deflect|overkill|bounty|upkeep)\b(?:\s+(\d{1,4})\b)?",
                 re.I)


@dataclass(frozen=True)
class SwtcgCardData:
    name: str
    set: str
    type: str
    cost: int | None
    speed: int | None
    power: int | None
    health: int | None
    side: str  # DS, LS or ""
    text: str
    keywords: tuple[tuple[str, Any], ...] = ()
    pilots: str = ""
    grants: tuple[tuple[str, Any], ...] = ()  # printed after "Pilot": given to the vehicle (FAQ L121)
    extra: tuple[tuple[str, str], ...] = field(default=())
    costs: tuple[tuple[str, int], ...] = ()  # "Pay 1 Force: Retaliate 2" -> (("retaliate", 1),)
    notes: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        """unit, battle, location or mission, from the type line."""
        first = self.type.split(" - ")[0].strip().lower()
        return first if first in ("battle", "location", "mission") else "unit"

    @property
    def unique(self) -> bool:
        return bool(re.search(r"\([A-Z]\)$", self.name))  # versioned names such as "Darth Vader (A)" are unique characters

    def table_entry(self, uid: str, owner: str, zone: str = "hand") -> dict[str, Any]:
        entry: dict[str, Any] = {"id": uid, "owner": owner, "name": re.sub(r"\s*\([A-Z]\)$", "", self.name), "type": self.type}
        if self.kind != "unit":
            entry["kind"] = self.kind
        if self.unique:
            entry["unique"] = True
        for k in ("cost", "speed", "power", "health"):
            if getattr(self, k) is not None:
                entry[k] = getattr(self, k)
        kws: dict[str, Any] = {}
        for k, v in self.keywords:
            if k == "evade":
                kws.setdefault("evade", []).append(v)
            elif k not in ("bounty", "upkeep"):
                kws[k] = v
        if kws:
            entry["keywords"] = kws
        if dict(self.keywords).get("upkeep"):
            entry["upkeep"] = dict(self.keywords)["upkeep"]
        if "bounty" in dict(self.keywords):
            entry["bounty"] = True
        if self.costs:
            entry["costs"] = dict(self.costs)
        if self.pilots:
            entry["pilots"] = self.pilots
            grants: dict[str, Any] = {}
            for k, v in self.grants:
                if k == "evade":
                    grants.setdefault("evade", []).append(v)
                else:
                    grants[k] = v
            if grants:
                entry["grants"] = grants
        entry["zone"] = zone
        return entry


#: keywords printed with a number (Accuracy 1, Evade 2 ...); the others stand alone
NUMBERED = {"accuracy", "lucky", "evade", "critical_hit", "shields", "stun", "retaliate", "deflect", "upkeep"}
_COST = re.compile(r"pay\s+(\d{1,4})\s+force\s*(?:to\s+use\s+)?[:,]?\s*$", re.I)  # "Pay 1 Force: Retaliate 2"
_COST_AFTER = re.compile(r"\s*\(\s*pay\s+(\d{1,4})\s+force\s*\)", re.I)  # "Retaliate 2 (pay 1 Force)"


def _keywords(text: str, notes: list[str] | None = None, costs: list[tuple[str, int]] | None = None) -> tuple[tuple[str, Any], ...]:
    """Keywords in a card's text, with their numbers; a numbered keyword printed without one is
    reported and left out; "Pay N Force: Keyword X" keeps its cost."""
    out = []
    for m in _KW.finditer(text):
        word = _KEYWORDS[m[1].lower()]
        if word in NUMBERED and not m[2]:
            if notes is not None:
                notes.append(_("'{m}' has no number in the text: not imported (enter it in the table file)").format(m=m[1]))
            continue
        out.append((word, int(m[2]) if m[2] else True))
        paid = _COST.search(text[: m.start()].split(".")[-1]) or _COST_AFTER.match(text[m.end():])
        if paid and costs is not None:
            costs.append((word, int(paid[1])))
    return tuple(out)


def load_lackey(text: str, name: str = "<lackey>", skipped: list[str] | None = None) -> tuple[list[SwtcgCardData], list[str]]:
    """Cards from a LackeyCCG set file, and the columns not used (reported to the user). Rows
    that cannot be read as a card (too few columns) are listed in ``skipped``, never padded."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise ImportFileError(_("{name}: empty file").format(name=name))
    header = [h.strip() for h in lines[0].split("\t")]
    if len(header) < 3 or header[0].lower() != "name":
        raise ImportFileError(
            _("{name}:1: a LackeyCCG card file starts with a tab-separated header whose first column is 'Name' (then Set, ImageFile); got {lines!r}").format(
                name=name, lines=lines[0][:60]
            )
        )
    index: dict[str, int] = {}
    for key, names in _COLUMNS.items():
        for i, h in enumerate(header):
            if h.lower() in names:
                index[key] = i
                break
    unused = [h for i, h in enumerate(header) if i > 2 and i not in index.values()]
    cards = []
    for n, line in enumerate(lines[1:], start=2):
        cells = line.split("\t")
        if len(cells) > len(header):
            raise ImportFileError(_("{name}:{n}: {n2} columns, the header has {n3}").format(name=name, n=n, n2=len(cells), n3=len(header)))
        if len(cells) < len(header):
            needed = max([2, *index.values()]) + 1
            why = _("{name}:{n}: {columns} columns, the header has {header}: card {card!r} skipped (not padded)").format(
                name=name, n=n, columns=len(cells), header=len(header), card=cells[0].strip()
            )
            if skipped is None or len(cells) < 2:
                raise ImportFileError(why)
            skipped.append(why + ("" if len(cells) < needed else _("; its missing columns are ones this import does not use")))
            if len(cells) < needed:
                continue
            cells += [""] * (len(header) - len(cells))

        def get(key: str, cells: list[str] = cells) -> str:
            return cells[index[key]].strip() if key in index else ""

        def num(key: str, n: int = n, cells: list[str] = cells) -> int | None:
            v = get(key)
            if v == "" or v in ("-", "X", "x"):
                return None
            if not re.fullmatch(r"\d{1,6}", v):
                raise ImportFileError(
                    _("{name}:{n}: {header} {v!r} is not a number of at most 6 digits (card {cells!r})").format(
                        name=name, n=n, header=header[index[key]], v=v[:20], cells=cells[0][:40]
                    )
                )
            return int(v)

        if not cells[0].strip():
            raise ImportFileError(_("{name}:{n}: a card without a name").format(name=name, n=n))
        typ = get("type")
        sub = get("subtype")
        if sub and " - " not in typ:
            typ = f"{typ} - {sub}"
        side_raw = get("side").lower()
        side = "DS" if side_raw in ("dark", "ds", "dark side", "sith") else "LS" if side_raw in ("light", "ls", "light side", "jedi") else ""
        body = get("text")
        m = re.search(r"\b(\w+) Pilot\b", body)
        own, granted = (body[: m.start()], body[m.end() :]) if m else (body, "")
        notes: list[str] = []
        costs: list[tuple[str, int]] = []
        grants = _keywords(granted, notes) + tuple((stat, int(v)) for v, stat in re.findall(r"\+(\d{1,4}) (speed|power|health)", granted, re.I))
        cards.append(
            SwtcgCardData(
                cells[0].strip(),
                cells[1].strip(),
                typ,
                num("cost"),
                num("speed"),
                num("power"),
                num("health"),
                side,
                body,
                _keywords(own, notes, costs),
                m[1] if m else "",
                grants,
                tuple((header[i], cells[i]) for i in range(3, len(header)) if header[i] in unused and cells[i]),
                tuple(costs),
                tuple(notes),
            )
        )
    return cards, unused


def card_line(c: SwtcgCardData) -> str:
    """One card as a line of the import's listing: name, type, side, cost, keywords."""
    kws = ", ".join(f"{k} {v}" if v is not True else k for k, v in c.keywords)
    return f"{c.name} ({c.type}, {c.side or '?'}, cost {c.cost})" + (f": {kws}" if kws else "")


def _read(text: str, name: str) -> ImportedCards:
    skipped: list[str] = []
    cards, unused = load_lackey(text, name, skipped)
    return ImportedCards(tuple(cards), {c.name: c for c in cards}, tuple(unused), tuple(skipped))


def _entry(card: SwtcgCardData, uid: str, opts: EntryOptions) -> dict[str, Any]:
    return card.table_entry(uid, opts.owner, opts.zone)


#: LackeyCCG set files as the SW TCG plug-in reads them (:class:`assistant.cardgame.plugin.CardGame`)
IMPORTER = CardImporter(read=_read, entry=_entry, line=card_line, default_owner="DS")
