"""The photo against the record: one comparison for ``photo check``, ``photo apply`` and the web page.

Each figure of the record, and each occupied square of the photo that no figure explains, gets one
verdict:

- ``agree``: the photo shows the figure where the record has it, surely (read by its base marker,
  or its base read with a confidence of at least :data:`SURE`), on squares the photo does not doubt;
- ``moved``: the photo shows it on another square, surely enough to apply (its confidence at least
  :data:`SURE` and its square not one the photo doubts);
- ``uncertain``: the photo shows it, on its recorded square or another, but not surely: a person
  confirms it first. The record is never confirmed by default: a doubtful reading that happens
  to match it is listed like any other;
- ``missing``: the photo does not show the figure (the detector reports it *not seen*, with no
  square: the record's square is not assumed);
- ``extra``: the photo shows a figure on a square where the record has none.

The comparison is pure: it reads a :class:`~assistant.photo.PhotoResult` and a position and returns
values; the edges word and print it.

>>> from assistant.coords import Square
>>> row = Row("moved", "clone", Square(1, 1), Square(2, 1), 0.9)
>>> row.agree, row.to_apply, row.as_json()["photo"]
(False, True, 'C2')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..coords import Square, parse_square

if TYPE_CHECKING:  # the comparison needs only their attributes
    from ..model import Position
    from . import PhotoResult

Verdict = Literal["agree", "moved", "uncertain", "missing", "extra"]
VERDICTS: tuple[Verdict, ...] = ("agree", "moved", "uncertain", "missing", "extra")

#: a move the detector is at least this sure of is applied without asking (the web page's and
#: ``photo apply``'s default)
SURE = 0.8


@dataclass(frozen=True)
class Row:
    """One figure of the record, or one square of the photo that no figure of the record explains."""

    verdict: Verdict
    figure: str | None
    game: Square | None
    photo: Square | None
    confidence: float | None = None

    @property
    def agree(self) -> bool:
        return self.verdict == "agree"

    @property
    def to_apply(self) -> bool:
        """Would ``photo apply`` move the figure without asking?"""
        return self.verdict == "moved"

    def as_json(self) -> dict[str, Any]:
        """The row as both edges answer it (squares by name; ``confidence`` only where read)."""
        row: dict[str, Any] = {"figure": self.figure, "game": _name(self.game), "photo": _name(self.photo)}
        if self.confidence is not None:
            row["confidence"] = self.confidence
        row["verdict"] = self.verdict
        return row


@dataclass(frozen=True)
class Comparison:
    rows: tuple[Row, ...]

    @property
    def agree(self) -> bool:
        """Does the photo show every figure where the record has it, and nothing else?"""
        return all(r.agree for r in self.rows)

    def of(self, *verdicts: Verdict) -> tuple[Row, ...]:
        return tuple(r for r in self.rows if r.verdict in verdicts)


def compare(position: Position, result: PhotoResult, sure: float = SURE) -> Comparison:
    """Each figure of ``position`` against where ``result`` shows it, then the unexplained squares."""
    seen = {s.id: s for s in result.figures}
    doubted = {str(u["square"]) for u in result.uncertain}
    rows: list[Row] = []
    # every square a seen figure's base covers where the photo shows it: a Large figure that moved
    # stands on four squares, none of them a figure of its own
    explained: set[str] = set()
    for fig in position.figures:
        s = seen.get(fig.id)
        if s is None:
            rows.append(Row("missing", fig.id, fig.at, None))
            continue
        n = fig.size.footprint
        space = {parse_square(s.at).offset(dc, dr).name for dc in range(n) for dr in range(n)}
        explained |= space
        # sure: a base marker names it there (its confidence says how centred the marker sits), or
        # its base is read surely; either way on squares the photo does not doubt
        surely = (s.by == "marker" or s.confidence >= sure) and not space & doubted
        verdict: Verdict
        if s.at == fig.at.name:
            verdict = "agree" if surely else "uncertain"
        elif s.confidence >= sure and not space & doubted:
            verdict = "moved"
        else:
            verdict = "uncertain"
        rows.append(Row(verdict, fig.id, fig.at, parse_square(s.at), s.confidence))
    recorded = {sq.name for f in position.figures for sq in f.space}
    explained |= {s.at for s in result.figures}
    rows.extend(Row("extra", None, None, parse_square(sq)) for sq in result.occupied if sq not in recorded | explained)
    return Comparison(tuple(rows))


def _name(square: Square | None) -> str | None:
    return None if square is None else square.name
