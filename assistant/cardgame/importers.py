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
from typing import Any

from ..destiny.dice import Face, Symbol
from ..errors import AssistantError, NotationError

# --- Star Wars: Destiny (swdestinydb) ---------------------------------------------------

_SIDE = re.compile(r"^(?:(?P<plus>\+)?(?P<value>\d+)(?P<sym>MD|RD|ID|F|Dr|Dc|Sh|R|X)|(?P<sp>Sp))(?P<cost>\d+)?$")
_SYMBOLS = {"MD": Symbol.MELEE, "RD": Symbol.RANGED, "F": Symbol.FOCUS, "Dr": Symbol.DISRUPT, "Dc": Symbol.DISCARD,
            "Sh": Symbol.SHIELD, "R": Symbol.RESOURCE}
NOT_MODELLED_SIDES = {"ID": "indirect damage", "X": "an X value"}


class ImportFileError(AssistantError):
    """A card-data file that cannot be read; says which entry and field."""


def destiny_face(code: str) -> Face:
    """One swdestinydb die side in our face notation.

    >>> [str(destiny_face(c)) for c in ("1MD", "2RD1", "+2RD", "1Sh", "2R", "1Dr", "1Dc", "1F", "Sp", "Sp1", "-")]
    ['melee:1', 'ranged:2/1', '+ranged:2', 'shield:1', 'resource:2', 'disrupt:1', 'discard:1', 'focus:1', 'special', 'special/1', 'blank']
    """
    if code == "-":
        return Face(Symbol.BLANK)
    m = _SIDE.match(code)
    if m is None:
        raise NotationError(f"{code!r} is not a swdestinydb die side (e.g. '2RD', '+1MD', '3RD1', 'Sp', '-')")
    cost = int(m["cost"] or 0)
    if m["sp"]:
        return Face(Symbol.SPECIAL, 0, False, cost)
    if m["sym"] in NOT_MODELLED_SIDES:
        raise NotationError(f"{code!r}: {NOT_MODELLED_SIDES[m['sym']]} is not in the rulebook this assistant implements (not modelled)")
    return Face(_SYMBOLS[m["sym"]], int(m["value"]), bool(m["plus"]), cost)


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

    def table_entry(self, cid: str, owner: str, elite: bool = False) -> dict[str, Any]:
        """A ``characters:``/``supports:``/``upgrades:`` entry for a Destiny table file; an
        elite character brings two dice (P1 › Postacie)."""
        entry: dict[str, Any] = {"id": cid, "owner": owner, "title": self.name, "color": self.color, "unique": self.unique}
        if self.kind == "character":
            entry["health"] = self.health or 1
        elif self.cost is not None:
            entry["cost"] = self.cost
        if self.faces is not None:
            n = 2 if elite and self.kind == "character" else 1
            entry["dice"] = {f"{cid}{i + 1}": [str(f) for f in self.faces] for i in range(n)}
        elif self.not_modelled:
            entry["dice"] = {f"{cid}1": []}  # faces unknown here: enter them as rolled
        return entry


