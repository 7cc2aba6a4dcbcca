"""Star Wars: Destiny cards from **swdestinydb JSON**, so a table file can be filled from a card
list instead of typed by hand: a JSON array of card objects as in the swdestinydb card-data
repository (``code``, ``name``, ``subtitle``, ``type_code``, ``faction_code``,
``affiliation_code``, ``health``, ``points`` such as ``"9/12"``, ``is_unique``, ``sides``).

Every shape the data's own JSON schema allows is read. A die side is written
``[+]VALUE SYMBOL [COST]`` and becomes our face notation -- ``2RD1`` is ranged 2 costing 1,
``+1MD`` a melee modifier, ``2ID`` indirect damage, ``+1*`` a modifier of any symbol, ``XRD`` a
ranged side whose value X the card sets (asked when the die is resolved), ``Sp`` special, ``-``
blank::

    >>> [str(destiny_face(c)) for c in ("2RD1", "+1MD", "2ID", "+1*", "XRD", "-")]
    ['ranged:2/1', '+melee:1', 'indirect:2', '+any:1', 'ranged:X', 'blank']

Points may be negative (plots), empty, or list one value per number of dice a character may
bring (``17/21/25``: one, two or three dice)::

    >>> destiny_points("17/21/25"), destiny_points("-2"), destiny_points("")
    ((17, 21, 25), (-2,), ())

One card the engine cannot play is imported and marked *partial* with what is not modelled; a
malformed card is refused alone, with why; neither stops the file (see
:class:`assistant.importreport.ImportReport`).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..cardgame.importers import MAX_JSON_DEPTH, CardImporter, EntryOptions, ImportedCards, ImportFileError, flag, json_left_open, json_nesting, read_card_file
from ..errors import NotationError
from ..i18n import N_, _, n_
from ..importreport import ImportedItem, ImportReport, merge
from .dice import SIDE_CODE, Face, Symbol

#: the card types swdestinydb has and a table file can hold (events are played, battlefields chosen)
KINDS = ("character", "upgrade", "support", "event", "battlefield", "plot", "downgrade")
#: the data's own words for a card's kind, colour and affiliation, said in the reader's language where
#: a card is listed (R225: a Polish answer printed "character", "red", "villain"); the table file and
#: the JSON keep the data's words
DATA_WORDS = frozenset((N_("character"), N_("upgrade"), N_("support"), N_("event"), N_("battlefield"), N_("plot"), N_("downgrade"),
                        N_("red"), N_("blue"), N_("yellow"), N_("grey"), N_("hero"), N_("villain"), N_("neutral")))


def said_word(word: str) -> str:
    """A kind, colour or affiliation as the data writes it, in the reader's language (R225); a word
    the data may write that is none of these, as written.

    >>> said_word("character"), said_word("hoth")
    ('character', 'hoth')
    """
    return _(word) if word in DATA_WORDS else word

_ON_TABLE = ("character", "upgrade", "support", "plot", "downgrade")
#: the schema's points: an optional sign, then up to three values (``^-?([0-9]+)?(/[0-9]+)?(/[0-9]+)?$``)
_POINTS = re.compile(r"^(?P<sign>-)?(?P<first>[0-9]+)?(?P<rest>(?:/[0-9]+){0,2})$")


#: a side of the data's older schema whose symbol is X, "any" (``+1X``, ``+2X1``): a value, then X
_OLD_ANY = re.compile(r"^(?P<head>\+?\d+)X(?P<cost>\d*)$")
#: the cards whose sides of value 0 the data's commit 150e3c0 (2018-11-01, "Changed X values from 0 to
#: null") rewrote as X, each with the places of those sides: an older file still writes them 0 (Launch Bay
#: ``0RD``, today's ``XRD``), where the card's text sets the value (reading R169 in docs/readings.md)
OLDER_ZERO_IS_X: dict[str, tuple[int, ...]] = {
    "01031": (0, 1, 2, 3, 4),  # Launch Bay
    "03013": (0, 1, 2, 3, 4),  # ID9 Seeker Droid
    "05068": (0, 1, 2, 3, 4),  # Gang Up
    "07032": (0, 1, 2, 3, 4),  # Imperial Troop Transport
    "08086": (0, 1, 2),  # X-Wing
}
_ZERO_VALUE = re.compile(r"^0(?=[A-Za-z])")


def older_zero_sides(code: object, sides: list[str]) -> tuple[list[str], list[int]]:
    """``sides`` with the value-0 sides the data later wrote as X read as X (:data:`OLDER_ZERO_IS_X`),
    and the places it read so. Any other 0 is a 0 (Nexus of Power's ``0MD``, today's too).

    >>> older_zero_sides("01031", ["0RD", "0RD", "0Dr", "0Sh", "0Dc", "1R"])
    (['XRD', 'XRD', 'XDr', 'XSh', 'XDc', '1R'], [0, 1, 2, 3, 4])
    >>> older_zero_sides("08117", ["0MD", "1F", "-", "-", "-", "-"])
    (['0MD', '1F', '-', '-', '-', '-'], [])
    """
    known = OLDER_ZERO_IS_X.get(code, ()) if isinstance(code, str) else ()
    places = [i for i in known if i < len(sides) and _ZERO_VALUE.match(sides[i])]
    return [_ZERO_VALUE.sub("X", s) if i in places else s for i, s in enumerate(sides)], places


def destiny_face(code: str) -> Face:
    """One swdestinydb die side in our face notation (the face parser reads both).

    >>> [str(destiny_face(c)) for c in ("1MD", "2RD1", "+2RD", "1Sh", "2R", "1Dr", "1Dc", "1F", "Sp", "Sp1", "-")]
    ['melee:1', 'ranged:2/1', '+ranged:2', 'shield:1', 'resource:2', 'disrupt:1', 'discard:1', 'focus:1', 'special', 'special/1', 'blank']
    >>> [str(destiny_face(c)) for c in ("XRD1", "+XMD", "XID", "+2*1", "0ID", "+5ID")]
    ['ranged:X/1', '+melee:X', 'indirect:X', '+any:2/1', 'indirect:0', '+indirect:5']

    The data before 1 November 2018 wrote the symbol "any" as ``X`` (its schema's symbols then:
    ``MD|RD|ID|F|Dr|Dc|Sh|R|X``; its commit 150e3c0 rewrote ``+1X`` as ``+1*``), after a value,
    where today's ``X`` stands only as the value (reading R149 in docs/readings.md):

    >>> [str(destiny_face(c)) for c in ("+1X", "+2X1", "XRD")]
    ['+any:1', '+any:2/1', 'ranged:X']
    """
    code = _OLD_ANY.sub(r"\g<head>*\g<cost>", code)
    if code != "-" and SIDE_CODE.match(code) is None:
        raise NotationError(_("{code!r} is not a swdestinydb die side (e.g. '2RD', '+1MD', '3RD1', 'XRD', '+1*', '2ID', 'Sp', '-')").format(code=code))
    return Face.parse(code)


def destiny_points(text: str) -> tuple[int, ...]:
    """A card's points as the schema allows them: ``""`` or ``"-"`` none, ``"-2"`` (a plot that
    gives points back), ``"9/12"`` (one die / two dice), ``"17/21/25"`` (one, two or three dice)."""
    m = _POINTS.match(text)
    if m is None:
        raise NotationError(_("points {text!r} should look like '12', '9/12', '17/21/25', '-2' or ''").format(text=text))
    rest = [int(v) for v in m["rest"].split("/")[1:]]
    if m["first"] is None:
        if rest:
            raise NotationError(_("points {text!r} have no first value before '/'").format(text=text))
        return ()
    first = int(m["first"])
    return (-first if m["sign"] else first, *rest)


@dataclass(frozen=True)
class DestinyCardData:
    code: str
    name: str
    subtitle: str
    kind: str  # character, upgrade, support, event, battlefield, plot, downgrade
    affiliation: str
    color: str
    cost: int | None
    health: int | None
    points: tuple[int, ...]  # one value per number of dice a character may bring; a plot's may be negative
    unique: bool
    faces: tuple[Face, ...] | None  # None: the card has no die in the data
    not_modelled: tuple[str, ...] = ()  # what of the card the engine does not apply (the report's "partial")
    keywords: tuple[str, ...] = ()  # guardian, ambush, redeploy: only those the card itself has
    notes: tuple[str, ...] = ()  # what the import noticed (a missing faction, ...)
    set_code: str = ""
    text: str = ""  # the card's text as the data writes it (its markup too): what a player asks the card says
    prints_no_die: bool = False  # the data's has_die is false: a character with no die, not one whose faces are unknown (R340)

    @property
    def label(self) -> str:
        """How the report and a choice between same-named cards name it: code, name, subtitle."""
        return f"{self.code} {self.name}" + (f", {self.subtitle}" if self.subtitle else "")

    @property
    def choice(self) -> str:
        """How a list of cards to choose from names it: its label, kind and set (R199, R220)."""
        return f"{self.label} ({said_word(self.kind)}" + (f", {self.set_code}" if self.set_code else "") + ")"

    def table_entry(self, cid: str, owner: str, elite: bool = False, on: str | None = None, dice: int | None = None) -> dict[str, Any]:
        """A ``characters:``/``supports:``/``upgrades:``/``plots:``/``downgrades:`` entry for a
        Destiny table file; a character brings as many dice as chosen (``elite``: two, P1 ›
        Postacie; a third where its points list a third value); an upgrade or a downgrade is
        attached to ``on``. A battlefield's entry is no card of a list but its player's field
        ``battlefield:`` (each player brings one, P1 › Pola bitwy)."""
        if self.kind == "battlefield":
            # a player brings one; the table file names it as that player's (P1 › Pola bitwy)
            return {"battlefield": self.name + (f", {self.subtitle}" if self.subtitle else "")}
        if self.kind not in _ON_TABLE:
            raise ImportFileError(
                _("{name} is a card of kind {kind}: a table file lists characters, upgrades, supports, plots and downgrades in play; play it with the "
                  "'play' command").format(name=self.name, kind=said_word(self.kind) if self.kind else "?")
            )
        entry: dict[str, Any] = {"id": cid, "owner": owner, "title": self.name, "color": self.color, "unique": self.unique}
        if self.kind == "character":
            entry["health"] = self.health or 1
        elif self.cost is not None:
            entry["cost"] = self.cost
        if self.kind in ("upgrade", "downgrade"):
            if not on:
                raise ImportFileError(_("{name} is an {kind}: say which character it is attached to (--on CHARACTER)").format(
                    name=self.name, kind=said_word(self.kind)))
            entry["attached_to"] = on
        if self.keywords:
            entry["keywords"] = list(self.keywords)
        n = self._dice_count(elite, dice)
        if self.kind in ("plot", "downgrade"):
            return entry  # their dice are not modelled (the card is marked partial)
        if self.faces is not None:
            entry["dice"] = {f"{cid}{i + 1}": [str(f) for f in self.faces] for i in range(n)}
        elif self.kind == "character" and not self.prints_no_die:
            entry["dice"] = {f"{cid}{i + 1}": [] for i in range(n)}  # no faces in the data: give each face as rolled
        return entry

    def _dice_count(self, elite: bool, dice: int | None) -> int:
        if elite:
            # elite is the character with two dice, bought at its points' second value (P1 › Wartość punktowa, L52):
            # one points value has no elite version, and --dice saying another count contradicts it (R313)
            if self.kind != "character":
                raise ImportFileError(_("{name} is not a character: only a character is elite (--elite)").format(name=self.name))
            if dice is not None and dice != 2:
                raise ImportFileError(_("--elite is two dice and --dice says {dice}: give one of them").format(dice=dice))
            if len(self.points) < 2:
                raise ImportFileError(
                    _("{name} has no elite version: its points ({points}) buy one die, and a character is elite (two dice) only "
                      "where its points give a second value (reading R313 in docs/readings.md)").format(
                        name=self.name, points="/".join(map(str, self.points)) or "-"))
            return 2
        if dice is None:
            return 1
        if self.kind != "character":
            raise ImportFileError(_("{name} is not a character: only a character is taken with more dice (--dice)").format(name=self.name))
        most = max(len(self.points), 1)
        if not 1 <= dice <= most:
            raise ImportFileError(
                _("{name} may bring 1 to {most} dice (points {points}: one value per die, reading R45 in docs/readings.md), not {dice}").format(
                    name=self.name, most=most, points="/".join(map(str, self.points)) or "-", dice=dice
                )
            )
        return dice


# A card's own keywords stand as sentences of their own on a line of its text: "Guardian.",
# "Ambush. Redeploy.", "Yellow character only. Redeploy.", "<b>Redeploy</b> <i>(reminder)</i>".
# A keyword inside a longer sentence is one the card mentions or grants ("Your non-unique
# characters have the Guardian keyword", "While ..., this character has Guardian", "giving it
# Ambush"): the card itself lacks it.
_OWN_KEYWORDS = ("guardian", "ambush", "redeploy")
#: keywords of later sets, recognised on the card's own keyword line but not applied by the engine
_LATER_KEYWORDS = re.compile(r"^(?P<kw>piloting|detect|renew|team up|bounty|edge)(?:\s+\d+)?(?::.*)?$")


def own_keywords(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The keywords the card itself has (Guardian, Ambush, Redeploy), then those of later sets it
    has that the engine does not apply (Piloting, Detect, Renew, Team Up...).

    >>> own_keywords("Ambush. Redeploy.")
    (('ambush', 'redeploy'), ())
    >>> own_keywords("Your non-unique characters have the Guardian keyword.")
    ((), ())
    >>> own_keywords("Team Up 1: Maul.\\nGuardian.\\n<b>Power Action</b> - Discard a card.")
    (('guardian',), ('Team Up',))
    """
    plain = re.sub(r"<[^>]+>", "", text)
    plain = re.sub(r"\([^)]*\)", "", plain)  # reminder text: "(After you play this card, gain 1 action.)"
    own: list[str] = []
    later: list[str] = []
    for line in plain.splitlines():
        for sentence in re.split(r"(?<=\.)\s+", line.strip()):
            word = sentence.strip().rstrip(".").strip().lower()
            if word in _OWN_KEYWORDS:
                own.append(word)
            elif (m := _LATER_KEYWORDS.match(word)) is not None:
                later.append(m["kw"].title())
    return tuple(dict.fromkeys(own)), tuple(dict.fromkeys(later))


