"""Star Wars: Destiny cards from **swdestinydb JSON**, so a table file can be filled from a card
list instead of typed by hand: a JSON array of card objects as in the swdestinydb card-data
repository (``code``, ``name``, ``type_code``, ``faction_code``, ``affiliation_code``,
``health``, ``points`` such as ``"9/12"``, ``is_unique``, ``sides``). A die side is written
``[+]VALUE SYMBOL [COST]`` -- ``2RD1`` is ranged 2 costing 1, ``+1MD`` a melee modifier, ``Sp``
special, ``-`` blank -- and becomes our face notation::

    >>> str(destiny_face("2RD1")), str(destiny_face("+1MD")), str(destiny_face("-"))
    ('ranged:2/1', '+melee:1', 'blank')

Indirect damage (``ID``) and ``X`` sides come from later sets the rulebook here does not
cover: such a card imports with its dice marked *not modelled* rather than guessed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..cardgame.importers import MAX_JSON_DEPTH, CardImporter, EntryOptions, ImportedCards, ImportFileError, flag, json_nesting
from ..errors import NotationError
from ..i18n import _
from .dice import NOT_MODELLED_SIDES, SIDE_CODE, Face

_SIDE = SIDE_CODE


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
            raise ImportFileError(
                _("{name} is a card of kind {kind}: a table file lists characters, upgrades and supports in play; play it with the 'play' command").format(
                    name=self.name, kind=self.kind
                )
            )
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
    if json_nesting(text) > MAX_JSON_DEPTH:
        raise ImportFileError(
            _("{name}: JSON nested more than {MAX_JSON_DEPTH} levels deep: not a swdestinydb card list").format(name=name, MAX_JSON_DEPTH=MAX_JSON_DEPTH)
        )
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
            odd = [(s, m["sym"]) for s in sides if (m := _SIDE.match(s)) is not None and m["sym"] in NOT_MODELLED_SIDES]
            if odd:
                notes.append(
                    _(
                        "die not modelled: side {odd!r} uses {NOT_MODELLED_SIDES}, which the rulebook this assistant implements does not cover; enter the "
                        "faces as rolled"
                    ).format(odd=odd[0][0], NOT_MODELLED_SIDES=NOT_MODELLED_SIDES[odd[0][1]])
                )
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
        text_ = got if isinstance(got := c.get("text"), str) else ""
        keywords = tuple(dict.fromkeys(k.lower() for k in _DESTINY_KEYWORDS.findall(re.sub(r"<[^>]+>", "", text_))))
        subtitle = got if isinstance(got := c.get("subtitle"), str) else ""
        out.append(
            DestinyCardData(
                c["code"],
                c["name"],
                subtitle,
                c["type_code"],
                str(c.get("affiliation_code") or "neutral"),
                color,
                c.get("cost"),
                c.get("health"),
                tuple(int(p) for p in points.split("/")) if points else (),
                flag(c.get("is_unique"), where, "is_unique"),
                faces,
                tuple(notes),
                keywords,
                tuple(said),
            )
        )
    return out


def card_line(c: DestinyCardData) -> str:
    """One card as a line of the import's listing: code, name, kind, colour, its die."""
    die = " ".join(str(f) for f in c.faces) if c.faces else ("; ".join(c.not_modelled) or "no die")
    return f"{c.code} {c.name} ({c.kind}, {c.color}, {c.affiliation}" + (f", health {c.health}" if c.health else "") + f"): {die}"


def _read(text: str, name: str) -> ImportedCards:
    cards = load_swdestinydb(text, name)
    return ImportedCards(tuple(cards), {c.code: c for c in cards} | {c.name: c for c in cards})


def _entry(card: DestinyCardData, cid: str, opts: EntryOptions) -> dict[str, Any]:
    return card.table_entry(cid, opts.owner, opts.elite, opts.on)


#: swdestinydb JSON as the Destiny plug-in reads it (:class:`assistant.cardgame.plugin.CardGame`)
IMPORTER = CardImporter(read=_read, entry=_entry, line=card_line, default_owner="A")
