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
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction as F
from math import ceil, floor

Num = int | F
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
    ) -> Blockers:
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

    def without_squares(self, remove: Iterable[SquareT]) -> Blockers:
        rm = set(remove)
        if not rm & self.squares:
            return self
        return Blockers.build(self.squares - rm, self.edges, self.open_points)

    def with_squares(self, add: Iterable[SquareT]) -> Blockers:
        extra = set(add) - self.squares
        if not extra:
            return self
        return Blockers.build(self.squares | extra, self.edges, self.open_points)

    def vertices_in(self, poly: Sequence[Pt]) -> Iterator[tuple[int, int]]:
        """Obstacle vertices (and open points) inside the closed convex polygon."""
        ys = [p[1] for p in poly]
        for y in range(int(min(ys)), int(max(ys)) + 1):
            xs = self.rows.get(y)
            if not xs:
                continue
            bounds = line_bounds(poly, y)
            if bounds is None:
                continue
            for x in xs[bisect_left(xs, bounds[0]): bisect_right(xs, bounds[1])]:
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


def first_contact_reference(p: Pt, q: Pt, b: Blockers, skip_ends: bool = False) -> Contact | None:
    """Reference version of :func:`first_contact` (plain fractions; slow, obviously right).

    The segment is split at every grid-line crossing; each crossing point and each open
    piece between two crossings (tested at its midpoint, which lies in the same open cell
    or on the same grid line as the whole piece) is looked up directly.
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
    """Every grid square whose open interior meets the open interior of convex ``poly``
    (integer vertices, positive area).

    Row by row: where the polygon's interior meets the open row, its slice K is a convex
    set with interior, and the interior of K projects onto the open interval (lo, hi) of
    K's x-extent. So a square of the row is met exactly when (c, c+1) meets (lo, hi):
    no per-square test is needed, and lo, hi are found with integer floor/ceil divisions.
    """
    ys = [p[1] for p in poly]
    for r in range(floor(min(ys)), ceil(max(ys))):
        bounds = _strip_bounds(poly, r, r + 1)
        if bounds is None:
            continue
        lo_floor, hi_ceil = bounds
        for c in range(lo_floor, hi_ceil):
            yield (c, r)


def _crossings(poly: Sequence[Pt], y0: int, y1: int) -> Iterator[tuple[int, int]]:
    """x-coordinates (numerator, positive denominator) where the polygon's boundary meets
    the closed strip y0 <= y <= y1: vertices inside it and edge crossings of its two lines."""
    n = len(poly)
    for i in range(n):
        ax, ay = int(poly[i][0]), int(poly[i][1])
        bx, by = int(poly[(i + 1) % n][0]), int(poly[(i + 1) % n][1])
        if y0 <= ay <= y1:
            yield ax, 1
        for yl in (y0, y1):
            if (ay - yl) * (by - yl) < 0:
                num = ax * (by - ay) + (bx - ax) * (yl - ay)
                den = by - ay
                if den < 0:
                    num, den = -num, -den
                yield num, den


def _strip_bounds(poly: Sequence[Pt], y0: int, y1: int) -> tuple[int, int] | None:
    """(floor of min x, ceil of max x) of poly within the closed strip, or None when the
    polygon's interior misses the open strip."""
    ys = [p[1] for p in poly]
    if not (min(ys) < y1 and max(ys) > y0):
        return None
    lo = hi = None
    for num, den in _crossings(poly, y0, y1):
        f, c = num // den, -((-num) // den)
        lo = f if lo is None or f < lo else lo
        hi = c if hi is None or c > hi else hi
    return None if lo is None or hi is None else (lo, hi)


