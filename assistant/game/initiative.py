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

from ..abilities import has
from ..editions import cite_for
from ..errors import AssistantError, CommandLineWordsError
from ..i18n import _, language, n_, side_name
from ..rules import engine
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


def _recon_pair(st: GameState, side: str, figure: str, seq: list[int], attempt: int, roller: Callable[[], int] | None) -> list[int]:
    """The two d20s a Recon side rolls on this roll (the ``attempt``-th), as given or rolled here."""
    given = seq[2 * attempt:2 * attempt + 2]
    if len(given) == 2:
        return given
    if roller is not None and not given:
        return [roller(), roller()]
    rule = cite_for(st.position.edition, RECON_RULE)
    example = [str(v) for v in seq[:2 * attempt] + given] + ["N"] * (2 - len(given))
    said = {"side": side, "figure": figure, "rule": rule, "names": ",".join(example)}
    raise CommandLineWordsError(
        _("{side} has Recon ({figure} sees an enemy): it rolls two d20s and keeps the higher; give both for each roll, e.g. --roll {side}={names} "
          "({rule}; reading R253 in docs/readings.md)").format(**said),
        _("{side} has Recon ({figure} sees an enemy): it rolls two d20s and keeps the higher; write both for each roll in its field, e.g. {names} "
          "({rule}; reading R253 in docs/readings.md)").format(**said))


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


#: where the SWM rulebooks give Recon and Never Tell Me The Odds (reading R253 in docs/readings.md)
RECON_RULE = "PL p.58; CS g.10"
NEVER_TELL_RULE = "PL p.55"


def recon_sides(st: GameState) -> tuple[dict[str, str], dict[str, str]]:
    """SWM Recon (PL p.58; CS g.10): each side with a figure with Recon that has line of sight to an
    enemy, with that figure: the side rolls two d20s for initiative and keeps the higher, on a
    rerolled tie too, once however many Recon figures it has. Not while an enemy with Never Tell Me
    The Odds is in play, where the edition gives it (PL p.55): those sides come second, with the
    enemy that stops it. Reading R253."""

    pos = st.position
    rec = find_edition(pos.edition)
    using: dict[str, str] = {}
    stopped: dict[str, str] = {}
    if not rec.defines("Recon"):
        return using, stopped
    for f in pos.figures:
        if f.side in using or f.side in stopped or not has(pos.stats_of(f).abilities, "Recon"):
            continue
        enemies = [e for e in pos.figures if e.side != f.side]
        if not any(engine.sight(pos, f.id, e.id).line_of_sight for e in enemies):
            continue
        odds = [e.id for e in enemies if rec.defines("Never Tell Me The Odds") and has(pos.stats_of(e).abilities, "Never Tell Me The Odds")]
        if odds:
            stopped[f.side] = odds[0]
        else:
            using[f.side] = f.id
    return using, stopped


def recon_words(st: GameState, data: dict[str, Any]) -> str:
    """What Recon did to an initiative roll, for the log: the two d20s a side rolled and kept the
    higher of, or the enemy whose Never Tell Me The Odds stopped it (reading R253)."""
    out = ""
    recon = data.get("recon")
    for side, said in (recon.items() if isinstance(recon, dict) else ()):
        dice = said.get("dice") if isinstance(said, dict) else None
        if not isinstance(dice, list) or len(dice) < 2:
            continue
        pairs = ", ".join(f"{max(dice[i:i + 2])} ({dice[i]}/{dice[i + 1]})" for i in range(0, len(dice) - 1, 2))
        out += "; " + _("{side} rolled two d20s each time by {figure}'s Recon and kept the higher: {pairs} ({rule}; reading R253 in docs/readings.md)").format(
            side=side_name(side), figure=said.get("figure"), pairs=pairs, rule=cite_for(st.position.edition, RECON_RULE))
    stopped = data.get("recon_stopped")
    for side, by in (stopped.items() if isinstance(stopped, dict) else ()):
        out += "; " + _("{side}'s Recon does not work: {by} has Never Tell Me The Odds ({rule})").format(
            side=side_name(side), by=by, rule=cite_for(st.position.edition, NEVER_TELL_RULE))
    return out


#: where the 2008 rulebook gives Master Tactician (reading R273)
TACTICIAN_RULE = "PL p.53"


def master_tacticians(st: GameState) -> dict[str, str]:
    """swm2008 Master Tactician (PL p.53: "Rzuć na inicjatywę jak normalnie, ale zawsze ty decydujesz,
    kto zaczyna chyba, że wyrzucisz 1. Remisy są nadal powtarzane. Jeśli więcej niż jedna drużyna
    posiada postać z umiejętnością Mistrz Taktyki, gracz z większą wartością rzutu na inicjatywę
    wybiera, kto zaczyna."): each side with a figure that has it, with that figure (reading R273)."""

    pos = st.position
    if not find_edition(pos.edition).defines("Master Tactician"):
        return {}
    out: dict[str, str] = {}
    for f in pos.figures:
        if f.side not in out and has(pos.stats_of(f).abilities, "Master Tactician"):
            out[f.side] = f.id
    return out


