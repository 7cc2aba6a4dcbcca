"""Exact tests on the union of all segments between two spaces (their convex hull).

DDM's charge needs "no straight line between any point of the start space and any point of
the end space passes through" a blocking square (``ddm.md`` §6.5, reading A-48: touching an
edge or a corner does not count). The union of those lines is the convex hull of the two
spaces, so the test is: does the hull's interior meet the square's interior (or a thin
wall's open segment)? Integer corners, separating-axis test, no floating point.

>>> h = hull([(0, 0), (1, 0), (0, 1), (1, 1), (4, 0), (5, 0), (4, 1), (5, 1)])
>>> meets_square(h, (2, 0)), meets_square(h, (2, 1))
(True, False)
>>> meets_segment(h, (3, 0), (3, 1)), meets_segment(h, (3, 1), (4, 1))
(True, False)
"""

from __future__ import annotations

Point = tuple[int, int]


def _cross(o: Point, a: Point, b: Point) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def hull(points: list[Point]) -> list[Point]:
    """The convex hull, counter-clockwise, without collinear points (Andrew's monotone chain)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts
    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and _cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and _cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def space_corners(squares: list[Point]) -> list[Point]:
    return [(x + dx, y + dy) for (x, y) in squares for dx in (0, 1) for dy in (0, 1)]


def _axes(poly: list[Point]) -> list[Point]:
    n = len(poly)
    return [(poly[i][1] - poly[(i + 1) % n][1], poly[(i + 1) % n][0] - poly[i][0]) for i in range(n)]


def _span(poly: list[Point], axis: Point) -> tuple[int, int]:
    vals = [p[0] * axis[0] + p[1] * axis[1] for p in poly]
    return min(vals), max(vals)


def _open_overlap(a: list[Point], b: list[Point], axes: list[Point]) -> bool:
    for ax in axes:
        if ax == (0, 0):
            continue
        lo1, hi1 = _span(a, ax)
        lo2, hi2 = _span(b, ax)
        if lo2 == hi2:  # a segment seen edge-on: its one point must lie strictly inside
            if not lo1 < lo2 < hi1:
                return False
        elif max(lo1, lo2) >= min(hi1, hi2):
            return False
    return True


def meets_square(h: list[Point], sq: Point) -> bool:
    """True when the open hull and the open unit square ``sq`` share a point."""
    x, y = sq
    box = [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]
    return _open_overlap(h, box, _axes(h) + [(1, 0), (0, 1)])


def meets_segment(h: list[Point], p: Point, q: Point) -> bool:
    """True when the open hull meets the open segment ``pq`` (a thin wall)."""
    d = (q[0] - p[0], q[1] - p[1])
    normal = (-d[1], d[0])
    lo, hi = _span(h, normal)
    at = p[0] * normal[0] + p[1] * normal[1]
    if not lo < at < hi:
        return False
    return _open_overlap(h, [p, q], _axes(h) + [d])
