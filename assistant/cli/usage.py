"""A mistyped command line answered in the reader's language.

Typer parses the line with its own copy of click, whose usage errors are English f-strings (a
Polish player read "Error: Missing argument 'attacker'." under a Polish "Użycie:" line), and
checks option values with pydantic ("Input should be less than or equal to 20"). The words are
made again here from what the error carries: its kind and parameter, pydantic's own error (read
by :func:`..yamlio.pydantic_words`, as the web app's refusals are), or -- for the few errors that
carry only their English text -- the text's known shapes. A text of a shape not listed here (a
later typer's) is shown as typer wrote it, never broken.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..i18n import N_, _
from ..textsafe import shown
from ..yamlio import pydantic_words

#: the kinds of parameter a missing one is said as
_MISSING = {
    "argument": N_("Missing argument {name}."),
    "option": N_("Missing option {name}."),
}

#: the English shapes of the usage errors that carry only their text, and their words
_SHAPES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"No such option: (?P<name>\S+)"), N_("No such option: {name}")),
    (re.compile(r"Got unexpected extra arguments? ?(?:\(s\))? \((?P<args>.*)\)"), N_("Words the command does not take: {args}")),
    (re.compile(r"No such command (?P<name>'.*')\. Did you mean (?P<suggestions>.*)\?"), N_("No such command {name}. Did you mean {suggestions}?")),
    (re.compile(r"No such command (?P<name>'.*')\."), N_("No such command {name}.")),
    (re.compile(r"Option (?P<name>'.*') requires an argument\."), N_("Option {name} needs a value.")),
    (re.compile(r"Option (?P<name>'.*') requires (?P<count>\d+) arguments\."), N_("Option {name} needs {count} values.")),
    (re.compile(r"Option (?P<name>'.*') does not take a value\."), N_("Option {name} takes no value.")),
    (re.compile(r"Missing command\."), N_("Missing command.")),
    (re.compile(r"(?P<value>'.*') is not one of (?P<choices>.*)\."), N_("{value} is not one of {choices}.")),
    (re.compile(r"(?:File|Directory|Path) (?P<path>'.*') does not exist\."), N_("{path} does not exist.")),
    (re.compile(r"(?:File|Directory|Path) (?P<path>'.*') is a directory\."), N_("{path} is a folder, not a file.")),
    (re.compile(r"(?:File|Directory|Path) (?P<path>'.*') is a file\."), N_("{path} is a file, not a folder.")),
    (re.compile(r"(?:File|Directory|Path) (?P<path>'.*') is not readable\."), N_("{path} cannot be read.")),
    (re.compile(r"(?:File|Directory|Path) (?P<path>'.*') is not writable\."), N_("{path} cannot be written.")),
)


def _in_words(text: str) -> str:
    """An error's English text in the reader's words, where its shape is known."""
    for shape, words in _SHAPES:
        found = shape.fullmatch(text.strip())
        if found:
            return _(words).format(**found.groupdict())
    return text


def _hint(exc: Any) -> str:
    """The parameter an error is about, as click names it ('--roll', 'attacker')."""
    hint = getattr(exc, "param_hint", None)
    param = getattr(exc, "param", None)
    if hint is None and param is not None:
        try:
            hint = param.get_error_hint(getattr(exc, "ctx", None))  # click's: the context says how it was named
        except TypeError:  # typer's own copy of click takes none
            hint = param.get_error_hint()
    if isinstance(hint, (list, tuple)):
        hint = " / ".join(repr(x) for x in hint)
    return str(hint) if hint else ""


def usage_message(exc: Any) -> str:
    """What is wrong with the line (without the 'Error:'), in the reader's language."""
    kind = type(exc).__name__
    if kind == "MissingParameter":
        param = getattr(exc, "param", None)
        param_type = getattr(exc, "param_type", None) or getattr(param, "param_type_name", "parameter")
        name = _hint(exc)
        template = _MISSING.get(str(param_type))
        return _(template).format(name=name) if template else _in_words(exc.format_message())
    if kind == "NoSuchOption":
        said = _in_words(str(exc.message))
        possible = getattr(exc, "possibilities", None)
        if possible:
            said += " " + _("(possible options: {names})").format(names=", ".join(sorted(possible)))
        return said
    if hasattr(exc, "param_hint"):  # a bad value: BadParameter
        cause = exc.__cause__
        errors: Callable[..., Any] | None = getattr(cause, "errors", None)
        found = errors() if errors is not None else None  # pydantic builds the list anew each call
        problem = pydantic_words(found[0]) if found else _in_words(str(exc.message))
        name = _hint(exc)
        return _("Invalid value for {name}: {problem}").format(name=name, problem=problem) if name else problem
    return _in_words(str(exc.format_message()))


def show_usage_error(exc: Any, echo: Callable[[str], None]) -> None:
    """The error as click shows it -- the command's usage line, where to find help, the error --
    in the reader's language (the usage line's own words are translated by the help)."""
    if type(exc).__name__ == "NoArgsIsHelpError":  # no words at all: its "error" is the help itself
        exc.show()
        return
    ctx = getattr(exc, "ctx", None)
    if ctx is not None:
        echo(ctx.get_usage())
        if ctx.command.get_help_option(ctx) is not None:
            echo(_("Try '{command} {option}' for help.").format(command=ctx.command_path, option=ctx.help_option_names[0]))
        echo("")
    echo(_("Error: {message}").format(message=shown(usage_message(exc))))
