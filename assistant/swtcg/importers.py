"""SW TCG cards from **LackeyCCG set files**, so a table file can be filled from a card list
instead of typed by hand: tab-separated text, one card per line, a header row whose first
column is Lackey's Name. The SW TCG plug-in's other column names are matched by common synonyms
(Type, Subtype, Cost, Speed, Power, Health, Side, Text...); columns not used are reported, never
silently dropped.

Every set file imports whole: a card that cannot be read is refused alone (with the line and
why), a card the engine cannot play in full is imported and marked *partial* (with what is not
modelled), and the :class:`~assistant.importreport.ImportReport` says which. The files as
published are read as they are: CRLF line ends, numbers written ``7.0``, ``*`` stats (imported
as variable: the engine asks for the number when it needs it), empty fields, a quoted text cell.

Card text is read ability by ability (the files separate them with ``|``); the glossary of
what is read, and how, is in docs/swtcg-import.md:

- a keyword is the card's own only when an ability *is* the keyword: ``Armor``, ``Stun 2``,
  ``Pay 2 Force -> Evade 2`` (Evade with its Force cost, which the engine charges when it is
  used), ``2 Force pay -> Evade 3``; a keyword a sentence gives under a condition (``As long as
  ... he gets Critical Hit 2``), as one of a choice (``choose one: ... Stun 3 ..., or ...``), for
  one attack (``Pay 2 Force -> Tyranus gets Critical Hit 2 for this attack``) or to other cards
  (``Each of your Space units gets ...``) is listed as conditional, never applied as always on;
- keywords are read on units only: battle, mission, location and equipment cards name them for
  other cards;
- a pilot is a Character whose ability reads ``[Pilot] Starfighter and Capital Ship Pilot. The
  Starfighter or Capital Ship gets: * +10 speed. * Armor.``: it may pilot each kind named, and
  what follows "gets" is granted to the vehicle; a vehicle whose text mentions a pilot is not one;
- ``Upkeep: Pay 1 build point or tap this unit`` is read as its choices; ``Bounty: Gain 4
  Force`` from the keyword itself; Bombard, Ion Cannon, Hidden Cost and Reserves are kept on the
  card and listed as not modelled.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, get_args

from ..cardgame.importers import CardImporter, EntryOptions, ImportedCards, ImportFileError
from ..errors import AssistantError
from ..i18n import N_, _, n_
from ..importreport import ImportedItem, ImportReport, merge
from .table import REACHES_OTHERS, SIDES, Zone, upkeep_choices

_COLUMNS = {
    "set": ("set", "expansion"),
    "type": ("type", "cardtype", "card type"),
    "subtype": ("subtype", "subtypes", "sub-type"),
    "cost": ("cost", "buildcost", "build cost", "bp"),
    "speed": ("speed", "spd"),
    "power": ("power", "pow"),
    "health": ("health", "hp"),
    "side": ("side", "alignment", "faction"),
    "text": ("text", "rules", "gametext", "game text", "ability", "abilities"),
    "rarity": ("rarity",),
}
#: the keyword names as printed, and as the table file writes them
_KEYWORDS = {"accuracy": "accuracy", "armor": "armor", "lucky": "lucky", "evade": "evade", "critical hit": "critical_hit",
             "shields": "shields", "stun": "stun", "retaliate": "retaliate", "intercept": "intercept", "deflect": "deflect",
             "overkill": "overkill", "bombard": "bombard", "ion cannon": "ion_cannon", "hidden cost": "hidden_cost",
             "retailiate": "retaliate", "defelct": "deflect", "hidden": "hidden_cost"}  # the last three as printed misspelt or short
# (START's Fairwind (B), PROMO's Jacen Solo (D), 15TH's Gardulla the Hutt (B) "Hidden 4"): read, not dropped
#: keywords printed with a number (Accuracy 1, Evade 2 ...); the others stand alone
NUMBERED = {"accuracy", "lucky", "evade", "critical_hit", "shields", "stun", "retaliate", "deflect", "bombard", "ion_cannon", "hidden_cost"}
#: keywords a player activates (and pays for, where a cost is printed): the engine has a verb for each
ACTIVATED = {"evade", "deflect", "intercept", "retaliate"}
#: keywords kept on the card but not applied by the engine (its answers list them as not modelled)
NOT_APPLIED = {"bombard": "Bombard", "ion_cannon": "Ion Cannon", "hidden_cost": "Hidden Cost"}
_KW_NAMES = "|".join(sorted((re.escape(k) for k in _KEYWORDS), key=len, reverse=True))
_KW_MENTION = re.compile(rf"\b({_KW_NAMES})\b", re.I)
_KW_TITLES = "|".join(sorted((re.escape(k.title()) for k in _KEYWORDS), key=len, reverse=True))  # "Critical Hit", as printed
#: a later set's keyword named inside a sentence ("Granta gets Fury 3 when attacking a Jedi", "Each of your Mandalorians
#: gets Focus 2"): printed capitalised, so only that form is a mention (the words "deploy", "protect" ... are plain text)
_LATER_MENTION = re.compile(
    r"\b(Adapt|Switch|Barrage|Stealth|Double Strike|Double Damage|Ferocity|Precision|Tenacity|Absorb|Parry|Riposte|Fury|Focus|Surge|"
    r"Resilience|Cunning|Intimidation|Velocity|Area Damage|Damage Control|Overload|Ambush|Consume|Last Stand|Persuade|Redirect|"
    r"Protect|Inspiration|Fortitude|Backfire|Avenge)\b")
#: "Pay 2 Force", "2 Force pay" (Yoda's word order), "Pay 0 Force"
_COST = r"(?:pay\s+(?P<c1>\d{1,3}|x)(?:\s+for?ce)?|(?P<c2>\d{1,3}|x)\s+force\s+pay)"  # "Pay 2 -> Evade 3" (JG), "Pay 2 Foce" (VVI) too
_KW_ALONE = re.compile(
    rf"^(?:{_COST}\s*(?:->|:|,|-)?\s*)?(?P<kw>{_KW_NAMES})(?:\s+(?P<n>[+-]?\d{{1,3}}|x(?:\s*[+-]\s*\d{{1,3}})?))?"
    rf"(?:\s*\(\s*pay\s+(?P<c3>\d{{1,3}})\s+force\s*\))?(?P<rest>,\s*where x\b.*)?\s*[.;]?\s*$",
    re.I,
)
#: a unique card's version letter, "Darth Vader (C)", and the printing notes LackeyCCG writes after
#: it for a reprint of the same card ("Darth Vader (C) (Promo)", "Jocasta Nu (B) (Promo-Film)"): the
#: reprint is the same unique character, so on the table it has the same name (a contest with the
#: set's own Vader, FAQ L9) and is unique too
# a later set's version is a letter and a number ("Darth Vader (N2)", "Anakin Skywalker (F2)", OBWN, TROS): the same
# unique character as "Darth Vader (A)" (reading R385)
_VERSION = re.compile(r"\s*\([A-Z]\d{0,2}\)(?:\s*\([^()]+\))*$")
_PILOT = re.compile(r"^(?:(?i:\[pilot\])\s*)?(?P<kinds>[A-Z][\w-]*(?:(?:\s+|\s*,\s*(?:(?:and|or)\s+)?|\s*/\s*|\s+(?:and|or)\s+)[A-Z][\w-]*)*)"
                    r"\s+(?:Pilot\b\s*[.:,]?|pilot\s*,)\s*(?P<rest>.*)$")
# (kinds listed "Squad, Squadron, and Starfighter Pilot" (PROMO); "Cruiser or Transport pilot, the ..." (TMW) too)
#: after the [Pilot] marker the kinds may be written in lower case ("Speeder and Walker pilot", "Starfighter and transport Pilot")
_PILOT_MARKED = re.compile(r"^\[pilot\]\s*(?P<kinds>[a-z][\w-]*(?:(?:\s+|\s*,\s*|\s*/\s*|\s+(?:and|or)\s+)[a-z][\w-]*){0,6})\s+pilot\b\s*[.:]?\s*(?P<rest>.*)$",
                           re.I)
#: the word "Pilot" left out after the kinds: "[Pilot] Speeder. The Speeder gets: ..." (GPC's Ark "Bumpy" Roose)
_PILOT_BARE = re.compile(r"^\[pilot\]\s*(?P<kinds>[a-z][\w-]*(?:(?:\s+|\s*,\s*|\s*/\s*|\s+(?:and|or)\s+)[a-z][\w-]*){0,6})\s*[.:]\s*"
                         r"(?P<rest>the\s[^.]*?\bgets\b.*)$", re.I)
#: a keyword bought with something other than Force: "[Tap] -> Evade 2", "Put the top card of your opponent's deck into
#: his or her discard pile -> Evade 1", "Discard a card from your hand -> Retaliate 4" (MAND, AAA, START)
_OTHER_COST_KW = re.compile(rf"^(?P<cost>[^>]+?)\s*->\s*(?P<kw>{_KW_NAMES})(?:\s+[+-]?(?:\d{{1,3}}|x))?\s*[.;]?\s*$", re.I)
#: a paid keyword with a rider or a second keyword: "Pay 1 Force -> Evade 2, and put 1 redemption counter on the attacking unit"
#: (VV1 Lop), "Pay 2 Force -> Absorb 1 and Deflect 1" (VV1 Kouru), "[Tap] -> Intercept and Retaliate 2" (YV)
_PAID_WITH_RIDER = re.compile(r"^(?P<cost>[^>]+?)\s*->\s*(?P<rhs>\S.*)$")
#: "The Starfighter gets:", after the kinds said again as AAA's Komari Vosa (A) prints them ("The Creature and Cultist
#: Pilot. The Creature or Cultist gets: ..."): the repeated sentence is not a bonus
_GETS_HEAD = re.compile(r"^(?:the\s+[\w\s,/-]+?\s+pilot\s*\.\s*)?the\s+[\w\s,/-]+?\s+gets\s*:?\s*", re.I)
_CONDITION = re.compile(r"\b(as long as|while|if|when|whenever|until|for this attack|for that attack|choose one|unless)\b", re.I)
#: a card either side may play: "neutral" in the file and the JSON, said in the reader's words
NEUTRAL = N_("neutral")
_SIDES = {"l": "LS", "light": "LS", "ls": "LS", "light side": "LS", "jedi": "LS", "d": "DS", "dark": "DS", "ds": "DS", "dark side": "DS",
          "sith": "DS", "n": "neutral", "neutral": "neutral"}
OTHER = "other"  # a later set's card type the engine does not play (Event, Resource; a Subordinate of no arena)
_KINDS = {"character": "unit", "space": "unit", "ground": "unit", "battle": "battle", "mission": "mission", "location": "location",
          "equipment": "equipment"}
VARIABLE = "*"  # a stat the card's text sets
_UNIT_ARENAS = ("character", "space", "ground")
#: the Usage column's own mark of a card banned or restricted, as the file words it, to the first "|": "*BANNED" (OBWN's
#: No Longer), "**RESTRICTED**: This card has been restricted to one copy per deck in tournament play." (ESB's Chewbacca
#: (G)), "BANNED in Vintage." (ROTJ's Nien Nunb (A): one format only, so the words are kept, never read as "banned") (R388)
_TOURNAMENT_MARK = re.compile(r"^[\W_]*((?:banned|restricted)\b[^|]*)", re.I)


@dataclass(frozen=True)
class SwtcgCardData:
    name: str
    set: str
    type: str
    cost: int | None
    speed: int | None
    power: int | None
    health: int | None
    side: str  # DS, LS, neutral (either side may play it) or "" (not given)
    text: str
    keywords: tuple[tuple[str, Any], ...] = ()  # the unit's own, always on; Evade once per instance
    pilots: str = ""  # the vehicle kinds it may pilot, "Starfighter, Capital Ship"
    grants: tuple[tuple[str, Any], ...] = ()  # printed after "Pilot": given to the vehicle (FAQ L121)
    extra: tuple[tuple[str, str], ...] = field(default=())
    costs: tuple[tuple[str, int], ...] = ()  # "Pay 1 Force -> Retaliate 2" -> (("retaliate", 1),), one per paid instance
    notes: tuple[str, ...] = ()
    kind_: str = ""  # unit, battle, mission, location, equipment (from the type line)
    variable: tuple[str, ...] = ()  # stats printed "*": set by the text, asked when needed
    grant_costs: tuple[tuple[str, int], ...] = ()  # the Force cost of a keyword a pilot grants
    conditional: tuple[str, ...] = ()  # keywords under a condition, a choice, for one attack or for other cards: listed, not applied
    not_modelled: tuple[str, ...] = ()  # named on the card, kept, not applied by the engine
    upkeep: tuple[tuple[str, int], ...] = ()  # the choices: ("bp", 1), ("force", 1), ("tap", 0), ("discard", 1), ("damage", 1)
    upkeep_text: str = ""
    bounty: str = ""  # the reward, as printed after "Bounty:"
    #: each variable stat as printed ("cost", "X"): the listing said "cost *" of a Mission whose card says X
    printed_variable: tuple[tuple[str, str], ...] = ()
    #: the file's Usage column's mark of a banned or restricted card, its words ("BANNED", "BANNED in Vintage")
    tournament: str = ""

    def printed(self, stat: str) -> str:
        """A variable stat as the card prints it: ``X``, ``?`` or ``*``."""
        return dict(self.printed_variable).get(stat, VARIABLE)

    @property
    def kind(self) -> str:
        """unit, battle, mission, location or equipment, from the type line."""
        if self.kind_:
            return self.kind_
        first = self.type.split(" - ")[0].strip().lower()
        return first if first in ("battle", "location", "mission", "equipment") else "unit"  # kind_ is set by the import; this for hand-made cards

    @property
    def unique(self) -> bool:
        return _VERSION.search(self.name) is not None  # versioned names such as "Darth Vader (A)" are unique characters

    @property
    def why_partial(self) -> tuple[str, ...]:
        """What of this card the engine does not apply: the reasons it is imported as partial."""
        why = [_("{stat} is {printed!r} (set by the card's text): asked when needed, give it with 'set-stat UNIT {stat}=N'").format(
            stat=s, printed=self.printed(s)) for s in self.variable]
        why += [_("conditional, not applied: {text}").format(text=c) for c in self.conditional]
        why += [_("not modelled: {text}").format(text=n) for n in self.not_modelled]
        why += list(self.notes)
        return tuple(why)

    def table_entry(self, uid: str, owner: str, zone: str = "hand") -> dict[str, Any]:
        if not owner and self.side not in ("DS", "LS", "neutral", ""):
            # a later set's faction (Y, the Yuuzhan Vong) is a deck of its own that may face either side: its seat is
            # the players' choice (the entry was given to DS without a word, the card imported as partial for it)
            raise AssistantError(_("{card} is a card of a later set's faction {side!r}, whose player may sit on either side: "
                                   "give the seat with --owner DS or --owner LS").format(card=self.name, side=self.side))
        owner = (owner or ("LS" if self.side == "LS" else "DS")).upper()  # player names are case-insensitive
        if owner not in SIDES:
            # the entry is pasted into a table file, which would refuse it there, far from the cause
            raise AssistantError(_("--owner {owner!r}: the SW TCG's players are {sides}").format(owner=owner, sides=", ".join(SIDES)))
        if zone not in get_args(Zone):
            raise AssistantError(_("--zone {zone!r}: a card is in one of {zones}").format(zone=zone, zones=", ".join(get_args(Zone))))
        if self.kind == OTHER:
            raise AssistantError(_("{card} is a {type} card, which the engine does not play: it has no table entry").format(card=self.name, type=self.type))
        if self.side in ("DS", "LS") and owner != self.side:
            raise SideMismatchError(self.name, self.side, owner)
        entry: dict[str, Any] = {"id": uid, "owner": owner, "name": _VERSION.sub("", self.name), "type": self.type}
        if self.kind != "unit":
            entry["kind"] = self.kind
        if self.side in ("DS", "LS", "neutral"):
            entry["side"] = self.side
        if self.unique:
            entry["unique"] = True
        for k in ("cost", "speed", "power", "health"):
            if getattr(self, k) is not None:
                entry[k] = getattr(self, k)
        if self.variable:
            entry["variable"] = list(self.variable)
        kws = _keyword_dict(self.keywords)
        if kws:
            entry["keywords"] = kws
        costs = _cost_dict(self.costs)
        if costs:
            entry["costs"] = costs
        if self.upkeep_text:
            entry["upkeep_text"] = self.upkeep_text
            force = [n for k, n in self.upkeep if k == "force"]
            if len(self.upkeep) == 1 and force:
                entry["upkeep"] = force[0]  # the engine's own Upkeep: paid in Force at the start of the build step
        if self.bounty:
            entry["bounty"] = True
        if self.conditional or self.not_modelled:
            # the card's words the engine does not apply travel with the unit, so an attack it takes part in lists them
            entry["conditional"] = list(self.conditional) + list(self.not_modelled)
        if self.pilots:
            entry["pilots"] = self.pilots
            grants = _keyword_dict(self.grants)
            if grants:
                entry["grants"] = grants
            gcosts = _cost_dict(self.grant_costs)
            if gcosts:
                entry["grant_costs"] = gcosts
        entry["zone"] = zone
        return entry


class SideMismatchError(AssistantError):
    """A Dark Side card given to the Light Side (or the reverse); neutral cards go to either."""

    def __init__(self, card: str, side: str, owner: str):
        super().__init__(
            _("{card} is a {side} card: {owner} can't play it (a neutral card may be played by either side)").format(card=card, side=side, owner=owner)
        )


def _keyword_dict(pairs: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k == "evade":
            out.setdefault("evade", []).append(v)
        elif k in out and not isinstance(v, bool):
            out[k] = int(out[k]) + int(v)  # printed twice: cumulative (FAQ L46, L103)
        else:
            out[k] = v
    return out


def _cost_dict(pairs: tuple[tuple[str, int], ...]) -> dict[str, Any]:
    """{"evade": [1, 3]} when a keyword has several paid instances, else {"evade": 1}."""
    out: dict[str, Any] = {}
    for k, c in pairs:
        out.setdefault(k, []).append(c)
    return {k: v[0] if len(v) == 1 else v for k, v in out.items()}


# --- numbers ---------------------------------------------------------------------------------


class _Refused(Exception):
    """One card that cannot be read: refused alone, with why."""


def number(value: str, column: str) -> int | str | None:
    """A stat as the files write it: ``7``, ``7.0`` -> 7; ``*`` (or X, ?) -> ``"*"``, set by the card's
    text; empty or ``-`` -> None. Anything else is refused.

    >>> number("7.0", "Cost"), number(" 60 ", "Speed"), number("*", "Power"), number("", "Health")
    (7, 60, '*', None)
    """
    v = value.strip()
    if v in ("", "-", "—"):
        return None
    if v in ("*", "X", "x", "?"):
        return VARIABLE
    m = re.fullmatch(r"\+?(\d{1,6})(?:\.0+)?", v)
    if not m:
        raise _Refused(_("{column} {value!r} is not a number (a whole number, 7.0, or * for one set by the text)").format(column=column, value=v[:20]))
    return int(m[1])


def _cell(raw: str) -> str:
    """A cell as Lackey's spreadsheet export writes it: a quoted cell loses its quotes and its doubled inner quotes."""
    s = raw.strip()
    if len(s) >= 2 and s[0] == '"' and s[-1] == '"':
        s = s[1:-1].replace('""', '"')
    return s


