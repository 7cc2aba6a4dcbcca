"""The game session's verbs (``game ...``): each reads the game's state, applies the rules
(refusing with :class:`~assistant.game.RefusedError` unless a judge overrides), records one
event and answers it; and the session's reports (``status``, ``log``, ``export``, ``undo``).

The orchestration a verb needs beyond one event's check lives here, once for every edge: a
charge's move and its attack, an attack of opportunity out of turn, a morale save's total.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from ..abilities import SPEED_POWERS
from ..coords import parse_edge, parse_square
from ..errors import AssistantError, CommandLineWordsError, MissingStatError
from ..game import RefusedError, voided
from ..game.actions import (
    attack_event,
    entry_json,
    entry_text,
    export_text,
    initiative_event,
    move_event,
    parse_anticipation,
    parse_initiative_rolls,
    parse_save_rolls,
    power_event,
    record,
    refuse_unless,
    status_info,
)
from ..game.events.figures import FORCE_LEAP, FORCE_SENSE, MOVE_FASTER
from ..game.outcome import roll_outcome
from ..game.referee import find_mend, morale_bonus, opportunity_not_checked, plan_charge, unable, unknown_commanders
from ..game.state import GameState
from ..i18n import _, condition_name, side_name
from ..model import Position
from ..rules.attack import attack, missing_stat
from ..rules.record import find_edition
from ..yamlio import YamlReadError, parse_yaml
from .context import Session, refuse_empty_note
from .integrity import verify_log
from .registry import verb
from .result import Result, escape


def recorded(s: Session, game: Path | None, kind: str, data: dict[str, Any], override: str | None,
             notes: tuple[str, ...] = ()) -> Result:
    """Append one event (checked by the rules unless overridden) and answer it as every edge
    reports it: its number and text, the round and phase, and notes."""
    ev, entry = record(s.open_game(game), kind, data, override)
    obj = {"query": "game", "event": ev.as_json(), "text": entry.text, "round": entry.round, "phase": entry.phase,
           "notes": list(notes), **({"void": entry.void} if entry.void else {})}
    lines = [f"[green]#{ev.seq}[/] {escape(entry.text)}"] + [f"  [dim]{escape(n)}[/]" for n in notes]
    return Result(obj, tuple(lines))


def d20_roll(roll: int) -> int:
    """A die as rolled at the table (the command line's ``--roll`` is checked by its parser;
    the shell and the web app come through here)."""
    if not 1 <= roll <= 20:
        raise AssistantError(_("a d20 shows 1 to 20, not {roll}").format(roll=roll))
    return roll


def at_least_one(name: str, value: int) -> int:
    """Damage or healing as counted at the table: at least 1 (the command line's parser checks
    it too; the shell and the web app come through here)."""
    if value < 1:
        raise AssistantError(_("{name} is at least 1, not {value}").format(name=name, value=value))
    return value


def saves_rolls(text: str | None) -> dict[str, Any]:
    """``--saves 12,15``: the two d20s of SWM Avoid Defeat, as rolled."""
    if text is None:
        return {}
    try:
        rolls = [int(x) for x in text.split(",")]
    except ValueError:
        rolls = []
    if len(rolls) != 2 or not all(1 <= r <= 20 for r in rolls):
        raise CommandLineWordsError(
            _("--saves {text!r}: write the two d20s as rolled, e.g. --saves 12,15").format(text=text),
            # the page's forms take them in their "saves as rolled" field (R197)
            _("'{field}' {text!r}: write the two d20s as rolled, e.g. 12,15").format(field=_("saves as rolled"), text=text))
    return {"saves": rolls}


# --- turns -----------------------------------------------------------------------------


@verb("game initiative", query="game", writes=True)
def initiative(s: Session, roll: list[str] | None = None, auto: bool = False, first: str | None = None, game: Path | None = None,
               override: str | None = None, anticipation: list[str] | None = None) -> Result:
    """Roll initiative for a new round (SWM d20, ties rerolled; DDM d20 + best able commander rating, ties to the higher rating)."""
    st, _meta = s.read_state(game)
    data = initiative_event(st, parse_initiative_rolls(st, roll or ()), auto, first, parse_anticipation(st, anticipation or ()))
    return recorded(s, game, "initiative", data, override)


@verb("game activate", positional=("figure",), query="game", writes=True)
def activate(s: Session, figure: str, game: Path | None = None, override: str | None = None) -> Result:
    """Activate a figure (refused out of turn or twice in a round, unless overridden)."""
    st, _meta = s.read_state(game)
    rec = find_edition(st.rules)
    # a condition whose turn the engine does not play (DDM confused's d20 table): said, never ignored (R185)
    notes = tuple(_("{figure} is {condition}: {what} ({rule})").format(figure=figure, condition=name, what=_(rule.at_activation),
                                                                      rule=rec.cite(rule.rule))
                  for f in st.position.figures if f.id == figure
                  for name in f.conditions if (rule := rec.conditions.get(name)) is not None and rule.at_activation)
    return recorded(s, game, "activate", {"figure": figure}, override, notes)


@verb("game end-turn", query="game", writes=True)
def end_turn(s: Session, game: Path | None = None, override: str | None = None) -> Result:
    """End the acting figure's turn (SWM doors open or close by who stands next to them; refused
    when nobody is acting, unless overridden)."""
    return recorded(s, game, "end-turn", {}, override)


@verb("game move", positional=("figure", "to"), query="game", writes=True)
def move(s: Session, figure: str, to: str, burrow: bool = False, tow: str | None = None, surprise: bool = False, game: Path | None = None,
         override: str | None = None) -> Result:
    """Move the acting figure: the path, its cost and the turn's options are checked; enemies whose reach it leaves are named."""
    st, _meta = s.read_state(game)
    towed = None
    if tow is not None:
        ally, sep, where = tow.partition("=")
        if not sep or not ally.strip() or not where.strip():
            raise AssistantError(_("--tow {value!r}: write the ally and where it ends, ALLY=SQUARE").format(value=tow))
        towed = (ally.strip(), parse_square(where.strip()))
    data, notes = move_event(st, figure, parse_square(to), burrow=burrow, tow=towed, surprise=surprise)
    return recorded(s, game, "move", data, override, notes)


