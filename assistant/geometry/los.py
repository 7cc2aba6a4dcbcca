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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction as F
from math import gcd

from .core import (
    Blockers,
    Contact,
    Pt,
    SquareT,
    convex_hull,
    crosses_properly_int,
    dyadic_round,
    first_contact,
    first_contact_int,
)

Segment = tuple[Pt, Pt]
#: a grid point (integer coordinates)
IntPt = tuple[int, int]
#: the line a x + b y = c, integers with gcd 1 (the first non-zero of a, b positive)
Line = tuple[int, int, int]
#: where a line crosses a square: the parameters ln/ld and hn/hd of its two ends (integers)
Chord = tuple[int, int, int, int]


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


def _at(p0: Pt, d: Pt, lam: F) -> Pt:
    return (p0[0] + lam * d[0], p0[1] + lam * d[1])


def _dyadic_witness(p: Pt, q: Pt, a: SquareT, t: SquareT, b: Blockers, through: Pt | None = None) -> Segment | None:
    """A clear segment with dyadic end points close to [p, q] (p deep in a, q deep in t)."""
    for k in range(4, 61, 2):
        p2 = (dyadic_round(F(p[0]), k), dyadic_round(F(p[1]), k))
        q2: Pt | None
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
    # the same corner of both squares (four parallel lines): cheap, and they find most
    # lines past a single obstacle; anything else is left to the complete search
    inset = F(1, 8)
    for (ax, ay), (tx, ty) in zip(corners(a), corners(t), strict=True):
        pa = (ax + (inset if ax == a[0] else -inset), ay + (inset if ay == a[1] else -inset))
        pt = (tx + (inset if tx == t[0] else -inset), ty + (inset if ty == t[1] else -inset))
        yield pa, pt


def event_vertices(a: SquareT, t: SquareT, b: Blockers) -> tuple[list[tuple[int, int]], set[tuple[int, int]]]:
    """Corners of both squares and every obstacle vertex in the closed hull of the two."""
    pts = set(corners(a)) | set(corners(t))
    hull = convex_hull(pts)
    found = {v for v in b.vertices_in(hull) if _is_event(v, b)}
    return sorted(pts | found), found & set(b.open_points)


def _step(others: Sequence[tuple[int, int]], line: tuple[int, int, int], pivot: F, sign: int) -> F:
    """Largest power of two e <= 1/4 such that rotating the line by e about the pivot keeps
    every vertex off the line on its side (exact, in integers: pivot has denominator 1 or 2)."""
    a, b, c = line
    p2 = int(pivot * 2)
    best_n, best_d = 0, 0  # the smallest ratio 2|val| / |g2| so far
    for (x, y) in others:
        g2 = 2 * (-b * x + a * y) - p2
        if g2 == 0:
            continue
        n, d = 2 * abs(a * x + b * y - c), abs(g2)
        if best_d == 0 or n * best_d < best_n * d:
            best_n, best_d = n, d
    k = 2
    if best_d:
        while not (best_d < best_n << k):  # need 2**-k < best_n / best_d
            k += 1
    return F(1, 1 << k)


def _is_event(v: tuple[int, int], b: Blockers) -> bool:
    """False for grid points whose passing never changes a verdict: inside a block of wall
    squares, or in the middle of a straight wall (a line through such a point either crosses
    the wall on both sides of it or runs along the wall through its end points)."""
    if v in b.open_points:
        return True
    x, y = v
    quads = [(x, y) in b.squares, (x - 1, y) in b.squares, (x - 1, y - 1) in b.squares, (x, y - 1) in b.squares]
    rays = [(x, y, "H") in b.edges, (x, y, "V") in b.edges, (x - 1, y, "H") in b.edges, (x, y - 1, "V") in b.edges]
    n = sum(quads)
    if n == 4:
        return False
    if n == 2 and not any(rays):
        # two wall squares side by side along one line through v: a straight wall side
        return not (quads == [True, True, False, False] or quads == [False, False, True, True]
                    or quads == [True, False, False, True] or quads == [False, True, True, False])
    if n == 0 and sum(rays) == 2 and (rays == [True, False, True, False] or rays == [False, True, False, True]):
        return False
    return True


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
    # every pair of event vertices is visited; lines through a corner of each square first,
    # since they are the likeliest witnesses (the order changes speed, not the verdict)
    ca, ct = set(corners(a)), set(corners(t))
    pairs = [(u, v) for i, u in enumerate(verts) for v in verts[i + 1:]]
    pairs.sort(key=lambda uv: not ((uv[0] in ca and uv[1] in ct) or (uv[0] in ct and uv[1] in ca)))
    for u, v in pairs:
        if True:
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


def _clip_int(u: tuple[int, int], d: tuple[int, int], sq: SquareT, scale: int = 1) -> tuple[int, int, int, int] | None:
    """Integer Liang-Barsky: parameters lo = ln/ld, hi = hn/hd (ld, hd > 0) where u + l*d
    lies in the closed unit square ``sq`` scaled by ``scale``, or None."""
    ln, ld, hn, hd = None, 1, None, 1
    for axis in (0, 1):
        lo_b, hi_b, ua, da = sq[axis] * scale, (sq[axis] + 1) * scale, u[axis], d[axis]
        if da == 0:
            if not (lo_b <= ua <= hi_b):
                return None
            continue
        n0, n1, den = lo_b - ua, hi_b - ua, da
        if den < 0:
            n0, n1, den = -n0, -n1, -den
        if n0 > n1:
            n0, n1 = n1, n0
        if ln is None or n0 * ld > ln * den:
            ln, ld = n0, den
        if hn is None or n1 * hd < hn * den:
            hn, hd = n1, den
    if ln is None or hn is None or ln * hd > hn * ld:
        return None
    return ln, ld, hn, hd