# --- card text -------------------------------------------------------------------------------


@dataclass
class TextReading:
    """What a card's text gives it, read ability by ability."""

    keywords: list[tuple[str, Any]] = field(default_factory=list)
    costs: list[tuple[str, int]] = field(default_factory=list)
    pilots: str = ""
    grants: list[tuple[str, Any]] = field(default_factory=list)
    grant_costs: list[tuple[str, int]] = field(default_factory=list)
    conditional: list[str] = field(default_factory=list)
    not_modelled: list[str] = field(default_factory=list)
    upkeep: list[tuple[str, int]] = field(default_factory=list)
    upkeep_text: str = ""
    bounty: str = ""
    notes: list[str] = field(default_factory=list)


def keyword_ability(ability: str) -> tuple[str, int | bool | str, int | None] | None:
    """An ability that *is* a keyword: (keyword, number or True or "X", Force cost or None).

    >>> keyword_ability("Pay 2 Force -> Evade 2"), keyword_ability("2 Force pay -> Deflect 3")
    (('evade', 2, 2), ('deflect', 3, 2))
    >>> keyword_ability("Critical Hit 1"), keyword_ability("Armor"), keyword_ability("Accuracy -1")
    (('critical_hit', 1, None), ('armor', True, None), ('accuracy', -1, None))
    >>> keyword_ability("Pay 0 Force -> Retaliate X, where X is Chewbacca's power.")
    ('retaliate', 'X', 0)
    >>> keyword_ability("X Force pay -> Evade X+1")  # Yaddle's: the player chooses X
    ('evade', 'X', None)
    >>> keyword_ability("Jango gets Critical Hit 2") is None
    True
    """
    m = _KW_ALONE.match(ability.strip())
    if not m:
        return None
    word = _KEYWORDS[m["kw"].lower()]
    cost = m["c1"] or m["c2"] or m["c3"]
    n = m["n"]
    value: int | bool | str = True if n is None else ("X" if n.lower().startswith("x") else int(n))  # "X", "X+1": set by the card
    if cost is not None and cost.lower() == "x":
        return word, "X", None  # "Pay X Force -> Evade X": the player chooses X, so no fixed keyword
    return word, value, int(cost) if cost is not None else None