def tactician_words(st: GameState, data: dict[str, Any]) -> str:
    """What Master Tactician did to an initiative roll, for the log (reading R273)."""
    said = data.get("master_tactician")
    if not isinstance(said, dict):
        return ""
    return "; " + _("{side} decides who goes first by {figure}'s Master Tactician: it did not roll a 1 ({rule}; reading R273 in docs/readings.md)").format(
        side=side_name(str(said.get("side"))), figure=said.get("figure"), rule=cite_for(st.position.edition, TACTICIAN_RULE))


#: where each SWM rulebook gives Anticipation (reading R289)
ANTICIPATION_RULE = "PL p.33; CS g.1"


def anticipation_check(st: GameState, figure: str) -> tuple[str, str]:
    """SWM Anticipation (PL p.33: "(Moc; 1 Punkt Mocy) Po określeniu inicjatywy, postać używająca tej
    Mocy może powtórzyć rzut na inicjatywę. Drugi wynik rzutu należy zaakceptować nawet, jeśli jest
    gorszy. Można to wykonać tylko raz na rundę, niezależnie od ilości postaci posiadających
    Przewidywanie. Jeśli inna umiejętność specjalna lub Moc pozwala rzucić dwa razy na inicjatywę, to
    używając Przewidywania można powtórzyć oba rzuty."; CS g.1 the same): the figure's side, and the
    rule cited; refused where the edition gives no Anticipation, the figure lacks it, or it has no
    Force point left (reading R289)."""

    pos = st.position
    rule = cite_for(pos.edition, ANTICIPATION_RULE)
    f = st.figure(figure)
    if not find_edition(pos.edition).defines("Anticipation"):
        raise AssistantError(_("--anticipation {figure}: the {rules} rules give no Anticipation").format(figure=figure, rules=pos.edition.value))
    if not has(pos.stats_of(f).abilities, "Anticipation"):
        raise AssistantError(_("--anticipation {figure}: {figure} has no Anticipation ({rule})").format(figure=figure, rule=rule))
    force = pos.stats_of(f).force
    if force is not None and force < 1:
        raise AssistantError(_("--anticipation {figure}: Anticipation costs 1 Force point and {figure} has none left ({rule})").format(
            figure=figure, rule=rule))
    return f.side, rule


def anticipation_words(st: GameState, data: dict[str, Any]) -> str:
    """What Anticipation did to an initiative roll, for the log (reading R289)."""
    out = ""
    said = data.get("anticipation")
    for one in (said if isinstance(said, list) else ()):
        if isinstance(one, dict):
            out += "; " + _("{side} rerolled by {figure}'s Anticipation (1 Force point): {before} -> {after}, the second roll kept ({rule}; "
                            "reading R289 in docs/readings.md)").format(side=side_name(str(one.get("side"))), figure=one.get("figure"),
                                                                        before=one.get("before"), after=one.get("after"),
                                                                        rule=cite_for(st.position.edition, ANTICIPATION_RULE))
    return out