def load_swdestinydb(text: str, name: str = "<swdestinydb>") -> list[DestinyCardData]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ImportFileError(f"{name}:{e.lineno}: not JSON ({e.msg})") from None
    if isinstance(data, dict) and isinstance(data.get("cards"), list):
        data = data["cards"]
    if not isinstance(data, list):
        raise ImportFileError(f"{name}: expected a JSON array of cards (as in the swdestinydb card-data files)")
    out = []
    for i, c in enumerate(data):
        where = f"{name}: card [{i}]"
        if not isinstance(c, dict):
            raise ImportFileError(f"{where} is not an object")
        for key in ("code", "name", "type_code"):
            if not isinstance(c.get(key), str) or not c[key]:
                raise ImportFileError(f"{where}: missing or empty {key!r}")
        where = f"{name}: card {c['code']} ({c['name']})"
        points = c.get("points")
        if points is not None and (not isinstance(points, str) or not re.fullmatch(r"\d+(/\d+)?", points)):
            raise ImportFileError(f"{where}: points {points!r} should look like '12' or '9/12'")
        faces: tuple[Face, ...] | None = None
        notes: list[str] = []
        sides = c.get("sides")
        if sides is not None:
            if not isinstance(sides, list) or len(sides) != 6 or not all(isinstance(s, str) for s in sides):
                raise ImportFileError(f"{where}: 'sides' should list the die's 6 sides, got {sides!r}")
            odd = [s for s in sides if (m := _SIDE.match(s)) is not None and m["sym"] in NOT_MODELLED_SIDES]
            if odd:
                notes.append(f"die not modelled: side {odd[0]!r} uses {NOT_MODELLED_SIDES[_SIDE.match(odd[0])['sym']]}, which the "  # type: ignore[index]
                             "rulebook this assistant implements does not cover; enter the faces as rolled")
            else:
                try:
                    faces = tuple(destiny_face(s) for s in sides)
                except NotationError as e:
                    raise ImportFileError(f"{where}: {e}") from None
        for key, want in (("cost", int), ("health", int)):
            v = c.get(key)
            if v is not None and (not isinstance(v, want) or isinstance(v, bool) or v < 0):
                raise ImportFileError(f"{where}: {key} {v!r} is not a whole number")
        out.append(DestinyCardData(c["code"], c["name"], c.get("subtitle", "") or "", c["type_code"], c.get("affiliation_code", "neutral"),
                                   {"gray": "grey"}.get(c.get("faction_code", "gray"), c.get("faction_code", "grey")), c.get("cost"),
                                   c.get("health"), tuple(int(p) for p in points.split("/")) if points else (), bool(c.get("is_unique")),
                                   faces, tuple(notes)))
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
_KW = re.compile(r"\b(accuracy|armor|lucky|evade|critical hit|shields|stun|retaliate|intercept|deflect|overkill|bounty|upkeep)\b(?:\s+(\d+))?",
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

    @property
    def unique(self) -> bool:
        return bool(re.search(r"\([A-Z]\)$", self.name))  # versioned names such as "Darth Vader (A)" are unique characters

    def table_entry(self, uid: str, owner: str, zone: str = "hand") -> dict[str, Any]:
        entry: dict[str, Any] = {"id": uid, "owner": owner, "name": re.sub(r"\s*\([A-Z]\)$", "", self.name), "type": self.type}
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


def _keywords(text: str) -> tuple[tuple[str, Any], ...]:
    out = []
    for m in _KW.finditer(text):
        word = _KEYWORDS[m[1].lower()]
        out.append((word, int(m[2]) if m[2] else True))
    return tuple(out)


def load_lackey(text: str, name: str = "<lackey>") -> tuple[list[SwtcgCardData], list[str]]:
    """Cards from a LackeyCCG set file, and the columns not used (reported to the user)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise ImportFileError(f"{name}: empty file")
    header = [h.strip() for h in lines[0].split("\t")]
    if len(header) < 3 or header[0].lower() != "name":
        raise ImportFileError(f"{name}:1: a LackeyCCG card file starts with a tab-separated header whose first column is 'Name' "
                              f"(then Set, ImageFile); got {lines[0][:60]!r}")
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
            raise ImportFileError(f"{name}:{n}: {len(cells)} columns, the header has {len(header)}")
        cells += [""] * (len(header) - len(cells))

        def get(key: str, cells: list[str] = cells) -> str:
            return cells[index[key]].strip() if key in index else ""

        def num(key: str, n: int = n, cells: list[str] = cells) -> int | None:
            v = get(key)
            if v == "" or v in ("-", "X", "x"):
                return None
            if not re.fullmatch(r"\d+", v):
                raise ImportFileError(f"{name}:{n}: {header[index[key]]} {v!r} is not a number (card {cells[0]!r})")
            return int(v)

        if not cells[0].strip():
            raise ImportFileError(f"{name}:{n}: a card without a name")
        typ = get("type")
        sub = get("subtype")
        if sub and " - " not in typ:
            typ = f"{typ} - {sub}"
        side_raw = get("side").lower()
        side = "DS" if side_raw in ("dark", "ds", "dark side", "sith") else "LS" if side_raw in ("light", "ls", "light side", "jedi") else ""
        body = get("text")
        m = re.search(r"\b(\w+) Pilot\b", body)
        own, granted = (body[:m.start()], body[m.end():]) if m else (body, "")
        grants = _keywords(granted) + tuple((stat, int(v)) for v, stat in re.findall(r"\+(\d+) (speed|power|health)", granted, re.I))
        cards.append(SwtcgCardData(cells[0].strip(), cells[1].strip(), typ, num("cost"), num("speed"), num("power"), num("health"), side, body,
                                   _keywords(own), m[1] if m else "", grants, tuple((header[i], cells[i]) for i in range(3, len(header))
                                                                           if header[i] in unused and cells[i])))
    return cards, unused