#: keywords of the later (fan-made) sets the engine does not apply: an ability that starts with one is listed as not modelled
_LATER_KEYWORDS = re.compile(
    r"^(?:insert:\s*)?(adapt|switch|barrage|stealth|double strike|double damage|ferocity|precision|tenacity|absorb|parry|riposte|fury|focus|surge|"
    r"resilience|cunning|intimidation|velocity|area damage|damage control|overload|ambush|consume|reduced cost|alternative cost|last stand|"
    r"deploy|foresight|forewarning|persuade|meditate|redirect|protect|inspiration|fortitude|backfire|avenge|stack)\b", re.I)
#: a keyword's reminder text, as some sets print it: "Evade 2 (Prevent up to 2 damage to this unit. )"
_REMINDER = re.compile(rf"(\b(?:{_KW_NAMES})(?:\s+[+-]?\d{{1,3}})?)\s*\((?!\s*pay\b)(?:[^()]|\([^()]*\))*\)(\s*)(?=(\S?))", re.I)  # not "(pay 1 Force)"
#: where a sentence starts a new ability in sets that run them together ("... this attack. Pay 2 Force -> Evade 2")
_NEW_ABILITY = re.compile(
    rf"(?<=[.)])\s+(?=(?:pay\s+(?:\d{{1,3}}|x)\b|\d{{1,3}}\s+force\s+pay\b|reserves\s*:|upkeep\s*:|bounty\s*:|\[pilot\]|(?:{_KW_NAMES})\b))", re.I
)