# --- attacks and powers ----------------------------------------------------------------


@verb("game attack", positional=("attacker", "target"), query="game", writes=True)
def attack_(s: Session, attacker: str, target: str, roll: int, combined_fire: str | None = None, ranged: bool = False,
            saves: str | None = None, save: list[str] | None = None, reroll: int | None = None, game: Path | None = None,
            override: str | None = None, spend_force: str | None = None) -> Result:
    """Record an attack with the die as rolled: hit or miss, the damage, and a defeat follow the rules
    (``spend_force``: the Force power its Force point bought before the roll, reading R251)."""
    st, _meta = s.read_state(game)
    helpers = tuple(h.strip() for h in (combined_fire or "").split(",") if h.strip())
    data = attack_event(st, attacker, target, roll, helpers, ranged, override, parse_save_rolls(save), reroll, spend_force)
    data.update(saves_rolls(saves))
    return recorded(s, game, "attack", data, override)


@verb("game aoo", positional=("attacker", "target"), query="game", writes=True)
def aoo(s: Session, attacker: str, target: str, roll: int, save: list[str] | None = None, game: Path | None = None,
        override: str | None = None, spend_force: str | None = None) -> Result:
    """Record an attack of opportunity: out of turn, without activating, one per turn (record it before the move that provokes it)."""
    st, _meta = s.read_state(game)
    st.figure(attacker), st.figure(target)
    kind = find_edition(st.rules).attack.opportunity_kind  # DDM: a melee attack; SWM: its own rule
    # SWM Sith Rage and Lightsaber Precision work on an attack of opportunity too (PL p.52, p.62; CS g.8, g.12; R251)
    ans = attack(st.position, attacker, target, kind=kind, opportunity=True, spend_force=spend_force)
    refuse_unless(ans, override)
    outcome = roll_outcome(ans, d20_roll(roll), parse_save_rolls(save))
    return recorded(s, game, "opportunity", {"attacker": attacker, "target": target, **outcome}, override, opportunity_not_checked(st))


@verb("game power", positional=("figure", "target", "power"), query="game", writes=True)
def power(s: Session, figure: str, target: str, power: str, save: list[str] | None = None, game: Path | None = None,
          override: str | None = None) -> Result:
    """Record a Force power that hurts (SWM): its Force points spent, and each struck figure's damage through its saves."""
    st, _meta = s.read_state(game)
    data = power_event(st, figure, target, power, save or [], override)
    return recorded(s, game, "power", data, override)


