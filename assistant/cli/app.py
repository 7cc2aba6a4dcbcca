"""``python -m assistant``: a thin Typer layer over the library.

Every command goes through :func:`edge`, which turns the one domain exception family
(:class:`~assistant.errors.AssistantError`) into a message and exit code 2, and any other
exception into a one-line internal-error message (exit 1) -- never a traceback.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from typer.core import TyperGroup

try:  # typer >= 0.20 vendors click; older releases depend on it
    from typer import _click as click  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the installed typer
    import click  # type: ignore[no-redef]
from rich.markup import escape

from .. import __version__
from ..cardgames import CARD_GAMES
from ..cards import CardLibrary, default_library
from ..errors import AssistantError, Problem
from ..i18n import N_, _, n_
from ..model import Position
from ..position import check_position_file, dump_position, load_position
from ..resources import example_files, example_path
from ..yamlio import write_text_atomic
from . import cardgame_cmd, cards_cmd, game_cmd, photo_cmd
from .board import render_board

DEMO_EXAMPLE = "clone-wars-corridor"
DEBUG_ENV = "TABLETOP_DEBUG"

_ABORTS: tuple[type[BaseException], ...] = tuple(
    {typer.Abort, getattr(click, "Abort", typer.Abort), getattr(click.exceptions, "Abort", typer.Abort)})


def _stdout_gone() -> bool:
    """Has a closed pipe made stdout a sink (click swaps it, rich points it at /dev/null)?"""
    if type(sys.stdout).__name__ == "PacifyFlushWrapper":
        return True
    try:
        a, b = os.fstat(sys.stdout.fileno()), os.stat(os.devnull)
        return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)
    except (OSError, ValueError, AttributeError):
        return False


def _quiet_stdout() -> None:
    """After a closed pipe: send further output (and the interpreter's final flush) nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


class _Group(TyperGroup):
    """The root command group. Usage errors (a bad option value, a missing argument, a number
    too large) exit 2 like every other user error, and under ``--json`` they print exactly one
    JSON object with an ``error`` key instead of the usage text."""

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        from .complete import attach

        attach(self)  # figure ids, positions, games and cards complete in the shell
        _help_in_language(self, argv)
        try:
            rv = super().main(args=argv, prog_name=prog_name, complete_var=complete_var, standalone_mode=False, **extra)
        except click.exceptions.ClickException as exc:
            if "--json" in argv:
                emit_json({"error": exc.format_message(), "usage": True})
            else:
                exc.show()
            rv = 2
        except _ABORTS:
            err.print("aborted")
            rv = 1
        except BrokenPipeError:  # `... | head -1`: the reader has gone; that is not an error
            _quiet_stdout()
            rv = 0
        except SystemExit as exc:  # click's and rich's own closed-pipe handling exit 1
            if exc.code != 1 or not _stdout_gone():
                raise
            rv = 0
        except (ValueError, OverflowError, RecursionError) as exc:  # raised by click's own conversions
            msg = f"bad argument: {exc}"
            if "--json" in argv:
                emit_json({"error": msg, "usage": True})
            else:
                err.print(f"[bold red]{escape(_(T_ERROR))}:[/] {escape(msg)}")
            rv = 2
        code = rv if isinstance(rv, int) else 0
        if standalone_mode:
            sys.exit(code)
        return code


def _help_in_language(root: Any, argv: list[str]) -> None:
    """Help, panels included, in the language asked for: ``--lang`` is read here, before click
    parses the line, because ``--help`` is answered while it is parsed."""
    from .. import i18n
    from .helptext import translate_help

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
for _card_game in CARD_GAMES:  # one command group per registered card game
    app.add_typer(cardgame_cmd.make_app(_card_game), name=_card_game)

class _Console(Console):
    """A console for which a closed pipe (``... | head -1``) ends the program quietly, exit 0."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        _quiet_stdout()
        raise SystemExit(0)


def _wrap_to_width() -> bool:
    """Text is wrapped to the terminal's width where a person reads it (a terminal, or a width
    asked for with ``COLUMNS``); piped into another program, a line stays one line."""
    return sys.stdout.isatty() or bool(os.environ.get("COLUMNS", "").strip())


out = _Console(highlight=False, soft_wrap=not _wrap_to_width())
err = _Console(stderr=True, highlight=False, soft_wrap=not _wrap_to_width())


def board_view(pos: Position) -> RenderableType:
    """The board as drawn for this terminal: compact when the full one would not fit."""
    return render_board(pos, None if out.soft_wrap else out.width)


# --- the error edge ---------------------------------------------------------------------


def emit_json(obj: dict[str, Any]) -> None:
    """Exactly one JSON object on stdout (CONTRACT §3); a non-finite number, which JSON cannot
    write, is written as null rather than as the non-JSON ``Infinity``."""
    try:
        text = json.dumps(obj, ensure_ascii=False, allow_nan=False)
    except ValueError:
        text = json.dumps(_finite(obj), ensure_ascii=False, allow_nan=False)
    typer.echo(text)


def _finite(o: Any) -> Any:
    import math

    if isinstance(o, float) and not math.isfinite(o):
        return None
    if isinstance(o, dict):
        return {k: _finite(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_finite(v) for v in o]
    return o


def _error_json(exc: BaseException, query: str | None) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    if query:
        obj["query"] = query
    obj["error"] = str(exc)
    problems = getattr(exc, "problems", None)
    if problems:
        obj["problems"] = [p.as_json() for p in problems]
    return obj


@contextlib.contextmanager
def edge(json_mode: bool = False, query: str | None = None) -> Iterator[None]:
    """Run a command body; user errors exit 2 with a message, bugs exit 1 without a traceback."""
    try:
        yield
    except (typer.Exit, typer.Abort, SystemExit):
        raise
    except AssistantError as exc:
        _fail(str(exc), json_mode, _error_json(exc, query))
    except KeyboardInterrupt:
        err.print("interrupted")
        raise typer.Exit(130) from None
    except OSError as exc:  # a path the user gave that the system refuses (too long, no room, not allowed)
        name = str(exc.filename or "")
        name = name if len(name) <= 120 else name[:60] + "..." + name[-40:]
        msg = f"cannot use {name or 'a file'}: {exc.strerror or exc}"
        _fail(msg, json_mode, {"query": query, "error": msg} if query else {"error": msg})
    except Exception as exc:  # a bug: say so plainly, keep the traceback for --debug
        if os.environ.get(DEBUG_ENV):
            raise
        msg = _("internal error ({error}: {exc}); please report it. Set {variable}=1 to see the traceback.").format(
            error=type(exc).__name__, exc=exc, variable=DEBUG_ENV)
        if json_mode:
            emit_json({"query": query, "error": msg} if query else {"error": msg})
        else:
            err.print(f"[bold red]{escape(msg)}[/]")
        raise typer.Exit(1) from None


def _fail(msg: str, json_mode: bool, obj: dict[str, Any]) -> None:
    """A user error: the message (or one JSON object under --json), exit 2."""
    if json_mode:
        emit_json(obj)
    else:
        err.print(f"[bold red]{escape(_(T_ERROR))}:[/] {escape(msg)}")
    raise typer.Exit(2) from None


def write_or_print(text: str, output: Path | None) -> None:
    """A command's text to stdout, or atomically to ``output`` with a note on stderr."""
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_text_atomic(output, text)
        err.print(_("wrote {output}").format(output=escape(str(output))))