#: a keyword run into the next sentence with no separator: "Accuracy 1 When this unit damages another unit ..."
#: (UNION too: "Lucky 2 Riposte 2 Roll a die ...", "Surge 1 Tap -> Evade 2")
_LATER_NAMES = _LATER_MENTION.pattern[3:-3]
_KW_RUN_ON = re.compile(rf"^((?:(?i:{_KW_NAMES})|{_LATER_NAMES})(?:\s+\d{{1,3}})?)\s+"
                        rf"(?=(?:When|Whenever|While|As long as|If|Each|This|Pay|Tap|Roll|Discard|{_LATER_NAMES}|(?-i:{_KW_TITLES}))\b)")


def drop_reminders(text: str) -> str:
    """A keyword's reminder text in parentheses is left out; where a new ability follows it (a capital
    letter), the abilities are separated as the other sets do with ``|``.

    >>> drop_reminders("Overkill (When this unit attacks, ...) Shields 1 (Each unit gets -1 power.)")
    'Overkill | Shields 1'
    >>> drop_reminders("Tyranus gets Critical Hit 2 (While attacking, ...) for this attack.")
    'Tyranus gets Critical Hit 2 for this attack.'
    """
    def sub(m: re.Match[str]) -> str:
        follows = m[3]
        return m[1] + (" | " if follows[:1].isupper() or follows == "" else m[2])

    return _REMINDER.sub(sub, text).strip().rstrip("|").strip()


def _split_abilities(text: str) -> list[str]:
    """The abilities of a text: the files separate them with ``|`` (older ones with ``;`` or by
    sentences, "... this attack. Pay 2 Force -> Evade 2"); keywords written as sentences
    ("Accuracy 1. Armor.") are split where every part is a keyword. A pilot's bonuses, after
    "[Pilot]", stay one ability."""
    out = []
    text = re.sub(r"(?<=\s)-\s+>", "->", drop_reminders(text))  # "Pay 2 Force - > Evade 3" (TMW's Moff Gideon) is the arrow
    # ";" separates abilities only in files without "|" (JG); with "|" it is inside one ability (15TH's
    # Old Republic Strike Team: "gets the following if ...: Agent: Cunning; Bounty Hunter: Armor; ...")
    for part in (p.strip() for p in re.split(r"\s*\|\s*" if "|" in text else r"\s*[|;]\s*", text)):
        if not part:
            continue
        at = part.lower().find("[pilot]")
        if at > 0 and re.fullmatch(r"\s*insert\s*:\s*", part[:at], re.I):
            at = -1  # "INSERT: [Pilot] ..." stays one ability: a stack rule, not this card's own pilot ability
        if at < 0 and _PILOT.match(part):
            at = 0  # "Starfighter Pilot: +20 speed. Evade 2." — the bonuses stay with the pilot
        head, pilot = (part[:at], part[at:]) if at >= 0 else (part, "")
        for chunk in [*(c.strip() for c in _NEW_ABILITY.split(head)), pilot.strip()]:
            if not chunk:
                continue
            while run := _KW_RUN_ON.match(chunk):  # "Accuracy 1 When this unit damages ..." (START's V-19): the keyword, then the rest
                out.append(run[1])
                chunk = chunk[run.end():]
            pieces = [p.strip() for p in re.split(r"(?<=[.;])\s+", chunk) if p.strip()]
            if len(pieces) > 1 and all(keyword_ability(p) or re.fullmatch(rf"(?:{_KW_NAMES})\s*[.;]?", p, re.I) for p in pieces):
                out += pieces
            else:
                out.append(chunk)
    return out


def _grant_subject_is_self(ability: str, at: int) -> bool | None:
    """Who a keyword named at ``at`` is given to: True this unit, False other cards, None nobody
    (a mention: "can't use Evade", "loses Shields")."""
    head = ability[:at]
    gets = list(re.finditer(r"\b(gets?|has|have|gains?)\b", head, re.I))
    if not gets:
        return None
    g = gets[-1]
    between = head[g.end():]
    listed = re.match(r"\s*the following\b", between, re.I) is not None  # "gets the following if ...: Agent: Cunning; Bounty Hunter: Armor"
    if not listed and (re.search(r"[.]\s", between) or re.search(r"\b(as long as|while|if|when|unless|using|attacking|for each)\b", between, re.I)):
        return None  # the keyword is in the condition ("gets +2 power as long as it's using Bombard"), not given
    start = max(head.rfind(c, 0, g.start()) for c in ",:.>") + 1
    start = max([start, *(m.end() for m in re.finditer(r"\bor\b", head[: g.start()], re.I))])
    subject = head[start:g.start()]
    return not REACHES_OTHERS.search(subject)


