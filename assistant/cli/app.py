"""``python -m assistant``: the root of the command tree, a thin Typer layer over the library.

This module only assembles: the root group and its options, and the sub-commands from the
modules below it (none of which imports this one). Every command goes through
:func:`~.output.edge`, which turns the one domain exception family
(:class:`~assistant.errors.AssistantError`) into a message and exit code 2, and any other
exception into a one-line internal-error message (exit 1) -- never a traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from .. import __version__, i18n
from ..i18n import _
from . import cardgame_cmd, cards_cmd, game_cmd, live_cmd, photo_cmd, position_cmd, queries
from .complete import attach
from .helptext import translate_help
from .output import ABORTS, DEBUG_ENV, click, emit_json, err, print_error, quiet_stdout, stdout_gone

__all__ = ["app", "main"]


class _Group(TyperGroup):
    """The root command group. Usage errors (a bad option value, a missing argument, a number
    too large) exit 2 like every other user error, and under ``--json`` they print exactly one
    JSON object with an ``error`` key instead of the usage text."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, windows_expand_args: bool = True, **extra: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        attach(self)  # figure ids, positions, games and cards complete in the shell
        _help_in_language(self, argv)
        try:
            rv = super().main(args=argv, prog_name=prog_name, complete_var=complete_var, standalone_mode=False,
                              windows_expand_args=windows_expand_args, **extra)
        except click.exceptions.ClickException as exc:
            if "--json" in argv:
                emit_json({"error": exc.format_message(), "usage": True})
            else:
                exc.show()
            rv = 2
        except ABORTS:
            err.print("aborted")
            rv = 1
        except BrokenPipeError:  # `... | head -1`: the reader has gone; that is not an error
            quiet_stdout()
            rv = 0
        except SystemExit as exc:  # click's and rich's own closed-pipe handling exit 1
            if exc.code != 1 or not stdout_gone():
                raise
            rv = 0
        except (ValueError, OverflowError, RecursionError) as exc:  # raised by click's own conversions
            msg = f"bad argument: {exc}"
            if "--json" in argv:
                emit_json({"error": msg, "usage": True})
            else:
                print_error(msg)
            rv = 2
        code = rv if isinstance(rv, int) else 0
        if standalone_mode:
            sys.exit(code)
        return code


def _help_in_language(root: Any, argv: list[str]) -> None:
    """Help, panels included, in the language asked for: ``--lang`` is read here, before click
    parses the line, because ``--help`` is answered while it is parsed."""
    asked = None
    for i, word in enumerate(argv):
        if word == "--lang" and i + 1 < len(argv):
            asked = argv[i + 1]
        elif word.startswith("--lang="):
            asked = word.partition("=")[2]
    i18n.set_language(i18n.choose(asked if asked and asked.strip().lower() in i18n.LANGUAGES else None))
    translate_help(root)


app = typer.Typer(
    cls=_Group,
    name="assistant",
    help="An exact, explained referee for Star Wars Miniatures (2004, 2008), D&D Miniatures (2005), Star Wars: Destiny and the Star Wars TCG.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(cards_cmd.app, name="cards")
app.add_typer(game_cmd.app, name="game")
app.add_typer(photo_cmd.app, name="photo")
app.add_typer(photo_cmd.calib_app, name="calibrate")
app.add_typer(photo_cmd.map_app, name="map")
for _game in cardgame_cmd.card_games():
    app.add_typer(cardgame_cmd.make_app(_game), name=_game)

#: the root's commands, in the order help lists them
for _name, _command in (
    ("validate", position_cmd.validate), ("show", position_cmd.show), ("normalize", position_cmd.normalize),
    ("schema", position_cmd.schema), ("reading", position_cmd.reading_cmd), ("examples", position_cmd.examples),
    ("demo", position_cmd.demo), ("los", queries.los), ("cover", queries.cover), ("range", queries.range_),
    ("nearest", queries.nearest), ("matrix", queries.matrix), ("attack", queries.attack), ("targets", queries.targets),
    ("abilities", cards_cmd.abilities_cmd), ("serve", live_cmd.serve), ("shell", live_cmd.shell),
):
    app.command(_name)(_command)

live_cmd.ROOT = app  # the shell runs the lines no verb answers through the whole tree


def _version(value: bool) -> None:
    if value:
        typer.echo(f"tabletop-assistant {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
    cards: Annotated[
        list[Path] | None,
        typer.Option("--cards", help="Extra card file or folder (repeatable); also $TABLETOP_CARDS.", metavar="PATH"),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="Answer in en, pl or cs (default: $TABLETOP_LANG, else the locale's, else en).", metavar="LANG"),
    ] = None,
) -> None:
    """Record the table, answer rules questions, and explain every verdict."""
    if lang is not None and lang.strip().lower() not in i18n.LANGUAGES:
        raise typer.BadParameter(_("{lang!r}: the languages are {names}").format(lang=lang, names=', '.join(i18n.LANGUAGES)), param_hint="--lang")
    i18n.set_language(i18n.choose(lang))
    # a language the table chose (not merely the locale's) also rules the web app's pages
    chosen = i18n.choose(lang) if lang or os.environ.get(i18n.LANG_ENV) else None
    ctx.obj = {"cards": list(cards or []), "lang": chosen}


def main() -> None:
    """Console-script entry: the Typer app, with a last guard so no traceback escapes."""
    try:
        app()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # pragma: no cover - edge() already guards every command
        if os.environ.get(DEBUG_ENV):
            raise
        print(f"internal error ({type(exc).__name__}: {exc}); please report it.", file=sys.stderr)
        sys.exit(1)
