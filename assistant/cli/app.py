"""``python -m assistant``: the root of the command tree, a thin Typer layer over the library.

This module only assembles: the root group and its options, and the sub-commands from the
modules below it (none of which imports this one). Every command goes through
:func:`~.output.edge`, which turns the one domain exception family
(:class:`~assistant.errors.AssistantError`) into a message and exit code 2, and any other
exception into a one-line internal-error message (exit 1) -- never a traceback.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from pathlib import Path
from typing import Annotated, Any, get_args

import typer
from typer.core import TyperGroup

from .. import __version__, i18n
from ..i18n import _
from ..terminal import internal_error
from .complete import POSITION_PARAMS, attach
from .helptext import translate_help
from .output import ABORTS, click, emit_json, err, print_error, quiet_stdout, stdout_gone
from .usage import show_usage_error, usage_message

__all__ = ["app", "main"]


def _cards() -> typer.Typer:
    from . import cards_cmd  # start-up time: see _GROUPS

    return cards_cmd.app


def _game() -> typer.Typer:
    from . import game_cmd  # start-up time: see _GROUPS

    return game_cmd.app


def _photo() -> typer.Typer:
    from . import photo_cmd  # start-up time: see _GROUPS

    return photo_cmd.app


def _calibrate() -> typer.Typer:
    from . import photo_cmd  # start-up time: see _GROUPS

    return photo_cmd.calib_app


def _map() -> typer.Typer:
    from . import photo_cmd  # start-up time: see _GROUPS

    return photo_cmd.map_app


def _card_game(game: str) -> Callable[[], typer.Typer]:
    def make() -> typer.Typer:
        from . import cardgame_cmd  # start-up time: see _GROUPS

        return cardgame_cmd.make_app(game)

    return make


#: the root's command groups, in the order help lists them (after the root's own commands). They
#: are built when one is called or listed (help, completion, a mistyped name), not at every start:
#: building the whole tree cost a third of a one-shot question's time, and the card games' group
#: imports the card games' registry.
_GROUPS: dict[str, Callable[[], typer.Typer]] = {
    "cards": _cards, "game": _game, "photo": _photo, "calibrate": _calibrate, "map": _map,
}


def _groups() -> dict[str, Callable[[], typer.Typer]]:
    """Every command group by name, the card games' last (their names read from their registry)."""
    from ..commands.games import card_game_names  # start-up time: the registry imports every card game

    return {**_GROUPS, **{game: _card_game(game) for game in card_game_names()}}


def _names_a_file(param: Any, command: str) -> bool:
    """Whether a parameter takes a file's path: a ``Path`` (a list of them too), or a position
    file or a bundled example's name."""
    name = param.name or ""
    if ("*", name) in POSITION_PARAMS or (command, name) in POSITION_PARAMS:
        return True
    descriptor = getattr(param, "type_descriptor", None)  # typer >= 0.25: the annotation itself
    if descriptor is not None:
        return descriptor.annotation is Path or Path in get_args(descriptor.annotation)
    return isinstance(getattr(param, "type", None), getattr(click, "Path", ()))  # older typer: click's own type


def refuse_empty_paths(command: Any, name: str = "") -> None:
    """Refuse an empty file name as the bad argument it is, for every parameter that takes a path
    of ``command`` and the commands below it: ``Path("")`` is ``.``, the working folder, so
    ``photo detect ""`` answered ". is a directory, not an image" and ``cards import ""`` looked
    for a database in the working folder (a new user's trial, round 15)."""
    for param in getattr(command, "params", []):
        if not getattr(param.process_value, "refuses_empty", False) and _names_a_file(param, name):
            param.process_value = _no_empty(param, param.process_value)
    commands = getattr(command, "commands", {})
    for sub_name, sub in (commands.loaded() if hasattr(commands, "loaded") else commands).items():
        refuse_empty_paths(sub, sub_name)