def read_text(text: str, unit: bool, character: bool, kind_played_once: bool = False) -> TextReading:
    """Read a card's text: its own keywords (units only), their costs, what it may pilot and
    grants, conditional keywords, Upkeep, Bounty, and what is named but not modelled."""
    r = TextReading()
    for ability in _split_abilities(text):
        kw = keyword_ability(ability)
        bare = ability.strip().rstrip(".;").strip()
        if kw is not None:
            word, value, cost = kw
            if not unit:
                continue  # battle, mission, location, equipment: they name keywords for other cards
            if value == "X":
                r.conditional.append(_("{ability} (X is set by the card: give it at the table)").format(ability=bare))
            elif word in NUMBERED and value is True:
                r.notes.append(_("'{m}' has no number in the text: not imported (enter it in the table file)").format(m=bare))
            elif cost is not None and word not in ACTIVATED:
                r.conditional.append(_("{ability} (a paid keyword the engine has no verb for: use 'grant' when paid)").format(ability=bare))
            else:
                r.keywords.append((word, value))
                if cost is not None:
                    r.costs.append((word, cost))
                if word in NOT_APPLIED:
                    r.not_modelled.append(bare)
            continue
        if unit and re.match(r"insert\s*:", ability.strip(), re.I):
            # a later set's stack rule ("INSERT: [Pilot] ..." too): it works when this card is stacked beneath another unit, not on its own
            r.not_modelled.append(_("{ability} (works when this card is stacked beneath another unit: not modelled)").format(ability=bare))
            continue
        at = ability.lower().find("[pilot]")
        text = ability[at:].strip() if at > 0 else ability.strip()  # "Any Speeder with Dack on it ... [Pilot] ..."
        pm = (_PILOT_MARKED.match(text) or _PILOT.match(text) or _PILOT_BARE.match(text)) if character else None
        if pm and not r.pilots:
            kinds = [" ".join(w[:1].upper() + w[1:] for w in k.split()) for k in re.split(r"\s*(?:,|/|\band\b|\bor\b)\s*", pm["kinds"]) if k.strip()]
            r.pilots = ", ".join(kinds)
            _read_grants(pm["rest"], r)
            continue
        later = _LATER_KEYWORDS.match(ability.strip()) if unit else None
        if later:
            r.not_modelled.append(_("{keyword} (a later set's keyword)").format(keyword=ability.strip().rstrip(".")))
            continue
        if unit and _OTHER_COST_KW.match(ability.strip()):
            # the engine charges Force only: a keyword paid otherwise is listed, never given free
            r.conditional.append(_("{ability} (paid with something other than Force, which the engine does not charge: use 'grant' when paid)")
                                 .format(ability=bare))
            continue
        if unit and _paid_with_rider(ability.strip(), bare, r):
            continue
        head = re.match(r"^(upkeep|bounty|reserves)\s*[:\-]\s*(.*)$", ability.strip(), re.I)
        if head and unit:
            word, rest = head[1].lower(), head[2].strip()
            if word == "upkeep":
                r.upkeep_text = rest.rstrip(".")
                r.upkeep, unread = upkeep_choices(rest)
                if unread:
                    r.not_modelled.append(_("Upkeep: {choices} (done by hand when Upkeep is paid)").format(choices="; ".join(unread)))
            elif word == "bounty":
                r.bounty = rest.rstrip(".")
                r.not_modelled.append(_("Bounty reward: {text} (collect-bounty counts it; the reward is done by hand)").format(text=r.bounty))
            else:
                r.not_modelled.append(f"Reserves: {rest}")
            continue
        for m in _KW_MENTION.finditer(ability):
            to_self = _grant_subject_is_self(ability, m.start())
            if to_self is None:
                continue
            if not unit and (to_self or kind_played_once):
                continue  # a battle or mission card's effect is played by hand, once, on the cards it names
            r.conditional.append(ability.strip() if to_self else _("gives other cards {kw}: {ability}").format(kw=m[1], ability=ability.strip()))
            break
        else:
            before = len(r.not_modelled)
            _later_mention(ability.strip(), unit, kind_played_once, r)
            if unit and len(r.not_modelled) == before and bare:
                # a unit's own sentence the engine has no reading for ("Each of your other units gets +2 power"):
                # listed as not applied, so the card imports as partial instead of silently as played in full
                r.not_modelled.append(_("{text} (the card's words, not applied by the engine)").format(text=bare))
    return r


def _later_mention(ability: str, unit: bool, kind_played_once: bool, r: TextReading) -> None:
    """A later set's keyword given inside a sentence ("Granta gets Fury 3 when attacking a Jedi",
    "Equipped Character gets Riposte 1"): listed as not modelled, never dropped silently; a mention
    that gives nothing ("can attack units with Stealth", "loses Focus") is left alone."""
    for m in _LATER_MENTION.finditer(ability):
        to_self = _grant_subject_is_self(ability, m.start())
        if to_self is None:
            continue
        gets = list(re.finditer(r"\b(gets?|has|have|gains?)\b", ability[: m.start()], re.I))[-1]
        if gets[1].lower() in ("has", "have") or re.search(r"\b(with|without|loses?|can|can't|cannot)\b", ability[gets.end(): m.start()], re.I):
            continue  # "If Jaster has Stealth", "each get +2 power and can attack units with Stealth": named, not given
        if not unit and (to_self or kind_played_once):
            return  # a battle or mission card's effect is played by hand, once, on the cards it names
        r.not_modelled.append(_("{ability} (a later set's keyword, named in the text)").format(ability=ability) if to_self
                              else _("gives other cards {kw}: {ability} (a later set's keyword)").format(kw=m[1], ability=ability))
        return


def _paid_with_rider(ability: str, bare: str, r: TextReading) -> bool:
    """A unit's paid keyword followed by a rider or a second keyword, split at "and" / ", and": one
    engine keyword bought with Force is given at that cost and the rest listed; a keyword bought
    otherwise, or two for one payment, is listed whole (never given free); a later set's keyword
    bought so ("Pay 2 Force -> Absorb 2") is listed as not modelled. False: not this form."""
    m = _PAID_WITH_RIDER.match(ability)
    if not m:
        return False
    pieces = [p.strip().rstrip(".;").strip() for p in re.split(r",\s*(?:and\s+)?|\s+and\s+", m["rhs"]) if p.strip()]
    read = [(p, keyword_ability(p)) for p in pieces]
    engine = [(p, kw) for p, kw in read if kw is not None and kw[0] in ACTIVATED and (kw[0] == "intercept" or isinstance(kw[1], int) and kw[1] is not True)]
    if not engine:
        if pieces and _LATER_KEYWORDS.match(pieces[0]) and re.fullmatch(r"[\w' -]+?(?:\s+[+-]?(?:\d{1,3}|x))?", pieces[0], re.I):
            r.not_modelled.append(_("{keyword} (a later set's keyword)").format(keyword=bare))  # "Pay 2 Force -> Absorb 2"
            return True
        if read and read[0][1] is not None:
            r.conditional.append(_("{ability} (a paid keyword the engine has no verb for: use 'grant' when paid)").format(ability=bare))
            return True
        keyword_first = re.match(rf"(?:{_KW_NAMES})\b", m["rhs"], re.I) is not None
        choice = re.match(r"choose one\s*:", m["rhs"], re.I) is not None and _KW_MENTION.search(m["rhs"]) is not None  # "Choose one: Absorb 2. Or: Evade 3."
        if (keyword_first or choice) and not re.search(r"[\"“”]|'pay\b|\b(gets?|with)\b", m["cost"], re.I):
            # "Roll a die -> Evade 2 if you roll a 4 or more", "Pay 1 Force -> Retaliate 3. Play up to twice per attack if ...":
            # a keyword with a condition after it, listed (never given free, never dropped)
            r.conditional.append(_("{ability} (a keyword with a condition the engine does not check: use 'grant' when it applies)").format(ability=bare))
            return True
        return False  # "Pay 2 Force -> Choose one ...": an effect, not a keyword
    cost = re.fullmatch(_COST, m["cost"].strip(), re.I)
    force = (cost["c1"] or cost["c2"]) if cost else None
    if force is None or not force.isdigit():
        r.conditional.append(_("{ability} (paid with something other than Force, which the engine does not charge: use 'grant' when paid)")
                             .format(ability=bare))
        return True
    if len(engine) > 1:
        # two keywords for one payment ("Pay 2 Force -> Deflect 1 and Evade 1", OBWN): each has its verb, but charging each
        # would charge twice, so the pair is listed (reading R389)
        r.conditional.append(_("{ability} (two keywords for one payment: the engine charges each keyword apart, so it does not apply "
                               "them; when paid, use 'grant' for each)").format(ability=bare))
        return True
    given, (word, value, _c) = engine[0][0], engine[0][1]
    r.keywords.append((word, value))
    r.costs.append((word, int(force)))
    r.not_modelled += [_("{part} (with {keyword}, paid together)").format(part=p, keyword=given) for p, _kw in read if p != given]
    return True


