"""``python -m assistant game ...``: the game session -- log, sequence, edits, undo, export."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from ..cardgames import CARD_GAMES
from ..errors import AssistantError
from ..i18n import _

app = typer.Typer(help="The game session: a judge-replayable log of rounds, activations and edits.", no_args_is_help=True)

GameOpt = Annotated[Path | None, typer.Option("--game", help="The game file (default: the current game).", metavar="PATH")]
OverrideOpt = Annotated[str | None, typer.Option("--override", help="Record it even if the rules refuse, with this reason.", metavar="REASON")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object on stdout.")]


def _actions() -> Any:
    """The shared command logic, imported when a command runs (the CLI starts faster)."""
    from ..game import actions

    return actions


#: how each kind of game is started and opened
OPENED_BY = {"miniatures": "python -m assistant game", **{name: f"python -m assistant {name}" for name in CARD_GAMES}}


def game_path(explicit: Path | None, kind: str = "miniatures") -> Path:
    """The game file a command works on: the one named, or the current game of its kind. A game
    of another kind is refused, naming the commands that open it."""
    from ..game.store import current_game_path, game_kind

    if explicit is None:
        cur = current_game_path(kind)
        if cur is None:
            start = "game new --position FILE" if kind == "miniatures" else f"{kind} new TABLE"
            raise AssistantError(_("no current {kind} game: start one with 'python -m assistant {start}' or name one with --game").format(kind=kind, start=start))
        return cur
    found = game_kind(explicit) if explicit.is_file() else None
    if found is not None and found != kind:
        raise AssistantError(_("{explicit} is a {found} game: open it with '{OPENED_BY} ...' (for example '{OPENED_BY} status --game {explicit}')").format(explicit=explicit, found=found, OPENED_BY=OPENED_BY[found]))
    return explicit


def open_game(ctx: typer.Context, path: Path | None, readonly: bool = False):
    from ..game import Game
    from .app import library

    return Game.open(game_path(path), library(ctx), readonly=readonly)


def read_state(ctx: typer.Context, path: Path | None, upto: int | None = None):
    """The game's state (read-only: works on a read-only folder), and its events."""
    g = open_game(ctx, path, readonly=True)
    try:
        events = g.events()
        if upto is not None:
            last = events[-1].seq if events else 0
            if not 1 <= upto <= last:
                raise AssistantError(_("--to {upto}: the log has events #1 to #{last}").format(upto=upto, last=last))
        return g.state(upto=upto), g.store.meta()
    finally:
        g.close()


def _record(ctx: typer.Context, game: Path | None, kind: str, data: dict[str, Any], override: str | None, json_out: bool,
            notes: tuple[str, ...] = ()) -> None:
    from .app import emit_json, out

    ev, entry = _actions().record(open_game(ctx, game), kind, data, override)
    if json_out:
        emit_json({"query": "game", "event": ev.as_json(), "text": entry.text, "round": entry.round, "phase": entry.phase,
                   "notes": list(notes), **({"void": entry.void} if entry.void else {})})
    else:
        out.print(f"[green]#{ev.seq}[/] {escape(entry.text)}")
        for n in notes:
            out.print(f"  [dim]{escape(n)}[/]")


@app.command("new")
def new(
    ctx: typer.Context,
    position: Annotated[str, typer.Option("--position", "-p", help="The starting position file (or a bundled example).")],
    game: GameOpt = None,
    override: OverrideOpt = None,
) -> None:
    """Start a game from a position file (each side a squad, checked) and make it the current game."""
    from ..game import Game
    from ..game.store import games_home, set_current_game
    from ..yamlio import read_text
    from .app import edge, library, out, resolve_position

    with edge():
        text, _unused = read_text(resolve_position(position))
        path = game or games_home() / "games" / f"{Path(position).stem}-{datetime.now().strftime('%Y%m%d-%H%M%S')}.sqlite"
        from ..game.squads import check_squads
        from ..position import parse_position

        _problems, unchecked = check_squads(parse_position(text, str(position), library(ctx)))
        g = Game.new(path, text, library(ctx), override)
        g.close()
        set_current_game(path)
        out.print(_("new game {path} (now the current game)").format(path=escape(str(path))))
        for line in unchecked:
            out.print(_("  [yellow]squad check incomplete:[/] {line}").format(line=escape(line)))