def _no_empty(param: Any, process: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``process`` (a parameter's own reading of its value), first refusing an empty file name."""

    def checked(ctx: Any, value: Any) -> Any:
        values = value if isinstance(value, (list, tuple)) else (value,)
        if any(isinstance(v, str) and v == "" for v in values):
            raise click.exceptions.BadParameter(_("an empty name is no file: give the file's path"), ctx=ctx, param=param)
        return process(ctx, value)

    checked.refuses_empty = True  # type: ignore[attr-defined]  # wrapped once, however often the tree is walked
    return checked


def _build_group(name: str, sub: typer.Typer) -> Any:
    """The click group of one sub-app, built as ``app.add_typer(sub, name=name)`` would build it,
    with its completers attached and its help in the current language."""
    holder = typer.Typer(rich_markup_mode="rich", pretty_exceptions_enable=False)
    holder.add_typer(sub, name=name)
    group = typer.main.get_group(holder).commands[name]
    attach(group, (name,))
    refuse_empty_paths(group, name)
    translate_help(group)
    return group


#: the root's own commands, in the order help lists them: each the module (of this package) and the
#: function that answers it. Each is imported and built when it is called or listed (help,
#: completion, a mistyped name), not at every start: importing them all (the game store, the card
#: library, the shell's lines) was half of the tree's start-up, paid by every photo and game verb.
OWN_COMMANDS: dict[str, tuple[str, str]] = {
    "validate": ("position_cmd", "validate"), "show": ("position_cmd", "show"), "normalize": ("position_cmd", "normalize"),
    "schema": ("position_cmd", "schema"), "reading": ("position_cmd", "reading_cmd"), "examples": ("position_cmd", "examples"),
    "demo": ("position_cmd", "demo"), "los": ("queries", "los"), "cover": ("queries", "cover"), "range": ("queries", "range_"),
    "nearest": ("queries", "nearest"), "matrix": ("queries", "matrix"), "attack": ("queries", "attack"),
    "targets": ("queries", "targets"), "abilities": ("cards_cmd", "abilities_cmd"), "serve": ("live_cmd", "serve"),
    "shell": ("live_cmd", "shell"),
}


def _build_own(name: str) -> Any:
    """The click command of one of the root's own commands, built as ``app.command(name)`` would
    build it, with its completers attached and its help in the current language."""
    module, attribute = OWN_COMMANDS[name]
    answer = getattr(importlib.import_module(f".{module}", __package__), attribute)
    holder = typer.Typer(rich_markup_mode="rich", pretty_exceptions_enable=False)
    holder.command(name)(answer)
    command = typer.main.get_group(holder).commands[name]
    attach(command, (name,))
    refuse_empty_paths(command, name)
    translate_help(command)
    return command


class _LazyCommands(MutableMapping[str, Any]):
    """The root's commands: its own (:data:`OWN_COMMANDS`), then the command groups, each built on
    first use. Iterating names builds nothing; reading one builds it (and keeps it)."""

    def __init__(self, own: dict[str, Any]) -> None:
        self._own = dict(own)  # commands added to the root itself (none: the tree's are in the registries)
        self._built: dict[str, Any] = {}
        self._names: dict[str, Callable[[], typer.Typer]] | None = None

    def _groups(self, name: str | None = None) -> dict[str, Callable[[], typer.Typer]]:
        if self._names is None:
            if name is not None and name in _GROUPS:  # the card games' registry only when needed
                return _GROUPS
            self._names = _groups()
        return self._names

    def __getitem__(self, name: str) -> Any:
        if name in self._own:
            return self._own[name]
        if name not in self._built:
            if name in OWN_COMMANDS:
                self._built[name] = _build_own(name)
            else:
                make = self._groups(name).get(name)
                if make is None:
                    raise KeyError(name)
                self._built[name] = _build_group(name, make())
        return self._built[name]

    def __contains__(self, name: object) -> bool:
        return name in self._own or name in OWN_COMMANDS or (isinstance(name, str) and name in self._groups(name))

    def __setitem__(self, name: str, command: Any) -> None:
        self._own[name] = command

    def __delitem__(self, name: str) -> None:
        del self._own[name]

    def __iter__(self) -> Iterator[str]:
        yield from self._own
        yield from (name for name in OWN_COMMANDS if name not in self._own)
        yield from (name for name in self._groups() if name not in self._own and name not in OWN_COMMANDS)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def loaded(self) -> dict[str, Any]:
        """The commands built so far (what the help translation and the completers walk)."""
        return {**self._own, **self._built}


class _Group(TyperGroup):
    """The root command group. Usage errors (a bad option value, a missing argument, a number
    too large) exit 2 like every other user error, and under ``--json`` they print exactly one
    JSON object with an ``error`` key instead of the usage text."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = _LazyCommands(dict(self.commands))
        refuse_empty_paths(self)  # the root's --cards (each command is checked as it is built)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)  # names only: typer's own reads every command, building it

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
                emit_json({"error": usage_message(exc), "usage": True})
            else:  # in the reader's language; the value it quotes is the user's: shown escaped, as every message is
                show_usage_error(exc, lambda line: click.echo(line, err=True))
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
        sys.exit(internal_error(exc))