def line_bounds(poly: Sequence[Pt], y: int) -> tuple[int, int] | None:
    """(ceil of min x, floor of max x) of the closed polygon on the line at height y:
    the integer x with (x, y) in the polygon."""
    lo = hi = None
    for num, den in _crossings(poly, y, y):
        c, f = -((-num) // den), num // den
        lo = c if lo is None or c < lo else lo
        hi = f if hi is None or f > hi else hi
    return None if lo is None or hi is None else (lo, hi)


def dyadic_round(v: F, k: int) -> F:
    """``v`` rounded to the nearest multiple of 2**-k."""
    return F(round(v * (1 << k)), 1 << k)


def _ints(p: Pt, q: Pt) -> tuple[int, int, int, int, int]:
    """p and q over one common positive denominator: (Px, Py, Qx, Qy, D)."""
    vals = [F(v) for v in (p[0], p[1], q[0], q[1])]
    d = 1
    for v in vals:
        den = v.denominator
        d = d * den // _gcd(d, den)
    return (*(int(v * d) for v in vals), d)  # type: ignore[return-value]


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def point_contact_int(X: int, Y: int, D: int, b: Blockers) -> Contact | None:
    """:func:`point_contact` for the point (X/D, Y/D), D > 0, in integers."""
    xi, yi = X % D == 0, Y % D == 0
    if xi and yi:
        p = (X // D, Y // D)
        return _describe_point(p, b, (F(p[0]), F(p[1]))) if p in b.points else None
    if xi:
        x, fy = X // D, Y // D
        if (x, fy, "V") in b.edges:
            return Contact("edge", edge=(x, fy, "V"), at=(F(x), F(Y, D)))
        for sq in ((x - 1, fy), (x, fy)):
            if sq in b.squares:
                return Contact("square", square=sq, at=(F(x), F(Y, D)))
        return None
    if yi:
        y, fx = Y // D, X // D
        if (fx, y, "H") in b.edges:
            return Contact("edge", edge=(fx, y, "H"), at=(F(X, D), F(y)))
        for sq in ((fx, y - 1), (fx, y)):
            if sq in b.squares:
                return Contact("square", square=sq, at=(F(X, D), F(y)))
        return None
    sq = (X // D, Y // D)
    return Contact("square", square=sq, at=(F(X, D), F(Y, D))) if sq in b.squares else None


def first_contact_int(Px: int, Py: int, Qx: int, Qy: int, D: int, b: Blockers, skip_ends: bool = False) -> Contact | None:
    """:func:`first_contact` for the segment (Px/D, Py/D) - (Qx/D, Qy/D), D > 0."""
    if not skip_ends:
        c = point_contact_int(Px, Py, D, b)
        if c is not None:
            return c
    DX, DY = Qx - Px, Qy - Py
    hit = None
    if DX and DY:
        hit = _walk(Px, Py, DX, DY, D, b)
    elif DX or DY:
        hit = _walk_axis(Px, Py, Qx, Qy, D, b)
    if hit is not None:
        return hit
    if not skip_ends:
        return point_contact_int(Qx, Qy, D, b)
    return None


def first_contact(p: Pt, q: Pt, b: Blockers, skip_ends: bool = False) -> Contact | None:
    """The first point (from p) where the closed segment [p, q] touches an obstacle.

    With ``skip_ends`` the end points themselves are not tested (the open segment).
    Exact integer walk over the grid (a DDA with every comparison done by
    cross-multiplication over one common denominator): each open cell the segment passes
    through, each grid line it crosses and each grid point it passes exactly through is
    looked up. Same answers as :func:`first_contact_reference` (a property test checks it).
    """
    return first_contact_int(*_ints(p, q), b, skip_ends)


def _walk(Px: int, Py: int, DX: int, DY: int, D: int, b: Blockers, points: bool = True) -> Contact | None:
    """Integer DDA over a segment that is neither horizontal nor vertical. With ``points``
    false, passing exactly through a grid point is not a contact (only square interiors and
    transversal edge crossings count: the stable crossings)."""
    sx = 1 if DX > 0 else -1
    sy = 1 if DY > 0 else -1
    ax, ay = abs(DX), abs(DY)
    cx = Px // D if sx > 0 else -((-Px) // D) - 1
    cy = Py // D if sy > 0 else -((-Py) // D) - 1
    nx = cx + 1 if sx > 0 else cx
    ny = cy + 1 if sy > 0 else cy
    squares, edges, grid_points = b.squares, b.edges, b.points
    while True:
        if (cx, cy) in squares:
            return Contact("square", square=(cx, cy), at=_point_in_cell(cx, cy))
        # parameters of the next crossings: t = num / den with den > 0
        txn, txd = (nx * D - Px) * sx, ax
        tyn, tyd = (ny * D - Py) * sy, ay
        bx = txn >= txd  # beyond q
        by = tyn >= tyd
        if bx and by:
            return None
        cmp = txn * tyd - tyn * txd
        if not bx and (by or cmp < 0):  # vertical line x = nx first
            fy = (Py * txd + txn * DY) // (D * txd)
            e = (nx, fy, "V")
            if e in edges:
                return Contact("edge", edge=e, at=(F(nx), F(Py * txd + txn * DY, D * txd)))
            cx += sx
            nx += sx
        elif not by and (bx or cmp > 0):  # horizontal line y = ny first
            fx = (Px * tyd + tyn * DX) // (D * tyd)
            e = (fx, ny, "H")
            if e in edges:
                return Contact("edge", edge=e, at=(F(Px * tyd + tyn * DX, D * tyd), F(ny)))
            cy += sy
            ny += sy
        else:  # exactly through the grid point (nx, ny)
            if points and (nx, ny) in grid_points:
                return _describe_point((nx, ny), b, (F(nx), F(ny)))
            cx += sx
            cy += sy
            nx += sx
            ny += sy


def _point_in_cell(cx: int, cy: int) -> Pt:
    return (F(2 * cx + 1, 2), F(2 * cy + 1, 2))


def _walk_axis(Px: int, Py: int, Qx: int, Qy: int, D: int, b: Blockers) -> Contact | None:
    """A horizontal or vertical segment (end points are tested by the caller)."""
    horizontal = Py == Qy
    if not horizontal:  # swap axes: walk a vertical segment as a horizontal one
        Px, Py, Qx, Qy = Py, Px, Qy, Qx
    lo, hi = sorted((Px, Qx))
    fixed = Py
    on_line = fixed % D == 0
    Y = fixed // D

    def sq(c: int, r: int) -> SquareT:
        return (c, r) if horizontal else (r, c)

    def ed(c: int, r: int, along: bool) -> EdgeT:
        # an edge along the walk's direction ("H" when horizontal) or across it
        if along:
            return (c, r, "H") if horizontal else (r, c, "V")
        return (c, r, "V") if horizontal else (r, c, "H")

    def pt(c: int, r: int) -> tuple[int, int]:
        return (c, r) if horizontal else (r, c)

    forward = Qx > Px  # (for a vertical segment the axes were swapped above)
    # the open cells and the interior grid points along the walk, in travel order
    items: list[tuple[int, int, int]] = []  # (2 * position * D, kind 0 cell / 1 point, index)
    for c in range(lo // D, -((-hi) // D)):
        if c * D < hi and (c + 1) * D > lo:
            items.append(((2 * c + 1) * D, 0, c))
    for k in range(-((-lo) // D), hi // D + 1):
        if lo < k * D < hi:
            items.append((2 * k * D, 1, k))
    items.sort(reverse=not forward)
    for _, kind, c in items:
        if kind == 0:
            if on_line:
                for s_ in (sq(c, Y - 1), sq(c, Y)):
                    if s_ in b.squares:
                        return Contact("square", square=s_)
                e = ed(c, Y, True)
                if e in b.edges:
                    return Contact("edge", edge=e)
            else:
                s_ = sq(c, Y)
                if s_ in b.squares:
                    return Contact("square", square=s_)
        elif on_line:
            if pt(c, Y) in b.points:
                return _describe_point(pt(c, Y), b, (F(c), F(Y)) if horizontal else (F(Y), F(c)))
        else:
            e = ed(c, Y, False)
            if e in b.edges:
                return Contact("edge", edge=e)
    return None


def crosses_properly(p: Pt, q: Pt, b: Blockers) -> bool:
    """See :func:`crosses_properly_int`."""
    return crosses_properly_int(*_ints(p, q), b)


def crosses_properly_int(Px: int, Py: int, Qx: int, Qy: int, D: int, b: Blockers) -> bool:
    """Whether the open segment (p, q) crosses an obstacle *stably*: passes through the
    interior of an obstacle square, or crosses an obstacle edge transversally away from its
    end points. Every line close enough to such a segment crosses the obstacle too, so a
    line search can drop all lines near it. Grazes and passes through grid points are not
    stable crossings and return False."""
    DX, DY = Qx - Px, Qy - Py
    if DX and DY:
        return _walk(Px, Py, DX, DY, D, b, points=False) is not None
    if DX == DY == 0:
        return False
    # along a grid line everything is a graze; inside a row or column the axis walk sees
    # only square interiors and crossed edges, which are stable
    fixed = Py if DY == 0 else Px
    return fixed % D != 0 and _walk_axis(Px, Py, Qx, Qy, D, b) is not None
