"""The domain's exceptions, split by cause.

Every exception a user can provoke derives from :class:`AssistantError`; the CLI turns it
into a message and exit code 2 at its edge. Anything else is a bug.

- :class:`NotationError` -- text that is not a square, edge, corner or range name (syntax).
- :class:`PositionError` -- a position file that cannot be loaded; carries every
  :class:`Problem` found, each with file, line and offending value.
- :class:`UnknownNameError` -- a figure id or card name that does not exist, with close
  matches.
- :class:`AmbiguousNameError` -- a name that matches several things.
- :class:`CardLibraryError` -- a card library file that does not validate.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .i18n import N_, _, n_


class AssistantError(Exception):
    """Base of every error a user can cause. ``str(err)`` is the message to show."""


class CommandLineWordsError(AssistantError):
    """A refusal whose message names the command line's words (its flags, a command to type):
    ``page`` says the same without them, for the web page, which has its own fields (R173)."""

    def __init__(self, text: str, page: str):
        super().__init__(text)
        self.page = page


class NotationError(AssistantError, ValueError):
    """Text that is not valid coordinate notation (CONTRACT §1)."""


Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file.

    ``where`` is the dotted path of the offending key (``figures[2].at``); ``line`` is
    1-based and ``None`` only when the file has no such key at all (a missing key is
    reported at the line of its parent mapping).
    """

    message: str
    file: str
    line: int | None = None
    where: str = ""
    value: object = None
    severity: Severity = "error"

    def __str__(self) -> str:
        loc = f"{self.file}:{self.line}" if self.line is not None else self.file
        where = f" {self.where}:" if self.where else ""
        return f"{loc}:{where} {self.message}"

    def as_json(self) -> dict[str, object]:
        value = self.value if isinstance(self.value, (str, int, float, bool, type(None))) else repr(self.value)
        return {
            "severity": self.severity,
            "file": self.file,
            "line": self.line,
            "where": self.where,
            "value": value,
            "message": self.message,
        }