def decide(st: GameState, given: dict[str, list[int]], roller: Callable[[], int] | None = None,
           anticipation: dict[str, list[int]] | None = None) -> dict[str, Any]:
    """The event data of an initiative roll: final rolls and totals, earlier tied rolls, the
    tie-break in words, and the winner. ``given`` holds each side's rolls in order (rerolls
    after the first; a side with Recon gives two d20s a roll, R253); ``roller`` rolls whatever the
    table did not give. ``anticipation``: a figure using Anticipation once the roll is settled, with
    its side's reroll (two d20s for a Recon side; empty: rolled here), the second roll kept and a
    tie then rerolled as always (reading R289)."""
    tr = st.turn_rules
    ratings = commander_ratings(st)
    recon, recon_stopped = recon_sides(st)
    sides = st.sides()
    if not sides:
        raise AssistantError(_("no figures on the table: nobody rolls initiative"))
    contenders = list(sides)
    final: dict[str, int] = {}
    history: list[dict[str, int]] = []
    tie_break: str | None = None
    with language("en"):  # the log's data is English; tie_break_words says it in the reader's language
        recorded_rule = tr.cite(tr.cite_initiative_tie)
    dice: dict[str, list[int]] = {}  # a Recon side's d20s, two a roll
    used = {s: 0 for s in sides}  # each side's rolls taken so far (a Recon side's pairs count one)
    pending = list((anticipation or {}).items())
    anticipated: list[dict[str, Any]] = []
    def lead(among: list[str]) -> tuple[list[str], str | None]:
        """The sides on top among ``among`` by their kept rolls (DDM: a tie to the higher commander
        rating, with that tie-break in words)."""
        totals = {s: final[s] + ratings.get(s, 0) for s in among}
        top = max(totals.values())
        leaders = [s for s in among if totals[s] == top]
        if len(leaders) > 1 and ratings:
            best = max(ratings[s] for s in leaders)
            higher = [s for s in leaders if ratings[s] == best]
            others = ", ".join(f"{s} {ratings[s]}" for s in leaders if s != higher[0])
            said = f"tied at {top}: {higher[0]}'s commander rating {best} beats {others} ({recorded_rule})" if len(higher) == 1 else None
            return higher, said
        return leaders, None

    for _attempt in range(100):
        rolls: dict[str, int] = {}
        for s in contenders:
            seq = given.get(s, [])
            n = used[s]
            if s in recon:
                pair = _recon_pair(st, s, recon[s], seq, n, roller)
                dice.setdefault(s, []).extend(pair)
                rolls[s] = max(pair)
            elif n < len(seq):
                rolls[s] = seq[n]
            elif roller is not None:
                rolls[s] = roller()
            else:
                tied = ", ".join(f"{x} {history[-1][x] if history else rolls.get(x)}" for x in contenders)
                said = {"tied": tied, "contenders": contenders[0], "names": ','.join(str(v) for v in seq), "rule": tr.cite(tr.cite_initiative_tie)}
                # the page's initiative fields take the rerolls as "5,N" (reading R182), not the command line's flag
                raise CommandLineWordsError(
                    _("tie ({tied}): reroll and give the tied sides' rolls in order, e.g. --roll {contenders}={names},N ({rule})").format(**said),
                    _("tie ({tied}): reroll, and write each tied side's rolls in order in its field, e.g. {names},N ({rule})").format(**said))
            used[s] = n + 1
        final.update(rolls)
        leaders, by_rating = lead(contenders)
        tie_break = by_rating or tie_break
        while len(leaders) == 1 and pending:
            # Anticipation once the roll is settled: the side rerolls, keeps the second roll and
            # the sides then compare again, a tie rerolled as always (PL p.33; CS g.1; R289)
            figure, reroll = pending.pop(0)
            side, rule = anticipation_check(st, figure)
            if any(a["side"] == side for a in anticipated):
                raise AssistantError(_("--anticipation {figure}: {side} has used Anticipation this round; once a round, whatever the number of "
                                       "its figures with it ({rule})").format(figure=figure, side=side_name(side), rule=rule))
            width = 2 if side in recon else 1
            if reroll and len(reroll) != width:
                raise AssistantError(n_("--anticipation {figure}: give its side's reroll as {n} d20 ({rule})",
                                        "--anticipation {figure}: give its side's reroll as {n} d20s, the higher kept ({rule})", width).format(
                    figure=figure, n=width, rule=rule))
            if not reroll and roller is None:
                raise CommandLineWordsError(
                    _("--anticipation {figure}: give its side's reroll, e.g. --anticipation {figure}={example} ({rule})").format(
                        figure=figure, example=",".join(["N"] * width), rule=rule),
                    _("Anticipation of {figure}: write its side's reroll, e.g. {example} ({rule})").format(
                        figure=figure, example=",".join(["N"] * width), rule=rule))
            new = list(reroll) if reroll else [roller() for _i in range(width)] if roller is not None else []
            if side in recon:
                dice.setdefault(side, []).extend(new)
            anticipated.append({"figure": figure, "side": side, "before": final[side], "after": max(new), "dice": new})
            final[side] = max(new)
            contenders = list(sides)
            leaders, by_rating = lead(contenders)
            tie_break = by_rating or tie_break
        if len(leaders) == 1:
            winner = leaders[0]
            break
        history.append({s: final[s] for s in leaders} if anticipated else rolls)
        contenders = leaders
    else:
        raise AssistantError(_("initiative is still tied after 100 rolls"))
    # Master Tactician: the one side with it decides who goes first unless it rolled a 1 (ties are rerolled
    # all the same); where more than one side has it, the higher roll decides, as without it (R273)
    tacticians = master_tacticians(st)
    tactician = next(iter(tacticians), None) if len(tacticians) == 1 else None
    decider = tactician if tactician is not None and final.get(tactician) != 1 else None
    per = {s: 2 if s in recon else 1 for s in given}
    extra = [s for s, seq in given.items() if len(seq) > per[s] * used.get(s, 0)]
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
        "winner": decider or winner,
        "rerolls": history,
        "tie_break": tie_break,
    }
    if ratings:
        data["ratings"] = ratings
    if dice:
        data["recon"] = {s: {"figure": recon[s], "dice": d} for s, d in dice.items()}
    if recon_stopped:
        data["recon_stopped"] = recon_stopped
    if decider is not None:
        data["master_tactician"] = {"side": decider, "figure": tacticians[decider]}
    if anticipated:
        data["anticipation"] = anticipated
    # an unknown Commander rating on a side that did not win could have won it the roll: the
    # roll is recorded with it read as none, and the answer and the log say so (reading R160);
    # the winner's own could only raise its total
    unknown = {s: ids for s, ids in unknown_ratings(st).items() if s != winner}
    if unknown:
        data["unknown_ratings"] = unknown
    return data