def charge_event(st: GameState, figure: str, target: str, roll: int, to: str | None, override: str | None) -> dict[str, Any]:
    """A DDM charge as one event: the move is checked (nearest enemy, nearest square, 2 to 2x
    Speed, clear route), then its one melee attack at +2 from the square it ends on."""
    f = st.figure(figure)
    st.figure(target)
    stopped = unable(st, f, "move") + unable(st, f, "attack")  # a stunned creature: no route to plan (reading R163)
    if stopped and not override:
        raise RefusedError(stopped)
    reasons, end, r = plan_charge(st, figure, target, parse_square(to) if to else None)
    if end is None:
        if override:
            raise CommandLineWordsError(_("no end square for this charge: give --to SQUARE to record it with --override"),
                                        _("no end square for this charge: give the square it ends on (“to square”) to record it"))
        raise RefusedError(reasons)
    if reasons and not override:
        raise RefusedError(reasons)
    moved = replace(f, at=end)
    pos = st.position
    after = Position(pos.edition, pos.map, tuple(moved if x.id == f.id else x for x in pos.figures), pos.cards)
    ans = attack(after, figure, target, moved=True, charge=True, kind="melee")
    refuse_unless(ans, override)
    return {"figure": figure, "target": target, "to": end.name, "cost": r.cost if r and r.cost else 0,
            "path": [sq.name for sq in r.path] if r else [], **roll_outcome(ans, d20_roll(roll))}


@verb("game charge", positional=("figure", "target"), query="game", writes=True)
def charge(s: Session, figure: str, target: str, roll: int, to: str | None = None, game: Path | None = None,
           override: str | None = None) -> Result:
    """DDM: charge -- the move and its one melee attack at +2, checked (nearest enemy, nearest square, 2 to 2x Speed, clear route)."""
    st, _meta = s.read_state(game)
    return recorded(s, game, "charge", charge_event(st, figure, target, roll, to, override), override)


@verb("game morale", positional=("figure",), query="game", writes=True)
def morale(s: Session, figure: str, roll: int, game: Path | None = None, override: str | None = None) -> Result:
    """DDM: record a morale save (d20 + Level + the best commander rating in range, DC 20): it holds, or the creature routs."""
    st, _meta = s.read_state(game)
    f = st.figure(figure)
    level, rating, by = morale_bonus(st.position, f)
    roll = d20_roll(roll)
    if level is None and roll not in (1, 20):
        # the save was recorded as "d20 + Level 0": an unknown Level read as 0 decided it, a value no card gives
        # (a natural 20 holds and a natural 1 fails whatever the Level: those need no number)
        need = missing_stat("Level", f, st.position)
        keep = need.keep()
        text = (_("{id}'s Level is unknown (its card {card!r} does not give it) and decides this morale save: keep it for the card "
                  "with: {keep}, then record the save again (a natural 20 or 1 needs no Level)").format(id=f.id, card=need.card, keep=keep)
                if keep is not None else
                _("{id}'s Level is unknown ({id} has no card that gives it) and decides this morale save: start the game from a "
                  "position with 'stats: {{level: N}}' on {id} (a natural 20 or 1 needs no Level)").format(id=f.id))
        page = (_("{id}'s Level is unknown (its card {card!r} does not give it) and decides this morale save: give it in the form "
                  "with \u201ckeep for {card}\u201d ticked, then record the save again (a natural 20 or 1 needs no Level)").format(
                    id=f.id, card=need.card) if keep is not None else text)
        raise MissingStatError([need], in_game=True, text=text, page=page)
    total = roll + (level or 0) + rating
    held = roll == 20 or (roll != 1 and total >= 20)
    data = {"figure": figure, "roll": roll, "commander": rating, "commander_by": by, "held": held}
    if level is not None:  # a natural 20 or 1 with no Level known: recorded without one (its text says "Level ?")
        data |= {"level": level, "total": total}
    unknown = unknown_commanders(st.position, f) if not held and roll != 1 else []
    if unknown:  # a failed save a commander's rating, unknown and read as none, might have held (R160)
        data["unknown_ratings"] = unknown
    return recorded(s, game, "morale", data, override)


# --- the table's bookkeeping -----------------------------------------------------------


@verb("game flee", positional=("figure",), query="game", writes=True)
def flee(s: Session, figure: str, by: str | None = None, game: Path | None = None) -> Result:
    """A creature flees or is driven off the map: eliminated, its cost scored as for a defeat."""
    return recorded(s, game, "flee", {"figure": figure, **({"by": by} if by else {})}, None)


