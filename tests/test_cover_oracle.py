"""Cover against an independent oracle, on positions where figures stand in low objects.

The random boards of the geometry properties put figures on low objects only by chance, and
no test compared cover with anything but invariants, so a rule about the target's *own* square
(SWM: "Niskie obiekty zapewniają osłonę dla postaci zajmujących takie pola", PL p.18) went
unchecked. Here every SWM board puts low objects under some figures, and each cover verdict is
compared with a sampler that knows nothing of the engine:

* the oracle draws lines from every grid corner of the attacker's space to lattice points
  strictly inside the target's space (exact fractions) and looks for one that passes through the
  interior of an obstacle square (another figure, a wall square, a low object not in or next to
  the attacker's space -- the target's own included) or properly crosses a wall or closed door;
* a corner is covered when such a line exists; the target when every corner is.

A sampled line through an obstacle is a real line, so "oracle covered" implies "engine covered"
(the engine's start-corner rule only adds cover). The converse needs every line clear, which a
sampler cannot prove, so it is checked where it is sure: the target's own low object.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as Fr

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.editions import Edition, SquareTerrain
from assistant.model import Map, Position
from assistant.rules import engine

from .strategies import positions


@st.composite
def swm_with_low_objects_under_figures(draw) -> Position:
    pos = draw(positions(draw(st.sampled_from([Edition.SWM2004, Edition.SWM2008]))).filter(lambda p: len(p.figures) >= 2))
    m = pos.map
    chosen = draw(st.lists(st.sampled_from(pos.figures), min_size=1, max_size=len(pos.figures), unique_by=lambda f: f.id))
    low = set(m.squares.get(SquareTerrain.LOW, frozenset()))
    for f in chosen:
        low |= {sq for sq in f.space if draw(st.booleans()) or f.size.footprint == 1}
    squares = dict(m.squares)
    squares[SquareTerrain.LOW] = frozenset(low)
    for kind in (SquareTerrain.DIFFICULT, SquareTerrain.PIT):
        if kind in squares:
            squares[kind] = squares[kind] - frozenset(low)
    new_map = Map(m.cols, m.rows, m.name, squares, m.walls, m.doors, m.open_doors, m.open_corners, m.areas)
    return Position(pos.edition, new_map, pos.figures, pos.cards)


def _hits_open_box(p, q, box) -> bool:  # type: ignore[no-untyped-def]
    lo, hi = Fr(0), Fr(1)
    for pc, qc, a in ((p[0], q[0], box[0]), (p[1], q[1], box[1])):
        d = qc - pc
        if d == 0:
            if not a < pc < a + 1:
                return False
            continue
        t1, t2 = (a - pc) / d, (a + 1 - pc) / d
        lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
    return lo < hi


def _orient(a, b, c) -> int:  # type: ignore[no-untyped-def]
    v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (v > 0) - (v < 0)


def _crosses(p, q, a, b) -> bool:  # type: ignore[no-untyped-def]
    return _orient(p, q, a) * _orient(p, q, b) < 0 and _orient(a, b, p) * _orient(a, b, q) < 0


def oracle_cover(pos: Position, a, t, n: int = 4) -> bool:  # type: ignore[no-untyped-def]
    m = pos.map
    near = {(s.col + dx, s.row + dy) for s in a.space for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    boxes = {(s.col, s.row) for s in m.squares.get(SquareTerrain.WALL, frozenset())}
    boxes |= {(s.col, s.row) for s in m.squares.get(SquareTerrain.LOW, frozenset()) if (s.col, s.row) not in near}
    boxes |= {(s.col, s.row) for f in pos.figures if f.id not in (a.id, t.id) for s in f.space}
    own_a = {(s.col, s.row) for s in a.space}
    own_t_low = {(s.col, s.row) for s in t.space} & boxes
    boxes -= own_a
    boxes -= {(s.col, s.row) for s in t.space} - own_t_low
    edges = [((e.x, e.y), (e.x + 1, e.y) if e.axis == "H" else (e.x, e.y + 1)) for e in m.blocking_edges()]
    targets = [(Fr(s.col) + Fr(i, n), Fr(s.row) + Fr(j, n)) for s in t.space for i in range(1, n) for j in range(1, n)]
    corners = {(s.col + dx, s.row + dy) for s in a.space for dx in (0, 1) for dy in (0, 1)}
    for c in corners:
        c = (Fr(c[0]), Fr(c[1]))
        covered = any(any(_hits_open_box(c, q, b) for b in boxes) or any(_crosses(c, q, e0, e1) for e0, e1 in edges) for q in targets)
        if not covered:
            return False
    return True


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(pos=swm_with_low_objects_under_figures())
def test_cover_agrees_with_the_oracle_when_figures_stand_in_low_objects(pos: Position) -> None:
    low = pos.map.squares.get(SquareTerrain.LOW, frozenset())
    for a in pos.figures:
        for t in pos.figures:
            if a.id == t.id:
                continue
            s = engine.sight(pos, a.id, t.id)
            if not s.line_of_sight or engine.adjacent(pos, a, t):
                continue
            got = engine.cover(pos, a.id, t.id, s).cover
            if oracle_cover(pos, a, t):
                assert got, f"{a.id} -> {t.id}: a sampled line passes through cover, the engine says none"
            near = {sq.offset(dx, dy) for sq in a.space for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
            if any(sq in low and sq not in near for sq in t.space):
                assert got, f"{a.id} -> {t.id}: {t.id} stands in a low object (PL p.18; CS r.7) but has no cover"


def test_the_oracle_sees_the_rule_the_engine_once_missed() -> None:
    """Before the fix the engine skipped terrain in the target's own space; the oracle does not."""
    from assistant.coords import Square
    from assistant.model import Figure

    m = Map(8, 4, None, {SquareTerrain.LOW: frozenset({Square(5, 1)})})
    pos = Position(Edition.SWM2008, m, (Figure("a", "x", Square(1, 1)), Figure("t", "y", Square(5, 1))))
    assert oracle_cover(pos, pos.figure("a"), pos.figure("t"))
    assert engine.cover(pos, "a", "t").cover
    moved = replace(pos.figure("t"), at=Square(5, 2))
    pos2 = Position(Edition.SWM2008, m, (pos.figure("a"), moved))
    assert not oracle_cover(pos2, pos2.figure("a"), moved) and not engine.cover(pos2, "a", "t").cover