def _json_cards(text: str, name: str) -> list[Any]:
    """The card objects of one file; a file that is not a card list is refused whole."""
    if json_nesting(text) > MAX_JSON_DEPTH:
        raise ImportFileError(
            _("{name}: JSON nested more than {MAX_JSON_DEPTH} levels deep: not a swdestinydb card list").format(name=name, MAX_JSON_DEPTH=MAX_JSON_DEPTH)
        )
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        if json_left_open(text):  # a download broken off: the last whole card says where (R357)
            whole, last = _whole_cards(text)
            card = " ".join(str(last[k]) for k in ("code", "name") if isinstance(last.get(k), str)) if isinstance(last, dict) else ""
            raise ImportFileError((n_("{name}: the file ends inside its JSON (line {lines}), after {n} whole card, the last {card}: it is "
                                      "cut short, a download broken off; none of its cards imported: download it again",
                                      "{name}: the file ends inside its JSON (line {lines}), after {n} whole cards, the last {card}: it is "
                                      "cut short, a download broken off; none of its cards imported: download it again", whole) if card else
                                   _("{name}: the file ends inside its JSON (line {lines}): it is cut short, a download broken off; none of its "
                                     "cards imported: download it again")).format(name=name, lines=text.count("\n") + 1, n=whole, card=card)) from None
        raise ImportFileError(_("{name}:{lineno}: not JSON ({msg}: line {lineno}, column {colno})").format(
            name=name, lineno=e.lineno, msg=e.msg, colno=e.colno)) from None
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
    return data


