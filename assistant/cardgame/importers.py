"""Importers for the community card-data formats, so a table file can be filled from a card
list instead of typed by hand. Nothing is downloaded; the user points at a file they have.

- **swdestinydb JSON** (Star Wars: Destiny): a JSON array of card objects as in the
  swdestinydb card-data repository (``code``, ``name``, ``type_code``, ``faction_code``,
  ``affiliation_code``, ``health``, ``points`` such as ``"9/12"``, ``is_unique``, ``sides``).
  A die side is written ``[+]VALUE SYMBOL [COST]`` -- ``2RD1`` is ranged 2 costing 1,
  ``+1MD`` a melee modifier, ``Sp`` special, ``-`` blank -- and becomes our face notation::

      >>> str(destiny_face("2RD1")), str(destiny_face("+1MD")), str(destiny_face("-"))
      ('ranged:2/1', '+melee:1', 'blank')

  Indirect damage (``ID``) and ``X`` sides come from later sets the rulebook here does not
  cover: such a card imports with its dice marked *not modelled* rather than guessed.

- **LackeyCCG set files** (SW TCG): tab-separated text, one card per line, a header row whose
  first three columns are Lackey's Name, Set and ImageFile. The SW TCG plugin's other column
  names are matched by common synonyms (Type, Cost, Speed, Power, Health, Side, Text...);
  columns not used are reported, never silently dropped. Keywords are read from the text
  (Accuracy 1, Armor, Lucky 2, Evade 1, Critical Hit 2, ...).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..destiny.dice import NOT_MODELLED_SIDES, SIDE_CODE, Face
from ..errors import AssistantError, NotationError
from ..i18n import _

# --- Star Wars: Destiny (swdestinydb) ---------------------------------------------------

_SIDE = SIDE_CODE


class ImportFileError(AssistantError):
    """A card-data file that cannot be read; says which entry and field."""


#: a full card dump of either game is a few MB; anything this large is not a card file
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
            raise ImportFileError(_("{path}: {size} bytes; card files over {value} MiB are refused (is this the right file?)").format(path=path, size=size, value=MAX_IMPORT_BYTES // (1024 * 1024)))
        raw = p.read_bytes()
    except FileNotFoundError:
        raise ImportFileError(_("{path}: no such file").format(path=path)) from None
    except OSError as exc:
        raise ImportFileError(_("{path}: cannot be read ({why})").format(path=path, why=exc.strerror or exc)) from None
    notes: list[str] = []
    if raw.startswith(b"\xef\xbb\xbf"):
        notes.append(_("a UTF-8 byte-order mark at the start was skipped"))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        text = raw.decode("cp1252", errors="replace")
        notes.append(_("not UTF-8 (line {line}, byte {raw:#04x}): read as Windows-1252 (Latin-1); check accented names").format(line=line, raw=raw[exc.start]))
    if "\x00" in text:
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


def _json_nesting(text: str) -> int:
    """The deepest bracket nesting in JSON text, found before parsing (so the parser never recurses too far)."""
    depth = deepest = 0
    in_str = esc = False
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
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


_TRUE = {"true", "yes", "1", "y", "t"}
_FALSE = {"false", "no", "0", "n", "f", ""}


def _flag(value: Any, where: str, key: str) -> bool:
    """A yes/no field as real dumps write it: true, "true", "yes", 1, "no", "0", null."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise ImportFileError(_("{where}: {key} {value!r} is not yes or no").format(where=where, key=key, value=value))


def destiny_face(code: str) -> Face:
    """One swdestinydb die side in our face notation (the face parser reads both).

    >>> [str(destiny_face(c)) for c in ("1MD", "2RD1", "+2RD", "1Sh", "2R", "1Dr", "1Dc", "1F", "Sp", "Sp1", "-")]
    ['melee:1', 'ranged:2/1', '+ranged:2', 'shield:1', 'resource:2', 'disrupt:1', 'discard:1', 'focus:1', 'special', 'special/1', 'blank']
    """
    if code != "-" and SIDE_CODE.match(code) is None:
        raise NotationError(_("{code!r} is not a swdestinydb die side (e.g. '2RD', '+1MD', '3RD1', 'Sp', '-')").format(code=code))
    return Face.parse(code)


