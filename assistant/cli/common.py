"""What the commands share above the output helpers: the card library, where a position or a
game is found, the options every query takes, the board as this terminal draws it.

Imports only :mod:`.output` and :mod:`.board` from ``cli/`` (the tree runs one way).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import RenderableType
from rich.markup import escape

from ..cards import CardLibrary, default_library
from ..commands.context import Session
from ..commands.registry import find
from ..commands.result import Result
from ..i18n import N_, _, decimal
from ..model import Position
from .board import render_board
from .output import edge, emit_json, err, out, print_lines, print_text

PositionOpt = Annotated[
    str | None,
    typer.Option("--position", "-p", help="The position file (or a bundled example's name). Default: the current game.", show_default=False),
]
QueryGameOpt = Annotated[Path | None, typer.Option("--game", help="Answer from this game file (default: the current game).", metavar="PATH")]
PngOpt = Annotated[Path | None, typer.Option("--png", help="Also draw the answer to this PNG file.", metavar="FILE")]
SvgOpt = Annotated[Path | None, typer.Option("--svg", help="Also draw the answer to this SVG file (the web app's picture).", metavar="FILE")]

#: ``verify --head H``: a chain head from an earlier export, to find in the log
HeadOpt = Annotated[str | None, typer.Option("--head", help="A chain head from an earlier export: show the log still holds it.", metavar="HASH")]
#: ``replay N`` and ``replay --to N`` are one request: players type the number alone, as ``undo N`` takes it
ReplayEventArg = Annotated[int | None, typer.Argument(help="The event to show the state after (the same as --to).", metavar="[N]", show_default=False)]
ReplayToOpt = Annotated[int | None, typer.Option("--to", help="Show the state as it was after this event.", metavar="N")]


def replay_event(event: int | None, to: int | None) -> int:
    """The event a ``replay`` asks for, written as its argument or with ``--to``; neither, or two
    different numbers, is a usage error (exit 2) that says how to write it."""
    if event is not None and to is not None and event != to:
        raise typer.BadParameter(_("two events named, {event} and --to {to}: name one").format(event=event, to=to))
    if event is None and to is None:
        raise typer.BadParameter(_("name the event to show the state after: 'replay N' (or 'replay --to N')"))
    return event if event is not None else to  # type: ignore[return-value]  # one of them is set: checked above


def session(ctx: typer.Context) -> Session:
    """The command layer's session for this command line: the extra card files it named."""
    obj = ctx.find_root().obj or {}
    return Session(cards=tuple(str(p) for p in obj.get("cards", [])))


def library(ctx: typer.Context) -> CardLibrary:
    extra = (ctx.find_root().obj or {}).get("cards", [])
    return default_library(extra)


def board_view(pos: Position) -> RenderableType:
    """The board as drawn for this terminal: compact when the full one would not fit."""
    return render_board(pos, None if out.soft_wrap else out.width)


def read_state(ctx: typer.Context, path: Path | None, upto: int | None = None) -> tuple[Any, dict[str, str]]:
    """The game's state (read-only: works on a read-only folder), and its meta."""
    return session(ctx).read_state(path, upto)


def show(name: str, result: Result, json_out: bool) -> None:
    """A verb's answer as the command line prints it: one JSON object, or its lines (the
    questions answered by rows, ``matrix`` and ``targets``, as a table)."""
    if not json_out:
        for note in result.notes:
            err.print(note)
    if json_out:
        emit_json(result.json)
    elif name in TABLES:
        TABLES[name](result)
    else:
        print_lines(result.lines)
    if result.text is not None and not json_out:
        print_text(result.text)


def run(ctx: typer.Context, name: str, json_out: bool = False, /, **args: Any) -> Result:
    """Run a registered verb for this command line and print its answer; a refusal or a bad
    argument exits as every command does (:func:`~.output.edge`), a refused play with its code.
    The first three are positional only: a verb's own argument may be called ``name`` (game
    condition)."""
    v = find(name)
    with edge(json_out, v.query):
        result = v(session(ctx), **args)
        show(name, result, json_out)
    if result.exit_code:
        raise typer.Exit(result.exit_code)
    return result


def _matrix_table(result: Result) -> None:
    from rich.table import Table  # start-up time: only a matrix draws a table

    from ..rules.engine import fmt_point  # start-up time: the rules engine (~50 ms), only for this table

    table = Table(header_style="bold", box=None, pad_edge=False)
    for col in (N_("from"), N_("to"), N_("sight"), N_("cover"), N_("range"), N_("witness")):
        table.add_column(_(col))
    yes, no, covered, uncovered = _("yes"), _("no"), _("cover"), _("no cover")
    for r in result.json["pairs"]:
        sight = f"[green]{yes}[/]" if r["line_of_sight"] else f"[red]{no}[/]"
        cov = "-" if r["cover"] is None else (f"[yellow]{covered}[/]" if r["cover"] else uncovered)
        w = "" if r["witness"] is None else f"{fmt_point(r['witness'][0])} → {fmt_point(r['witness'][1])}"
        table.add_row(r["from"], r["to"], sight, cov, "-" if r["range"] is None else str(r["range"]), w)
    out.print(table)
    print_lines(result.lines)


def _targets_table(result: Result) -> None:
    from rich.table import Table  # start-up time: only targets draws a table

    table = Table(header_style="bold", box=None, pad_edge=False)
    for col in (N_("target"), N_("legal"), N_("roll"), N_("chance"), N_("expected"), N_("why")):
        table.add_column(_(col))
    yes, no = _("yes"), _("no")
    for r in result.json["targets"]:
        if r["legal"] is None:
            table.add_row(r["target"], "?", "-", "-", "-", escape(r["error"]))
            continue
        why = "; ".join(x["text"] for x in r["illegal_reasons"]) or "-"
        if not r["odds"]:  # no attack can be made on it at all (a Light Spirit): no roll or odds
            table.add_row(r["target"], f"[red]{no}[/]", "-", "-", "-", escape(why))
            continue
        now = r.get("refused_this_turn") or []
        if r["legal"] and now:  # the acting figure's turn so far allows no such attack (a double move)
            table.add_row(r["target"], f"[red]{escape(_('not this turn'))}[/]", "-", "-", "-", escape("; ".join(x["text"] for x in now)))
            continue
        table.add_row(r["target"], f"[green]{yes}[/]" if r["legal"] else f"[red]{no}[/]", f"{r['needs']}+",
                      f"{r['p_hit'] * 100:.0f}%", decimal(r['expected_damage']), escape(why))
    out.print(table)


def _replay_board(result: Result) -> None:
    print_lines(result.lines)
    out.print(board_view(result.position), crop=False)


TABLES: dict[str, Callable[[Result], None]] = {"matrix": _matrix_table, "targets": _targets_table, "game replay": _replay_board}


def load(ctx: typer.Context, position: str | None, game: Path | None = None) -> Position:
    """The position asked about: a file, or the current state of a game."""
    return session(ctx).load(position, game)[0]


def open_game(ctx: typer.Context, path: Path | None, readonly: bool = False) -> Any:
    """The game file a command works on, opened (the current miniatures game by default)."""
    return session(ctx).open_game(path, readonly=readonly)