def _whole_cards(text: str) -> tuple[int, Any]:
    """How many whole values a card list cut short holds before its cut, and the last of them."""
    decoder = json.JSONDecoder()
    at, n, last = text.find("[") + 1, 0, None
    while at > 0:
        while at < len(text) and text[at] in " \t\r\n,":
            at += 1
        try:
            last, at = decoder.raw_decode(text, at)
        except ValueError:
            break
        n += 1
    return n, last


class _BadCard(Exception):
    """One card that cannot be read; the import goes on without it."""


def _card(c: dict[str, Any], where: str) -> DestinyCardData:
    bad = _BadCard
    kind = c["type_code"]
    not_modelled: list[str] = []
    if kind not in KINDS:
        not_modelled.append(_("card type {kind!r} is not one the engine knows ({names})").format(kind=kind, names=", ".join(KINDS)))
    points_text = c.get("points")
    if points_text is not None and not isinstance(points_text, str):
        raise bad(_("points {points!r} should be text such as '12' or '9/12'").format(points=points_text))
    try:
        points = destiny_points(points_text) if points_text is not None else ()
    except NotationError as e:
        raise bad(str(e)) from None
    faces: tuple[Face, ...] | None = None
    as_x: list[int] = []
    sides = c.get("sides")
    if sides is not None:
        if not isinstance(sides, list) or len(sides) != 6 or not all(isinstance(s, str) for s in sides):
            raise bad(_("'sides' should list the die's 6 sides, got {sides!r}").format(sides=sides))
        sides, as_x = older_zero_sides(c.get("code"), sides)
        try:
            faces = tuple(destiny_face(s) for s in sides)
        except NotationError as e:
            raise bad(str(e)) from None
        plain_any = [s for s, f in zip(sides, faces, strict=True) if f.symbol is Symbol.ANY and not f.modifier]
        if plain_any:
            not_modelled.append(_("die side {side!r}: a side of any symbol without '+' is not in the rules").format(side=plain_any[0]))
        if kind in ("plot", "downgrade", "battlefield"):
            not_modelled.append(_("the die of a {kind} is not modelled: roll it in with 'roll-in' when its text says so").format(kind=said_word(kind)))
    elif kind == "character" and c.get("has_die") is not False:
        not_modelled.append(_("no die faces in the data: its dice are entered with unknown faces (give each face as rolled)"))
    # the data's has_die false: the card prints no die (Spark of Hope's Hoth Trooper, ...), which is no die of
    # unknown faces: activated, it exhausts and rolls only its upgrades' dice (Destiny P5 › Aktywowanie; R340)
    dieless = kind == "character" and sides is None and c.get("has_die") is False
    for key in ("cost", "health"):
        v = c.get(key)
        if isinstance(v, str) and v.strip().isdigit():
            c[key] = v = int(v)  # some dumps write numbers as text
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
            raise bad(_("{key} {v!r} is not a whole number").format(key=key, v=v))
    if kind == "character" and not c.get("health"):
        raise bad(_("a character needs health of at least 1"))
    try:
        unique = flag(c.get("is_unique"), where, "is_unique")
    except ImportFileError as e:
        raise bad(str(e).removeprefix(f"{where}: ")) from None
    said: list[str] = []
    if dieless:
        said.append(_("the card prints no die (the data's has_die is false): activated, it is exhausted and rolls only its upgrades' dice "
                      "(Destiny P5 › Aktywowanie; reading R340 in docs/readings.md)"))
    if as_x:
        said.append(n_("die side {places} written 0 is read as X, the value its text sets, as the data's later releases write it",
                       "die sides {places} written 0 are read as X, the value its text sets, as the data's later releases write them",
                       len(as_x)).format(places=", ".join(str(i + 1) for i in as_x)))
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
    keywords, later = own_keywords(text_)
    not_modelled += [_("keyword {word}: not modelled (enter what it does as effect commands)").format(word=w) for w in later]
    if c.get("flip_card") is True:
        not_modelled.append(_("a two-sided card: flipping it is not modelled (replace it on the table by its other side's code)"))
    subtitle = got if isinstance(got := c.get("subtitle"), str) else ""
    return DestinyCardData(
        c["code"], c["name"], subtitle, kind, str(c.get("affiliation_code") or "neutral"), color, c.get("cost"), c.get("health"), points,
        unique, faces, tuple(not_modelled), keywords, tuple(said), str(c.get("set_code") or ""), text_, dieless,
    )