@verb("game end", query="game", writes=True)
def end(s: Session, reason: str = "time", game: Path | None = None) -> Result:
    """End the game (on time, by concession): the round's points are kept and the result recorded."""
    return recorded(s, game, "end", {"reason": reason}, None)


@verb("game damage", positional=("figure", "amount"), query="game", writes=True)
def damage(s: Session, figure: str, amount: int, by: str | None = None, saves: str | None = None, game: Path | None = None,
           override: str | None = None) -> Result:
    """Record damage taken (a figure at 0 Hit Points is defeated and removed)."""
    return recorded(s, game, "damage", {"figure": figure, "amount": at_least_one("amount", amount), **({"by": by} if by else {}), **saves_rolls(saves)},
                    override)


@verb("game heal", positional=("figure", "amount"), query="game", writes=True)
def heal(s: Session, figure: str, amount: int, by: str | None = None, ability: str | None = None, game: Path | None = None,
         override: str | None = None) -> Result:
    """Remove damage (never below none); --by HEALER: its Heal, Force Heal, Repair or Industrial Repair, checked (its turn, in
    place of its attacks, an adjacent character it works on, at most its number; reading R272)."""
    data: dict[str, Any] = {"figure": figure, "amount": at_least_one("amount", amount)}
    if ability is not None and by is None:
        raise AssistantError(_("--ability names the healer's special action: give --by HEALER with it"))
    if by is not None:
        st, _meta = s.read_state(game)
        healer, target = st.figure(by), st.figure(figure)
        found = find_mend(st, healer, target, ability)
        if found is not None:
            mend, written, _value = found
            data.update({"ability": written, **({"cost": mend.cost} if mend.cost else {})})
        data["by"] = healer.id
    return recorded(s, game, "heal", data, override)


@verb("game force", positional=("figure", "delta"), query="game", writes=True)
def force(s: Session, figure: str, delta: int, faster: bool = False, game: Path | None = None, override: str | None = None,
          power: str | None = None) -> Result:
    """Spend or gain Force points (SWM: once per turn); --faster: Move Faster, 1 point for 2 more squares this turn; --power: Knight
    Speed (4 more) or Master Speed (6 more, reading R251)."""
    use = MOVE_FASTER if faster else None
    if power is not None:
        named = next((p for p in (*SPEED_POWERS, FORCE_SENSE, FORCE_LEAP) if p.lower() == power.strip().lower()), None)
        if named is None or faster:
            raise AssistantError(_("--power {power!r}: a Force point spent on movement is --faster (Move Faster) or --power with one of {known}; "
                                   "on every enemy's Stealth, --power \"{sense}\"; through enemies, --power \"{leap}\"").format(
                                       power=power, known=", ".join(SPEED_POWERS), sense=FORCE_SENSE, leap=FORCE_LEAP))
        use = named
    return recorded(s, game, "force", {"figure": figure, "delta": delta, **({"use": use} if use else {})}, override)


@verb("game condition", positional=("figure", "action", "name"), query="game", writes=True)
def condition(s: Session, figure: str, action: str, name: str, game: Path | None = None, override: str | None = None) -> Result:
    """Add or remove a condition (stunned, helpless, ...): one the edition's engine applies (reading R163)."""
    if action not in ("add", "remove"):
        raise AssistantError(_("{action!r}: write add or remove").format(action=action))
    return recorded(s, game, "condition", {"figure": figure, "add": action == "add", "condition": name.strip().lower()}, override)


@verb("game door", positional=("edge", "state"), query="game", writes=True)
def door(s: Session, edge: str, state: str, game: Path | None = None) -> Result:
    """Open or close a door by hand (the SWM door rule also runs at every end of turn)."""
    if state not in ("open", "close"):
        raise AssistantError(_("{state!r}: write open or close").format(state=state))
    return recorded(s, game, "door", {"edge": parse_edge(edge).name, "open": state == "open"}, None)


@verb("game embark", positional=("figure", "skiff"), query="game", writes=True)
def embark(s: Session, figure: str, skiff: str, game: Path | None = None, override: str | None = None) -> Result:
    """SWM 2008 Desert Skiff: a passenger boards (one Large or two Medium or Small allies) and rides off the map."""
    return recorded(s, game, "embark", {"figure": figure, "skiff": skiff}, override)