class PositionError(AssistantError):
    """A position file that could not be loaded. Nothing was half-loaded."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = tuple(problems)
        errors = [p for p in self.problems if p.severity == "error"]
        # said in the reader's language when raised: the CLI and the web set it before they load
        head = (
            _("{problems} in {file}").format(
                problems=n_("{n} problem", "{n} problems", len(errors)).format(n=len(errors)), file=errors[0].file
            )
            if errors
            else _("invalid position")
        )
        super().__init__(head + ":\n" + "\n".join(f"  {p}" for p in errors))


class CardLibraryError(PositionError):
    """A card library file that does not validate (same shape as a position error)."""


def plain(text: str) -> str:
    """A name as a player types it, for matching: case-insensitive, accents dropped, spaces
    collapsed -- the community's data writes "Padmé" on one card and "Padme" on another, and a
    keyboard has neither for sure (reading R198 in docs/readings.md).

    >>> plain("  Padmé   AMIDALA ") == plain("padme amidala")
    True
    >>> plain("Elitarny żołnierz")
    'elitarny zolnierz'
    """
    decomposed = unicodedata.normalize("NFKD", text).translate(_UNDECOMPOSED)
    return " ".join("".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold().split())


#: letters with a stroke, which Unicode does not decompose into a letter and an accent
#: (Polish "żołnierz" typed "zolnierz")
_UNDECOMPOSED = str.maketrans({"ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ø": "o", "Ø": "O", "ħ": "h", "Ħ": "H"})


def close_matches(word: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """Candidates that look like ``word``, case- and accent-insensitively (:func:`plain`), best first.

    >>> close_matches("Obi-Wan", ["General Obi-Wan Kenobi", "Count Dooku of Serenno"])
    ['General Obi-Wan Kenobi']
    """
    pool = list(candidates)
    lowered = {plain(c): c for c in pool}
    key = plain(word)
    found = [lowered[m] for m in difflib.get_close_matches(key, list(lowered), n=n, cutoff=0.6)]
    for cand in pool:  # a word contained in a longer name is a good suggestion too
        if key and key in plain(cand) and cand not in found:
            found.append(cand)
    return found[:n]


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """A ``" (did you mean ...?)"`` suffix, or an empty string.

    >>> did_you_mean("medum", ["small", "medium", "large"])
    " (did you mean 'medium'?)"
    """
    matches = close_matches(word, candidates)
    if not matches:
        return ""

    return " " + _("(did you mean {names}?)").format(names=_(" or ").join(repr(m) for m in matches))


#: the kinds of name a user gives, as messages say them (marked for the catalogs)
KINDS = {"figure": N_("figure"), "card": N_("card"), "player": N_("player"), "die": N_("die"), "side (DS or LS)": N_("side (DS or LS)")}


#: the most names an unknown name's message lists where none is like it
LISTED_NAMES = 12


class UnknownNameError(AssistantError, LookupError):
    """A figure id or card name that does not exist."""

    def __init__(self, kind: str, name: str, candidates: Iterable[str]):
        self.kind, self.name = kind, name
        pool = list(candidates)
        self.suggestions = close_matches(name, pool)
        hint = did_you_mean(name, pool)

        if not hint and kind != "card" and pool:
            # nothing like it: the few names there are (a table's figures, its players), so a player
            # who mistyped one sees what to type; a card library's thousands are not listed
            shown = sorted(pool)[:LISTED_NAMES]
            more = "…" if len(pool) > LISTED_NAMES else ""
            hint = " " + _("(known: {names})").format(names=", ".join(shown) + more)
        super().__init__(_("unknown {kind} {name!r}{suggestion}").format(kind=_(KINDS.get(kind, kind)), name=name, suggestion=hint))


class AmbiguousNameError(AssistantError, LookupError):
    """A name that matches more than one thing."""

    def __init__(self, kind: str, name: str, matches: Sequence[str]):
        self.kind, self.name, self.matches = kind, name, tuple(matches)

        super().__init__(_("{kind} {name!r} is ambiguous: it matches {matches}").format(
            kind=_(KINDS.get(kind, kind)), name=name, matches=", ".join(repr(m) for m in matches)))


#: a missing number's name as the reader says it (reading R214): the JSON's ``what`` stays the
#: attack model's English, ``label`` and the messages say it in the reader's language
STAT_NAMES = {
    "Attack": N_("attack"), "Defense": N_("defense"), "Damage": N_("damage"), "AC": N_("AC"),
    "melee attack": N_("melee attack"), "melee damage": N_("melee damage"),
    "ranged attack": N_("ranged attack"), "ranged damage": N_("ranged damage"),
}


@dataclass(frozen=True)
class MissingStat:
    """A number a question needs that no card, inline stat or override gives: which figure, which
    stat (the key ``--stat`` takes), as the rules name it, and the card where it may be kept
    (the key ``cards set`` takes), when the figure has a card."""

    figure: str
    stat: str
    what: str
    card: str | None = None
    card_key: str | None = None
    #: the card's set: ``cards set`` names it, as the same name may be printed in several sets
    card_set: str | None = None

    def give(self) -> str:
        return f"--stat {self.figure}.{self.stat}=N"

    def label(self) -> str:
        """The number's name in the current language ("melee attack" is "atak wręcz" in Polish); in
        English, or where no translation is, as the attack model writes it ("Defense", as printed)."""

        name = STAT_NAMES.get(self.what)
        said = _(name) if name is not None else self.what
        return self.what if said == name else said

    def keep(self) -> str | None:
        if self.card is None or self.card_key is None:
            return None
        in_set = f' --set "{self.card_set}"' if self.card_set else ""
        return f'cards set "{self.card}" {self.card_key}=N{in_set}'

    def message(self, in_game: bool = False) -> str:
        """``in_game``: for a move of the game's log (``game attack``), which takes no ``--stat``:
        the number is kept for the card, or the damage recorded by hand."""

        if in_game and self.keep() is None:
            return _("{id}'s {what} is unknown ({id} has no card that gives it) and this game's position gives none: "
                     "record the outcome by hand with 'game damage', or start the game from a position with "
                     "'stats: {{{key}: N}}' on {id}").format(id=self.figure, what=self.label(), key=self.stat)
        if in_game:
            return _("{id}'s {what} is unknown (its card {card!r} does not give it): keep it for the card with: {keep}, "
                     "then record the attack again").format(id=self.figure, what=self.label(), card=self.card, keep=self.keep())
        if self.keep() is None:
            return _("{id}'s {what} is unknown ({id} has no card that gives it): give it for this question with {give}, "
                     "or add 'stats: {{{key}: N}}' to {id} in the position file").format(
                id=self.figure, what=self.label(), give=self.give(), key=self.stat)
        return _("{id}'s {what} is unknown (its card {card!r} does not give it): give it for this question with {give}, "
                 "or keep it for the card with: {keep}").format(id=self.figure, what=self.label(), card=self.card, give=self.give(), keep=self.keep())

    def page_message(self, in_game: bool = False) -> str:
        """:meth:`message` in the web page's words: its form asks the number and keeps it for the
        card ("keep for CARD"), where the command line names ``--stat`` and ``cards set`` (R173)."""

        if in_game and self.keep() is None:
            return _("{id}'s {what} is unknown ({id} has no card that gives it) and this game's position gives none: "
                     "record the outcome by hand with \u201cdamage\u201d").format(id=self.figure, what=self.label())
        if in_game:
            return _("{id}'s {what} is unknown (its card {card!r} does not give it): give it in the form with \u201ckeep for {card}\u201d "
                     "ticked, then record it again").format(id=self.figure, what=self.label(), card=self.card)
        if self.keep() is None:
            return _("{id}'s {what} is unknown ({id} has no card that gives it): give it in the form for this question").format(
                id=self.figure, what=self.label())
        return _("{id}'s {what} is unknown (its card {card!r} does not give it): give it in the form for this question, or keep it "
                 "for the card (\u201ckeep for {card}\u201d)").format(id=self.figure, what=self.label(), card=self.card)

    def as_json(self) -> dict[str, str | None]:
        return {"figure": self.figure, "stat": self.stat, "what": self.what, "label": self.label(), "card": self.card,
                "give": self.give(), "card_key": self.card_key, "card_set": self.card_set, "keep": self.keep()}


class MissingStatError(CommandLineWordsError):
    """A question that needs numbers nobody has given: every one of them, each with how to give
    it (``missing`` in the JSON answer); ``page`` says how in the web page's words (its form)."""

    def __init__(self, missing: Sequence[MissingStat], in_game: bool = False, text: str | None = None, page: str | None = None):
        """``text``: the message, where the question is not an attack (the default words say
        "record the attack again"); ``page``: the same in the web page's words (R173)."""
        self.missing = tuple(missing)
        #: whether a record of the game's log lacks the numbers (it takes no --stat: they are kept for the card)
        self.in_game = in_game
        super().__init__(text if text is not None else "; ".join(m.message(in_game) for m in self.missing),
                         page if page is not None else "; ".join(m.page_message(in_game) for m in self.missing))
