"""Independent oracles for the geometry tests (used only in tests and bench).

- :func:`touches`: exact segment-vs-obstacle contact written without the grid walk the
  library uses (Liang-Barsky against every obstacle square, orientation tests against
  every obstacle edge), so a witness can be re-checked by different code.
- :func:`lattice_sight`: the brute-force sampler: every pair of points on the 1/n lattice
  of the two squares. It can miss a line (thin gaps), never invent one.
"""

from __future__ import annotations

from fractions import Fraction as F
from itertools import product

from assistant.geometry.core import Blockers


def _box_params(p, q, box):
    (x0, y0, x1, y1) = box
    lo, hi = F(0), F(1)
    for axis, (b0, b1) in ((0, (x0, x1)), (1, (y0, y1))):
        d = F(q[axis]) - F(p[axis])
        if d == 0:
            if not (b0 <= p[axis] <= b1):
                return None
            continue
        t0, t1 = (b0 - F(p[axis])) / d, (b1 - F(p[axis])) / d
        if t0 > t1:
            t0, t1 = t1, t0
        lo, hi = max(lo, t0), min(hi, t1)
        if lo > hi:
            return None
    return lo, hi


def _at(p, q, t):
    return (F(p[0]) + t * (F(q[0]) - F(p[0])), F(p[1]) + t * (F(q[1]) - F(p[1])))


def touches(p, q, b: Blockers) -> bool:
    opens = {(F(x), F(y)) for (x, y) in b.open_points}
    if (F(p[0]), F(p[1])) == (F(q[0]), F(q[1])):  # a single point
        pt = (F(p[0]), F(p[1]))
        if pt in opens:
            return False
        boxes = [(c, r, c + 1, r + 1) for (c, r) in b.squares]
        boxes += [(x, y, x + 1, y) if a == "H" else (x, y, x, y + 1) for (x, y, a) in b.edges]
        return any(x0 <= pt[0] <= x1 and y0 <= pt[1] <= y1 for (x0, y0, x1, y1) in boxes)
    boxes = [(c, r, c + 1, r + 1) for (c, r) in b.squares]
    boxes += [(x, y, x + 1, y) if axis == "H" else (x, y, x, y + 1) for (x, y, axis) in b.edges]
    for box in boxes:
        got = _box_params(p, q, box)
        if got is None:
            continue
        lo, hi = got
        if lo == hi and _at(p, q, lo) in opens:
            continue
        return True
    return False


def lattice_points(sq, n=8):
    c, r = sq
    return [(F(c) + F(i, n), F(r) + F(j, n)) for i in range(n + 1) for j in range(n + 1)]


def lattice_sight(a, t, b: Blockers, n: int = 8):
    for p, q in product(lattice_points(a, n), lattice_points(t, n)):
        if not touches(p, q, b):
            return p, q
    return None