#: UNION's bullets are dashes: "The Transport gets: -Pay 0 Force -> Evade 1", "gets: - Velocity 20 - Stun 2 -Pay 2 Force -> Evade 2"
#: (a dash before a capital or "+", never the "->" of a cost nor a "-20 speed")
_DASH_BULLET = re.compile(r"(?:^|(?<=\s))-\s*(?=[A-Z+])")


def _read_grants(rest: str, r: TextReading) -> None:
    """What a pilot gives its vehicle: "The Starfighter gets: * +10 speed. * Armor. * Pay 1 Force -> Evade 1."
    (or, in older files, "+20 speed. Evade 2.")."""
    head = rest.split("*")[0] if "*" in rest else re.split(r"(?:^|(?<=\s))-\s*(?=[A-Z+])", rest, maxsplit=1)[0]  # before the first bullet
    if re.search(r"\b(if|as long as|while|unless)\b", head, re.I):
        r.not_modelled.append(_("pilot bonus under a condition: {text}").format(text=rest.strip()))  # Nien Nunb: "If there is more than one Pilot ..."
        return
    body = _GETS_HEAD.sub("", rest.strip())
    bullets = body.split("*") if "*" in body else _DASH_BULLET.split(body) if _DASH_BULLET.match(body) else re.split(r"(?<=[.;])\s+", body)
    parts = [p.strip().rstrip(".").strip().strip("\"'").rstrip(".").strip()  # a bonus in quotes: 'gets "Pay 1 Force -> Retaliate 2".'
             for p in bullets]
    split: list[str] = []
    for p in (p for p in parts if p):
        pieces = [q.strip() for q in re.split(r",\s*(?:and\s+)?|\s+and\s+", p) if q.strip()]  # "+10 speed and +1 power"
        ok = len(pieces) > 1 and all(re.fullmatch(r"\+\d{1,3}\s+(speed|power|health)", q, re.I) or keyword_ability(q) for q in pieces)
        split += pieces if ok else [p]
    for p in split:
        stat = re.fullmatch(r"\+(\d{1,3})\s+(speed|power|health)", p, re.I)
        if stat:
            r.grants.append((stat[2].lower(), int(stat[1])))
            continue
        kw = keyword_ability(p)
        if kw and kw[1] != "X" and not (kw[0] in NUMBERED and kw[1] is True):
            r.grants.append((kw[0], kw[1]))
            if kw[2] is not None:
                r.grant_costs.append((kw[0], kw[2]))
            continue
        rider = TextReading()
        if _paid_with_rider(p, p, rider) and len(rider.keywords) == 1 and not rider.conditional:
            # "Pay 2 Force -> Evade 1, and you may remove 1 damage counter from this unit" (TM's Crest Bridge Crew): the
            # vehicle gets the keyword at its cost, the rider is listed
            r.grants.append(rider.keywords[0])
            r.grant_costs += rider.costs
            r.not_modelled += [_("pilot bonus: {text}").format(text=w) for w in rider.not_modelled]
            continue
        r.not_modelled.append(_("pilot bonus: {text}").format(text=p))


# --- the file --------------------------------------------------------------------------------


def _rows(text: str) -> list[tuple[int, str]]:
    return [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]


#: the card type of LackeyCCG's rules-reminder rows (the community folder's HELP.txt: "{Battle Phase}", "{Attack
#: Sequence}"): a reminder of the rules for the table's players, no card of the game (reading R386)
REMINDER_TYPE = "reminder"


def load_lackey(text: str, name: str = "<lackey>", skipped: list[str] | None = None,
                report: list[ImportedItem] | None = None, reminders: list[str] | None = None) -> tuple[list[SwtcgCardData], list[str]]:
    """Cards from a LackeyCCG set file, and the columns not used (reported to the user).

    A row that cannot be read as a card is refused alone: listed in ``skipped`` (and in
    ``report``) with its line and why. Without ``skipped`` the first such row refuses the file
    (strict reading, for a file one wrote by hand). A rules-reminder row (type Reminder) is no
    card: it is set aside, its name put in ``reminders``."""
    rows = _rows(text)
    if not rows:
        raise ImportFileError(_("{name}: empty file").format(name=name))
    header = [_cell(h).lower().lstrip("\ufeff") for h in rows[0][1].split("\t")]
    shown = [_cell(h) for h in rows[0][1].split("\t")]
    if len(header) < 2 or header[0] != "name":
        raise ImportFileError(
            _("{name}:1: a LackeyCCG card file starts with a tab-separated header whose first column is 'Name' (then Set, ImageFile); got {lines!r}").format(
                name=name, lines=rows[0][1][:60]
            )
        )
    if len(rows) == 1:  # imported as "0 cards", exit 0: a cut or unsaved export looked like a set with nothing in it
        raise ImportFileError(_("{name}: only the header line, no card rows: nothing to import").format(name=name))
    index: dict[str, int] = {}
    for key, names in _COLUMNS.items():
        for i, h in enumerate(header):
            if h in names:
                index[key] = i
                break
    # an empty header cell is no column: AllSets.txt's header ends with a tab, as its rows do (reading R387)
    unused = [h for i, h in enumerate(shown) if i > 0 and i not in index.values() and h.lower() != "imagefile" and h]
    if "type" not in index and unused:
        # a set file whose Type column is named otherwise ("Kind"): every card would be read as a unit of no arena,
        # its kind in a column the import cannot place; a hand-made list of names and numbers has no such column (R344)
        raise ImportFileError(
            _("{name}:1: no Type column (Character, Space, Ground, Battle, ...), and columns the import does not read: {columns}; every card's kind "
              "and arena come from Type: name the column that holds them Type (a LackeyCCG set file of the SW TCG: Name, Set, ImageFile, Side, "
              "Type, Subtype, Cost, Speed, Power, Health, ...)").format(name=name, columns=", ".join(unused)))
    needed = max([0, *index.values()]) + 1
    # the file ends inside its last line, short of the header's columns, where every other row has them all: a
    # download or copy broken off (a list whose rows leave out empty last columns may end without a line end)
    cut = (not text.endswith(("\n", "\r")) and len(rows) > 2
           and all(len(line.split("\t")) >= len(header) for _n, line in rows[1:-1]))
    cards: list[SwtcgCardData] = []
    for n, line in rows[1:]:
        cells = line.split("\t")
        label = _cell(cells[0]) or f"line {n}"
        if "type" in index and index["type"] < len(cells) and _cell(cells[index["type"]]).lower() == REMINDER_TYPE:
            if reminders is not None:
                reminders.append(label)
            continue
        try:
            if len(cells) > len(header) and any(c.strip() for c in cells[len(header):]):
                raise _Refused(_("{n2} columns, the header has {n3}").format(n2=len(cells), n3=len(header)))
            if len(cells) < len(header):
                if cut and n == rows[-1][0]:  # its words end mid-sentence ("Treat Aurra as"), and the set's later cards are missing (R344)
                    raise ImportFileError(_("{name}:{n}: the file ends inside this row, card {card!r} ({columns} of the header's {header} columns, "
                                            "no line end): it is cut short (a download or copy broken off?); nothing imported").format(
                        name=name, n=n, card=label[:40], columns=len(cells), header=len(header)))
                if len(cells) < needed:
                    raise _Refused(_("{columns} columns, the header has {header}: card {card!r} skipped (not padded)").format(
                        columns=len(cells), header=len(header), card=label))
                cells = cells + [""] * (len(header) - len(cells))
            cards.append(_card(cells, index, header, shown, unused))
            if report is not None:
                c = cards[-1]
                report.append(ImportedItem(_item_name(c), "partial" if c.why_partial else "imported", c.why_partial))
        except _Refused as e:
            why = f"{name}:{n}: {e}"
            if skipped is None:
                raise ImportFileError(why + _(" (card {card!r})").format(card=label[:40])) from None
            skipped.append(why)
            if report is not None:
                report.append(ImportedItem(label, "refused", (why,)))
    return cards, unused


