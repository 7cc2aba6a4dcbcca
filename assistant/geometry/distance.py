"""Counting squares: SWM range and DDM distance, both around walls.

- **SWM** (``shared/rules/swm.md`` §2.6): a diagonal counts 2, so range is the shortest
  4-connected path; it never enters a wall square or crosses a wall edge or closed door;
  no other terrain and no figure adds anything.
- **DDM** (p.19-20, reading R32 in docs/readings.md): diagonals alternate 1, 2, 1, 2
  over the whole count; count through a single wall square's corner but not through a
  wall square, across a thin wall, through a thin wall's end point, or between two wall
  squares that meet at the corner (a pinch). Creatures and other terrain are ignored.

Distances between spaces are the minimum over their squares (:func:`between`); ``None``
means unreachable. Each search maps one space to every square, so a table needs one search
per figure, not one per pair.

>>> between(swm_distance_map([(0, 0)], 10, 10, frozenset(), frozenset()), [(3, 2)])
5
>>> between(ddm_distance_map([(0, 0)], 10, 10, frozenset(), frozenset()), [(4, 4)])
6
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Iterable

SquareT = tuple[int, int]
EdgeT = tuple[int, int, str]


def _orth_ok(a: SquareT, b: SquareT, walls: frozenset[SquareT], edges: frozenset[EdgeT]) -> bool:
    if b in walls:
        return False
    (x0, y0), (x1, y1) = a, b
    if x1 != x0:
        e = (max(x0, x1), y0, "V")
    else:
        e = (x0, max(y0, y1), "H")
    return e not in edges


def _diag_ok(a: SquareT, b: SquareT, walls: frozenset[SquareT], edges: frozenset[EdgeT], wall_points: frozenset[tuple[int, int]]) -> bool:
    """reading R32 in docs/readings.md: through one wall square's corner yes; into a wall, through a thin wall's end
    point or through a pinch no."""
    if b in walls:
        return False
    (x0, y0), (x1, y1) = a, b
    corner = (max(x0, x1), max(y0, y1))
    if corner in wall_points:  # an end point (or a crossing) of a thin wall
        return False
    return not ((x1, y0) in walls and (x0, y1) in walls)


def swm_distance_map(
    start: Iterable[SquareT], cols: int, rows: int, walls: frozenset[SquareT], edges: frozenset[EdgeT],
) -> dict[SquareT, int]:
    """SWM range from a space to every reachable square (one BFS serves every target)."""
    dist = {s: 0 for s in start}
    queue = deque(dist)
    while queue:
        sq = queue.popleft()
        d = dist[sq] + 1
        x, y = sq
        for nb in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nb in dist or not (0 <= nb[0] < cols and 0 <= nb[1] < rows):
                continue
            if _orth_ok(sq, nb, walls, edges):
                dist[nb] = d
                queue.append(nb)
    return dist


Step = Callable[[SquareT, SquareT, int], "tuple[int, int] | None"]


def search(
    starts: Iterable[SquareT], cols: int, rows: int, step: Step, goal: SquareT | None = None, start_parity: int = 0,
) -> tuple[dict[tuple[SquareT, int], int], dict[tuple[SquareT, int], tuple[SquareT, int]], tuple[SquareT, int] | None]:
    """Cheapest paths over the 8-neighbour grid with a diagonal-parity state.

    ``step(from, to, parity)`` gives ``(cost, new parity)`` or None when the step is not
    allowed; parity is 0 or 1 (DDM's 1-2-1-2 diagonals; always 0 where it does not matter).
    Returns the best cost per (square, parity), the predecessor links, and the state that
    reached ``goal`` first (None without a goal or when unreachable). The starts have
    ``start_parity``. Of the goal's states at the same cost, parity 0 is reached first (the heap
    orders by cost, square, parity, and every state of that cost is queued before any is taken).
    """
    best: dict[tuple[SquareT, int], int] = {}
    prev: dict[tuple[SquareT, int], tuple[SquareT, int]] = {}
    heap: list[tuple[int, SquareT, int]] = []
    for s in sorted(set(starts)):
        best[(s, start_parity)] = 0
        heap.append((0, s, start_parity))
    heapq.heapify(heap)
    while heap:
        d, sq, par = heapq.heappop(heap)
        if best.get((sq, par), 1 << 60) < d:
            continue
        if goal is not None and sq == goal:
            return best, prev, (sq, par)
        x, y = sq
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx == dy == 0:
                    continue
                nb = (x + dx, y + dy)
                if not (0 <= nb[0] < cols and 0 <= nb[1] < rows):
                    continue
                got = step(sq, nb, par)
                if got is None:
                    continue
                cost, npar = got
                if d + cost < best.get((nb, npar), 1 << 60):
                    best[(nb, npar)] = d + cost
                    prev[(nb, npar)] = (sq, par)
                    heapq.heappush(heap, (d + cost, nb, npar))
    return best, prev, None


def ddm_distance_map(
    start: Iterable[SquareT], cols: int, rows: int, walls: frozenset[SquareT], edges: frozenset[EdgeT],
) -> dict[SquareT, int]:
    """DDM distance from a space to every reachable square (1-2-1-2 diagonals, reading R32 in docs/readings.md)."""
    wall_points = frozenset(
        p for (x, y, axis) in edges for p in ((x, y), (x + 1, y) if axis == "H" else (x, y + 1))
    )

    def step(sq: SquareT, nb: SquareT, par: int) -> tuple[int, int] | None:
        if sq[0] != nb[0] and sq[1] != nb[1]:
            if not _diag_ok(sq, nb, walls, edges, wall_points):
                return None
            return (2 if par else 1), 1 - par
        return (1, par) if _orth_ok(sq, nb, walls, edges) else None

    best, _, _ = search(start, cols, rows, step)
    out: dict[SquareT, int] = {}
    for (sq, _par), d in best.items():
        if sq not in out or d < out[sq]:
            out[sq] = d
    return out


def between(dist: dict[SquareT, int], goal: Iterable[SquareT]) -> int | None:
    """The range to a space: the least distance to any of its squares, or None."""
    got = [dist[s] for s in goal if s in dist]
    return min(got) if got else None
