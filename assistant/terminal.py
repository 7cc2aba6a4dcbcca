"""The terminal: the command line's consoles, its plain printing and what a failure prints, without
Typer. The one-shot geometry questions' fast path (:mod:`assistant.cli.fast`) prints with it, and
the Typer tree's helpers (:mod:`assistant.cli.output`) build on it, so both print the same bytes.
It sits beside :mod:`.yamlio`, below every edge, and imports nothing of theirs."""

from __future__ import annotations

import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, cast

from .errors import AssistantError
from .i18n import N_, _, cited
from .textsafe import shown

if TYPE_CHECKING:  # Rich is loaded where a console first prints (see _Deferred)
    from rich.console import Console

DEBUG_ENV = "TABLETOP_DEBUG"

#: texts shown inside formatted lines (marked here for the catalogs)
T_ERROR = N_("error")


def stdout_gone() -> bool:
    """Has a closed pipe made stdout a sink (click swaps it, rich points it at /dev/null)?"""
    if type(sys.stdout).__name__ == "PacifyFlushWrapper":
        return True
    try:
        a, b = os.fstat(sys.stdout.fileno()), os.stat(os.devnull)
        return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)
    except (OSError, ValueError, AttributeError):
        return False


def internal_error(exc: Exception) -> int:
    """The command line's last guard, for an error no command's edge reported (a bug): one line on
    stderr asking for a report, no traceback (unless :data:`DEBUG_ENV` is set: then it is raised
    again), and the exit code 1. The tree's entry and the fast path's photo read share it."""
    if os.environ.get(DEBUG_ENV):
        raise exc
    print(shown(f"internal error ({type(exc).__name__}: {exc}); please report it."), file=sys.stderr)
    return 1


