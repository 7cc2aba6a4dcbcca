"""The pure geometry core: exact segments against grid-aligned obstacles.

Everything is exact. Coordinates are :class:`fractions.Fraction` (or ``int``); the board's
features all lie on the integer grid, so every predicate below is decided without rounding.
There is no sampling anywhere in this package.

Obstacles come as a :class:`Blockers` set:

- ``squares``: closed unit squares ``(col, row)`` = ``[col, col+1] x [row, row+1]``;
- ``edges``: closed unit segments ``(x, y, "H")`` from ``(x, y)`` to ``(x+1, y)`` and
  ``(x, y, "V")`` from ``(x, y)`` to ``(x, y+1)``;
- ``open_points``: grid points removed from the obstacle set (bevelled wall corners: "a line
  may touch them").

A segment *touches* the blockers when it shares any point with them (grazing a corner or
running along an edge counts), which is how every edition defines a blocked line.

>>> b = Blockers.build(squares={(2, 1)})
>>> first_contact((F(1, 2), F(1, 2)), (F(9, 2), F(1, 2)), b) is None   # passes above the square
True
>>> first_contact((F(1, 2), F(1, 2)), (F(9, 2), F(3, 2)), b).kind      # crosses it
'square'
>>> first_contact((0, 1), (4, 1), b).kind                              # runs along its edge
'corner'
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from fractions import Fraction as F
from math import ceil, floor
from typing import Iterable, Iterator, Sequence, Union

Num = Union[int, F]
Pt = tuple[Num, Num]
SquareT = tuple[int, int]
EdgeT = tuple[int, int, str]


@dataclass(frozen=True)
class Blockers:
    squares: frozenset[SquareT] = frozenset()
    edges: frozenset[EdgeT] = frozenset()
    open_points: frozenset[tuple[int, int]] = frozenset()
    #: every grid point that belongs to an obstacle (edge end points, square corners), minus open points
    points: frozenset[tuple[int, int]] = field(default=frozenset(), compare=False)
    #: the same points by row, sorted, for "which obstacle vertices lie in this region"
    rows: dict[int, list[int]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def build(
        cls,
        squares: Iterable[SquareT] = (),
        edges: Iterable[EdgeT] = (),
        open_points: Iterable[tuple[int, int]] = (),
    ) -> "Blockers":
        sq = frozenset(squares)
        ed = frozenset(edges)
        op = frozenset(open_points)
        pts: set[tuple[int, int]] = set()
        for (c, r) in sq:
            pts.update(((c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)))
        for (x, y, axis) in ed:
            pts.add((x, y))
            pts.add((x + 1, y) if axis == "H" else (x, y + 1))
        pts -= op
        rows: dict[int, list[int]] = {}
        for (x, y) in pts | op:
            rows.setdefault(y, []).append(x)
        for xs in rows.values():
            xs.sort()
        return cls(sq, ed, op, frozenset(pts), rows)

    def without_squares(self, remove: Iterable[SquareT]) -> "Blockers":
        rm = set(remove)
        if not rm & self.squares:
            return self
        return Blockers.build(self.squares - rm, self.edges, self.open_points)

    def with_squares(self, add: Iterable[SquareT]) -> "Blockers":
        extra = set(add) - self.squares
        if not extra:
            return self
        return Blockers.build(self.squares | extra, self.edges, self.open_points)

    def vertices_in_rows(self, y0: int, y1: int, xrange: "callable") -> Iterator[tuple[int, int]]:
        """Obstacle vertices (and open points) with y0 <= y <= y1 whose x lies in ``xrange(y)``."""
        for y in range(y0, y1 + 1):
            xs = self.rows.get(y)
            if not xs:
                continue
            lo, hi = xrange(y)
            for x in xs[bisect_left(xs, lo): bisect_right(xs, hi)]:
                yield (x, y)


@dataclass(frozen=True)
class Contact:
    """Where a segment touches an obstacle: ``kind`` is square, edge or corner."""

    kind: str
    square: SquareT | None = None
    edge: EdgeT | None = None
    point: tuple[int, int] | None = None
    at: Pt | None = None


def _is_int(v: Num) -> bool:
    return isinstance(v, int) or v.denominator == 1


def point_contact(x: Num, y: Num, b: Blockers) -> Contact | None:
    """Does the single point (x, y) belong to an obstacle?"""
    xi, yi = _is_int(x), _is_int(y)
    if xi and yi:
        p = (int(x), int(y))
        if p in b.points:
            return _describe_point(p, b, (x, y))
        return None
    if xi:
        X, fy = int(x), floor(y)
        e = (X, fy, "V")
        if e in b.edges:
            return Contact("edge", edge=e, at=(x, y))
        for sq in ((X - 1, fy), (X, fy)):
            if sq in b.squares:
                return Contact("square", square=sq, at=(x, y))
        return None
    if yi:
        Y, fx = int(y), floor(x)
        e = (fx, Y, "H")
        if e in b.edges:
            return Contact("edge", edge=e, at=(x, y))
        for sq in ((fx, Y - 1), (fx, Y)):
            if sq in b.squares:
                return Contact("square", square=sq, at=(x, y))
        return None
    sq = (floor(x), floor(y))
    if sq in b.squares:
        return Contact("square", square=sq, at=(x, y))
    return None


def _describe_point(p: tuple[int, int], b: Blockers, at: Pt) -> Contact:
    x, y = p
    for e in ((x, y, "H"), (x - 1, y, "H"), (x, y, "V"), (x, y - 1, "V")):
        if e in b.edges:
            return Contact("corner", edge=e, point=p, at=at)
    for sq in ((x, y), (x - 1, y), (x, y - 1), (x - 1, y - 1)):
        if sq in b.squares:
            return Contact("corner", square=sq, point=p, at=at)
    return Contact("corner", point=p, at=at)  # pragma: no cover - points only holds obstacle vertices


def crossing_params(p: Pt, q: Pt) -> list[F]:
    """Sorted parameters t in [0, 1] where p + t(q - p) meets a grid line, plus 0 and 1."""
    px, py = F(p[0]), F(p[1])
    dx, dy = F(q[0]) - px, F(q[1]) - py
    ts = {F(0), F(1)}
    if dx:
        lo, hi = sorted((px, px + dx))
        for k in range(ceil(lo), floor(hi) + 1):
            ts.add((k - px) / dx)
    if dy:
        lo, hi = sorted((py, py + dy))
        for k in range(ceil(lo), floor(hi) + 1):
            ts.add((k - py) / dy)
    return sorted(ts)


def first_contact(p: Pt, q: Pt, b: Blockers, skip_ends: bool = False) -> Contact | None:
    """The first point (from p) where the closed segment [p, q] touches an obstacle.

    With ``skip_ends`` the end points themselves are not tested (the open segment).
    Exact: the segment is split at every grid-line crossing; each crossing point and each
    open piece between two crossings (tested at its midpoint, which lies in the same open
    cell or on the same grid line as the whole piece) is looked up directly.
    """
    ts = crossing_params(p, q)
    px, py = F(p[0]), F(p[1])
    dx, dy = F(q[0]) - px, F(q[1]) - py
    last = len(ts) - 1
    for i, t in enumerate(ts):
        if not (skip_ends and (i == 0 or i == last)):
            c = point_contact(px + t * dx, py + t * dy, b)
            if c is not None:
                return c
        if i < last:
            m = (t + ts[i + 1]) / 2
            c = point_contact(px + m * dx, py + m * dy, b)
            if c is not None:
                return c
    return None


# --- integer polygon predicates ---------------------------------------------------------


def cross(o: Pt, a: Pt, b: Pt) -> Num:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def convex_hull(points: Iterable[Pt]) -> list[Pt]:
    """Counter-clockwise hull (in x-right, y-down screen terms: clockwise), no collinear points."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts
    lower: list[Pt] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Pt] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _axes(poly: Sequence[Pt]) -> list[tuple[Num, Num]]:
    n = len(poly)
    if n == 1:
        return []
    out = []
    for i in range(n if n > 2 else 1):
        a, b = poly[i], poly[(i + 1) % n]
        out.append((b[1] - a[1], a[0] - b[0]))
    return out