#: the keys of a card in swdestinydb-json-data's translation files (translations/LANG/set/*.json)
_TRANSLATION_KEYS = frozenset({"code", "name", "subtitle", "text", "flavor"})


def read_swdestinydb(text: str, name: str = "<swdestinydb>") -> tuple[list[DestinyCardData], ImportReport]:
    """The cards of one swdestinydb file and the report of what became of each. A file that is
    not a card list is refused whole (:class:`ImportFileError`); a card is refused alone."""
    data = _json_cards(text, name)
    out: list[DestinyCardData] = []
    items: list[ImportedItem] = []
    codes: set[str] = set()
    for i, c in enumerate(data):
        if not isinstance(c, dict):
            items.append(ImportedItem(f"[{i}]", "refused", (_("not a card object"),)))
            continue
        label = f"{c.get('code')} {c.get('name')}" if isinstance(c.get("code"), str) else f"[{i}] {c.get('name') or '?'}"
        missing = [k for k in ("code", "name") if not isinstance(c.get(k), str) or not c[k]]
        if not isinstance(c.get("type_code"), str):
            missing.append("type_code")
        if missing:
            items.append(ImportedItem(label, "refused", (_("missing or empty {keys}").format(keys=", ".join(repr(k) for k in missing)),)))
            continue
        if c["code"] in codes:
            items.append(ImportedItem(label, "refused", (_("a second card with code {code}").format(code=c["code"]),)))
            continue
        try:
            card = _card(dict(c), f"{name}: card {c['code']} ({c['name']})")
        except _BadCard as e:
            items.append(ImportedItem(label, "refused", (str(e),)))
            continue
        codes.add(card.code)
        out.append(card)
        items.append(ImportedItem(card.label, "partial" if card.not_modelled else "imported", card.not_modelled))
    if items and not out and all(isinstance(c, dict) and "code" in c and set(c) <= _TRANSLATION_KEYS for c in data):
        # swdestinydb-json-data's translations/LANG/set/ files: each card's words by its code, no numbers
        raise ImportFileError(
            _("{name}: a translation file (each card only its code and words: name, subtitle, text, flavor, as in "
              "swdestinydb-json-data's translations/LANG/set/); it gives no card's type, cost, health or dice: import the "
              "set files of the set/ folder").format(name=name)
        )
    if items and not out:  # not one card could be read: the file is broken, not a set with a few bad cards
        raise ImportFileError(
            _("{name}: none of its {n} cards could be read; the first: {card}: {why}").format(
                name=name, n=len(items), card=items[0].card, why="; ".join(items[0].why)
            )
        )
    return out, ImportReport(name, "destiny", tuple(items))


