"""``python -m assistant game ...``: the game session -- log, sequence, edits, undo, export."""

from __future__ import annotations

import json
import random
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.markup import escape

from ..errors import AssistantError

app = typer.Typer(help="The game session: a judge-replayable log of rounds, activations and edits.", no_args_is_help=True)

GameOpt = Annotated[Optional[Path], typer.Option("--game", help="The game file (default: the current game).", metavar="PATH")]
OverrideOpt = Annotated[Optional[str], typer.Option("--override", help="Record it even if the rules refuse, with this reason.", metavar="REASON")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object on stdout.")]


def game_path(explicit: Path | None) -> Path:
    from ..game.store import current_game_path

    if explicit is not None:
        return explicit
    cur = current_game_path()
    if cur is None:
        raise AssistantError("no current game: start one with 'python -m assistant game new --position FILE' or name one with --game")
    return cur


def open_game(ctx: typer.Context, path: Path | None):
    from ..game import Game
    from .app import library

    return Game.open(game_path(path), library(ctx))


def _record(ctx: typer.Context, game: Path | None, kind: str, data: dict[str, Any], override: str | None, json_out: bool) -> None:
    from .app import emit_json, out

    g = open_game(ctx, game)
    try:
        ev = g.do(kind, data, override)
        st = g.state()
    finally:
        g.close()
    entry = st.entries[-1]
    if json_out:
        emit_json({"query": "game", "event": ev.as_json(), "text": entry.text, "round": entry.round, "phase": entry.phase})
    else:
        out.print(f"[green]#{ev.seq}[/] {escape(entry.text)}")


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
        text, _ = read_text(resolve_position(position))
        path = game or games_home() / "games" / f"{Path(position).stem}-{datetime.now().strftime('%Y%m%d-%H%M%S')}.sqlite"
        from ..game.squads import check_squads
        from ..position import parse_position

        _problems, unchecked = check_squads(parse_position(text, str(position), library(ctx)))
        g = Game.new(path, text, library(ctx), override)
        g.close()
        set_current_game(path)
        out.print(f"new game {escape(str(path))} (now the current game)")
        for line in unchecked:
            out.print(f"  [yellow]squad check incomplete:[/] {escape(line)}")


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
    """Make a game file the current game."""
    from ..game import Game
    from ..game.store import set_current_game
    from .app import edge, out

    with edge():
        Game.open(game).close()
        set_current_game(game)
        out.print(f"current game: {escape(str(game))}")


@app.command("status")
def status(ctx: typer.Context, game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """The round, the phase, whose activation it is, and who may still activate."""
    from .app import edge, emit_json, out

    with edge(json_out, "status"):
        g = open_game(ctx, game)
        st = g.state()
        g.close()
        info = {
            "query": "status", "rules": st.rules.value, "round": st.round, "phase": st.phase,
            "next": st.expected_side(), "active": st.active, "moved": st.moved,
            "may_activate": {s: [f.id for f in st.unactivated(s)] for s in st.sides()},
            "defeated": st.defeated, "round_over": st.round > 0 and st.round_over(),
            "vp": st.vp, "morale_due": st.morale_due, "quiet_rounds": st.quiet_rounds, "winner": st.winner(),
            "tie_break": st.quiet_rounds >= 10,
        }
        if json_out:
            emit_json(info)
            return
        if st.round == 0:
            out.print("no round yet: roll initiative ('game initiative')")
            return
        out.print(f"round {st.round}, phase {st.phase}: {st.active + ' is acting' if st.active else 'nobody is acting'}")
        if info["round_over"]:
            out.print("every figure has activated: the round is over; roll initiative for the next")
        else:
            out.print(f"next activation: [bold]{info['next']}[/]")
        for side, ids in info["may_activate"].items():
            out.print(f"  {side} may still activate: {', '.join(ids) or '-'}")
        if st.defeated:
            out.print(f"  defeated: {', '.join(st.defeated)}")
        if st.vp:
            out.print("  victory points: " + ", ".join(f"{s} {v}" for s, v in st.vp.items()))
        for m in st.morale_due:
            out.print(f"  [yellow]{escape(m)}[/]")
        if info["winner"]:
            out.print(f"  [bold green]{info['winner']} wins[/]")
        if st.quiet_rounds >= 10:
            out.print("  [bold]10 rounds with no attack and no damage: the game ends on the tie-break[/] (most points; then nearest to the centre; then highest cost)")


@app.command("log")
def log(ctx: typer.Context, game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """Every event in order, with its round and phase."""
    from .app import edge, emit_json, out

    with edge(json_out, "log"):
        g = open_game(ctx, game)
        st = g.state()
        g.close()
        if json_out:
            emit_json({"query": "log", "events": [{**e.event.as_json(), "round": e.round, "phase": e.phase, "text": e.text} for e in st.entries]})
            return
        for e in st.entries:
            out.print(f"#{e.event.seq:<4} r{e.round} p{e.phase}  {escape(e.text)}")


@app.command("undo")
def undo(
    ctx: typer.Context,
    seq: Annotated[Optional[int], typer.Argument(help="The event to undo (default: the last one).")] = None,
    game: GameOpt = None,
) -> None:
    """Undo an event (it stays in the log, marked undone)."""
    from .app import edge, out

    with edge():
        g = open_game(ctx, game)
        try:
            ev = g.undo(seq)
        finally:
            g.close()
        out.print(f"[green]#{ev.seq}[/] undid event {ev.data['seq']}")


@app.command("replay")
def replay(
    ctx: typer.Context,
    to: Annotated[int, typer.Option("--to", help="Show the game as it was after this event.")],
    game: GameOpt = None,
) -> None:
    """The board and the status as they were after event N."""
    from .app import edge, out
    from .board import render_board

    with edge():
        g = open_game(ctx, game)
        st = g.state(upto=to)
        g.close()
        out.print(f"after event #{to}: round {st.round}, phase {st.phase}")
        out.print(render_board(st.position), crop=False)


@app.command("export")
def export(
    ctx: typer.Context,
    fmt: Annotated[str, typer.Option("--format", help="json or md (Markdown for a judge).")] = "md",
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
    game: GameOpt = None,
) -> None:
    """The whole game, event by event, with overrides and their reasons."""
    from .app import edge, write_or_print

    with edge():
        if fmt not in ("json", "md"):
            raise AssistantError(f"unknown format {fmt!r}: json or md")
        g = open_game(ctx, game)
        st = g.state()
        meta = g.store.meta()
        g.close()
        if fmt == "json":
            text = json.dumps({
                "format": meta.get("format"), "rules": meta.get("rules"), "created": meta.get("created"),
                "events": [{**e.event.as_json(), "round": e.round, "phase": e.phase, "text": e.text} for e in st.entries],
                "final": {"round": st.round, "phase": st.phase, "defeated": st.defeated,
                          "figures": [{"id": f.id, "at": f.at.name, "damage_taken": f.damage_taken, "activated": f.activated} for f in st.position.figures]},
            }, indent=2, ensure_ascii=False) + "\n"
        else:
            lines = [f"# Game log ({meta.get('rules')}, started {meta.get('created')})", "",
                     "| # | round | phase | time | event | override |", "|---|---|---|---|---|---|"]
            for e in st.entries:
                text = e.text.replace("|", "\\|")
                lines.append(f"| {e.event.seq} | {e.round} | {e.phase} | {e.event.at} | {text} | {e.event.override or ''} |")
            lines += ["", f"Final: round {st.round}, phase {st.phase}; defeated: {', '.join(st.defeated) or 'none'}.", ""]
            text = "\n".join(lines)
        write_or_print(text, output)


@app.command("snapshot")
def snapshot(ctx: typer.Context, output: Annotated[Path, typer.Option("--output", "-o", help="The position file to write.")], game: GameOpt = None) -> None:
    """Save the current state as a position file."""
    from ..position import save_position
    from .app import edge, err

    with edge():
        g = open_game(ctx, game)
        st = g.state()
        g.close()
        save_position(st.position, output)
        err.print(f"wrote {escape(str(output))}")


@app.command("initiative")
def initiative(
    ctx: typer.Context,
    roll: Annotated[Optional[list[str]], typer.Option("--roll", help="A side's d20, as SIDE=N (repeat for each side).")] = None,
    auto: Annotated[bool, typer.Option("--auto", help="Let the assistant roll the dice.")] = False,
    first: Annotated[Optional[str], typer.Option("--first", help="Who goes first (the winner's choice; default the winner).")] = None,
    game: GameOpt = None,
    override: OverrideOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Roll initiative for a new round (SWM d20, ties rerolled; DDM d20 + best able commander rating)."""
    from ..editions import Edition
    from .app import edge

    with edge(json_out, "game"):
        g = open_game(ctx, game)
        st = g.state()
        g.close()
        sides = st.sides()
        rolls: dict[str, int] = {}
        if auto:
            rolls = {s: random.randint(1, 20) for s in sides}
        for item in roll or ():
            side, _, n = item.partition("=")
            if side not in sides or not n.isdigit() or not 1 <= int(n) <= 20:
                raise AssistantError(f"--roll {item!r}: write SIDE=N with a side of this game ({', '.join(sides)}) and N from 1 to 20")
            rolls[side] = int(n)
        missing = [s for s in sides if s not in rolls]
        if missing:
            raise AssistantError(f"no roll for {', '.join(missing)}: give --roll SIDE=N for every side, or --auto")
        totals = dict(rolls)
        ratings: dict[str, int] = {s: 0 for s in sides}
        if st.rules is Edition.DDM2005:
            for s in sides:
                able = [st.position.stats_of(f).commander_rating or 0 for f in st.position.figures
                        if f.side == s and not set(f.conditions) & {"stunned", "routing", "helpless", "confused"}]
                ratings[s] = max(able, default=0)
                totals[s] += ratings[s]
        top = max(totals.values())
        leaders = [s for s in sides if totals[s] == top]
        if len(leaders) > 1 and st.rules is Edition.DDM2005:
            best = max(ratings[s] for s in leaders)
            leaders = [s for s in leaders if ratings[s] == best]
        if len(leaders) > 1:
            raise AssistantError(f"tie ({', '.join(f'{s} {totals[s]}' for s in leaders)}): reroll initiative "
                                 f"({st.cite('PL p.5; CS r.5') if st.rules is not Edition.DDM2005 else st.cite('glossary tied die rolls')})")
        winner = leaders[0]
        if first is not None and first not in sides:
            raise AssistantError(f"--first {first!r} is not a side of this game ({', '.join(sides)})")
        _record(ctx, game, "initiative", {"rolls": rolls, "totals": totals, "winner": winner, "first": first or winner}, override, json_out)


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
         game: GameOpt = None, override: OverrideOpt = None, json_out: JsonOpt = False) -> None:
    """Move the acting figure; the path and its cost are checked against its speed."""
    from ..coords import parse_square
    from ..game.state import movement_cost
    from .app import edge

    with edge(json_out, "game"):
        g = open_game(ctx, game)
        st = g.state()
        g.close()
        cost, _why = movement_cost(st.position, st.position.figure(figure), parse_square(to))
        _record(ctx, game, "move", {"figure": figure, "to": parse_square(to).name, "cost": cost or 0}, override, json_out)


@app.command("attack")
def attack_cmd(
    ctx: typer.Context,
    attacker: Annotated[str, typer.Argument(help="The attacking figure.")],
    target: Annotated[str, typer.Argument(help="The target.")],
    roll: Annotated[int, typer.Option("--roll", help="The d20 as rolled at the table.", min=1, max=20)],
    combined_fire: Annotated[Optional[str], typer.Option("--combined-fire", help="SWM helpers, ID[,ID...].", metavar="IDS")] = None,
    game: GameOpt = None, override: OverrideOpt = None, json_out: JsonOpt = False,
) -> None:
    """Record an attack with the die as rolled: hit or miss and the damage follow the rules."""
    from ..rules.attack import attack
    from .app import edge

    with edge(json_out, "game"):
        g = open_game(ctx, game)
        st = g.state()
        g.close()
        helpers = tuple(h.strip() for h in (combined_fire or "").split(",") if h.strip())
        ans = attack(st.position, attacker, target, moved=st.moved.get(attacker, 0) > 0, combined_fire=helpers)
        if not ans.legal and not override:
            from ..game import RefusedError

            raise RefusedError(list(ans.illegal_reasons))
        crit = roll >= ans.critical_on[0]
        hit = roll != 1 and (roll >= ans.needs or roll == 20 or crit)
        damage = (ans.critical_damage if crit else ans.damage) if hit else 0
        data = {"attacker": attacker, "target": target, "roll": roll, "needs": ans.needs, "hit": hit, "critical": hit and crit,
                "damage": damage, "helpers": list(ans.helpers)}
        _record(ctx, game, "attack", data, override, json_out)


@app.command("damage")
def damage(ctx: typer.Context, figure: Annotated[str, typer.Argument()], amount: Annotated[int, typer.Argument(min=1)],
           game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """Record damage taken (a figure at 0 Hit Points is defeated and removed)."""
    from .app import edge

    with edge(json_out, "game"):
        _record(ctx, game, "damage", {"figure": figure, "amount": amount}, None, json_out)


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
            raise AssistantError(f"{action!r}: write add or remove")
        _record(ctx, game, "condition", {"figure": figure, "add": action == "add", "condition": name.strip().lower()}, None, json_out)


@app.command("door")
def door(ctx: typer.Context, edge_name: Annotated[str, typer.Argument(metavar="EDGE", help="The door's edge, e.g. H5.S")],
         state: Annotated[str, typer.Argument(help="open or close")], game: GameOpt = None, json_out: JsonOpt = False) -> None:
    """Open or close a door by hand (the SWM door rule also runs at every end of turn)."""
    from ..coords import parse_edge
    from .app import edge

    with edge(json_out, "game"):
        if state not in ("open", "close"):
            raise AssistantError(f"{state!r}: write open or close")
        _record(ctx, game, "door", {"edge": parse_edge(edge_name).name, "open": state == "open"}, None, json_out)


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
            raise AssistantError("an empty note")
        _record(ctx, game, "note", {"text": text}, None, json_out)