@app.command("import")
def import_(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(help="A position file to start a game from.")],
    game: GameOpt = None,
    override: OverrideOpt = None,
) -> None:
    """Start a game from a position file (the same as 'game new --position FILE')."""
    new(ctx, file, game, override)


@app.command("use")
def use(game: Annotated[Path, typer.Argument(help="A game file.")]) -> None:
    """Make a game file the current miniatures game (each kind of game has its own current game)."""
    from ..game import Game
    from ..game.store import set_current_game
    from .app import edge, out

    with edge():
        g = Game.open(game_path(game), readonly=True)
        try:
            g.state()  # a log that cannot be folded is refused here, not at the next command
        finally:
            g.close()
        set_current_game(game)
        out.print(_("current miniatures game: {game}").format(game=escape(str(game))))


@app.command("list")
def list_games(json_out: JsonOpt = False) -> None:
    """The games in the games folder, each with its kind; the current game of each kind is marked."""
    from ..game.store import GAME_KINDS, current_game_path, game_kind, games_home
    from .app import edge, emit_json, out

    with edge(json_out, "games"):
        home = games_home()
        current = {k: current_game_path(k) for k in GAME_KINDS}
        files = sorted((home / "games").glob("*.sqlite")) if (home / "games").is_dir() else []
        files += [p for p in current.values() if p is not None and p not in files]
        rows = []
        for p in files:
            kind = game_kind(p) if p.is_file() else None
            rows.append({"path": str(p), "kind": kind, "current": any(c is not None and c.resolve() == p.resolve() for c in current.values()),
                         "exists": p.is_file()})
        if json_out:
            emit_json({"query": "games", "home": str(home), "games": rows,
                       "current": {k: (str(v) if v else None) for k, v in current.items()}})
            return
        out.print(_("games in {value}:").format(value=escape(str(home / 'games'))) if rows else _("no games yet in {value}").format(value=escape(str(home / 'games'))))
        for r in rows:
            mark = "[green]* current[/] " if r["current"] else "          "
            kind = r["kind"] or ("missing" if not r["exists"] else "not a game")
            out.print(f"{mark}{kind:<10} {escape(r['path'])}")


