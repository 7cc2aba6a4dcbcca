"""What every command prints and how it fails: the consoles, one JSON object, the error edge.

The bottom of the command-line tree: every other module of ``cli/`` imports from here, and this
module imports nothing from ``cli/`` (so the tree runs one way, from the root down to here).

Every command goes through :func:`edge`, which turns the one domain exception family
(:class:`~assistant.errors.AssistantError`) into a message and exit code 2, and any other
exception into a one-line internal-error message (exit 1) -- never a traceback.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

try:  # typer >= 0.20 vendors click; older releases depend on it
    from typer import _click as click  # type: ignore[attr-defined, unused-ignore]  # older typer has no _click
except ImportError:  # pragma: no cover - depends on the installed typer
    import click  # type: ignore[no-redef]

from ..errors import AssistantError, Problem
from ..i18n import N_, _
from ..yamlio import write_text_atomic

DEBUG_ENV = "TABLETOP_DEBUG"

#: texts shown inside formatted lines (marked here for the catalogs)
T_ERROR = N_("error")
SEVERITIES = {"error": N_("error"), "warning": N_("warning")}

JsonOpt = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object on stdout.")]

ABORTS: tuple[type[BaseException], ...] = tuple(
    {typer.Abort, getattr(click, "Abort", typer.Abort), getattr(click.exceptions, "Abort", typer.Abort)})


def stdout_gone() -> bool:
    """Has a closed pipe made stdout a sink (click swaps it, rich points it at /dev/null)?"""
    if type(sys.stdout).__name__ == "PacifyFlushWrapper":
        return True
    try:
        a, b = os.fstat(sys.stdout.fileno()), os.stat(os.devnull)
        return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)
    except (OSError, ValueError, AttributeError):
        return False


def quiet_stdout() -> None:
    """After a closed pipe: send further output (and the interpreter's final flush) nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


class _Console(Console):
    """A console for which a closed pipe (``... | head -1``) ends the program quietly, exit 0."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        quiet_stdout()
        raise SystemExit(0)


def _wrap_to_width() -> bool:
    """Text is wrapped to the terminal's width where a person reads it (a terminal, or a width
    asked for with ``COLUMNS``); piped into another program, a line stays one line."""
    return sys.stdout.isatty() or bool(os.environ.get("COLUMNS", "").strip())


out = _Console(highlight=False, soft_wrap=not _wrap_to_width())
err = _Console(stderr=True, highlight=False, soft_wrap=not _wrap_to_width())


def print_lines(lines: Iterator[str] | list[str] | tuple[str, ...]) -> None:
    """A command's text lines (Rich markup, already escaped where it quotes the user)."""
    for line in lines:
        out.print(line)


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
        print_error(msg)
    raise typer.Exit(2) from None


def print_error(msg: str) -> None:
    """``error: ...`` on stderr, in red where a person reads it."""
    err.print(f"[bold red]{escape(_(T_ERROR))}:[/] {escape(msg)}")


def write_or_print(text: str, output: Path | None) -> None:
    """A command's text to stdout, or atomically to ``output`` with a note on stderr."""
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_text_atomic(output, text)
        err.print(_("wrote {output}").format(output=escape(str(output))))


def print_problems(problems: list[Problem]) -> None:
    for p in problems:
        colour = "red" if p.severity == "error" else "yellow"
        err.print(f"  [{colour}]{escape(_(SEVERITIES.get(p.severity, p.severity)))}[/] {escape(str(p))}")
