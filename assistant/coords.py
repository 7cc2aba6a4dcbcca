"""Coordinates of the battle grid (CONTRACT §1): squares, ranges, edges, corners.

Squares are named spreadsheet-style (``A1`` is the north-west square; columns grow east,
rows grow south). Internally a square is a 0-based ``(col, row)`` pair and square ``(c, r)``
is the closed region ``[c, c+1] x [r, r+1]`` of the plane, with x east and y south.

Every name round-trips: ``parse_x(format_x(v)) == v`` and formatting is canonical.

>>> parse_square("c5")
Square(col=2, row=4)
>>> parse_square("AA10").name
'AA10'
>>> parse_edge("D3.E") == parse_edge("E3.W")
True
>>> parse_edge("D3.E").name
'D3.E'
>>> parse_corner("D7.SE")
Corner(x=4, y=7)
>>> sorted(s.name for s in parse_squares("A1:B2"))
['A1', 'A2', 'B1', 'B2']
>>> [e.name for e in parse_edges("D3:D5.E")]
['D3.E', 'D4.E', 'D5.E']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Literal

from .errors import NotationError
from .i18n import N_, _, n_

#: what a piece of notation is, as messages name it (marked for the catalogs)
_WHATS = (N_("a square"), N_("a square or range"), N_("an edge"), N_("an edge or edge run"), N_("a corner"), N_("a corner point"))

Side = Literal["N", "E", "S", "W"]
Axis = Literal["H", "V"]

_SQUARE_RE = re.compile(r"^([A-Za-z]{1,3})([1-9][0-9]{0,4})$")
_SIDES = ("N", "E", "S", "W")
_CORNERS = ("NW", "NE", "SE", "SW")


@cache  # a photo's reading names its squares some 3,000 times over (0.02 CPU-seconds a photo; round 16 of issue 28)
def column_name(col: int) -> str:
    """0 -> 'A', 25 -> 'Z', 26 -> 'AA' (bijective base 26).

    >>> [column_name(c) for c in (0, 25, 26, 51, 52, 701)]
    ['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ']
    """
    if col < 0:
        raise ValueError(f"column index must be >= 0, got {col}")
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def column_index(letters: str) -> int:
    """'A' -> 0, 'AA' -> 26; case-insensitive.

    >>> column_index("ab")
    27
    """
    n = 0
    for ch in letters.upper():
        if not "A" <= ch <= "Z":
            raise NotationError(_("{text!r} is not a column name (letters A-Z)").format(text=said(letters)))
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


@dataclass(frozen=True, order=True)
class Square:
    """One grid square, 0-based: ``col`` grows east, ``row`` grows south."""

    col: int
    row: int

    @property
    def name(self) -> str:
        return f"{column_name(self.col)}{self.row + 1}"

    def __str__(self) -> str:
        return self.name

    def offset(self, dcol: int, drow: int) -> Square:
        return Square(self.col + dcol, self.row + drow)

    def edge(self, side: Side) -> Edge:
        """The grid-line segment on one side of this square."""
        c, r = self.col, self.row
        if side == "N":
            return Edge(c, r, "H")
        if side == "S":
            return Edge(c, r + 1, "H")
        if side == "W":
            return Edge(c, r, "V")
        if side == "E":
            return Edge(c + 1, r, "V")
        raise NotationError(_("{text!r} is not a side (N, E, S or W)").format(text=said(side)))

    def edges(self) -> tuple[Edge, Edge, Edge, Edge]:
        return (self.edge("N"), self.edge("E"), self.edge("S"), self.edge("W"))

    def corners(self) -> tuple[Corner, Corner, Corner, Corner]:
        c, r = self.col, self.row
        return (Corner(c, r), Corner(c + 1, r), Corner(c + 1, r + 1), Corner(c, r + 1))


@dataclass(frozen=True, order=True)
class Edge:
    """A unit segment of a grid line.

    ``axis == "H"``: from point ``(x, y)`` to ``(x+1, y)`` (a north/south side);
    ``axis == "V"``: from ``(x, y)`` to ``(x, y+1)`` (an east/west side).
    """

    x: int
    y: int
    axis: Axis

    @property
    def endpoints(self) -> tuple[Corner, Corner]:
        if self.axis == "H":
            return Corner(self.x, self.y), Corner(self.x + 1, self.y)
        return Corner(self.x, self.y), Corner(self.x, self.y + 1)

    @property
    def squares(self) -> tuple[Square, Square]:
        """The two squares this edge separates (one may lie off any given map)."""
        if self.axis == "H":
            return Square(self.x, self.y - 1), Square(self.x, self.y)
        return Square(self.x - 1, self.y), Square(self.x, self.y)

    @property
    def name(self) -> str:
        """Canonical name: the side of the square west of (or north of) the edge, when
        there is one (``D3.E`` rather than ``E3.W``)."""
        if self.axis == "V":
            if self.x > 0:
                return f"{Square(self.x - 1, self.y).name}.E"
            return f"{Square(self.x, self.y).name}.W"
        if self.y > 0:
            return f"{Square(self.x, self.y - 1).name}.S"
        return f"{Square(self.x, self.y).name}.N"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, order=True)
class Corner:
    """A grid point ``(x, y)`` -- the corner shared by up to four squares."""

    x: int
    y: int

    @property
    def name(self) -> str:
        """Canonical name: the corner of the square north-west of the point, when there is one."""
        if self.x > 0 and self.y > 0:
            return f"{Square(self.x - 1, self.y - 1).name}.SE"
        if self.x > 0:
            return f"{Square(self.x - 1, self.y).name}.NE"
        if self.y > 0:
            return f"{Square(self.x, self.y - 1).name}.SW"
        return f"{Square(self.x, self.y).name}.NW"

    def __str__(self) -> str:
        return self.name

    @property
    def lines(self) -> tuple[Edge, Edge, Edge, Edge]:
        """The four grid lines that meet at the point: north, east, south, west (some may lie
        off the map)."""
        x, y = self.x, self.y
        return (Edge(x, y - 1, "V"), Edge(x, y, "H"), Edge(x, y, "V"), Edge(x - 1, y, "H"))

    @property
    def squares(self) -> tuple[Square, Square, Square, Square]:
        """The four squares round the point: north-west, south-west, north-east, south-east (some
        may lie off the map)."""
        x, y = self.x, self.y
        return (Square(x - 1, y - 1), Square(x - 1, y), Square(x, y - 1), Square(x, y))


#: the most of a refused name a message repeats: a 60,000-letter "square" sent to the web app was
#: answered with all of it (round 23's hostile tour)
SAID_AT_MOST = 60


def said(text: str) -> str:
    """``text`` as a refusal repeats it: whole when short, else its start and "…".

    >>> said("C5"), said("A" * 100) == "A" * 59 + "…"
    ('C5', True)
    """
    return text if len(text) <= SAID_AT_MOST else text[:SAID_AT_MOST - 1] + "…"


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise NotationError(_("{what} must be written as text, got {value!r}").format(what=_(what), value=value))
    return value.strip()


def parse_square(text: object) -> Square:
    """Parse ``C5`` (case-insensitive)."""
    s = _text(text, "a square")
    m = _SQUARE_RE.match(s)
    if not m:
        raise NotationError(_("{text!r} is not a square name (column letters then row number, e.g. C5)").format(text=said(s)))
    return Square(column_index(m.group(1)), int(m.group(2)) - 1)


def parse_squares(text: object) -> frozenset[Square]:
    """Parse a square ``C5`` or a filled range ``A1:C3`` (corners in any order)."""
    s = _text(text, "a square or range")
    if ":" not in s:
        return frozenset({parse_square(s)})
    a, _colon, b = s.partition(":")
    if ":" in b:
        raise NotationError(_("{text!r} is not a square range (two squares joined by ':', e.g. A1:C3)").format(text=said(s)))
    sa, sb = parse_square(a), parse_square(b)
    c0, c1 = sorted((sa.col, sb.col))
    r0, r1 = sorted((sa.row, sb.row))
    return frozenset(Square(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1))


def range_size(text: object) -> int:
    """How many squares a square or range names, without building it (guards huge input)."""
    s = _text(text, "a square or range")
    if ":" not in s:
        parse_square(s)
        return 1
    a, _colon, b = s.partition(":")
    sa, sb = parse_square(a), parse_square(b)
    return (abs(sa.col - sb.col) + 1) * (abs(sa.row - sb.row) + 1)


def _split_suffix(s: str, choices: tuple[str, ...], what: str, example: str) -> tuple[str, str]:
    head, dot, suffix = s.rpartition(".")
    if not dot or suffix.upper() not in choices:
        raise NotationError(_("{text!r} is not {what} (a square then '.' and one of {choices}, e.g. {example})").format(
            text=said(s), what=_(what), choices=", ".join(choices), example=example))
    return head, suffix.upper()


def parse_edge(text: object) -> Edge:
    """Parse one edge ``D3.E``."""
    s = _text(text, "an edge")
    head, side = _split_suffix(s, _SIDES, "an edge", "D3.E")
    return parse_square(head).edge(side)  # type: ignore[arg-type]


def parse_edges(text: object) -> tuple[Edge, ...]:
    """Parse an edge ``D3.E`` or a run ``D3:D7.E`` along one row or column."""
    s = _text(text, "an edge or edge run")
    head, side = _split_suffix(s, _SIDES, "an edge or edge run", "D3:D7.E")
    if ":" not in head:
        return (parse_square(head).edge(side),)  # type: ignore[arg-type]
    a, _colon, b = head.partition(":")
    sa, sb = parse_square(a), parse_square(b)
    if sa.col != sb.col and sa.row != sb.row:
        raise NotationError(_("{text!r} is not an edge run: {a} and {b} share neither a row nor a column").format(text=s, a=sa.name, b=sb.name))
    c0, c1 = sorted((sa.col, sb.col))
    r0, r1 = sorted((sa.row, sb.row))
    return tuple(Square(c, r).edge(side) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1))  # type: ignore[arg-type]


def edge_run_size(text: object) -> int:
    """How many edges an edge or edge run names, without building it."""
    s = _text(text, "an edge or edge run")
    head, _side = _split_suffix(s, _SIDES, "an edge or edge run", "D3:D7.E")
    return range_size(head)


def parse_corner(text: object) -> Corner:
    """Parse a corner point ``D7.SE``."""
    s = _text(text, "a corner")
    head, corner = _split_suffix(s, _CORNERS, "a corner point", "D7.SE")
    sq = parse_square(head)
    dx = 1 if "E" in corner else 0
    dy = 1 if "S" in corner else 0
    return Corner(sq.col + dx, sq.row + dy)


# --- canonical compact formatting (used when saving) -------------------------------------


def count_squares(n: object) -> str:
    """A distance or count in squares, as it is said: ``1 square``, ``2 squares``.

    >>> count_squares(1), count_squares(7), count_squares("?")
    ('1 square', '7 squares', '? squares')
    """

    if not isinstance(n, int):
        return f"{n} " + n_("square", "squares", 2)
    return n_("{n} square", "{n} squares", n).format(n=n)


def format_squares(squares: Iterable[Square]) -> list[str]:
    """Names for a set of squares, merged into rectangles, in reading order.

    >>> format_squares(parse_squares("A1:B3") | {parse_square("D1")})
    ['A1:B3', 'D1']
    """
    remaining = set(squares)
    out: list[tuple[Square, str]] = []
    for start in sorted(remaining, key=lambda s: (s.row, s.col)):
        if start not in remaining:
            continue
        # widest run east, then extend south while the whole run is present
        c1 = start.col
        while Square(c1 + 1, start.row) in remaining:
            c1 += 1
        r1 = start.row
        while all(Square(c, r1 + 1) in remaining for c in range(start.col, c1 + 1)):
            r1 += 1
        for c in range(start.col, c1 + 1):
            for r in range(start.row, r1 + 1):
                remaining.discard(Square(c, r))
        end = Square(c1, r1)
        out.append((start, start.name if end == start else f"{start.name}:{end.name}"))
    return [name for _key, name in out]


def format_edges(edges: Iterable[Edge]) -> list[str]:
    """Names for a set of edges, merged into straight runs.

    >>> format_edges(parse_edges("D3:D7.E") + parse_edges("H2.S"))
    ['D3:D7.E', 'H2.S']
    """
    remaining = set(edges)
    out: list[tuple[tuple[int, int, str], str]] = []
    for e in sorted(remaining, key=lambda e: (e.y, e.x, e.axis)):
        if e not in remaining:
            continue
        run = [e]
        step = (0, 1) if e.axis == "V" else (1, 0)
        nxt = Edge(e.x + step[0], e.y + step[1], e.axis)
        while nxt in remaining:
            run.append(nxt)
            nxt = Edge(nxt.x + step[0], nxt.y + step[1], nxt.axis)
        for r in run:
            remaining.discard(r)
        first, last = run[0].name, run[-1].name
        if len(run) == 1:
            name = first
        else:
            (sq0, side), (sq1, _) = first.split("."), last.split(".")
            name = f"{sq0}:{sq1}.{side}"
        out.append(((e.y, e.x, e.axis), name))
    return [name for _key, name in out]