def quiet_stdout(stream: Any = None) -> None:
    """After a closed pipe: send further output (and the interpreter's final flush) nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, (stream or sys.stdout).fileno())
    except (OSError, ValueError):
        pass


def write_out(text: str) -> None:
    """``text`` on stdout. A reader that has gone (``... | head -1``) is no error and changes
    nothing: the rest of the output goes nowhere and the command ends with its own exit code
    (0 when it succeeded, 2 when it refused; a closed pipe must not turn a refusal into 0, nor a
    usage error into 1). Started with stdout closed (``>&-``: Python's ``sys.stdout`` is None),
    the text goes nowhere, as ``print`` sends it."""
    if sys.stdout is None:
        return
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        quiet_stdout()


def _console(stderr: bool) -> Console:
    """A console (stdout's, or stderr's with ``stderr``) for which a closed pipe (``... | head -1``)
    is no error (its further output goes nowhere, the command ends with its own exit code:
    :func:`write_out`), and which never lets a character a terminal would act on through: every
    text it prints, whatever built it (a command's lines, a table, a message quoting a file name),
    is written with such characters escaped (:func:`~assistant.textsafe.shown`), here once rather
    than at each place that quotes the user."""
    from rich.console import Console  # start-up time: see _Deferred
    from rich.errors import MarkupError
    from rich.segment import Segment
    from rich.text import Text

    class _Console(Console):
        """The console described above."""

        def print(self, *objects: Any, **kwargs: Any) -> None:
            # a line's own text escaped before it is laid out, so its width is the width printed
            # and the readings it cites named in the reader's language (R275)
            objects = tuple(shown(cited(o)) if isinstance(o, str) else o for o in objects)
            try:
                super().print(*objects, **kwargs)
            except MarkupError:  # a user's text with brackets that reached here unescaped: printed as it is
                super().print(*objects, **{**kwargs, "markup": False})

        def render_str(self, text: str, **kwargs: Any) -> Text:
            # a string a renderable holds (a table's cell, a panel's title) becomes a Text here, and
            # Text deletes BEL, BS, VT, FF and CR as it is built: escaped first, they are shown like
            # the other controls instead of vanishing unseen
            return super().render_str(shown(cited(text)), **kwargs)

        def _render_buffer(self, buffer: Iterable[Segment]) -> str:
            # the last gate: whatever a renderable put in its text (a table's cell, a Text) is escaped;
            # the console's own control segments (cursor moves) and styles are not text
            return super()._render_buffer(s if s.control else Segment(shown(s.text), s.style, s.control) for s in buffer)

        def on_broken_pipe(self) -> None:
            self.quiet = True
            quiet_stdout(sys.stderr if self.stderr else sys.stdout)

    return _Console(stderr=stderr, highlight=False, soft_wrap=not _wrap_to_width())


def _wrap_to_width() -> bool:
    """Text is wrapped to the terminal's width where a person reads it (a terminal, or a width
    asked for with ``COLUMNS``); piped into another program, a line stays one line."""
    tty = sys.stdout is not None and sys.stdout.isatty()  # None: started with stdout closed (``>&-``)
    return tty or bool(os.environ.get("COLUMNS", "").strip())


class _Deferred:
    """A console made where it first prints (:func:`_console`), not where this module loads:
    Rich's import is 0.04-0.05 CPU-seconds, on the 2-core machine before a photo's decoding could
    start, and a ``photo detect --json`` answer (written by :func:`write_out`) never prints on a
    console (round 30 of issue 28). Anything asked of it is asked of the console made."""

    def __init__(self, stderr: bool) -> None:
        self._stderr = stderr
        self._made: Console | None = None

    def made(self) -> Console:
        """The console itself, made now if it was not yet."""
        if self._made is None:
            self._made = _console(self._stderr)
        return self._made

    def __getattr__(self, name: str) -> Any:
        return getattr(self.made(), name)


def made(console: Console) -> Console:
    """:data:`out` or :data:`err` as Rich's own console (made now if it was not yet), for what
    hands it to Rich (a progress bar enters it, which its stand-in cannot be); the Typer tree's
    helpers (:mod:`assistant.cli.output`) hand these out."""
    return console.made() if isinstance(console, _Deferred) else console


#: stdout's and stderr's consoles (Rich's, made on their first use)
out = cast("Console", _Deferred(stderr=False))
err = cast("Console", _Deferred(stderr=True))


def print_lines(lines: Iterator[str] | list[str] | tuple[str, ...]) -> None:
    """A command's text lines (Rich markup, already escaped where it quotes the user)."""
    for line in lines:
        out.print(line)


def print_text(text: str) -> None:
    """A command's text block (a position's YAML, an export) on stdout as it is, with no newline
    added. On a terminal what the terminal would act on is shown escaped, as on the consoles;
    into a file or a pipe it is written as given (it is data there: a program reads it)."""
    try:
        tty = sys.stdout.isatty()
    except (ValueError, AttributeError):
        tty = False
    write_out(shown(text) if tty else text)


def emit_json(obj: dict[str, Any]) -> None:
    """Exactly one JSON object on stdout (CONTRACT §3); see :func:`json_text`. A closed pipe
    changes no exit code (:func:`write_out`)."""
    write_out(json_text(obj) + "\n")


#: a lone surrogate: how Python holds a file name's byte that is not UTF-8 (``os.fsdecode``)
_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


def json_text(obj: dict[str, Any]) -> str:
    """One JSON object's text (CONTRACT §3); a non-finite number, which JSON cannot write, is
    written as null rather than as the non-JSON ``Infinity``. A lone surrogate (a file name that is
    not UTF-8, quoted in a message) is written as its JSON escape ``\\udcff``: written raw, no
    UTF-8 stdout can encode it (a crash, exit 1, no JSON) or a C locale's writes a byte that is not
    UTF-8 (JSON that no reader parses); escaped, a reader gets the name's own string back."""
    try:
        text = json.dumps(obj, ensure_ascii=False, allow_nan=False)
    except ValueError:
        text = json.dumps(_finite(obj), ensure_ascii=False, allow_nan=False)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _finite(o: Any) -> Any:
    if isinstance(o, float) and not math.isfinite(o):
        return None
    if isinstance(o, dict):
        return {k: _finite(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_finite(v) for v in o]
    return o


def error_json(exc: BaseException, query: str | None) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    if query:
        obj["query"] = query
    obj["error"] = str(exc)
    problems = getattr(exc, "problems", None)
    if problems:
        obj["problems"] = [p.as_json() for p in problems]
    missing = getattr(exc, "missing", None)
    if missing:  # a number the question needs: which, and how to give it (MissingStatError)
        obj["missing"] = [m.as_json() for m in missing]
    return obj


def print_error(msg: str) -> None:
    """``error: ...`` on stderr, in red where a person reads it."""
    from rich.markup import escape  # start-up time: see _Deferred

    err.print(f"[bold red]{escape(_(T_ERROR))}:[/] {escape(msg)}")


def report(exc: BaseException, json_mode: bool, query: str | None, emit: Callable[[dict[str, Any]], None]) -> int | None:
    """What a command's failure prints (one JSON object through ``emit`` under ``--json``), and
    its exit code: a user error 2, an interruption 130, a bug 1 without a traceback; None when the
    traceback is asked for (``$TABLETOP_DEBUG``) and the exception goes on."""
    if isinstance(exc, AssistantError):
        return _fail(str(exc), json_mode, error_json(exc, query), emit)
    if isinstance(exc, KeyboardInterrupt):
        err.print("interrupted")
        return 130
    if isinstance(exc, OSError):  # a path the user gave that the system refuses (too long, no room, not allowed)
        name = str(exc.filename or "")
        name = name if len(name) <= 120 else name[:60] + "..." + name[-40:]
        msg = f"cannot use {name or 'a file'}: {exc.strerror or exc}"
        return _fail(msg, json_mode, {"query": query, "error": msg} if query else {"error": msg}, emit)
    if not isinstance(exc, Exception) or os.environ.get(DEBUG_ENV):  # a bug: say so plainly, keep the traceback for --debug
        return None
    from rich.markup import escape  # start-up time: see _Deferred

    msg = _("internal error ({error}: {exc}); please report it. Set {variable}=1 to see the traceback.").format(
        error=type(exc).__name__, exc=exc, variable=DEBUG_ENV)
    if not json_mode or not _emitted(emit, {"query": query, "error": msg} if query else {"error": msg}):
        err.print(f"[bold red]{escape(msg)}[/]")
    return 1


def _fail(msg: str, json_mode: bool, obj: dict[str, Any], emit: Callable[[dict[str, Any]], None]) -> int:
    """A user error: the message (or one JSON object under --json), exit 2."""
    if not json_mode or not _emitted(emit, obj):
        print_error(msg)
    return 2


def _emitted(emit: Callable[[dict[str, Any]], None], obj: dict[str, Any]) -> bool:
    """``obj`` written by ``emit``; False where stdout itself refuses it (``> /dev/full``, a full
    disk: the failure being reported may be that very write), the message then said on stderr
    rather than raised again past every guard (a traceback, or 'internal error' exit 1)."""
    try:
        emit(obj)
    except OSError:
        quiet_stdout()  # nor the interpreter's last flush of what is buffered
        return False
    return True
