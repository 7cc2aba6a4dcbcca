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

from ..cards import CardLibrary, default_library
from ..commands.context import Session
from ..commands.registry import find
from ..commands.result import Result
from ..i18n import _
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
    if json_out:
        emit_json(result.json)
        return
    for note in result.notes:
        err.print(note)
    if name in TABLES:
        TABLES[name](result)
    elif result.table is not None:
        _rows_table(result)
    else:
        print_lines(result.lines)
    if result.text is not None:
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


def _rows_table(result: Result) -> None:
    """A question answered by rows (``matrix``, ``targets``: :attr:`Result.table`) as a table, then its lines."""
    from rich.table import Table  # start-up time: only a question answered by rows draws a table

    assert result.table is not None
    table = Table(header_style="bold", box=None, pad_edge=False)
    for col in result.table.columns:
        table.add_column(col)
    for row in result.table.rows:
        table.add_row(*row)
    out.print(table)
    print_lines(result.lines)


def _replay_board(result: Result) -> None:
    print_lines(result.lines)
    out.print(board_view(result.position), crop=False)


TABLES: dict[str, Callable[[Result], None]] = {"game replay": _replay_board}


def load(ctx: typer.Context, position: str | None, game: Path | None = None) -> Position:
    """The position asked about: a file, or the current state of a game."""
    return session(ctx).load(position, game)[0]


def open_game(ctx: typer.Context, path: Path | None, readonly: bool = False) -> Any:
    """The game file a command works on, opened (the current miniatures game by default)."""
    return session(ctx).open_game(path, readonly=readonly)