@dataclass(frozen=True)
class DestinyCardData:
    code: str
    name: str
    subtitle: str
    kind: str  # character, upgrade, support, event, battlefield, ...
    affiliation: str
    color: str
    cost: int | None
    health: int | None
    points: tuple[int, ...]
    unique: bool
    faces: tuple[Face, ...] | None  # None: no die, or a die with sides not modelled
    not_modelled: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()  # guardian, ambush, redeploy, read from the card text
    notes: tuple[str, ...] = ()  # what the import noticed (a missing faction, ...)

    def table_entry(self, cid: str, owner: str, elite: bool = False, on: str | None = None) -> dict[str, Any]:
        """A ``characters:``/``supports:``/``upgrades:`` entry for a Destiny table file; an
        elite character brings two dice (P1 › Postacie); an upgrade is attached to ``on``."""
        if self.kind not in ("character", "upgrade", "support"):
            raise ImportFileError(_("{name} is a card of kind {kind}: a table file lists characters, upgrades and supports in play; play it with the 'play' command").format(name=self.name, kind=self.kind))
        entry: dict[str, Any] = {"id": cid, "owner": owner, "title": self.name, "color": self.color, "unique": self.unique}
        if self.kind == "character":
            entry["health"] = self.health or 1
        elif self.cost is not None:
            entry["cost"] = self.cost
        if self.kind == "upgrade":
            if not on:
                raise ImportFileError(_("{name} is an upgrade: say which character it is attached to (--on CHARACTER)").format(name=self.name))
            entry["attached_to"] = on
        if self.keywords:
            entry["keywords"] = list(self.keywords)
        if self.faces is not None:
            n = 2 if elite and self.kind == "character" else 1
            entry["dice"] = {f"{cid}{i + 1}": [str(f) for f in self.faces] for i in range(n)}
        elif self.not_modelled:
            entry["dice"] = {f"{cid}1": []}  # faces unknown here: enter them as rolled
        return entry


_DESTINY_KEYWORDS = re.compile(r"\b(Guardian|Ambush|Redeploy)\b")