def _proj(poly: Sequence[Pt], ax: tuple[Num, Num]) -> tuple[Num, Num]:
    vals = [p[0] * ax[0] + p[1] * ax[1] for p in poly]
    return min(vals), max(vals)


def interiors_meet(poly: Sequence[Pt], other: Sequence[Pt]) -> bool:
    """Whether the open interior of convex polygon ``poly`` meets ``other``.

    ``other`` is a convex polygon (its interior must meet too) or a segment (two points:
    any point of it inside the open polygon). Separating-axis test with non-strict
    separation, so mere touching is not a meeting.
    """
    for ax in _axes(poly) + _axes(other):
        a0, a1 = _proj(poly, ax)
        b0, b1 = _proj(other, ax)
        if a1 <= b0 or b1 <= a0:
            return False
    return True


def unit_square(sq: SquareT) -> list[Pt]:
    c, r = sq
    return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]


def edge_points(e: EdgeT) -> list[Pt]:
    x, y, axis = e
    return [(x, y), (x + 1, y)] if axis == "H" else [(x, y), (x, y + 1)]


def polygon_squares(poly: Sequence[Pt]) -> Iterator[SquareT]:
    """Every grid square whose open interior meets the open interior of convex ``poly``."""
    ys = [p[1] for p in poly]
    for r in range(floor(min(ys)), ceil(max(ys))):
        lo, hi = _row_span(poly, F(r), F(r + 1))
        if lo is None:
            continue
        for c in range(floor(lo), ceil(hi)):
            if interiors_meet(poly, unit_square((c, r))):
                yield (c, r)


def _row_span(poly: Sequence[Pt], y0: F, y1: F) -> tuple[F | None, F | None]:
    """x-extent of ``poly`` within the closed strip y0 <= y <= y1."""
    xs: list[F] = []
    n = len(poly)
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        ax, ay, bx, by = F(ax), F(ay), F(bx), F(by)
        if y0 <= ay <= y1:
            xs.append(ax)
        for yl in (y0, y1):
            if (ay - yl) * (by - yl) < 0:
                xs.append(ax + (bx - ax) * (yl - ay) / (by - ay))
    if not xs:
        return None, None
    return min(xs), max(xs)


def dyadic_round(v: F, k: int) -> F:
    """``v`` rounded to the nearest multiple of 2**-k."""
    return F(round(v * (1 << k)), 1 << k)
