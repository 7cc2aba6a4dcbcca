"""Help in the reader's language: the command tree's help texts, translated where they are shown.

Typer fixes a command's help (its docstring, each option's ``help=``) when the command is
defined, before anyone has said which language to answer in. So the English texts stay the
source, are collected from the tree for the message catalogs (:func:`help_texts`), and
:func:`translate_help` puts the current language's texts on the tree just before the command
line is parsed -- always from the English originals, so that a second run in another language
(the test runner, the shell) starts afresh.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from typing import Any

from ..i18n import N_, _
from .output import click

#: the help panels' own words (typer's), translated with the rest
PANEL_TEXTS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "DEFAULT_STRING": N_("[default: {}]"),
    "ENVVAR_STRING": N_("[env var: {}]"),
    "DEPRECATED_STRING": N_("(deprecated) "),
    "ABORTED_TEXT": N_("Aborted."),
    "RICH_HELP": N_("Try [blue]'{command_path} {help_option}'[/] for help."),
}
HELP_OPTION_TEXT = N_("Show this message and exit.")
USAGE_PREFIX = N_("Usage: ")
HELP_OPTION_NAMES = ["-h", "--help"]

_SOURCE = "_help_source_en"


def walk(command: Any, *, built: bool = False) -> Iterator[Any]:
    """The command and every command under it (``built``: only those built so far, where a group
    builds its sub-commands on first use)."""
    yield command
    commands = getattr(command, "commands", {})
    for sub in (commands.loaded() if built and hasattr(commands, "loaded") else commands).values():
        yield from walk(sub, built=built)


def _help_option(command: Any) -> Any:
    """The command's ``--help`` option (click makes it on first use; made here so that its text
    can be translated before it is shown)."""

    if not getattr(command, "add_help_option", False):
        return None
    try:
        return command.get_help_option(click.Context(command, help_option_names=HELP_OPTION_NAMES))
    except Exception:  # pragma: no cover - a click without the hook: its help line stays English
        return None


def _holders(command: Any) -> Iterator[Any]:
    """What carries a help text: the command and its parameters."""
    yield command
    yield from getattr(command, "params", [])
    option = _help_option(command)
    if option is not None:
        yield option


def help_texts(root: Any) -> Iterator[tuple[Any, str]]:
    """``(command, text)`` for every English help text of the tree (for the catalogs)."""
    for command in walk(root):
        for holder in _holders(command):
            text = getattr(holder, _SOURCE, None) or getattr(holder, "help", None)
            if text:
                yield command, text
    yield root, HELP_OPTION_TEXT
    yield root, USAGE_PREFIX
    for text in PANEL_TEXTS.values():
        yield root, text


def _format_usage(command: Any, ctx: Any, formatter: Any) -> None:
    """click's usage line with its ``Usage:`` in the current language."""
    formatter.write_usage(ctx.command_path, " ".join(command.collect_usage_pieces(ctx)), prefix=_(USAGE_PREFIX))


def translate_help(root: Any) -> None:
    """Put the current language's help texts on the whole tree built so far (English where a
    catalog lacks one); a group built later is translated when it is built."""

    for command in walk(root, built=True):
        command.format_usage = types.MethodType(_format_usage, command)
        for holder in _holders(command):
            if not hasattr(holder, _SOURCE):
                setattr(holder, _SOURCE, getattr(holder, "help", None))
            source = getattr(holder, _SOURCE)
            if source:
                holder.help = _(source)
            if getattr(holder, "is_flag", False) and getattr(holder, "metavar", "") is None:
                # a flag takes no value: typer >= 0.25 shows its type, "--charge <bool>", which
                # reads as if it took one ("--charge true" is then refused as an extra argument)
                holder.metavar = ""
    if "typer.rich_utils" not in sys.modules and all(_(text) == text for text in PANEL_TEXTS.values()):
        return  # start-up time (~100 ms): typer's help panels, not yet imported, say these already
    from typer import rich_utils

    for name, text in PANEL_TEXTS.items():
        if hasattr(rich_utils, name):
            setattr(rich_utils, name, _(text))