def load_swdestinydb(text: str, name: str = "<swdestinydb>") -> list[DestinyCardData]:
    if _json_nesting(text) > MAX_JSON_DEPTH:
        raise ImportFileError(_("{name}: JSON nested more than {MAX_JSON_DEPTH} levels deep: not a swdestinydb card list").format(name=name, MAX_JSON_DEPTH=MAX_JSON_DEPTH))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ImportFileError(_("{name}:{lineno}: not JSON ({msg})").format(name=name, lineno=e.lineno, msg=e.msg)) from None
    except (RecursionError, ValueError) as e:
        raise ImportFileError(_("{name}: the JSON cannot be read ({error}: {e})").format(name=name, error=type(e).__name__, e=str(e)[:100])) from None
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ImportFileError(_("{name}: the JSON holds half a character (a lone \\uD800-\\uDFFF escape)").format(name=name)) from None
    if isinstance(data, dict) and isinstance(data.get("cards"), list):
        data = data["cards"]
    if not isinstance(data, list):
        raise ImportFileError(_("{name}: expected a JSON array of cards (as in the swdestinydb card-data files)").format(name=name))
    out = []
    for i, c in enumerate(data):
        where = f"{name}: card [{i}]"
        if not isinstance(c, dict):
            raise ImportFileError(_("{where} is not an object").format(where=where))
        for key in ("code", "name", "type_code"):
            if not isinstance(c.get(key), str) or not c[key]:
                raise ImportFileError(_("{where}: missing or empty {key!r}").format(where=where, key=key))
        where = f"{name}: card {c['code']} ({c['name']})"
        points = c.get("points")
        if points is not None and (not isinstance(points, str) or not re.fullmatch(r"\d+(/\d+)?", points)):
            raise ImportFileError(_("{where}: points {points!r} should look like '12' or '9/12'").format(where=where, points=points))
        faces: tuple[Face, ...] | None = None
        notes: list[str] = []
        sides = c.get("sides")
        if sides is not None:
            if not isinstance(sides, list) or len(sides) != 6 or not all(isinstance(s, str) for s in sides):
                raise ImportFileError(_("{where}: 'sides' should list the die's 6 sides, got {sides!r}").format(where=where, sides=sides))
            odd = [s for s in sides if (m := _SIDE.match(s)) is not None and m["sym"] in NOT_MODELLED_SIDES]
            if odd:
                notes.append(_("die not modelled: side {odd!r} uses {NOT_MODELLED_SIDES}, which the rulebook this assistant implements does not cover; enter the faces as rolled").format(odd=odd[0], NOT_MODELLED_SIDES=NOT_MODELLED_SIDES[_SIDE.match(odd[0])['sym']]))
            else:
                try:
                    faces = tuple(destiny_face(s) for s in sides)
                except NotationError as e:
                    raise ImportFileError(_("{where}: {e}").format(where=where, e=e)) from None
        for key, want in (("cost", int), ("health", int)):
            v = c.get(key)
            if isinstance(v, str) and v.strip().isdigit():
                c[key] = v = int(v)  # some dumps write numbers as text
            if v is not None and (not isinstance(v, want) or isinstance(v, bool) or v < 0):
                raise ImportFileError(_("{where}: {key} {v!r} is not a whole number").format(where=where, key=key, v=v))
        said: list[str] = []
        faction = c.get("faction_code")
        if faction is None or faction == "":
            said.append(_("faction_code is missing (null): colour set to grey; correct it in the table file"))
            color = "grey"
        elif not isinstance(faction, str) or faction.lower() not in ("red", "blue", "yellow", "gray", "grey"):
            said.append(_("faction_code {faction!r} is not red, blue, yellow or gray: colour set to grey").format(faction=faction))
            color = "grey"
        else:
            color = {"gray": "grey"}.get(faction.lower(), faction.lower())
        text_ = c.get("text") if isinstance(c.get("text"), str) else ""
        keywords = tuple(dict.fromkeys(k.lower() for k in _DESTINY_KEYWORDS.findall(re.sub(r"<[^>]+>", "", text_))))
        subtitle = c.get("subtitle") if isinstance(c.get("subtitle"), str) else ""
        out.append(DestinyCardData(c["code"], c["name"], subtitle, c["type_code"], str(c.get("affiliation_code") or "neutral"),
                                   color, c.get("cost"), c.get("health"), tuple(int(p) for p in points.split("/")) if points else (),
                                   _flag(c.get("is_unique"), where, "is_unique"), faces, tuple(notes), keywords, tuple(said)))
    return out


# --- SW TCG (LackeyCCG) --------------------------------------------------------------------

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
        raise ImportFileError(_("{name}:1: a LackeyCCG card file starts with a tab-separated header whose first column is 'Name' (then Set, ImageFile); got {lines!r}").format(name=name, lines=lines[0][:60]))
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
                name=name, n=n, columns=len(cells), header=len(header), card=cells[0].strip())
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
                raise ImportFileError(_("{name}:{n}: {header} {v!r} is not a number of at most 6 digits (card {cells!r})").format(name=name, n=n, header=header[index[key]], v=v[:20], cells=cells[0][:40]))
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
        own, granted = (body[:m.start()], body[m.end():]) if m else (body, "")
        notes: list[str] = []
        costs: list[tuple[str, int]] = []
        grants = _keywords(granted, notes) + tuple((stat, int(v)) for v, stat in re.findall(r"\+(\d{1,4}) (speed|power|health)", granted, re.I))
        cards.append(SwtcgCardData(cells[0].strip(), cells[1].strip(), typ, num("cost"), num("speed"), num("power"), num("health"), side, body,
                                   _keywords(own, notes, costs), m[1] if m else "", grants,
                                   tuple((header[i], cells[i]) for i in range(3, len(header)) if header[i] in unused and cells[i]),
                                   tuple(costs), tuple(notes)))
    return cards, unused
