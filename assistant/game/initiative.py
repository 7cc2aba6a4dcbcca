"""Initiative: who wins the roll, with every reroll and how a tie was broken, for the record.

SWM (PL p.2; CS r.5): each player rolls a d20; the higher chooses who goes first; ties are
rerolled. DDM (§ Test inicjatywy p.8-9; glossary 'tied die rolls'): d20 + the highest rating
among the side's able commanders (not routing, stunned, helpless or confused); on a tie the
higher rating wins, else the tied players roll again.

>>> from assistant.game import Game
>>> from assistant.resources import example_path
>>> import tempfile, pathlib
>>> g = Game.new(pathlib.Path(tempfile.mkdtemp()) / "g.sqlite", example_path("clone-wars-corridor").read_text())
>>> d = decide(g.state(), {"light": [12, 15], "dark": [12, 3]})
>>> d["winner"], d["rerolls"], d["tie_break"]
('light', [{'light': 12, 'dark': 12}], 'rerolled once after a tie (swm2008 PL p.2 (ties are rerolled))')
>>> g.close()
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import AssistantError, CommandLineWordsError
from ..i18n import _, language, n_, side_name
from ..rules.record import find_edition
from .referee import rating_unknown
from .state import GameState

if TYPE_CHECKING:
    from ..rules.params import TurnRules


def commander_ratings(st: GameState) -> dict[str, int]:
    """DDM: each side's best able commander rating (0 without one); SWM: nothing."""
    if not st.turn_rules.morale:
        return {}
    out: dict[str, int] = {}
    rec = find_edition(st.position.edition)  # a commander stunned, routing, confused ... adds nothing (R185)
    for s in st.sides():
        able = [st.position.stats_of(f).commander_rating for f in st.position.figures if f.side == s and not rec.unable_to_react(f.conditions)]
        out[s] = max((r for r in able if isinstance(r, int)), default=0)
    return out


def unknown_ratings(st: GameState) -> dict[str, list[str]]:
    """DDM: each side's able creatures whose Commander rating nobody gives (no number on the
    position or the card, and no card that says it has none): one of them may be a commander."""
    if not st.turn_rules.morale:
        return {}
    pos = st.position
    out: dict[str, list[str]] = {}
    for f in pos.figures:
        if not find_edition(pos.edition).unable_to_react(f.conditions) and rating_unknown(pos, f):
            out.setdefault(f.side, []).append(f.id)
    return out


_REROLLED = re.compile(r"rerolled (?:once|(\d+) times) after a tie \(.*\)")
_BY_RATING = re.compile(r"tied at (\d+): (\S+)'s commander rating (\d+) beats (.+?) \(.*\)")


def tie_break_words(recorded: str, tr: TurnRules) -> str:
    """The tie-break ``decide`` recorded (English, the log's data), in the reader's language with
    the rule cited afresh; a text in another form is shown as recorded."""
    rule = tr.cite(tr.cite_initiative_tie)
    if m := _REROLLED.fullmatch(recorded):
        n = int(m.group(1) or 1)
        return n_("rerolled once after a tie ({rule})", "rerolled {n} times after a tie ({rule})", n).format(n=n, rule=rule)
    if m := _BY_RATING.fullmatch(recorded):
        others = ", ".join(f"{side_name(s)} {r}" for s, _sep, r in (o.rpartition(" ") for o in m.group(4).split(", ")))
        return _("tied at {total}: {side}'s commander rating {rating} beats {others} ({rule})").format(
            total=m.group(1), side=side_name(m.group(2)), rating=m.group(3), others=others, rule=rule)
    return recorded


def decide(st: GameState, given: dict[str, list[int]], roller: Callable[[], int] | None = None) -> dict[str, Any]:
    """The event data of an initiative roll: final rolls and totals, earlier tied rolls, the
    tie-break in words, and the winner. ``given`` holds each side's rolls in order (rerolls
    after the first); ``roller`` rolls whatever the table did not give."""
    tr = st.turn_rules
    ratings = commander_ratings(st)
    sides = st.sides()
    if not sides:
        raise AssistantError(_("no figures on the table: nobody rolls initiative"))
    contenders = list(sides)
    final: dict[str, int] = {}
    history: list[dict[str, int]] = []
    tie_break: str | None = None
    with language("en"):  # the log's data is English; tie_break_words says it in the reader's language
        recorded_rule = tr.cite(tr.cite_initiative_tie)
    for attempt in range(100):
        rolls: dict[str, int] = {}
        for s in contenders:
            seq = given.get(s, [])
            if attempt < len(seq):
                rolls[s] = seq[attempt]
            elif roller is not None:
                rolls[s] = roller()
            else:
                tied = ", ".join(f"{x} {history[-1][x] if history else rolls.get(x)}" for x in contenders)
                said = {"tied": tied, "contenders": contenders[0], "names": ','.join(str(v) for v in seq), "rule": tr.cite(tr.cite_initiative_tie)}
                # the page's initiative fields take the rerolls as "5,N" (reading R182), not the command line's flag
                raise CommandLineWordsError(
                    _("tie ({tied}): reroll and give the tied sides' rolls in order, e.g. --roll {contenders}={names},N ({rule})").format(**said),
                    _("tie ({tied}): reroll, and write each tied side's rolls in order in its field, e.g. {names},N ({rule})").format(**said))
        final.update(rolls)
        totals = {s: rolls[s] + ratings.get(s, 0) for s in contenders}
        top = max(totals.values())
        leaders = [s for s in contenders if totals[s] == top]
        if len(leaders) > 1 and ratings:
            best = max(ratings[s] for s in leaders)
            higher = [s for s in leaders if ratings[s] == best]
            if len(higher) == 1:
                others = ", ".join(f"{s} {ratings[s]}" for s in leaders if s != higher[0])
                tie_break = f"tied at {top}: {higher[0]}'s commander rating {best} beats {others} ({recorded_rule})"
            leaders = higher
        if len(leaders) == 1:
            winner = leaders[0]
            break
        history.append(rolls)
        contenders = leaders
    else:
        raise AssistantError(_("initiative is still tied after 100 rolls"))
    extra = [s for s, seq in given.items() if len(seq) > len(history) + 1 or (s not in contenders and len(seq) > 1)]
    if extra:
        raise AssistantError(
            _("--roll {extra}: more rolls than the initiative needed (it was settled on roll {settled})").format(extra=extra[0], settled=len(history) + 1)
        )
    if history and tie_break is None:
        n = len(history)
        tie_break = f"rerolled {'once' if n == 1 else f'{n} times'} after a tie ({recorded_rule})"
    data: dict[str, Any] = {
        "rolls": final,
        "totals": {s: final[s] + ratings.get(s, 0) for s in sides},
        "winner": winner,
        "rerolls": history,
        "tie_break": tie_break,
    }
    if ratings:
        data["ratings"] = ratings
    # an unknown Commander rating on a side that did not win could have won it the roll: the
    # roll is recorded with it read as none, and the answer and the log say so (reading R160);
    # the winner's own could only raise its total
    unknown = {s: ids for s, ids in unknown_ratings(st).items() if s != winner}
    if unknown:
        data["unknown_ratings"] = unknown
    return data