def load_swdestinydb(text: str, name: str = "<swdestinydb>") -> list[DestinyCardData]:
    """The cards of one swdestinydb file that could be read (see :func:`read_swdestinydb`)."""
    return read_swdestinydb(text, name)[0]


def card_line(c: DestinyCardData) -> str:
    """One card as a line of the import's listing: code, name, kind, colour, its die."""
    die = " ".join(str(f) for f in c.faces) if c.faces else _("prints no die") if c.prints_no_die else _("no die")
    details = [said_word(c.kind), said_word(c.color), said_word(c.affiliation)]
    details += [_("health {health}").format(health=c.health)] if c.health else []
    details += [_("points {points}").format(points="/".join(map(str, c.points)))] if c.points else []
    return (f"{c.label} ({', '.join(details)}): {die}"
            + (" — " + _("not modelled: {what}").format(what="; ".join(c.not_modelled)) if c.not_modelled else ""))


def _keys(cards: list[DestinyCardData]) -> tuple[dict[str, DestinyCardData], dict[str, tuple[str, ...]]]:
    """What ``--entry`` may name: every code; a name (or "name, subtitle") only when one card has
    it -- a name several cards share is listed for the player to choose, never resolved silently."""
    by: dict[str, DestinyCardData] = {c.code: c for c in cards}
    named: dict[str, list[DestinyCardData]] = defaultdict(list)
    for c in cards:
        named[c.name].append(c)
        if c.subtitle:
            named[f"{c.name}, {c.subtitle}"].append(c)
    ambiguous: dict[str, tuple[str, ...]] = {}
    for key, same in named.items():
        if key in by:
            continue  # a code is always the code
        if len(same) == 1:
            by[key] = same[0]
        else:
            ambiguous[key] = tuple(c.choice for c in same)
    return by, ambiguous