def _item_name(c: SwtcgCardData) -> str:
    return f"{c.set} {c.name}" if c.set else c.name


def _card(cells: list[str], index: dict[str, int], header: list[str], shown: list[str], unused: list[str]) -> SwtcgCardData:
    def get(key: str) -> str:
        return _cell(cells[index[key]]) if key in index else ""

    name = _cell(cells[0])
    if not name:
        raise _Refused(_("a card without a name"))
    typ_raw = get("type")
    kind = _KINDS.get(typ_raw.split(" - ")[0].split("/")[0].strip().lower(), OTHER) if typ_raw else "unit"
    sub = get("subtype")
    subordinate = typ_raw.strip().lower() == "subordinate" and sub.split(" - ")[0].split("/")[0].strip().lower() in _UNIT_ARENAS
    if subordinate:
        # a later set's Subordinate is a unit a card takes from outside the game into an arena its subtype names
        # ("Ground/Character - Pirate Droid"): its arenas lead its type as a unit's do (reading R151 in docs/readings.md)
        kind, typ_raw, sub = "unit", sub.split(" - ")[0].strip(), (" - ".join(sub.split(" - ")[1:]) + " Subordinate").strip()
    typ = f"{typ_raw} - {sub}" if sub and " - " not in typ_raw else typ_raw
    side_raw = get("side")
    side = _SIDES.get(side_raw.lower(), side_raw[:20]) if side_raw else ""  # a later set's own faction ("Y") is kept as printed
    stats: dict[str, int | None] = {}
    variable: list[str] = []
    printed: list[tuple[str, str]] = []
    for key in ("cost", "speed", "power", "health"):
        v = number(get(key), shown[index[key]] if key in index else key)
        if v == VARIABLE:
            variable.append(key)
            stats[key] = None
            if get(key).strip() != VARIABLE:
                printed.append((key, get(key).strip().upper()))
        else:
            stats[key] = v if isinstance(v, int) else None
    unit = kind == "unit"
    body = get("text")
    arenas = [a.strip().lower() for a in typ_raw.split(" - ")[0].split("/")]
    # a Character may pilot, and so may a squad of any arena (UNION's Ground squads print "Transport Pilot. The Transport gets: ...")
    # and a unit whose own ability starts with the [Pilot] marker (TM's Crest Bridge Crew, a Ground unit); a vehicle that only
    # mentions pilots ("can be piloted only by Droids") is none of these
    may_pilot = unit and ("character" in arenas or re.search(r"\bsquad\b", sub or typ, re.I) is not None
                          or re.search(r"(?:^|\|)\s*\[pilot\]", body, re.I) is not None
                          or re.search(r"(?:^|\|)\s*[A-Z][\w ,/-]*?\bPilot\s*\.\s*The\b[^|]*?\bgets\b", body) is not None)  # TMW's Crest Bridge Crew (B)
    r = read_text(body, unit, may_pilot, kind in ("battle", "mission"))
    notes = list(r.notes)
    if not side_raw:
        notes.append(_("no side given (L, D or N): the table file's owner decides"))
    if kind == OTHER:
        notes.append(_("card type {type!r} is not one the engine plays (Character, Space, Ground, Battle, Mission, Location, Equipment): listed, "
                       "not put on a table").format(type=typ_raw))
    elif subordinate:
        notes.append(_("a Subordinate: another card's text takes it from outside the game into an arena (enter it then, with that arena as its "
                       "zone); it is never built"))
    usage = next((_cell(cells[i]) for i, h in enumerate(header) if h == "usage" and i < len(cells)), "")
    mark = _TOURNAMENT_MARK.match(usage)
    if not body and usage:
        # BH.txt's Boba Fett (L) and Dengar (B): the card's text one column early, in the rulings' column (reading R248)
        notes.append(_("its Text column is empty and its Usage column (the rulings) holds {usage!r}: the card's text may be in the wrong "
                       "column; nothing is read from Usage, so no keyword of it is applied (reading R248 in docs/readings.md)").format(
                           usage=usage if len(usage) <= 60 else usage[:59] + "…"))
    if kind == "unit" and "/" in typ_raw.split(" - ")[0]:
        notes.append(_("a unit of more than one arena ({arenas}): the table file's zone says which it is in").format(arenas=typ_raw.split(" - ")[0]))
    if unit:
        missing = [k for k in ("speed", "power", "health") if stats[k] is None and k not in variable]
        if missing:
            notes.append(_("{stats} not given: the unit can't attack or be damaged until it is entered in the table file").format(stats=", ".join(missing)))
    return SwtcgCardData(
        name,
        get("set"),
        typ,
        stats["cost"],
        stats["speed"],
        stats["power"],
        stats["health"],
        side,
        body,
        tuple(r.keywords),
        r.pilots,
        tuple(r.grants),
        tuple((shown[i], _cell(cells[i])) for i in range(1, len(header)) if shown[i] in unused and _cell(cells[i])),
        tuple(r.costs),
        tuple(notes),
        kind,
        tuple(variable),
        tuple(r.grant_costs),
        tuple(r.conditional),
        tuple(r.not_modelled),
        tuple(r.upkeep),
        r.upkeep_text,
        r.bounty,
        tuple(printed),
        re.sub(r"\*+", "", mark[1]).strip().rstrip(".").strip() if mark else "",
    )