# --- shared options ---------------------------------------------------------------------

JsonOpt = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object on stdout.")]


def library(ctx: typer.Context) -> CardLibrary:
    extra = (ctx.find_root().obj or {}).get("cards", [])
    return default_library(extra)


def resolve_position(path: str) -> Path:
    """A position file path; a bundled example's name works too (``corridor``)."""
    p = Path(path)
    try:
        if p.exists():
            return p
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte: not an existing file
        return p
    ex = example_path(path) if len(path) < 256 and "\x00" not in path else None
    return ex if ex is not None else p


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
    from .. import i18n

    if lang is not None and lang.strip().lower() not in i18n.LANGUAGES:
        raise typer.BadParameter(_("{lang!r}: the languages are {names}").format(lang=lang, names=', '.join(i18n.LANGUAGES)), param_hint="--lang")
    i18n.set_language(i18n.choose(lang))
    # a language the table chose (not merely the locale's) also rules the web app's pages
    chosen = i18n.choose(lang) if lang or os.environ.get(i18n.LANG_ENV) else None
    ctx.obj = {"cards": list(cards or []), "lang": chosen}


# --- commands ---------------------------------------------------------------------------


def _print_problems(problems: list[Problem]) -> None:
    for p in problems:
        colour = "red" if p.severity == "error" else "yellow"
        err.print(f"  [{colour}]{escape(_(SEVERITIES.get(p.severity, p.severity)))}[/] {escape(str(p))}")


