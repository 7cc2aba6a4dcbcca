"""Numbers given for one question: ``--stat obi.attack=14`` overrides a figure's stats for that
question only (the card library and the position file stay as they are).

>>> parse_stat("obi.attack=14")
('obi', 'attack', 14)
>>> parse_stat(" ranger.ranged_attack = -1 ")
('ranger', 'ranged_attack', -1)
>>> parse_stat("ogre.ac=18")  # the DDM card's word for its defense
('ogre', 'defense', 18)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import fields, replace
from typing import Any

from .errors import CommandLineWordsError, did_you_mean
from .i18n import _
from .model import Position, Stats

#: the stats a question may be given (the position file's ``stats:`` keys, abilities aside)
STAT_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Stats) if f.name != "abilities")

#: a card's own words for the same numbers (the DDM cards' AC, the library's ``melee_attack``, which a
#: refusal names for ``cards set``), taken by the stat they are (reading R268 in docs/readings.md)
CARD_WORDS: dict[str, str] = {"ac": "defense", "melee_attack": "attack", "hit_points": "hp"}

_STAT_RE = re.compile(r"^\s*(?P<figure>[^.=\s]+)\s*\.\s*(?P<stat>[A-Za-z_]+)\s*=\s*(?P<value>[+-]?\d+)\s*$")


def _refused(said: str, **values: Any) -> CommandLineWordsError:
    """A refusal of a number given, naming ``--stat`` on the command line and the field's label on
    the web page (R173)."""
    return CommandLineWordsError(said.format(flag="--stat", **values),
                                 said.format(flag="\u201c" + _("numbers given (name.stat=N)") + "\u201d", **values))


def parse_stat(text: str) -> tuple[str, str, int]:
    """(figure id, stat, value) of ``ID.STAT=N``; anything else is refused, naming it."""
    m = _STAT_RE.match(text)
    if m is None:
        raise _refused(_("{flag} {text!r} is not ID.STAT=N (for example obi.attack=14)"), text=text)
    if len(m.group("value").lstrip("+-")) > 6:  # no card prints such a number; int() of it is slow past thousands
        raise _refused(_("{flag} {text!r}: {value} is longer than 6 digits"), text=text, value=m.group("value"))
    stat = m.group("stat").lower()
    stat = CARD_WORDS.get(stat, stat)
    if stat not in STAT_NAMES:
        raise _refused(_("{flag} {text!r}: {stat!r} is not a stat; stats: {names}{hint}"),
                       text=text, stat=stat, names=", ".join(STAT_NAMES), hint=did_you_mean(stat, STAT_NAMES))
    value = int(m.group("value"))
    if value < 0 and stat not in ("attack", "ranged_attack"):
        raise _refused(_("{flag} {text!r}: {stat} is never below 0"), text=text, stat=stat)
    return m.group("figure"), stat, value


def with_stats(pos: Position, given: Mapping[tuple[str, str], int]) -> Position:
    """The position with these (figure, stat) values over each figure's stats."""
    if not given:
        return pos
    by_figure: dict[str, dict[str, Any]] = {}  # stat name -> value, as Stats takes them
    for (fig, stat), value in given.items():
        pos.figure(fig)  # an unknown id is refused with close matches
        by_figure.setdefault(fig, {})[stat] = value
    figures = tuple(replace(f, stats=f.stats.overlay(replace(Stats(), **by_figure[f.id]))) if f.id in by_figure else f for f in pos.figures)
    return replace(pos, figures=figures)


def apply_stat_options(pos: Position, texts: Iterable[str] | None) -> Position:
    """The position with every ``--stat ID.STAT=N`` applied (a figure id that is not there is refused)."""
    given: dict[tuple[str, str], int] = {}
    for text in texts or ():
        fig, stat, value = parse_stat(text)
        given[(fig, stat)] = value
    return with_stats(pos, given)