@verb("game disembark", positional=("figure", "to"), query="game", writes=True)
def disembark(s: Session, figure: str, to: str, game: Path | None = None, override: str | None = None) -> Result:
    """SWM 2008 Desert Skiff: a passenger gets off just before the round's first activation, next to the skiff."""
    return recorded(s, game, "disembark", {"figure": figure, "at": parse_square(to).name}, override)


@verb("game place", positional=("spec",), query="game", writes=True)
def place(s: Session, spec: str, game: Path | None = None, override: str | None = None) -> Result:
    """Put a figure on the map mid-game (a reinforcement, a judge's fix), written as a position file's figure: '{id: rex, side: light, at: B2, card: ...}'."""
    # read as a position file is read (yamlio), not with yaml.safe_load: a spec of nested aliases
    # (a YAML "billion laughs", from the web form too) was taken whole, and the position check then
    # said the alias refusal once for each of its thousands of uses
    try:
        data, _lines, problems = parse_yaml(spec, "figure")
    except YamlReadError as exc:
        raise AssistantError(_("the figure {spec!r} is not YAML: {err}").format(spec=spec, err=exc.problems[0].message)) from None
    if problems:
        raise AssistantError(_("the figure {spec!r} is not YAML: {err}").format(
            spec=spec, err="; ".join(dict.fromkeys(p.message for p in problems))))
    if not isinstance(data, dict) or not isinstance(data.get("id"), str):
        raise AssistantError(
            _("the figure {spec!r} is not a position file's figure: write it as '{{id: rex, side: light, at: B2, card: ...}}'").format(spec=spec))
    # a squad-building rule it newly breaks (its faction, R204) is refused unless overridden with a reason
    return recorded(s, game, "place", {"figure": data}, override)


@verb("game remove", positional=("figure",), query="game", writes=True)
def remove(s: Session, figure: str, game: Path | None = None) -> Result:
    """Take a figure off the table."""
    return recorded(s, game, "remove", {"figure": figure}, None)


@verb("game note", positional=("text",), query="game", writes=True)
def note(s: Session, text: str, on: int | None = None, game: Path | None = None) -> Result:
    """Annotate the log (shown in the export); ``on``: the earlier event the note is about (R353)."""
    refuse_empty_note(text)
    return recorded(s, game, "note", {"text": text, **({"on": on} if on is not None else {})}, None)


@verb("game undo", positional=("seq",), query="undo", writes=True)
def undo(s: Session, seq: int | None = None, game: Path | None = None) -> Result:
    """Undo an event (it stays in the log, marked undone)."""
    g = s.open_game(game)
    try:
        before = g.state()
        ev = g.undo(seq)
        after = g.state()
    finally:
        g.close()
    target = next(e for e in before.entries if e.event.seq == ev.data["seq"])
    done = (_("[green]#{seq}[/] brought back what event {undone} ({text})") if target.event.kind == "undo"
            else _("[green]#{seq}[/] undid event {undone} ({text})"))
    void = voided(before, after)
    lines = [done.format(seq=ev.seq, undone=ev.data["seq"], text=escape(target.text))]
    lines += [_("  [yellow]event #{seq_} no longer applies and is void:[/] {why}").format(seq_=seq_, why=escape(why)) for seq_, why in void]
    lines.append(_("  [dim]undo this undo to bring it back: 'game undo ") + str(ev.seq) + "'[/]")
    obj = {"query": "undo", "event": ev.as_json(), "text": after.entries[-1].text, "undid": ev.data["seq"],
           "void": [{"seq": n, "why": why} for n, why in void]}
    return Result(obj, tuple(lines))


# --- reports ---------------------------------------------------------------------------


@verb("game status", query="status")
def status(s: Session, game: Path | None = None) -> Result:
    """The round, the phase, whose activation it is, and every figure: where, damage, conditions."""
    st, _meta = s.read_state(game)
    info = status_info(st)
    return Result(info, tuple(status_lines(st, info)))


