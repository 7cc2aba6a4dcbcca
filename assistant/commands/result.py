"""What a verb answers: the JSON object every edge sends (the CLI's ``--json``, the web's body)
and the text lines a person reads (Rich markup, the user's words escaped)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

_ESCAPE: Callable[..., str] = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])").sub


def escape(markup: str) -> str:
    """Text that Rich will print as it is (its square brackets escaped): the same rule as
    ``rich.markup.escape``, written here so that the command layer imports no edge.

    >>> escape("[bold]x[/] and [1, 2]")
    '\\\\[bold]x\\\\[/] and [1, 2]'
    """

    def backslashes(match: re.Match[str]) -> str:
        slashes, text = match.groups()
        return f"{slashes}{slashes}\\{text}"

    markup = _ESCAPE(backslashes, markup)
    if markup.endswith("\\") and not markup.endswith("\\\\"):
        return markup + "\\"
    return markup


@dataclass(frozen=True)
class Table:
    """A question's answer as rows: the columns' names (in the reader's words) and each row's cells."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def said(self) -> tuple[str, ...]:
        """Each row as one line a narrow screen wraps well: its first cell, then each other cell
        after its column's name ("clone1 — legal: yes · roll: 6+ · chance: 75%"), an empty one ("-") left out."""
        return tuple(f"{row[0]} — " + " · ".join(f"{name}: {cell}" for name, cell in zip(self.columns[1:], row[1:], strict=True) if cell not in ("", "-"))
                     for row in self.rows)


@dataclass(frozen=True)
class Result:
    """One verb's answer.

    ``json`` is the object the CLI prints under ``--json`` and the web app returns; ``lines`` the
    text a person reads (Rich markup); ``text`` a document (an export) written as it is;
    ``notes`` what a person reads beside the answer, not in it (the command line's stderr: a
    printed table-file entry stays pastable from stdout);
    ``exit_code`` what the command line exits with (``check``: 3 when the rules refuse);
    ``answer`` the domain answer (and ``position``) for an edge that draws it (``--png``);
    ``table`` the rows of a question answered by rows (``matrix``, ``targets``): a header and one
    tuple of cells a row (Rich markup), drawn by the command line as a table and said by the web
    table's page one line a row, before ``lines`` (reading R332)."""

    json: dict[str, Any]
    lines: tuple[str, ...] = ()
    text: str | None = None
    notes: tuple[str, ...] = ()
    exit_code: int = 0
    table: Table | None = None
    answer: Any = field(default=None, compare=False)
    position: Any = field(default=None, compare=False)
