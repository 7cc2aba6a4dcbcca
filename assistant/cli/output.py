"""What every command prints and how it fails: the consoles, one JSON object, the error edge.

The bottom of the command-line tree's Typer half: every other module of ``cli/`` imports from
here, and this module imports nothing from ``cli/`` (so the tree runs one way, from the root down to
here); its consoles and plain printing are :mod:`assistant.terminal`'s, which has no Typer.

Every command goes through :func:`edge`, which turns the one domain exception family
(:class:`~assistant.errors.AssistantError`) into a message and exit code 2, and any other
exception into a one-line internal-error message (exit 1) -- never a traceback.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

try:  # typer >= 0.20 vendors click; older releases depend on it
    from typer import _click as click  # type: ignore[attr-defined, unused-ignore]  # older typer has no _click
except ImportError:  # pragma: no cover - depends on the installed typer
    import click  # type: ignore[no-redef]

from .. import terminal
from ..errors import Problem
from ..i18n import N_, _
from ..terminal import DEBUG_ENV, T_ERROR, emit_json, made, print_error, print_lines, print_text, quiet_stdout, report, stdout_gone
from ..yamlio import write_text_atomic

__all__ = [
    "ABORTS", "DEBUG_ENV", "JsonOpt", "SEVERITIES", "T_ERROR", "click", "edge", "emit_json", "err", "out", "print_error",
    "print_lines", "print_problems", "print_text", "quiet_stdout", "stdout_gone", "write_or_print",
]

#: stdout's and stderr's consoles, Rich's own: the tree's commands hand them to Rich (a progress bar)
out, err = made(terminal.out), made(terminal.err)

#: texts shown inside formatted lines (marked here for the catalogs)
SEVERITIES = {"error": N_("error"), "warning": N_("warning")}

JsonOpt = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object on stdout.")]

ABORTS: tuple[type[BaseException], ...] = tuple(
    {typer.Abort, getattr(click, "Abort", typer.Abort), getattr(click.exceptions, "Abort", typer.Abort)})


# --- the error edge ---------------------------------------------------------------------


@contextlib.contextmanager
def edge(json_mode: bool = False, query: str | None = None) -> Iterator[None]:
    """Run a command body; user errors exit 2 with a message, bugs exit 1 without a traceback
    (what is printed: :func:`~assistant.terminal.report`)."""
    try:
        yield
    except (typer.Exit, typer.Abort, SystemExit):
        raise
    except (Exception, KeyboardInterrupt) as exc:
        code = report(exc, json_mode, query, emit_json)
        if code is None:
            raise
        raise typer.Exit(code) from None


def write_or_print(text: str, output: Path | None) -> None:
    """A command's text to stdout, or atomically to ``output`` with a note on stderr."""
    if output is None:
        print_text(text)
    else:
        write_text_atomic(output, text)
        err.print(_("wrote {output}").format(output=escape(str(output))))


def print_problems(problems: list[Problem]) -> None:
    for p in problems:
        colour = "red" if p.severity == "error" else "yellow"
        err.print(f"  [{colour}]{escape(_(SEVERITIES.get(p.severity, p.severity)))}[/] {escape(str(p))}")
