"""What a picture of an answer shows, decided once for every renderer (PNG, SVG, the web).

An :class:`Overlay` is presentation data only: the witness line, the blocker, the cover fan and
its sources, target lines. It is built from the engine's answers and decides nothing itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .coords import parse_edge, parse_square
from .geometry.core import Contact, Pt
from .i18n import _
from .model import Position
from .rules.engine import CoverAnswer, SightAnswer

#: a point of the picture, in squares: exact from the engine (a witness end) or a figure's
#: centre, which a picture takes as a float
XY = tuple[float | Fraction, float | Fraction]


@dataclass
class Overlay:
    witness: tuple[Pt, Pt] | None = None
    blocker: Contact | None = None
    fan_corner: tuple[int, int] | None = None
    fan_target: Sequence[tuple[int, int]] = ()
    highlight_squares: list[tuple[int, int]] = field(default_factory=list)
    highlight_edges: list[tuple[int, int, str]] = field(default_factory=list)
    #: a line that was tried and blocked (drawn grey), to show where the blocker sits
    attempt: tuple[XY, XY] | None = None
    #: (from, to, legal, label) lines for the "who can I attack" picture
    target_lines: list[tuple[XY, XY, bool, str]] = field(default_factory=list)
    caption: str = ""


def sight_overlay(pos: Position, ans: SightAnswer) -> Overlay:
    caption = f"{ans.viewer} -> {ans.target}: " + (_("line of sight (green line)") if ans.line_of_sight else _("no line of sight (blocked in red)"))
    attempt: tuple[XY, XY] | None = None
    if not ans.line_of_sight:
        a, t = pos.figure(ans.viewer), pos.figure(ans.target)
        na, nt = a.size.footprint, t.size.footprint
        attempt = ((a.at.col + na / 2, a.at.row + na / 2), (t.at.col + nt / 2, t.at.row + nt / 2))
    return Overlay(witness=ans.witness, blocker=None if ans.line_of_sight else ans.blocker, attempt=attempt, caption=caption)


def cover_overlay(pos: Position, ans: CoverAnswer, sight_ans: SightAnswer | None) -> Overlay:
    target = pos.figure(ans.target)
    squares: list[tuple[int, int]] = []
    edges: list[tuple[int, int, str]] = []
    for s in ans.sources:
        if s.kind == "figure":
            squares += [(q.col, q.row) for q in pos.figure(s.where).space]
        elif "." in s.where:
            e = parse_edge(s.where)
            edges.append((e.x, e.y, e.axis))
        else:
            q = parse_square(s.where)
            squares.append((q.col, q.row))
    verdict = _("no line of sight") if ans.cover is None else (_("cover") if ans.cover else _("no cover"))
    return Overlay(
        witness=sight_ans.witness if sight_ans else None,
        fan_corner=ans.best_corner,
        fan_target=sorted((q.col, q.row) for q in target.space) if ans.best_corner is not None else (),
        highlight_squares=squares,
        highlight_edges=edges,
        caption=f"{ans.attacker} -> {ans.target}: " + _("{verdict}; fan from the best corner in orange, sources outlined").format(verdict=verdict),
    )


def targets_overlay(pos: Position, attacker: str, rows: list[dict]) -> Overlay:
    """Lines from the attacker to every enemy: green legal, red not, with the roll needed."""
    a = pos.figure(attacker)
    n = a.size.footprint
    start = (a.at.col + n / 2, a.at.row + n / 2)
    lines: list[tuple[XY, XY, bool, str]] = []
    for r in rows:
        t = pos.figure(r["target"])
        m = t.size.footprint
        now = bool(r.get("legal")) and bool(r.get("refused_this_turn"))  # the acting figure's turn so far refuses it
        lines.append(
            (
                start,
                (t.at.col + m / 2, t.at.row + m / 2),
                bool(r.get("legal")) and not now,
                (_("not this turn") if now else f"{r['needs']}+" if r.get("legal") else _("not legal")) if r.get("needs") else "?",
            )
        )
    return Overlay(target_lines=lines, caption=f"{attacker}: " + _("legal targets in green (roll needed), illegal in red"))