def _read_many(files: list[tuple[str, str]]) -> ImportedCards:
    cards: list[DestinyCardData] = []
    reports: list[ImportReport] = []
    skipped: list[str] = []
    for text, name in files:
        try:
            got, report = read_swdestinydb(text, name)
        except ImportFileError as e:  # in a folder, a file that is not a card list (the schema beside the sets) is skipped, and said
            skipped.append(_("skipped: {why}").format(why=e))
            continue
        seen = {c.code for c in cards}
        again = [c for c in got if c.code in seen]
        if again:
            report = ImportReport(report.source, report.game, tuple(
                ImportedItem(i.card, "refused", (_("code {code} is already in another file").format(code=i.card.split(" ")[0]),))
                if i.card.split(" ")[0] in seen and i.status != "refused" else i for i in report.items), report.notes)
            got = [c for c in got if c.code not in seen]
        cards += got
        reports.append(report)
    if not reports:
        raise ImportFileError("; ".join(skipped))
    report = merge(reports, _("{n} set files").format(n=len(reports)), "destiny") if len(files) != 1 else reports[0]
    if skipped:
        report = ImportReport(report.source, report.game, report.items, report.notes + tuple(skipped))
    by, ambiguous = _keys(cards)
    return ImportedCards(tuple(cards), by, report=report, ambiguous=ambiguous)