def card_line(c: SwtcgCardData) -> str:
    """One card as a line of the import's listing: name, type, side, cost, keywords with their costs."""
    kws = _abilities_text(c.keywords, c.costs)
    grants = _abilities_text(c.grants, c.grant_costs)  # what the vehicle gets with it aboard (R318)
    extra = [(_("pilots {kinds}; the vehicle gets {grants}") if grants else _("pilots {kinds}")).format(kinds=c.pilots, grants=grants)] \
        if c.pilots else []
    extra += [_("upkeep: {text}").format(text=c.upkeep_text)] if c.upkeep_text else []
    extra += [_("bounty: {text}").format(text=c.bounty)] if c.bounty else []
    extra += [f"{s} {c.printed(s)}" for s in c.variable]
    extra += [_("the file's Usage column: {mark}").format(mark=c.tournament)] if c.tournament else []
    details = [c.type, _(NEUTRAL) if c.side == "neutral" else c.side or "?"]  # DS and LS are the game's own marks
    # a Battle card has no build cost: the file leaves the column empty (never "cost None")
    if "cost" in c.variable or c.cost is not None:
        details.append(_("cost {cost}").format(cost=c.printed("cost") if "cost" in c.variable else c.cost))
    return f"{c.name} ({', '.join(details)})" + (f": {kws}" if kws else "") + (f" [{'; '.join(extra)}]" if extra else "")


def _abilities_text(pairs: tuple[tuple[str, Any], ...], costs: tuple[tuple[str, int], ...]) -> str:
    """Keywords as a player reads them ("evade 2 (pay 2 Force)", "armor"), a stat bonus signed ("+20 speed")."""
    cost_of = dict(costs)
    return ", ".join((f"+{v} {_(_STAT_BONUSES[k])}" if k in _STAT_BONUSES else f"{k} {v}" if v is not True else k)
                     + (" " + _("(pay {cost} Force)").format(cost=cost_of[k]) if k in cost_of else "") for k, v in pairs)


#: what a pilot may add to its vehicle's printed stats ("+20 speed"), as against a keyword ("evade 2")
#: (said in the reader's words: the Polish rules call power "siła")
_STAT_BONUSES = {"speed": N_("speed"), "power": N_("power"), "health": N_("health")}


def _read(text: str, name: str) -> ImportedCards:
    return _read_many([(text, name)])


def _read_many(files: list[tuple[str, str]]) -> ImportedCards:
    """One set file, or a folder of them as one import with one report. In a folder, a file that is
    not a card list is skipped and said; a name printed in several sets is listed for the player
    to choose (``SET/Name`` picks one).

    A card read twice under one set and name -- a promo reprint in its own set's file, or the
    community folder's ``AllSets.txt`` beside the set files -- is one card: with the same printed
    data it is counted once and said; with other data the first read is kept and the other refused,
    naming both files (else ``SET/Name`` could pick neither). The files of one set are read before
    a file of many, so a set's own file is the one kept."""
    read: list[tuple[str, list[SwtcgCardData], list[ImportedItem], list[str], list[str]]] = []
    skipped: list[str] = []
    for text, name in files:
        rows: list[str] = []
        items: list[ImportedItem] = []
        reminders: list[str] = []
        try:
            got, cols = load_lackey(text, name, rows, items, reminders)
            if not got and rows:
                raise ImportFileError(_("{name}: no card could be read; the first: {why}").format(name=name, why=rows[0]))
        except ImportFileError as e:
            if len(files) == 1:
                raise
            skipped.append(_("skipped: {why}").format(why=e))
            continue
        read.append((name, got, items, cols, reminders))
    if not read:
        raise ImportFileError("; ".join(skipped))
    read.sort(key=lambda r: len({c.set for c in r[1]}) > 1)  # stable: a file of many sets last
    cards: list[SwtcgCardData] = []
    reports: list[ImportReport] = []
    unused: dict[str, None] = {}
    first: dict[tuple[str, str], tuple[SwtcgCardData, str]] = {}
    for name, got, items, cols, reminders in read:
        unused.update(dict.fromkeys(cols))
        notes = [_("columns not used: {names}").format(names=", ".join(cols))] if cols else []
        if reminders:
            notes.append(n_("{n} rules-reminder row ({names}) set aside: LackeyCCG's reminder of the rules, not a card",
                            "{n} rules-reminder rows ({names}) set aside: LackeyCCG's reminders of the rules, not cards",
                            len(reminders)).format(n=len(reminders), names=", ".join(reminders[:3]) + (", …" if len(reminders) > 3 else "")))
        again = 0
        for c in got:
            seen = first.get((c.set, c.name))
            if seen is None:
                first[(c.set, c.name)] = (c, name)
                cards.append(c)
                continue
            # its own line: the last of that name not refused yet (the first read may be in this file)
            at = max(i for i, item in enumerate(items) if item.card == _item_name(c) and item.status != "refused")
            # the Usage column's tournament mark is no printed data: AllSets.txt, an older copy, may lack it (R388)
            if replace(c, extra=(), tournament="") == replace(seen[0], extra=(), tournament=""):
                del items[at]
                again += 1
            else:
                items[at] = ImportedItem(_item_name(c), "refused", (
                    _("{card} is read already from {file}, with other printed data: that one is kept").format(
                        card=f"{c.set}/{c.name}", file=seen[1]),))
        marked = [c for c in got if c.tournament]
        if marked:
            notes.append(n_("{n} card the file's Usage column marks banned or restricted, in its words (it plays as printed): {names}",
                            "{n} cards the file's Usage column marks banned or restricted, in its words (they play as printed): {names}",
                            len(marked)).format(n=len(marked), names="; ".join(f"{c.name}: {c.tournament}" for c in marked)))
        if again:
            notes.append(n_("{n} card read already (a reprint, or a file of every set): counted once",
                            "{n} cards read already (a reprint, or a file of every set): counted once", again).format(n=again))
        reports.append(ImportReport(name, "swtcg", tuple(items), tuple(notes)))
    report = merge(reports, _("{n} set files").format(n=len(reports)), "swtcg") if len(files) != 1 else reports[0]
    if skipped:
        report = ImportReport(report.source, report.game, report.items, report.notes + tuple(skipped))
    by_key: dict[str, SwtcgCardData] = {}
    sets: dict[str, list[str]] = {}
    for c in cards:
        by_key.setdefault(f"{c.set}/{c.name}", c)
        sets.setdefault(c.name, []).append(f"{c.set}/{c.name}")
    ambiguous = {n: tuple(keys) for n, keys in sets.items() if len(keys) > 1}
    by_key.update({c.name: c for c in cards if c.name not in ambiguous and c.name not in by_key})
    return ImportedCards(tuple(cards), by_key, tuple(unused), (), report, ambiguous)


def _entry(card: SwtcgCardData, uid: str, opts: EntryOptions) -> dict[str, Any]:
    # no --owner: the card's own side owns it (a neutral card: the Dark Side, the first player)
    return card.table_entry(uid, opts.owner if opts.owner_given else "", opts.zone)


#: LackeyCCG set files as the SW TCG plug-in reads them (:class:`assistant.cardgame.plugin.CardGame`);
#: the owner of an entry defaults to the card's side (a neutral card: DS, unless --owner says);
#: its zone to the hand, where a card is before it is played or built
IMPORTER = CardImporter(read=_read, entry=_entry, line=card_line, default_owner="DS", default_zone="hand", read_many=_read_many, suffix=".txt",
                         sets_under=("starwars/sets", "sets"), table_key=lambda _card: "units")
