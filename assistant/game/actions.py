"""What a player's command becomes in the game log: the checks and the event's data.

Shared by every edge -- the CLI (``game move``), the web app and the shell -- so that each
records exactly the same events for the same command. Each function reads the game's state,
applies the rules (refusing with :class:`~assistant.game.RefusedError` unless overridden) and
returns the data of the event to record; none writes anything.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

from ..coords import Square
from ..errors import AssistantError, CommandLineWordsError, MissingStatError
from ..i18n import _, condition_name, side_name
from ..rules.record import find_edition
from ..textsafe import markdown_shown
from . import RefusedError
from .effects import force_paid
from .initiative import decide
from .outcome import after_hit, roll_outcome, save_made
from .referee import plan_move
from .state import GameState, check
from .store import export_chain


def power_event(st: GameState, figure: str, target: str, name: str, saves: list[str], override: str | None = None) -> dict[str, Any]:
    """A Force power used at the table (``game power``): who is struck, for how much, through the
    saves each makes (``--save ID:ABILITY=N``; ``ID:save=N`` for the power's own save)."""
    from ..rules.powers import use_power  # start-up time: the Force powers only when one is used

    _turn_refusals(st, "power", {"figure": figure, "target": target, "power": name}, override)
    ans = use_power(st.position, figure, target, name)
    refuse_unless(ans, override)
    if ans.roll == "attack":  # its attacks are rolled one by one at the table
        raise CommandLineWordsError(
            _(
                "{power} is made of attacks: record each with 'game attack {u} TARGET --roll N --override \"{power}\"' and the Force point with 'game force "
                "{u} -{cost}'"
            ).format(power=ans.power, u=figure, cost=ans.cost),
            # the web page's words: its verbs' labels and its override field, no command line (R173)
            _("{power} is made of attacks: record each as an attack of {u} (“record an attack”) with “{power}” as the override "
              "reason, and the Force point spent with “Force points” ({u}, -{cost})").format(power=ans.power, u=figure, cost=ans.cost),
        )
    per: dict[str, list[str]] = {}
    for item in saves:
        who, colon, rest = item.partition(":")
        if not colon or not rest:
            raise CommandLineWordsError(
                _("--save {item!r}: write ID:ABILITY=N, e.g. {example}").format(item=item, example=f"{target}:Shields=11,8"),
                # the page's power form takes it in its "save as rolled" field (R197)
                _("'{field}' {item!r}: write ID:ABILITY=N, e.g. {example}").format(
                    field=_("save as rolled"), item=item, example=f"{target}:Shields=11,8"))
        st.figure(who.strip())
        per.setdefault(who.strip(), []).append(rest)
    struck: list[dict[str, Any]] = []
    save = ans.save or {}
    effect = save.get("effect")
    save_adds_level = find_edition(st.rules).attack.save_adds_level  # DDM: d20 + Level against a DC; SWM: a d20 against a number
    for s in ans.struck:
        rolls = parse_save_rolls(per.get(s.figure, []))
        damage = s.damage
        if effect in ("half damage", "no damage"):  # the power's own save, made by each character struck
            own = rolls.pop("save", None)
            if own is None:
                # the page's power form takes it in its "save as rolled" field, not the command line's flag (R197)
                raise CommandLineWordsError(
                    (
                        _("{t} makes a save against DC {n} (d20 + Level) against {power}: give the d20 as rolled (--save {t}:save=N)")
                        if save_adds_level
                        else _("{t} makes a save of {n} against {power}: give it as rolled (--save {t}:save=N)")
                    ).format(t=s.figure, n=save["needs"], power=ans.power),
                    (
                        _("{t} makes a save against DC {n} (d20 + Level) against {power}: write the d20 as rolled under '{field}' ({t}:save=N)")
                        if save_adds_level
                        else _("{t} makes a save of {n} against {power}: write it as rolled under '{field}' ({t}:save=N)")
                    ).format(t=s.figure, n=save["needs"], power=ans.power, field=_("save as rolled")),
                )
            needs = int(save["needs"])
            if save_adds_level:  # d20 + Level against the DC
                needs -= st.position.stats_of(st.figure(s.figure)).level or 0
            if own[0] is not None and save_made(own[0], needs):
                damage = s.on_save if s.on_save is not None else damage // 2 if effect == "half damage" else 0
        dealt, _spent, used = after_hit(s.steps, damage, rolls)
        struck.append({"figure": s.figure, "damage": dealt, **({"saves": used} if used else {})})
    out: dict[str, Any] = {"figure": figure, "target": target, "power": ans.power, "cost": ans.cost, "struck": struck}
    if ans.replaces != "attacks":
        out["replaces"] = ans.replaces
    if ans.heals:
        out["heal"] = sum(int(x["damage"]) for x in struck)
    return out


def parse_save_rolls(items: Iterable[str] | None) -> dict[str, list[int | None]]:
    """``--save "Parry=12"``, ``--save "Shields=11,8"``, ``--save "Lightsaber Block=no"``."""
    out: dict[str, list[int | None]] = {}
    for item in items or ():
        name, _eq, rolls = item.partition("=")
        values: list[int | None] = []
        for x in rolls.split(","):
            x = x.strip().lower()
            if x in ("no", "-", "none"):
                values.append(None)
            elif x.isdigit() and 1 <= int(x) <= 20:
                values.append(int(x))
            else:
                raise _save_words_error(item)
        if not name.strip() or not values:
            raise _save_words_error(item)
        out[name.strip()] = values
    return out


def _save_words_error(item: str) -> CommandLineWordsError:
    """A save's rolls not written as ABILITY=N: said with the command line's flag, and with the
    page's field for the web (R197)."""
    return CommandLineWordsError(
        _("--save {item!r}: write ABILITY=N (a d20 as rolled), N,N for several saves, or ABILITY=no").format(item=item),
        _("'{field}' {item!r}: write ABILITY=N (a d20 as rolled), N,N for several saves, or ABILITY=no").format(
            field=_("save as rolled"), item=item))


def _turn_refusals(st: GameState, kind: str, data: dict[str, Any], override: str | None) -> None:
    """The turn's refusals first (whose turn, how many attacks), before the dice are asked for."""

    reasons = check(st, kind, data)
    if reasons and not override:
        raise RefusedError(reasons)


def refuse_unless(ans: Any, override: str | None) -> None:
    if not ans.legal and not override:

        # legal None (a DDM area at its template's edge): only the table can tell, so a judge records it
        raise RefusedError(list(ans.illegal_reasons) or list(getattr(ans, "undecided", ())))


def record(game: Any, kind: str, data: dict[str, Any], override: str | None = None) -> tuple[Any, Any]:
    """Append one event to an open :class:`~assistant.game.Game` (then closed): the event and
    its log entry (text, round, phase), as every edge reports it."""
    try:
        ev = game.do(kind, data, override)
        entry = game.state().entries[-1]
    finally:
        game.close()
    return ev, entry


def move_event(
    st: GameState, figure: str, dest: Square, *, burrow: bool = False, tow: tuple[str, Square] | None = None, surprise: bool = False
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The move's data (path and cost, checked by the referee when recorded) and its notes
    (enemies whose reach it leaves, ...); ``burrow``: DDM Burrow underground; ``tow``: SWM Tow
    Cable's ally and the square it ends on; ``surprise``: SWM Surprise Move before any activation."""

    plan = plan_move(st, figure, dest, burrow=burrow, tow=tow, surprise=surprise)
    data = plan.data(figure, dest) if plan.route.cost is not None else {"figure": figure, "to": dest.name, "cost": 0, **plan.extra}
    return data, tuple(plan.notes)


def attack_event(
    st: GameState,
    attacker: str,
    target: str,
    roll: int,
    helpers: tuple[str, ...] = (),
    ranged: bool = False,
    override: str | None = None,
    after: dict[str, list[int | None]] | None = None,
    reroll: int | None = None,
    spend_force: str | None = None,
) -> dict[str, Any]:
    """An attack with the d20 as rolled at the table: hit or miss, critical, damage (``reroll``:
    the d20 a Force point rerolled it to, :func:`roll_outcome`; ``spend_force``: the Force power a
    Force point bought before the roll, paid once a turn for Sith Rage, reading R251)."""
    from ..rules.attack import attack  # start-up time: the attack rules only when a verb attacks

    st.figure(attacker), st.figure(target)
    if not 1 <= roll <= 20:
        raise AssistantError(_("a d20 shows 1 to 20, not {roll}").format(roll=roll))
    moved = bool(st.turn and st.turn.figure == attacker and st.turn.moved > 0)
    kind = ("ranged" if ranged else None) if st.turn_rules.attack_lines_from_card else None  # the card's melee or ranged line
    _turn_refusals(st, "attack", {"attacker": attacker, "target": target}, override)
    try:
        ans = attack(st.position, attacker, target, moved=moved, combined_fire=helpers, kind=kind, spend_force=spend_force,
                     force_paid=force_paid(st, attacker, spend_force))
    except MissingStatError as exc:  # asked as the game's log can take it: no --stat here
        raise MissingStatError(exc.missing, in_game=True) from None
    refuse_unless(ans, override)
    if ans.unasked:  # overridden: the roll is now read against numbers, which are asked, never stood in for
        raise MissingStatError(ans.unasked, in_game=True)
    if reroll is not None and not 1 <= reroll <= 20:
        raise AssistantError(_("a d20 shows 1 to 20, not {roll}").format(roll=reroll))
    return {"attacker": attacker, "target": target, **roll_outcome(ans, roll, after, reroll), "helpers": list(ans.helpers)}


def parse_initiative_rolls(st: GameState, items: Iterable[str]) -> dict[str, list[int]]:
    """``SIDE=N`` (or ``SIDE=N,N2`` with the rerolls after a tie) for each side."""
    sides = st.sides()
    given: dict[str, list[int]] = {}
    for item in items:
        side, _eq, ns = item.partition("=")
        values = [n.strip() for n in ns.split(",")]
        if side not in sides or not values or not all(v.isascii() and v.isdigit() and 1 <= int(v) <= 20 for v in values):
            raise AssistantError(
                _("--roll {item!r}: write SIDE=N (or SIDE=N,N2 with rerolls) with a side of this game ({names}) and N from 1 to 20").format(
                    item=item, names=', '.join(sides)
                )
            )
        given[side] = [int(v) for v in values]
    return given


def parse_anticipation(st: GameState, items: Iterable[str]) -> dict[str, list[int]]:
    """``FIGURE=N`` (``FIGURE=N,N2`` for a Recon side; ``FIGURE`` alone with ``--auto``): a figure
    using Anticipation once the initiative roll is settled, with its side's reroll (reading R289)."""
    out: dict[str, list[int]] = {}
    for item in items:
        figure, _eq, ns = item.partition("=")
        values = [n.strip() for n in ns.split(",")] if ns.strip() else []
        if figure not in {f.id for f in st.position.figures} or not all(v.isascii() and v.isdigit() and 1 <= int(v) <= 20 for v in values):
            raise AssistantError(_("--anticipation {item!r}: write FIGURE=N (FIGURE=N,N2 for a side with Recon) with a figure of this game and N "
                                   "from 1 to 20").format(item=item))
        out[figure] = [int(v) for v in values]
    return out


def initiative_event(st: GameState, given: dict[str, list[int]], auto: bool = False, first: str | None = None,
                     anticipation: dict[str, list[int]] | None = None) -> dict[str, Any]:
    """Initiative for a new round from the rolls given (or rolled here with ``auto``); ``anticipation``:
    the figures using Anticipation once it is settled, with their sides' rerolls (R289)."""

    sides = st.sides()
    if not auto:
        missing = [s for s in sides if s not in given]
        if missing:
            raise CommandLineWordsError(_("no roll for {names}: give --roll SIDE=N for every side, or --auto").format(names=', '.join(missing)),
                                        _("no roll for {names}: give every side's d20, or let the assistant roll").format(names=', '.join(missing)))
    data = decide(st, given, (lambda: random.randint(1, 20)) if auto else None, anticipation)
    if first is not None and first not in sides:
        raise AssistantError(_("--first {first!r} is not a side of this game ({names})").format(first=first, names=', '.join(sides)))
    data["first"] = first or data["winner"]
    return data


def status_info(st: GameState) -> dict[str, Any]:
    """The status as one JSON-ready object (the CLI's --json, the web's status bar)."""
    pos = st.position
    return {
        "query": "status",
        "rules": st.rules.value,
        "round": st.round,
        "phase": st.phase,
        "next": st.expected_side(),
        "active": st.active,
        "moved": st.moved,
        "turn": (
            {
                "figure": st.turn.figure,
                "moved_before": st.turn.moved_before,
                "moved_after": st.turn.moved_after,
                "attacks": st.turn.attacks,
                "charged": st.turn.charged,
                "faster": st.turn.faster,  # SWM Move Faster: squares its Force points added
            }
            if st.turn
            else None
        ),
        "may_activate": {s: [f.id for f in st.unactivated(s)] for s in st.sides()},
        "figures": figure_rows(pos),
        "defeated": st.defeated,
        "fallen": {k: v.text(k) for k, v in st.fallen.items()},
        "round_over": st.round > 0 and st.round_over(),
        "vp": st.vp,
        # keyed by the creature's id: a tool reads who owes the save in every language (the sentence is for people)
        "morale_due": {fid: {"level": pos.stats_of(st.figure(fid)).level, "text": text} for fid, text in st.morale_due.items()},
        "force_spends": dict(st.force_spends),  # SWM: Force spends this turn, by figure (once per turn)
        "quiet_rounds": st.quiet_rounds,
        "winner": st.winner(),
        "ended": st.ended,
        "over": st.over(),
        "tie_break": st.quiet_rounds >= 10,
        "aboard": {fid: skiff for fid, (_f, skiff) in st.aboard.items()},
    }


def figure_rows(pos: Any) -> list[dict[str, Any]]:
    """Every figure as the status shows it: where, damage, HP, Force points, conditions, activated."""
    return [
        {
            "id": f.id,
            "side": f.side,
            "at": f.space_name(),
            "damage_taken": f.damage_taken,
            "hp": pos.stats_of(f).hp,
            "force": pos.stats_of(f).force,
            "conditions": list(f.conditions),
            "activated": f.activated,
        }
        for f in pos.figures
    ]


def entry_text(e: Any) -> str:
    """An event's line in the log and the export, its marks in the reader's words."""
    undone = " [" + _("undone") + "]" if e.undone else ""
    void = " [" + _("void: {why}").format(why=e.void) + "]" if e.void else ""
    return str(e.text) + undone + void


def entry_json(e: Any) -> dict[str, Any]:
    d = {**e.event.as_json(), "round": e.round, "phase": e.phase, "text": e.text, "undone": e.undone}
    if e.void:
        d["void"] = e.void
    return d


def export_text(st: GameState, meta: dict[str, Any], fmt: str) -> str:
    """The judge's export: the whole log and the result, as JSON or Markdown."""

    final = {
        "round": st.round,
        "phase": st.phase,
        "defeated": st.defeated,
        "fallen": {k: v.text(k) for k, v in st.fallen.items()},
        "points": st.vp,
        "winner": st.winner(),
        "ended": st.ended,
        "figures": [
            {
                "id": f.id,
                "side": f.side,
                "at": f.at.name,
                "damage_taken": f.damage_taken,
                "hp": st.position.stats_of(f).hp,
                "conditions": list(f.conditions),
                "activated": f.activated,
            }
            for f in st.position.figures
        ],
    }
    if fmt == "json":
        return (
            json.dumps(
                {
                    "format": meta.get("format"),
                    "rules": meta.get("rules"),
                    "created": meta.get("created"),
                    # each event's data and hash as the log holds them: what `game import` reads back (R184)
                    "events": [{**entry_json(e), "data": e.event.data, "hash": e.event.hash} for e in st.entries],
                    "final": final,
                    "chain": export_chain(st.entries[-1].event, "game")[0],
                },
                indent=2,
                ensure_ascii=False,
            )
            + "\n"
        )
    lines = [
        _("# Game log ({rules}, started {created})").format(rules=meta.get("rules"), created=meta.get("created")),
        "",
        _("| # | round | phase | time | event | override |"),
        "|---|---|---|---|---|---|",
    ]
    for e in st.entries:
        text = entry_text(e).replace("|", "\\|").replace("\n", " ")  # one table row a line
        lines.append(f"| {e.event.seq} | {e.round} | {e.phase} | {e.event.at} | {text} | {(e.event.override or '').replace('|', '/').replace(chr(10), ' ')} |")
    lines += ["", _("## Result"), "", _("- Last round played: {round}, phase {phase}").format(round=st.round, phase=st.phase)]
    if st.vp:
        lines.append(_("- Points: ") + ", ".join(f"{side_name(s)} {v}" for s, v in st.vp.items()))
    lines.append(
        _("- Winner: {winner}").format(winner=side_name(st.winner() or "") or _("none yet"))
        + (_("; the game was ended: {ended}").format(ended=st.ended) if st.ended else "")
    )
    for fid, f in st.fallen.items():
        lines.append(f"- {f.text(fid)}")
    lines.append(
        _("- Standing: ")
        + (
            ", ".join(
                _("{id} ({side}) at {at}, {damage} damage").format(id=f.id, side=side_name(f.side), at=f.at.name, damage=f.damage_taken)
                + (f" ({', '.join(condition_name(c) for c in f.conditions)})" if f.conditions else "")  # as the status says them (R277)
                for f in st.position.figures
            )
            or _("nobody")
        )
    )
    lines += export_chain(st.entries[-1].event, "game")[1]
    lines.append("")
    # the names, notes and reasons in it are the players' text: what a terminal or a viewer would
    # act on (ESC, CR, bidi overrides) is written as its escape, as the terminal shows it, and a '<'
    # that a Markdown viewer would render as HTML (a <script> in a note) as '&lt;'
    return markdown_shown("\n".join(lines))