def _blocked_nearby(line: Line, u: IntPt, a: SquareT, t: SquareT, b: Blockers) -> bool:
    """True when the line, between the two squares, crosses an obstacle stably -- then
    every line near it is blocked too and none of its perturbations need testing."""
    la, lb, _ = line
    d = (-lb, la)
    sa, st = _clip_int(u, d, a), _clip_int(u, d, t)
    if sa is None or st is None:
        return False
    a_lo, a_hi, t_lo, t_hi = (sa[0], sa[1]), (sa[2], sa[3]), (st[0], st[1]), (st[2], st[3])
    if a_hi[0] * t_lo[1] <= t_lo[0] * a_hi[1]:
        g0, g1 = a_hi, t_lo
    elif t_hi[0] * a_lo[1] <= a_lo[0] * t_hi[1]:
        g0, g1 = t_hi, a_lo
    else:
        return False
    if g0[0] * g1[1] == g1[0] * g0[1]:
        return False
    (n0, m0), (n1, m1) = g0, g1
    D = m0 * m1
    return crosses_properly_int(
        (u[0] * m0 + n0 * d[0]) * m1, (u[1] * m0 + n0 * d[1]) * m1,
        (u[0] * m1 + n1 * d[0]) * m0, (u[1] * m1 + n1 * d[1]) * m0, D, b,
    )


def _perturbed_sight(A: int, B: int, C: int, a: SquareT, t: SquareT, b: Blockers) -> tuple[Pt, Pt] | None:
    """For the line A x + B y = C (integers): if it meets both squares' interiors and its
    gap segment is clear, a point deep inside each square on it (chord midpoints)."""
    N = A * A + B * B
    u = (C * A, C * B)  # the foot of the perpendicular from the origin, times N
    d = (-B, A)
    ca, ct = _clip_int(u, d, a, N), _clip_int(u, d, t, N)
    if ca is None or ct is None:
        return None
    if not (_strictly_inside(u, d, ca, a, N) and _strictly_inside(u, d, ct, t, N)):
        return None
    a_lo, a_hi, t_lo, t_hi = (ca[0], ca[1]), (ca[2], ca[3]), (ct[0], ct[1]), (ct[2], ct[3])
    if a_hi[0] * t_lo[1] <= t_lo[0] * a_hi[1]:
        g0, g1 = a_hi, t_lo
    elif t_hi[0] * a_lo[1] <= a_lo[0] * t_hi[1]:
        g0, g1 = t_hi, a_lo
    else:  # pragma: no cover - distinct unit squares never overlap
        return None
    (n0, m0), (n1, m1) = g0, g1
    D = m0 * m1 * N
    if first_contact_int(
        (u[0] * m0 + n0 * d[0]) * m1, (u[1] * m0 + n0 * d[1]) * m1,
        (u[0] * m1 + n1 * d[0]) * m0, (u[1] * m1 + n1 * d[1]) * m0, D, b,
    ) is not None:
        return None
    return _mid_point(u, d, ca, N), _mid_point(u, d, ct, N)


def _mid_point(u: IntPt, d: IntPt, chord: Chord, N: int) -> Pt:
    ln, ld, hn, hd = chord
    # midpoint parameter (ln/ld + hn/hd) / 2 = (ln*hd + hn*ld) / (2*ld*hd)
    n, m = ln * hd + hn * ld, 2 * ld * hd
    return (F(u[0] * m + n * d[0], m * N), F(u[1] * m + n * d[1], m * N))


def _strictly_inside(u: IntPt, d: IntPt, chord: Chord, sq: SquareT, N: int) -> bool:
    """Whether the chord has length and its midpoint is inside the open square."""
    ln, ld, hn, hd = chord
    if ln * hd == hn * ld:
        return False
    n, m = ln * hd + hn * ld, 2 * ld * hd
    x, y = u[0] * m + n * d[0], u[1] * m + n * d[1]  # the midpoint, times m * N
    s = m * N
    return sq[0] * s < x < (sq[0] + 1) * s and sq[1] * s < y < (sq[1] + 1) * s


def _exact_line(line: Line, on: Sequence[IntPt], a: SquareT, t: SquareT, b: Blockers) -> SightLine | None:
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


def _try_line(line: Line, verts: Sequence[IntPt], open_pts: set[IntPt], a: SquareT, t: SquareT, b: Blockers) -> SightLine | None:
    if not (_touches_box(line, a) and _touches_box(line, t)):
        return None
    la, lb, lc = line
    on = sorted((w for w in verts if la * w[0] + lb * w[1] == lc), key=lambda w: -lb * w[0] + la * w[1])
    if _blocked_nearby(line, on[0], a, t, b):
        return None
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
            # perturbed line: (la - s e lb) x + (lb + s e la) y = lc + s e pivot, with
            # e = 1/K (K a power of two) and pivot = p2/2: times 2K it has integer coefficients
            K = e.denominator
            p2 = int(pivot * 2)
            A, B, C = 2 * K * la - 2 * sign * lb, 2 * K * lb + 2 * sign * la, 2 * K * lc + sign * p2
            deep = _perturbed_sight(A, B, C, a, t, b)
            if deep is None:
                continue
            p, q = deep
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
