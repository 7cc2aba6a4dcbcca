"""Exact line of sight between two grid squares, with a witness segment.

**Any point to any point** (swm2008, ddm2005): is there a segment from a point of square
``a`` to a point of square ``t`` that touches no obstacle?

Why the search below is complete (no sampling): a line that meets both squares has one
*gap segment* (from where it leaves ``a`` to where it enters ``t``); a clear segment exists
iff some line's gap segment is clear. Whether a gap segment is clear can only change as
the line moves across a grid vertex inside the hull of ``a`` and ``t`` -- a corner of
``a`` or ``t``, an obstacle vertex, or an open (bevelled) corner -- because every obstacle
and both squares are unions of grid-aligned pieces with integer vertices. In the space of
lines these events are lines (one per vertex: the lines through it), so the verdict is
constant on every cell of that line arrangement. Every cell has a vertex of the
arrangement on its boundary -- a line through two event vertices -- so visiting, for
every line through two event vertices, every cell around it visits every cell. The cells
around such a critical line are reached by rotating it slightly about a pivot placed in
each gap between the collinear event vertices (and on either end), both ways: the sign
pattern of the collinear vertices then covers every cut, and a step size chosen exactly
(``_step``) keeps every other vertex on its side. Lines through an open corner are tried
with the pivot on the corner itself, since a line may pass exactly through it.

The witness is moved deep inside both squares and rounded to dyadic coordinates (at
most 2**-k, k <= 60), and re-checked exactly before it is returned.

**Corner to corner** (swm2004, ``shared/rules/swm.md`` §4.5 and §12 item 2): some corner
``c`` of ``a`` and corner ``d`` of ``t`` whose open segment touches nothing, and which is
a limit of clear segments from just inside ``a`` near ``c`` to just inside ``t`` near
``d`` (so a line may start on a wall corner but not cross the wall it starts on).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction as F
from math import gcd
from typing import Iterable, Sequence

from .core import Blockers, Contact, Pt, SquareT, _row_span, convex_hull, dyadic_round, first_contact

Segment = tuple[Pt, Pt]


@dataclass(frozen=True)
class SightLine:
    clear: bool
    witness: Segment | None = None
    #: when not clear: one obstacle that a natural line (centre to centre) touches
    blocker: Contact | None = None


def corners(sq: SquareT) -> list[tuple[int, int]]:
    c, r = sq
    return [(c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)]


def _in_box(p: Pt, sq: SquareT) -> bool:
    return sq[0] <= p[0] <= sq[0] + 1 and sq[1] <= p[1] <= sq[1] + 1


def _clip(p0: Pt, d: Pt, sq: SquareT) -> tuple[F, F] | None:
    """Parameters [l0, l1] where p0 + l*d lies in the closed unit square (Liang-Barsky)."""
    lo, hi = None, None
    for axis in (0, 1):
        lo_b, hi_b = F(sq[axis]), F(sq[axis] + 1)
        if d[axis] == 0:
            if not (lo_b <= p0[axis] <= hi_b):
                return None
            continue
        t0 = (lo_b - p0[axis]) / d[axis]
        t1 = (hi_b - p0[axis]) / d[axis]
        if t0 > t1:
            t0, t1 = t1, t0
        lo = t0 if lo is None or t0 > lo else lo
        hi = t1 if hi is None or t1 < hi else hi
    if lo is None or hi is None or lo > hi:
        return None
    return lo, hi


def _meets_interior(p0: Pt, d: Pt, sq: SquareT) -> tuple[F, F] | None:
    span = _clip(p0, d, sq)
    if span is None or span[0] == span[1]:
        return None
    m = (span[0] + span[1]) / 2
    x, y = p0[0] + m * d[0], p0[1] + m * d[1]
    if sq[0] < x < sq[0] + 1 and sq[1] < y < sq[1] + 1:
        return span
    return None


def _at(p0: Pt, d: Pt, lam: F) -> Pt:
    return (p0[0] + lam * d[0], p0[1] + lam * d[1])


def _gap_clear(p0: Pt, d: Pt, a: SquareT, t: SquareT, b: Blockers) -> tuple[F, F, F, F] | None:
    """If the line meets both interiors and its gap segment is clear: both chords."""
    sa = _meets_interior(p0, d, a)
    if sa is None:
        return None
    st = _meets_interior(p0, d, t)
    if st is None:
        return None
    if sa[1] <= st[0]:
        g0, g1 = sa[1], st[0]
    elif st[1] <= sa[0]:
        g0, g1 = sa[0], st[1]
    else:  # pragma: no cover - distinct unit squares never overlap
        return None
    if first_contact(_at(p0, d, g0), _at(p0, d, g1), b) is not None:
        return None
    return sa[0], sa[1], st[0], st[1]


def _dyadic_witness(p: Pt, q: Pt, a: SquareT, t: SquareT, b: Blockers, through: Pt | None = None) -> Segment | None:
    """A clear segment with dyadic end points close to [p, q] (p deep in a, q deep in t)."""
    for k in range(4, 61, 2):
        p2 = (dyadic_round(F(p[0]), k), dyadic_round(F(p[1]), k))
        if through is None:
            q2 = (dyadic_round(F(q[0]), k), dyadic_round(F(q[1]), k))
        else:
            q2 = _dyadic_through(p2, through, t, k)
            if q2 is None:
                continue
        if _in_box(p2, a) and _in_box(q2, t) and first_contact(p2, q2, b) is None:
            return p2, q2
    return None


def _dyadic_through(p: Pt, w: Pt, t: SquareT, k: int) -> Pt | None:
    """A dyadic point of square t on the line from p through the grid point w, beyond w."""
    d = (F(w[0]) - p[0], F(w[1]) - p[1])
    span = _clip((F(w[0]), F(w[1])), d, t)
    if span is None:
        return None
    lo, hi = max(span[0], F(0)), span[1]
    if lo >= hi:
        return None
    for kk in range(0, k + 1):
        m = F(int(((lo + hi) / 2) * (1 << kk)), 1 << kk)
        if lo < m < hi:
            return (w[0] + m * d[0], w[1] + m * d[1])
    return None


def _quick_candidates(a: SquareT, t: SquareT) -> Iterable[Segment]:
    ca = (F(2 * a[0] + 1, 2), F(2 * a[1] + 1, 2))
    ct = (F(2 * t[0] + 1, 2), F(2 * t[1] + 1, 2))
    yield ca, ct
    inset = F(1, 8)
    for (ax, ay) in corners(a):
        pa = (ax + (inset if ax == a[0] else -inset), ay + (inset if ay == a[1] else -inset))
        for (tx, ty) in corners(t):
            pt = (tx + (inset if tx == t[0] else -inset), ty + (inset if ty == t[1] else -inset))
            yield pa, pt


def event_vertices(a: SquareT, t: SquareT, b: Blockers) -> tuple[list[tuple[int, int]], set[tuple[int, int]]]:
    """Corners of both squares and every obstacle vertex in the closed hull of the two."""
    pts = set(corners(a)) | set(corners(t))
    hull = convex_hull(pts)
    ys = [p[1] for p in hull]

    def xrange(y: int) -> tuple[F, F]:
        lo, hi = _row_span(hull, F(y), F(y))
        return lo, hi

    found = set(b.vertices_in_rows(int(min(ys)), int(max(ys)), xrange))
    return sorted(pts | found), found & set(b.open_points)


def _step(others: Sequence[tuple[int, int]], line: tuple[int, int, int], pivot: F, sign: int) -> F | None:
    """Largest power of two e <= 1/4 such that rotating the line by e about the pivot keeps
    every vertex off the line on its side (exact)."""
    a, b, c = line
    bound = None
    for (x, y) in others:
        val = a * x + b * y - c
        g = (-b * x + a * y) - pivot
        if g == 0:
            continue
        r = F(abs(val)) / abs(g)
        if bound is None or r < bound:
            bound = r
    e = F(1, 4)
    if bound is not None:
        while e >= bound:
            e /= 2
    return e


def any_point_sight(a: SquareT, t: SquareT, b: Blockers) -> SightLine:
    """Line of sight from some point of square a to some point of square t."""
    if a in b.squares or t in b.squares:
        sq = a if a in b.squares else t
        return SightLine(False, blocker=Contact("square", square=sq))
    for p, q in _quick_candidates(a, t):
        if first_contact(p, q, b) is None:
            return SightLine(True, (p, q))
    natural = first_contact(*next(iter(_quick_candidates(a, t))), b)

    verts, open_pts = event_vertices(a, t, b)
    seen: set[tuple[int, int, int]] = set()
    for i, u in enumerate(verts):
        for v in verts[i + 1:]:
            la, lb = v[1] - u[1], u[0] - v[0]
            lc = la * u[0] + lb * u[1]
            g = gcd(gcd(abs(la), abs(lb)), abs(lc)) or 1
            la, lb, lc = la // g, lb // g, lc // g
            if la < 0 or (la == 0 and lb < 0):
                la, lb, lc = -la, -lb, -lc
            key = (la, lb, lc)
            if key in seen:
                continue
            seen.add(key)
            found = _try_line(key, verts, open_pts, a, t, b)
            if found is not None:
                return found
    return SightLine(False, blocker=natural)


def _touches_box(line: tuple[int, int, int], sq: SquareT) -> bool:
    a, b, c = line
    vals = [a * x + b * y - c for (x, y) in corners(sq)]
    return min(vals) <= 0 <= max(vals)


def _exact_line(line, on, a, t, b) -> SightLine | None:
    """The critical line itself, against the closed squares. Needed only where it passes an
    open corner: then a clear line may exist that meets neither square's interior (it runs
    along their sides) and so lies in no open cell."""
    la, lb, _ = line
    u = on[0]
    d = (-lb, la)  # primitive (gcd 1): grid points on the line are at integer steps
    sa, st = _clip((F(u[0]), F(u[1])), d, a), _clip((F(u[0]), F(u[1])), d, t)
    if sa is None or st is None:
        return None
    for la_ in _dyadics_in(*sa):
        for lt_ in _dyadics_in(*st):
            p, q = _at(u, d, la_), _at(u, d, lt_)
            if first_contact(p, q, b) is None:
                return SightLine(True, (p, q))
    return None


def _dyadics_in(lo: F, hi: F) -> list[F]:
    """A few dyadic numbers in [lo, hi]: the ends when dyadic, and points in between."""
    out = [v for v in (lo, hi) if v.denominator & (v.denominator - 1) == 0]
    for k in range(0, 12, 3):
        m = F(round((lo + hi) / 2 * (1 << k)), 1 << k)
        if lo <= m <= hi and m not in out:
            out.append(m)
    return out


def _try_line(line, verts, open_pts, a, t, b) -> SightLine | None:
    if not (_touches_box(line, a) and _touches_box(line, t)):
        return None
    la, lb, lc = line
    on = sorted((w for w in verts if la * w[0] + lb * w[1] == lc), key=lambda w: -lb * w[0] + la * w[1])
    if any(w in open_pts for w in on):
        exact = _exact_line(line, on, a, t, b)
        if exact is not None:
            return exact
    off = [w for w in verts if la * w[0] + lb * w[1] != lc]
    projs = [-lb * w[0] + la * w[1] for w in on]
    pivots: list[tuple[F, tuple[int, int] | None]] = [(F(projs[0] - 1), None), (F(projs[-1] + 1), None)]
    pivots += [(F(projs[i] + projs[i + 1], 2), None) for i in range(len(projs) - 1) if projs[i] != projs[i + 1]]
    pivots += [(F(projs[i]), w) for i, w in enumerate(on) if w in open_pts]
    for pivot, through in pivots:
        for sign in (1, -1):
            e = _step(off, line, pivot, sign)
            # perturbed line: (la - s e lb) x + (lb + s e la) y = lc + s e pivot
            na, nb, nc = la - sign * e * lb, lb + sign * e * la, lc + sign * e * pivot
            d = (-nb, na)
            p0 = (nc / na, F(0)) if na != 0 else (F(0), nc / nb)
            chords = _gap_clear(p0, d, a, t, b)
            if chords is None:
                continue
            a0, a1, t0, t1 = chords
            p, q = _at(p0, d, (a0 + a1) / 2), _at(p0, d, (t0 + t1) / 2)
            w = _dyadic_witness(p, q, a, t, b, through=through)
            if w is not None:
                return SightLine(True, w)
    return None


# --- swm2004: corner to corner ---------------------------------------------------------


def _into(sq: SquareT, c: tuple[int, int]) -> tuple[int, int]:
    """Signs of the directions from corner c into square sq."""
    return (1 if sq[0] >= c[0] else -1, 1 if sq[1] >= c[1] else -1)


def _start_offsets(sq: SquareT, c: tuple[int, int], u: tuple[int, int]) -> list[Pt]:
    """Offsets from c into sq that realise each way a line toward u can leave sq near c."""
    sx, sy = _into(sq, c)
    out: list[Pt] = [(F(sx), F(sy))]
    mu = (-u[0], -u[1])
    if mu[0] * sx > 0 and mu[1] * sy > 0:  # the line can pass c on either side
        perp = (F(-u[1]), F(u[0]))
        for s in (1, -1):
            k = F(1, 16)
            while True:
                v = (mu[0] + s * k * perp[0], mu[1] + s * k * perp[1])
                if v[0] * sx > 0 and v[1] * sy > 0:
                    m = max(abs(v[0]), abs(v[1]))
                    out.append((v[0] / m, v[1] / m))
                    break
                k /= 2
    return out


def corner_sight(a_space: Sequence[SquareT], t_space: Sequence[SquareT], b: Blockers) -> SightLine:
    """swm2004: a clear corner-to-corner line between the two spaces (digest §4.5 reading)."""
    eps = F(1, 1 << 24)
    a_corners: dict[tuple[int, int], list[SquareT]] = {}
    for sq in a_space:
        for c in corners(sq):
            a_corners.setdefault(c, []).append(sq)
    t_corners: dict[tuple[int, int], list[SquareT]] = {}
    for sq in t_space:
        for d in corners(sq):
            t_corners.setdefault(d, []).append(sq)
    first_block: Contact | None = None
    pairs = sorted(((c, d) for c in a_corners for d in t_corners if c != d), key=lambda cd: (abs(cd[0][0] - cd[1][0]) + abs(cd[0][1] - cd[1][1]), cd))
    for c, d in pairs:
        hit = first_contact(c, d, b, skip_ends=True)
        if hit is not None:
            first_block = first_block or hit
            continue
        u = (d[0] - c[0], d[1] - c[1])
        ok = False
        for sa in a_corners[c]:
            for va in _start_offsets(sa, c, u):
                p = (c[0] + eps * va[0], c[1] + eps * va[1])
                for st in t_corners[d]:
                    for vt in _start_offsets(st, d, (-u[0], -u[1])):
                        q = (d[0] + eps * vt[0], d[1] + eps * vt[1])
                        if first_contact(p, q, b) is None:
                            ok = True
                            break
                    if ok:
                        break
                if ok:
                    break
            if ok:
                break
        if ok:
            return SightLine(True, ((c[0], c[1]), (d[0], d[1])))
        if first_block is None:
            first_block = first_contact(c, d, b)
    return SightLine(False, blocker=first_block)
