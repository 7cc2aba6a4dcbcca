"""The cover fan: every line from one chosen corner to every point of the target's space.

For a corner ``c`` the fan ``F(c)`` is the convex hull of ``c`` and the target's space
(``shared/rules/swm.md`` §5.7). Cover comes from what the fan's *interior* meets -- an
obstacle square's interior, or a wall edge -- because a line that only touches or runs
along something (a graze) gives no cover in any edition. All tests are exact integer
separating-axis tests: the fan and the grid have integer vertices.

The third test is the start-corner crossing (§5.7 rule 3): a corner on a wall cannot be
used to shoot "from the far side" of the wall the attacker stands behind.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .core import EdgeT, Pt, SquareT, convex_hull, cross, edge_points, interiors_meet, polygon_squares


@dataclass(frozen=True)
class Source:
    """One thing that gives cover: ``kind`` (wall, door, figure, low, statue, forest, fog,
    melee-corner, ...) and ``where`` (an edge, a square or a figure id, as text)."""

    kind: str
    where: str


def fan(c: tuple[int, int], target: Sequence[SquareT]) -> list[Pt]:
    pts: list[Pt] = [c]
    for (x, y) in target:
        pts += [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]
    return convex_hull(pts)


def fan_sources(
    poly: Sequence[Pt],
    area: Mapping[SquareT, Sequence[Source]],
    edges: Mapping[EdgeT, Source],
) -> list[Source]:
    """What the open fan meets: obstacle squares (interiors) and obstacle edges."""
    found: dict[Source, None] = {}
    if len(poly) < 3:
        return []
    for sq in polygon_squares(poly):
        for src in area.get(sq, ()):
            found.setdefault(src, None)
        c, r = sq
        for e in ((c, r, "H"), (c, r + 1, "H"), (c, r, "V"), (c + 1, r, "V")):
            esrc = edges.get(e)
            if esrc is not None and interiors_meet(poly, edge_points(e)):
                found.setdefault(esrc, None)
    return list(found)


# Sectors around a grid point, clockwise on screen (x east, y south):
# 0 = east ray, 1 = south-east square, 2 = south ray, 3 = south-west square,
# 4 = west ray, 5 = north-west square, 6 = north ray, 7 = north-east square.
_RAY_DIRS = {0: (1, 0), 2: (0, 1), 4: (-1, 0), 6: (0, -1)}


def _quadrant_square(c: tuple[int, int], k: int) -> SquareT:
    x, y = c
    return {1: (x, y), 3: (x - 1, y), 5: (x - 1, y - 1), 7: (x, y - 1)}[k]


def _ray_edge(c: tuple[int, int], k: int) -> EdgeT:
    x, y = c
    return {0: (x, y, "H"), 2: (x, y, "V"), 4: (x - 1, y, "H"), 6: (x, y - 1, "V")}[k]


def _in_open_arc(v: Pt, e1: Pt, e2: Pt) -> bool:
    if cross((0, 0), e1, e2) < 0:
        e1, e2 = e2, e1
    return cross((0, 0), e1, v) > 0 and cross((0, 0), v, e2) > 0


def _sector_classes(e1: Pt, e2: Pt) -> list[int]:
    """Sectors (rays and open quadrants) that meet the open angle between e1 and e2."""
    out = []
    for k, d in _RAY_DIRS.items():
        if _in_open_arc(d, e1, e2):
            out.append(k)
    for k in (1, 3, 5, 7):
        b1 = _RAY_DIRS[k - 1]
        b2 = _RAY_DIRS[(k + 1) % 8]
        cands = [e1, e2, b1, b2]
        hit = False
        for i in range(4):
            for j in range(i + 1, 4):
                s = (cands[i][0] + cands[j][0], cands[i][1] + cands[j][1])
                if s != (0, 0) and _in_open_arc(s, e1, e2) and _in_open_arc(s, b1, b2):
                    hit = True
        if hit:
            out.append(k)
    return sorted(out)


def start_corner_crossing(
    c: tuple[int, int],
    poly: Sequence[Pt],
    attacker: Iterable[SquareT],
    wall_squares: frozenset[SquareT] | set[SquareT],
    wall_edges: Mapping[EdgeT, Source] | frozenset[EdgeT],
    open_points: frozenset[tuple[int, int]] | set[tuple[int, int]],
) -> EdgeT | SquareT | None:
    """The wall a line from the attacker through corner c would have to cross at c, for
    some direction of the fan -- or None. (§5.7 rule 3.)"""
    if c in open_points or len(poly) < 3:
        return None
    att = set(attacker)
    starts = [k for k in (1, 3, 5, 7) if _quadrant_square(c, k) in att]
    if not starts or len(starts) == 4:
        return None
    i = poly.index(c) if c in poly else None
    if i is None:
        return None
    prev, nxt = poly[i - 1], poly[(i + 1) % len(poly)]
    e1 = (prev[0] - c[0], prev[1] - c[1])
    e2 = (nxt[0] - c[0], nxt[1] - c[1])

    def blocked(k: int) -> EdgeT | SquareT | None:
        if k % 2 == 0:
            e = _ray_edge(c, k)
            return e if e in wall_edges else None
        sq = _quadrant_square(c, k)
        return sq if sq in wall_squares else None

    def path_block(s: int, x: int, step: int) -> EdgeT | SquareT | None:
        k = s
        while True:
            k = (k + step) % 8
            if k == x and x % 2 == 0:
                return None  # runs parallel to that ray inside the previous square
            got = blocked(k)
            if got is not None:
                return got
            if k == x:
                return None

    for x in _sector_classes(e1, e2):
        forced_by: EdgeT | SquareT | None = None
        forced_for_all_starts = True
        for s in starts:
            k = (x - s) % 8
            if k in (0, 1, 7):
                forced_for_all_starts = False
                break
            paths = [1] if k in (2, 3) else [-1] if k in (5, 6) else [1, -1]
            blocks = [path_block(s, x, step) for step in paths]
            if any(bk is None for bk in blocks):
                forced_for_all_starts = False
                break
            forced_by = blocks[0]
        if forced_for_all_starts and forced_by is not None:
            return forced_by
    return None