def _read(text: str, name: str) -> ImportedCards:
    cards, report = read_swdestinydb(text, name)
    by, ambiguous = _keys(cards)
    return ImportedCards(tuple(cards), by, report=report, ambiguous=ambiguous)


def _localized(folder: Path, read: ImportedCards, lang: str) -> tuple[ImportedCards, list[str]]:
    """The cards of a checkout of swdestinydb-json-data with its own translation into ``lang``
    (``translations/LANG/set/*.json``: each card's name, subtitle and text by its code, R200):
    a card is also named by its translated name ("Kapitan Phasma", "Kapitan Phasma, Elitarny
    żołnierz"), as the English one names it (a name several cards share is listed, never
    resolved), and its text is the translation's. Numbers, dice and the table file's English
    title stay the set files'. Nothing changes where the checkout has no such folder (cs: none)."""
    root = folder if (folder / "set").is_dir() else folder.parent
    where = root / "translations" / lang / "set"
    if not where.is_dir():
        return read, []
    words: dict[str, dict[str, str]] = {}
    said: list[str] = []
    for f in sorted(p for p in where.iterdir() if p.is_file() and p.suffix.lower() == ".json"):
        try:
            data = json.loads(read_card_file(f)[0])
        except (ImportFileError, ValueError) as e:
            said.append(_("{file}: not read as a translation: {why}").format(file=f, why=e))
            continue
        for c in data if isinstance(data, list) else ():
            if isinstance(c, dict) and isinstance(c.get("code"), str):
                words[c["code"]] = {k: v for k, v in c.items() if isinstance(v, str) and k in _TRANSLATION_KEYS}
    new_of: dict[int, DestinyCardData] = {}
    named: dict[str, list[DestinyCardData]] = defaultdict(list)
    english: dict[str, set[str]] = defaultdict(set)  # a translated name -> the English names it translates
    for c in read.cards:
        w = words.get(c.code)
        if not w:
            continue
        new = replace(c, text=w.get("text", c.text)) if w.get("text") else c
        new_of[id(c)] = new
        if w.get("name"):
            english[w["name"]].add(c.name)
            if w.get("subtitle"):
                named[f"{w['name']}, {w['subtitle']}"].append(new)
    if not new_of:
        return read, said
    for key, names in english.items():  # a name names every card of that English name, translated or not: never one silently
        named[key] = [new_of.get(id(c), c) for c in read.cards if c.name in names]
    by_key = {k: new_of.get(id(c), c) for k, c in read.by_key.items()}
    ambiguous = dict(read.ambiguous)
    for key, same in named.items():
        if key in by_key or key in ambiguous:
            continue  # an English key (a code, a name the translation keeps) stays what it names
        if len(same) == 1:
            by_key[key] = same[0]
        else:
            ambiguous[key] = tuple(c.choice for c in same)
    cards = tuple(new_of.get(id(c), c) for c in read.cards)
    said.append(n_("{n} card named and its text read also from {where}", "{n} cards named and their texts read also from {where}",
                   len(new_of)).format(n=len(new_of), where=where))
    return replace(read, cards=cards, by_key=by_key, ambiguous=ambiguous), said


def _fields_of(card: DestinyCardData, owner: str) -> str | None:
    """Where a battlefield's entry goes: among its player's fields, not in a list of cards."""
    if card.kind != "battlefield":
        return None
    return _("player {owner}'s entry under 'players:' (players: {{{owner}: {{side: ..., battlefield: ...}}}})").format(owner=owner)


def _entry(card: DestinyCardData, cid: str, opts: EntryOptions) -> dict[str, Any]:
    return card.table_entry(cid, opts.owner, opts.elite, opts.on, opts.dice)


#: swdestinydb JSON as the Destiny plug-in reads it (:class:`assistant.cardgame.plugin.CardGame`)
IMPORTER = CardImporter(read=_read, entry=_entry, line=card_line, default_owner="A", read_many=_read_many, suffix=".json",
                         sets_under=("set",), table_key=lambda card: f"{card.kind}s", fields_of=_fields_of, localize=_localized)