@app.command()
def validate(
    ctx: typer.Context,
    files: Annotated[list[str], typer.Argument(help="Position files (or bundled example names).", show_default=False)],
    json_out: JsonOpt = False,
    strict: Annotated[bool, typer.Option("--strict", help="Treat warnings as errors.")] = False,
) -> None:
    """Check position files and report every problem with its line. Exit 2 if any is invalid."""
    with edge(json_out, "validate"):
        lib = library(ctx)
        reports = []
        all_ok = True
        for name in files:
            result = check_position_file(resolve_position(name), lib)
            ok = not result.errors and not (strict and result.warnings)
            all_ok &= ok
            reports.append((name, result, ok))
        if json_out:
            obj: dict[str, Any] = {
                "query": "validate",
                "valid": all_ok,
                "files": [
                    {
                        "file": r.file,
                        "valid": ok,
                        "rules": r.position.edition.value if r.position else None,
                        "figures": len(r.position.figures) if r.position else None,
                        "problems": [p.as_json() for p in r.problems],
                    }
                    for _name, r, ok in reports
                ],
            }
            if not all_ok:
                bad = sum(1 for *_rest, ok in reports if not ok)
                obj["error"] = n_("{bad} of {n} file invalid", "{bad} of {n} files invalid", len(reports)).format(bad=bad, n=len(reports))
            emit_json(obj)
        else:
            for _name, r, ok in reports:
                if ok:
                    pos = r.position
                    assert pos is not None
                    out.print(f"[green]ok[/] {escape(r.file)}: " + escape(n_("{edition}, {cols} x {rows}, {n} figure", "{edition}, {cols} x {rows}, {n} figures",
                                                                              len(pos.figures)).format(edition=pos.edition.value, cols=pos.map.cols, rows=pos.map.rows, n=len(pos.figures))))
                    _print_problems(r.warnings)
                else:
                    n = len(r.errors) + (len(r.warnings) if strict else 0)
                    err.print(f"[bold red]{escape(_(T_INVALID))}[/] {escape(r.file)}: " + escape(n_("{n} problem", "{n} problems", n).format(n=n)))
                    _print_problems(r.problems)
        if not all_ok:
            raise typer.Exit(2)


@app.command()
def show(
    ctx: typer.Context,
    file: Annotated[str | None, typer.Argument(help="A position file (or a bundled example's name); default: the current game's board.", show_default=False)] = None,
    game: Annotated[Path | None, typer.Option("--game", help="A game file to draw instead of the current game.", metavar="PATH")] = None,
    svg: Annotated[Path | None, typer.Option("--svg", help="Also draw the board to this SVG file (the web app's picture).", metavar="FILE")] = None,
) -> None:
    """Draw the board: terrain in the printed colours, walls and doors on the grid lines, figures by side."""
    with edge():
        if file is not None:
            if game is not None:
                raise AssistantError(_("give a position file or --game, not both"))
            pos = load_position(resolve_position(file), library(ctx))
        else:
            from .game_cmd import read_state

            pos = read_state(ctx, game)[0].position
        out.print(board_view(pos), crop=False)
        if svg is not None:
            from ..svg import board_svg, write_svg

            write_svg(svg, board_svg(pos, title=pos.map.name or ""))


@app.command()
def normalize(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(help="A position file.", show_default=False)],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write here (atomically) instead of stdout.")
    ] = None,
) -> None:
    """Rewrite a position file in canonical form (ranges merged, defaults dropped). Comments are
    not kept: it says which lines had them."""
    from ..yamlio import comment_lines, read_text

    with edge():
        path = resolve_position(file)
        pos = load_position(path, library(ctx))
        text = dump_position(pos)
        lost = comment_lines(read_text(path)[0])
        write_or_print(text, output)
        if lost:
            shown = ", ".join(map(str, lost[:8])) + (", ..." if len(lost) > 8 else "")
            err.print(_("[yellow]note:[/] the canonical form has no comments: {n} comment line(s) of {path} are not in it (line {shown})").format(n=len(lost), path=escape(str(path)), shown=shown))