def status_lines(st: GameState, info: dict[str, Any]) -> list[str]:
    lines = []
    if st.round == 0:
        lines.append(escape(_("no round yet: roll initiative ('game initiative')")))
    else:
        acting = (_("{figure} is acting").format(figure=st.active) if st.active else _("nobody is acting"))
        line = _("round {round}, phase {phase}: {acting}").format(round=st.round, phase=st.phase, acting=acting)
        if st.turn:
            line += " " + _("(moved {moved}, attacks {attacks})").format(moved=st.turn.moved, attacks=st.turn.attacks)
        lines.append(escape(line))
        if info["over"]:
            lines.append(f"[bold green]{escape(info['over'])}[/]")
        elif info["round_over"]:
            lines.append(escape(_("every figure has activated: the round is over; roll initiative for the next")))
        else:
            # a side is the position file's text (brackets are text); light and dark in the reader's words
            lines.append(escape(_("next activation:")) + f" [bold]{escape(side_name(info['next'] or ''))}[/]")
    # the columns as wide as their widest entry: a Large figure's "M9:N10" pushed its row's HP and
    # activation out of line with the others'
    at_w = max([5] + [len(str(f["at"])) for f in info["figures"]])
    id_w = max([12] + [len(f["id"]) for f in info["figures"]])  # "super-battle-droid-1" pushed its row out of line too
    hp_w = max([12] + [len(_("{left}/{hp} HP").format(left=f["hp"] - f["damage_taken"], hp=f["hp"]) if f["hp"] is not None
                           else _("{damage} damage").format(damage=f["damage_taken"])) for f in info["figures"]])
    for side in st.sides():
        lines.append(f"[bold]{escape(side_name(side))}[/]" + ("  " + escape(_("({points} points)").format(points=st.vp.get(side, 0))) if st.vp else ""))
        for f in info["figures"]:
            if f["side"] != side:
                continue
            if f["hp"] is not None:
                hp = _("{left}/{hp} HP").format(left=f["hp"] - f["damage_taken"], hp=f["hp"])
            else:
                hp = _("{damage} damage").format(damage=f["damage_taken"])
            may = escape(_("may activate"))
            mark = escape(_("activated")) if f["activated"] else f"[green]{may}[/]"
            conds = f"  [yellow]{escape(', '.join(condition_name(c) for c in f['conditions']))}[/]" if f["conditions"] else ""
            # padded by the id's own length: its markup escapes (a "[" in it) are not shown
            lines.append(f"  {escape(f['id'])}{' ' * (id_w - len(f['id']))} {f['at']:<{at_w}} {escape(hp):<{hp_w}} {mark}{conds}")
    for text in info["fallen"].values():
        lines.append(f"  [dim]{escape(text)}[/]")
    for fid, skiff in info["aboard"].items():
        lines.append("  " + escape(_("{id} is aboard {skiff} (Desert Skiff)").format(id=fid, skiff=skiff)))
    for m in st.morale_due.values():
        lines.append(f"  [yellow]{escape(m)}[/]")
    if st.quiet_rounds >= 10:
        lines.append("  [bold]" + escape(_("10 rounds with no attack and no damage: the game ends on the tie-break")) + "[/] "
                     + escape(_("(most points; then nearest to the centre; then highest cost)")))
    return lines


@verb("game log", query="log")
def log(s: Session, game: Path | None = None) -> Result:
    """Every event in order, with its round and phase."""
    st, _meta = s.read_state(game)
    return Result({"query": "log", "events": [entry_json(e) for e in st.entries]},
                  tuple(f"#{e.event.seq:<4} r{e.round} p{e.phase}  {escape(entry_text(e))}" for e in st.entries))


@verb("game replay", query="replay")
def replay(s: Session, to: int, game: Path | None = None) -> Result:
    """The game as it was after event N: the round, the phase and the position (the board)."""
    st, _meta = s.read_state(game, upto=to)
    from ..position import position_to_data  # start-up time: the position file's writer only here

    return Result({"query": "replay", "to": to, "round": st.round, "phase": st.phase, "position": position_to_data(st.position)},
                  (_("after event #{to}: round {round}, phase {phase}").format(to=to, round=st.round, phase=st.phase),),
                  position=st.position)


@verb("game export", query="export")
def export(s: Session, format: str = "md", game: Path | None = None) -> Result:
    """The whole game, event by event, with overrides and their reasons."""
    if format not in ("json", "md"):
        raise AssistantError(_("unknown format {fmt!r}: json or md").format(fmt=format))
    st, meta = s.read_state(game)
    text = export_text(st, meta, format)
    return Result({"query": "export", "format": format, "text": text}, text=text)


@verb("game verify", query="verify")
def verify(s: Session, head: str | None = None, game: Path | None = None) -> Result:
    """Check the log's hash chain: intact (its head), or the first event edited, deleted or inserted; --head H: an exported head is still in it."""
    return verify_log(s.game_path(game), "game", head)