@app.command("status")
def status(ctx: typer.Context, game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """The round, the phase, whose activation it is, and every figure: where, damage, conditions."""
    from .app import edge, emit_json, out

    with edge(json_out, "status"):
        st, _meta = read_state(ctx, game)
        info = status_info(st)
        if json_out:
            emit_json(info)
            return
        if st.round == 0:
            out.print(escape(_("no round yet: roll initiative ('game initiative')")))
        else:
            acting = (_("{figure} is acting").format(figure=st.active) if st.active else _("nobody is acting"))
            line = _("round {round}, phase {phase}: {acting}").format(round=st.round, phase=st.phase, acting=acting)
            if st.turn:
                line += " " + _("(moved {moved}, attacks {attacks})").format(moved=st.turn.moved, attacks=st.turn.attacks)
            out.print(escape(line))
            if info["over"]:
                out.print(f"[bold green]{escape(info['over'])}[/]")
            elif info["round_over"]:
                out.print(escape(_("every figure has activated: the round is over; roll initiative for the next")))
            else:
                out.print(escape(_("next activation:")) + f" [bold]{info['next']}[/]")
        for side in st.sides():
            out.print(f"[bold]{escape(side)}[/]" + ("  " + escape(_("({points} points)").format(points=st.vp.get(side, 0))) if st.vp else ""))
            for f in info["figures"]:
                if f["side"] != side:
                    continue
                if f["hp"] is not None:
                    hp = _("{left}/{hp} HP").format(left=f["hp"] - f["damage_taken"], hp=f["hp"])
                else:
                    hp = _("{damage} damage").format(damage=f["damage_taken"])
                may = escape(_("may activate"))
                mark = escape(_("activated")) if f["activated"] else f"[green]{may}[/]"
                conds = f"  [yellow]{escape(', '.join(f['conditions']))}[/]" if f["conditions"] else ""
                out.print(f"  {escape(f['id']):<12} {f['at']:<5} {escape(hp):<12} {mark}{conds}")
        for text in info["fallen"].values():
            out.print(f"  [dim]{escape(text)}[/]")
        for fid, skiff in info["aboard"].items():
            out.print("  " + escape(_("{id} is aboard {skiff} (Desert Skiff)").format(id=fid, skiff=skiff)))
        for m in st.morale_due.values():
            out.print(f"  [yellow]{escape(m)}[/]")
        if st.quiet_rounds >= 10:
            out.print("  [bold]" + escape(_("10 rounds with no attack and no damage: the game ends on the tie-break")) + "[/] "
                      + escape(_("(most points; then nearest to the centre; then highest cost)")))


def status_info(st) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    from ..game.actions import status_info as info

    return info(st)


@app.command("log")
def log(ctx: typer.Context, game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """Every event in order, with its round and phase."""
    from .app import edge, emit_json, out

    with edge(json_out, "log"):
        st, _meta = read_state(ctx, game)
        if json_out:
            emit_json({"query": "log", "events": [_actions().entry_json(e) for e in st.entries]})
            return
        for e in st.entries:
            out.print(f"#{e.event.seq:<4} r{e.round} p{e.phase}  {escape(_actions().entry_text(e))}")


@app.command("undo")
def undo(
    ctx: typer.Context,
    seq: Annotated[int | None, typer.Argument(help="The event to undo (default: the last one).")] = None,
    game: GameOpt = None,
) -> None:
    """Undo an event (it stays in the log, marked undone)."""
    from ..game import voided
    from .app import edge, out

    with edge():
        g = open_game(ctx, game)
        try:
            before = g.state()
            ev = g.undo(seq)
            after = g.state()
        finally:
            g.close()
        target = next(e for e in before.entries if e.event.seq == ev.data["seq"])
        done = (_("[green]#{seq}[/] brought back what event {undone} ({text})") if target.event.kind == "undo"
                else _("[green]#{seq}[/] undid event {undone} ({text})"))
        out.print(done.format(seq=ev.seq, undone=ev.data["seq"], text=escape(target.text)))
        for seq_, why in voided(before, after):
            out.print(_("  [yellow]event #{seq_} no longer applies and is void:[/] {why}").format(seq_=seq_, why=escape(why)))
        out.print(_("  [dim]undo this undo to bring it back: 'game undo ") + str(ev.seq) + "'[/]")


@app.command("replay")
def replay(
    ctx: typer.Context,
    to: Annotated[int, typer.Option("--to", help="Show the game as it was after this event.")],
    game: GameOpt = None,
) -> None:
    """The board and the status as they were after event N."""
    from .app import board_view, edge, out

    with edge():
        st, _meta = read_state(ctx, game, upto=to)
        out.print(_("after event #{to}: round {round}, phase {phase}").format(to=to, round=st.round, phase=st.phase))
        out.print(board_view(st.position), crop=False)


@app.command("export")
def export(
    ctx: typer.Context,
    fmt: Annotated[str, typer.Option("--format", help="json or md (Markdown for a judge).")] = "md",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
    game: GameOpt = None,
) -> None:
    """The whole game, event by event, with overrides and their reasons."""
    from .app import edge, write_or_print

    with edge():
        if fmt not in ("json", "md"):
            raise AssistantError(_("unknown format {fmt!r}: json or md").format(fmt=fmt))
        st, meta = read_state(ctx, game)
        text = _actions().export_text(st, meta, fmt)
        write_or_print(text, output)


@app.command("snapshot")
def snapshot(ctx: typer.Context, output: Annotated[Path, typer.Option("--output", "-o", help="The position file to write.")], game: GameOpt = None) -> None:
    """Save the current state as a position file."""
    from ..position import save_position
    from .app import edge, err

    with edge():
        st, _meta = read_state(ctx, game)
        save_position(st.position, output)
        err.print(_("wrote {output}").format(output=escape(str(output))))


@app.command("initiative")
def initiative(
    ctx: typer.Context,
    roll: Annotated[list[str] | None, typer.Option("--roll", help="A side's d20 as SIDE=N; after a tie give the rerolls too: SIDE=N,N2 (repeat for each side).")] = None,
    auto: Annotated[bool, typer.Option("--auto", help="Let the assistant roll the dice (ties rerolled).")] = False,
    first: Annotated[str | None, typer.Option("--first", help="Who goes first (the winner's choice; default the winner).")] = None,
    game: GameOpt = None,
    override: OverrideOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Roll initiative for a new round (SWM d20, ties rerolled; DDM d20 + best able commander rating, ties to the higher rating)."""
    from ..game.actions import initiative_event, parse_initiative_rolls
    from .app import edge

    with edge(json_out, "game"):
        st, _meta = read_state(ctx, game)
        data = initiative_event(st, parse_initiative_rolls(st, roll or ()), auto, first)
        _record(ctx, game, "initiative", data, override, json_out)


@app.command("activate")
def activate(ctx: typer.Context, figure: Annotated[str, typer.Argument(help="The figure to activate.")],
             game: GameOpt = None, override: OverrideOpt = None, json_out: JsonOpt = False) -> None:
    """Activate a figure (refused out of turn or twice in a round, unless overridden)."""
    from .app import edge

    with edge(json_out, "game"):
        _record(ctx, game, "activate", {"figure": figure}, override, json_out)


@app.command("end-turn")
def end_turn(ctx: typer.Context, game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """End the acting figure's turn (SWM doors open or close by who stands next to them)."""
    from .app import edge

    with edge(json_out, "game"):
        _record(ctx, game, "end-turn", {}, None, json_out)


@app.command("move")
def move(ctx: typer.Context, figure: Annotated[str, typer.Argument(help="The figure.")],
         to: Annotated[str, typer.Argument(help="The square it moves to.")],
         burrow: Annotated[bool, typer.Option("--burrow", help="DDM Burrow: the move is underground.")] = False,
         tow: Annotated[str | None, typer.Option("--tow", help="SWM Tow Cable: the adjacent ally towed and where it ends, ALLY=SQUARE.", metavar="ALLY=SQUARE")] = None,
         game: GameOpt = None, override: OverrideOpt = None, json_out: JsonOpt = False) -> None:
    """Move the acting figure: the path, its cost and the turn's options are checked; enemies whose reach it leaves are named."""
    from ..coords import parse_square
    from ..game.actions import move_event
    from .app import edge

    with edge(json_out, "game"):
        st, _meta = read_state(ctx, game)
        towed = None
        if tow is not None:
            ally, sep, where = tow.partition("=")
            if not sep or not ally.strip() or not where.strip():
                raise AssistantError(_("--tow {value!r}: write the ally and where it ends, ALLY=SQUARE").format(value=tow))
            towed = (ally.strip(), parse_square(where.strip()))
        data, notes = move_event(st, figure, parse_square(to), burrow=burrow, tow=towed)
        _record(ctx, game, "move", data, override, json_out, notes)


RollOpt = Annotated[int, typer.Option("--roll", help="The d20 as rolled at the table.", min=1, max=20)]
SaveOpt = Annotated[list[str] | None, typer.Option("--save", help="A save between the hit and its damage, as rolled: ABILITY=N (Shields=N,N; a Force-costed one not used: ABILITY=no); repeat for each.", metavar="ABILITY=N")]
SavesOpt = Annotated[str | None, typer.Option("--saves", help="SWM Avoid Defeat: its two saves as rolled, N,N (asked for when the damage would defeat it).", metavar="N,N")]


@app.command("attack")
def attack_cmd(
    ctx: typer.Context,
    attacker: Annotated[str, typer.Argument(help="The attacking figure.")],
    target: Annotated[str, typer.Argument(help="The target.")],
    roll: RollOpt,
    combined_fire: Annotated[str | None, typer.Option("--combined-fire", help="SWM helpers, ID[,ID...].", metavar="IDS")] = None,
    ranged: Annotated[bool, typer.Option("--ranged", help="DDM: a ranged attack.")] = False,
    saves: SavesOpt = None,
    save: SaveOpt = None,
    game: GameOpt = None, override: OverrideOpt = None, json_out: JsonOpt = False,
) -> None:
    """Record an attack with the die as rolled: hit or miss, the damage, and a defeat follow the rules."""
    from ..game.actions import attack_event
    from .app import edge

    with edge(json_out, "game"):
        st, _meta = read_state(ctx, game)
        helpers = tuple(h.strip() for h in (combined_fire or "").split(",") if h.strip())
        from ..game.actions import parse_save_rolls

        data = attack_event(st, attacker, target, roll, helpers, ranged, override, parse_save_rolls(save))
        data.update(_saves(saves))
        _record(ctx, game, "attack", data, override, json_out)


@app.command("aoo")
def aoo(
    ctx: typer.Context,
    attacker: Annotated[str, typer.Argument(help="The figure making the attack of opportunity.")],
    target: Annotated[str, typer.Argument(help="The enemy leaving its reach (the figure moving now).")],
    roll: RollOpt,
    save: SaveOpt = None,
    game: GameOpt = None, override: OverrideOpt = None, json_out: JsonOpt = False,
) -> None:
    """Record an attack of opportunity: out of turn, without activating, one per turn (record it before the move that provokes it)."""
    from ..rules.attack import attack
    from ..rules.record import find_edition
    from .app import edge

    with edge(json_out, "game"):
        st, _meta = read_state(ctx, game)
        st.figure(attacker), st.figure(target)
        kind = find_edition(st.rules).attack.opportunity_kind  # DDM: a melee attack; SWM: its own rule
        ans = attack(st.position, attacker, target, kind=kind, opportunity=True)
        _actions().refuse_unless(ans, override)
        from ..game.referee import opportunity_not_checked

        outcome = _actions().roll_outcome(ans, roll, _actions().parse_save_rolls(save))
        _record(ctx, game, "opportunity", {"attacker": attacker, "target": target, **outcome}, override, json_out,
                opportunity_not_checked(st))


@app.command("power")
def power_cmd(
    ctx: typer.Context,
    figure: Annotated[str, typer.Argument(help="The figure using the power.")],
    target: Annotated[str, typer.Argument(help="The enemy it is used on.")],
    power: Annotated[str, typer.Argument(help="The power, as its card names it (Force Lightning 2, Force Grip, ...).")],
    save: Annotated[list[str] | None, typer.Option("--save", help="A save a struck figure makes, as rolled: ID:ABILITY=N (Shields=N,N), or ID:save=N for the power's own save (Force Thrust).", metavar="ID:ABILITY=N")] = None,
    game: GameOpt = None, override: OverrideOpt = None, json_out: JsonOpt = False,
) -> None:
    """Record a Force power that hurts (SWM): its Force points spent, and each struck figure's damage through its saves."""
    from ..game.actions import power_event
    from .app import edge

    with edge(json_out, "game"):
        st, _meta = read_state(ctx, game)
        data = power_event(st, figure, target, power, save or [], override)
        _record(ctx, game, "power", data, override, json_out)


@app.command("charge")
def charge(
    ctx: typer.Context,
    figure: Annotated[str, typer.Argument(help="The charging creature (DDM).")],
    target: Annotated[str, typer.Argument(help="The nearest enemy it sees.")],
    roll: RollOpt,
    to: Annotated[str | None, typer.Option("--to", help="The square it ends on (default: the nearest square next to the target).")] = None,
    game: GameOpt = None, override: OverrideOpt = None, json_out: JsonOpt = False,
) -> None:
    """DDM: charge -- the move and its one melee attack at +2, checked (nearest enemy, nearest square, 2 to 2x Speed, clear route)."""
    from dataclasses import replace

    from ..coords import parse_square
    from ..game import RefusedError
    from ..game.referee import plan_charge
    from ..model import Position
    from ..rules.attack import attack
    from .app import edge

    with edge(json_out, "game"):
        st, _meta = read_state(ctx, game)
        f = st.figure(figure)
        st.figure(target)
        reasons, end, r = plan_charge(st, figure, target, parse_square(to) if to else None)
        if end is None:
            if override:
                raise AssistantError(_("no end square for this charge: give --to SQUARE to record it with --override"))
            raise RefusedError(reasons)
        if reasons and not override:
            raise RefusedError(reasons)
        moved = replace(f, at=end)
        pos = st.position
        after = Position(pos.edition, pos.map, tuple(moved if x.id == f.id else x for x in pos.figures), pos.cards)
        ans = attack(after, figure, target, moved=True, charge=True, kind="melee")
        _actions().refuse_unless(ans, override)
        data = {"figure": figure, "target": target, "to": end.name, "cost": r.cost if r and r.cost else 0,
                "path": [s.name for s in r.path] if r else [], **_actions().roll_outcome(ans, roll)}
        _record(ctx, game, "charge", data, override, json_out)


@app.command("morale")
def morale(
    ctx: typer.Context,
    figure: Annotated[str, typer.Argument(help="The creature making the save (DDM).")],
    roll: RollOpt,
    game: GameOpt = None, override: OverrideOpt = None, json_out: JsonOpt = False,
) -> None:
    """DDM: record a morale save (d20 + Level + the best commander rating in range, DC 20): it holds, or the creature routs."""
    from ..game.referee import morale_bonus
    from .app import edge

    with edge(json_out, "game"):
        st, _meta = read_state(ctx, game)
        f = st.figure(figure)
        level, rating, by = morale_bonus(st.position, f)
        total = roll + level + rating
        held = roll == 20 or (roll != 1 and total >= 20)
        data = {"figure": figure, "roll": roll, "level": level, "commander": rating, "commander_by": by, "total": total, "held": held}
        _record(ctx, game, "morale", data, override, json_out)


@app.command("flee")
def flee(
    ctx: typer.Context,
    figure: Annotated[str, typer.Argument(help="The creature that leaves the map.")],
    by: Annotated[str | None, typer.Option("--by", help="The side or figure that caused it (default: the opponent).")] = None,
    game: GameOpt = None, json_out: JsonOpt = False,
) -> None:
    """A creature flees or is driven off the map: eliminated, its cost scored as for a defeat."""
    from .app import edge

    with edge(json_out, "game"):
        _record(ctx, game, "flee", {"figure": figure, **({"by": by} if by else {})}, None, json_out)


@app.command("end")
def end_game(
    ctx: typer.Context,
    reason: Annotated[str, typer.Option("--reason", help="Why the game ends (time, concession, ...).")] = "time",
    game: GameOpt = None, json_out: JsonOpt = False,
) -> None:
    """End the game (on time, by concession): the round's points are kept and the result recorded."""
    from .app import edge

    with edge(json_out, "game"):
        _record(ctx, game, "end", {"reason": reason}, None, json_out)


@app.command("damage")
def damage(ctx: typer.Context, figure: Annotated[str, typer.Argument()], amount: Annotated[int, typer.Argument(min=1)],
           by: Annotated[str | None, typer.Option("--by", help="The figure or side that dealt it (scores the defeat).")] = None,
           saves: SavesOpt = None, game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """Record damage taken (a figure at 0 Hit Points is defeated and removed)."""
    from .app import edge

    with edge(json_out, "game"):
        _record(ctx, game, "damage", {"figure": figure, "amount": amount, **({"by": by} if by else {}), **_saves(saves)}, None, json_out)


def _saves(text: str | None) -> dict[str, Any]:
    """``--saves 12,15``: the two d20s of SWM Avoid Defeat, as rolled."""
    if text is None:
        return {}
    try:
        rolls = [int(x) for x in text.split(",")]
    except ValueError:
        rolls = []
    if len(rolls) != 2 or not all(1 <= r <= 20 for r in rolls):
        raise AssistantError(_("--saves {text!r}: write the two d20s as rolled, e.g. --saves 12,15").format(text=text))
    return {"saves": rolls}


@app.command("heal")
def heal(ctx: typer.Context, figure: Annotated[str, typer.Argument()], amount: Annotated[int, typer.Argument(min=1)],
         game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """Remove damage (never below none)."""
    from .app import edge

    with edge(json_out, "game"):
        _record(ctx, game, "heal", {"figure": figure, "amount": amount}, None, json_out)


@app.command("force")
def force(ctx: typer.Context, figure: Annotated[str, typer.Argument()], delta: Annotated[int, typer.Argument(help="Points gained (+) or spent (-).")],
          game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """Spend or gain Force points."""
    from .app import edge

    with edge(json_out, "game"):
        _record(ctx, game, "force", {"figure": figure, "delta": delta}, None, json_out)


@app.command("condition")
def condition(ctx: typer.Context, figure: Annotated[str, typer.Argument()],
              action: Annotated[str, typer.Argument(help="add or remove")], name: Annotated[str, typer.Argument(help="e.g. stunned")],
              game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """Add or remove a condition (stunned, helpless, ...)."""
    from .app import edge

    with edge(json_out, "game"):
        if action not in ("add", "remove"):
            raise AssistantError(_("{action!r}: write add or remove").format(action=action))
        _record(ctx, game, "condition", {"figure": figure, "add": action == "add", "condition": name.strip().lower()}, None, json_out)


@app.command("door")
def door(ctx: typer.Context, edge_name: Annotated[str, typer.Argument(metavar="EDGE", help="The door's edge, e.g. H5.S")],
         state: Annotated[str, typer.Argument(help="open or close")], game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """Open or close a door by hand (the SWM door rule also runs at every end of turn)."""
    from ..coords import parse_edge
    from .app import edge

    with edge(json_out, "game"):
        if state not in ("open", "close"):
            raise AssistantError(_("{state!r}: write open or close").format(state=state))
        _record(ctx, game, "door", {"edge": parse_edge(edge_name).name, "open": state == "open"}, None, json_out)


@app.command("embark")
def embark(ctx: typer.Context, figure: Annotated[str, typer.Argument(help="The passenger, next to the skiff at the end of its move.")],
           skiff: Annotated[str, typer.Argument(help="The figure with Desert Skiff.")],
           game: GameOpt = None, override: OverrideOpt = None, json_out: JsonOpt = False) -> None:
    """SWM 2008 Desert Skiff: a passenger boards (one Large or two Medium or Small allies) and rides off the map."""
    from .app import edge

    with edge(json_out, "game"):
        _record(ctx, game, "embark", {"figure": figure, "skiff": skiff}, override, json_out)


@app.command("disembark")
def disembark(ctx: typer.Context, figure: Annotated[str, typer.Argument(help="The passenger.")],
              to: Annotated[str, typer.Argument(help="The square next to the skiff it is placed on.")],
              game: GameOpt = None, override: OverrideOpt = None, json_out: JsonOpt = False) -> None:
    """SWM 2008 Desert Skiff: a passenger gets off just before the round's first activation, next to the skiff."""
    from ..coords import parse_square
    from .app import edge

    with edge(json_out, "game"):
        _record(ctx, game, "disembark", {"figure": figure, "at": parse_square(to).name}, override, json_out)


@app.command("remove")
def remove(ctx: typer.Context, figure: Annotated[str, typer.Argument()], game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """Take a figure off the table."""
    from .app import edge

    with edge(json_out, "game"):
        _record(ctx, game, "remove", {"figure": figure}, None, json_out)


@app.command("note")
def note(ctx: typer.Context, text: Annotated[str, typer.Argument(help="The judge's note.")], game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """Annotate the log (shown in the export)."""
    from .app import edge

    with edge(json_out, "game"):
        if not text.strip():
            raise AssistantError(_("an empty note"))
        _record(ctx, game, "note", {"text": text}, None, json_out)