@app.command()
def schema(
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write it to this file instead of stdout.")] = None,
) -> None:
    """The JSON Schema of a position file, for editors that validate and complete YAML."""
    import json

    from ..position.jsonschema import position_schema

    with edge():
        write_or_print(json.dumps(position_schema(), indent=2) + "\n", output)


@app.command("reading")
def reading_cmd(
    ident: Annotated[str | None, typer.Argument(help="A reading's id as answers cite it (R7); none lists them all.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """A reading of an ambiguous rule that an answer cites ("reading R7 in docs/readings.md"):
    the rule's words from the rulebook, a translation, the reading chosen and why."""
    import re

    from ..errors import AssistantError
    from ..resources import reading, readings_text

    with edge(json_out, "reading"):
        if ident is None:
            heads = re.findall(r"(?m)^## (R\d+) — (.+)$", readings_text())
            if json_out:
                emit_json({"query": "reading", "readings": [{"id": i, "title": t} for i, t in heads]})
            else:
                for i, t in heads:
                    out.print(f"[bold]{i}[/]  {escape(t)}")
            return
        text = reading(ident)
        if text is None:
            raise AssistantError(_("no reading {ident!r}: readings are R1 to R{n} ('python -m assistant reading' lists them)").format(ident=ident, n=len(re.findall(r'(?m)^## R', readings_text()))))
        if json_out:
            emit_json({"query": "reading", "id": text.split(" — ")[0][3:], "text": text})
        else:
            out.print(escape(text), end="", soft_wrap=True)


@app.command()
def examples(json_out: JsonOpt = False) -> None:
    """List the bundled example positions (usable by name with show and validate)."""
    with edge(json_out, "examples"):
        files = example_files()
        if json_out:
            emit_json({"query": "examples", "examples": [{"name": p.stem, "path": str(p)} for p in files]})
            return
        for p in files:
            out.print(f"[bold]{p.stem}[/]  {escape(str(p))}")


@app.command()
def demo(ctx: typer.Context) -> None:
    """Run the main job on a bundled example: load, validate and show it."""
    with edge():
        path = example_path(DEMO_EXAMPLE)
        if path is None:
            raise AssistantError(_("the bundled example {DEMO_EXAMPLE!r} is missing from this installation").format(DEMO_EXAMPLE=DEMO_EXAMPLE))
        result = check_position_file(path, library(ctx))
        pos = result.raise_for_errors()
        out.rule(f"[bold]{_(T_DEMO)}[/]: {path.stem}")
        out.print(escape(_("valid position file ({edition}); {n} figures; cards from the shipped library.").format(
            edition=pos.edition.value, n=len(pos.figures))))
        out.print(board_view(pos), crop=False)
        from ..rules import engine
        from .queries import print_cover, print_range, print_sight

        out.rule(f"[bold]{escape(_(T_QUESTIONS_A_TABLE_ASKS))}[/]")
        for viewer, target in (("sbd", "obi"), ("obi", "dooku")):
            print_sight(engine.sight(pos, viewer, target))
        print_cover(engine.cover(pos, "sbd", "obi"))
        print_range(engine.range_between(pos, "obi", "dooku"))
        from ..rules.attack import attack
        from .queries import print_attack

        combat_path = example_path("clone-wars-example-combat")
        if combat_path is not None:
            combat = load_position(combat_path, library(ctx))
            out.rule(f"[bold]{escape(_(T_WHAT_DOES_THE_ATTACK_NEED))}[/] " + escape(_("(the rulebook's example combat, PL p.24-25)")))
            print_attack(attack(combat, "sbd", "obi", combined_fire=("sbdc",)))
        out.print()
        out.print(
            f"{escape(_(T_TRY))} [bold]python -m assistant matrix -p {path.stem}[/], [bold]python -m assistant cover sbd obi -p {path.stem} --png cover.png[/], "
            "[bold]python -m assistant cards show dooku[/]"
        )


from . import live_cmd, queries  # noqa: E402  (commands defined after the shared helpers they use)

#: texts shown inside formatted lines (marked here for the catalogs)
T_DEMO = N_("demo")
T_ERROR = N_("error")
T_INVALID = N_("invalid")
SEVERITIES = {"error": N_("error"), "warning": N_("warning")}
T_QUESTIONS_A_TABLE_ASKS = N_("questions a table asks")
T_WHAT_DOES_THE_ATTACK_NEED = N_("what does the attack need?")
T_TRY = N_("Try:")

queries.register(app)
queries.register_attack(app)
live_cmd.register(app)


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
