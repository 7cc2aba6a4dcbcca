"""Geometric invariants under Hypothesis, checked against independent oracles."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from assistant.coords import Corner, Edge, Square
from assistant.editions import Edition
from assistant.geometry.core import Blockers
from assistant.geometry.los import any_point_sight, corner_sight
from assistant.model import Map, Position
from assistant.rules import engine
from assistant.rules.engine import Board

from .oracle import lattice_sight, touches
from .strategies import positions

small = positions().filter(lambda p: len(p.figures) >= 2)


def _verdicts(pos: Position) -> dict:
    out = {}
    for a in pos.figures:
        for b in pos.figures:
            if a.id == b.id:
                continue
            s = engine.sight(pos, a.id, b.id)
            c = engine.cover(pos, a.id, b.id, s)
            out[(a.id, b.id)] = (s.line_of_sight, c.cover, engine.squares_between(pos, a, b))
    return out


def _transform(pos: Position, f_sq, f_edge, f_pt, cols: int, rows: int) -> Position:
    m = pos.map
    new_map = Map(
        cols=cols, rows=rows, name=m.name,
        squares={k: frozenset(f_sq(s) for s in v) for k, v in m.squares.items()},
        walls=frozenset(f_edge(e) for e in m.walls), doors=frozenset(f_edge(e) for e in m.doors),
        open_doors=frozenset(f_edge(e) for e in m.open_doors), open_corners=frozenset(f_pt(c) for c in m.open_corners),
        areas={k: frozenset(f_sq(s) for s in v) for k, v in m.areas.items()},
    )
    figs = []
    for fig in pos.figures:
        space = [f_sq(s) for s in fig.space]
        at = Square(min(s.col for s in space), min(s.row for s in space))
        figs.append(replace(fig, at=at))
    return Position(pos.edition, new_map, tuple(figs), pos.cards)


def mirror_x(pos: Position) -> Position:
    W = pos.map.cols
    return _transform(
        pos,
        lambda s: Square(W - 1 - s.col, s.row),
        lambda e: Edge(W - e.x, e.y, "V") if e.axis == "V" else Edge(W - 1 - e.x, e.y, "H"),
        lambda c: Corner(W - c.x, c.y),
        W, pos.map.rows,
    )


def rotate(pos: Position) -> Position:
    """90 degrees: point (x, y) -> (rows - y, x)."""
    H = pos.map.rows
    return _transform(
        pos,
        lambda s: Square(H - 1 - s.row, s.col),
        lambda e: Edge(H - e.y, e.x, "V") if e.axis == "H" else Edge(H - e.y - 1, e.x, "H"),
        lambda c: Corner(H - c.y, c.x),
        H, pos.map.cols,
    )


@settings(max_examples=40, deadline=None)
@given(small)
def test_witness_lines_are_really_clear(pos: Position) -> None:
    board = Board.of(pos)
    for a in pos.figures:
        for b in pos.figures:
            if a.id == b.id:
                continue
            s = engine.sight(pos, a.id, b.id)
            if not s.line_of_sight:
                continue
            p, q = s.witness
            for v in (*p, *q):  # exact binary fractions
                d = F(v).denominator
                assert d & (d - 1) == 0
            blk = board.sight_blockers(a, b, engine.adjacent(pos, a, b) if board.rules.fog_ignored_when_adjacent else False)
            if board.rules.sight == "corner":
                # swm2004: the corner-to-corner witness may start or end on a wall corner
                # (CONTRACT §3); its open segment must touch nothing
                d = F(1, 1 << 20)
                p2, q2 = (p[0] + d * (q[0] - p[0]), p[1] + d * (q[1] - p[1])), (q[0] - d * (q[0] - p[0]), q[1] - d * (q[1] - p[1]))
                assert not touches(p2, q2, blk)
            else:
                assert not touches(p, q, blk)
            inside_a = any(s_.col <= p[0] <= s_.col + 1 and s_.row <= p[1] <= s_.row + 1 for s_ in a.space)
            inside_b = any(s_.col <= q[0] <= s_.col + 1 and s_.row <= q[1] <= s_.row + 1 for s_ in b.space)
            assert inside_a and inside_b


@settings(max_examples=30, deadline=None)
@given(small)
def test_verdicts_survive_mirroring_and_rotation(pos: Position) -> None:
    base = _verdicts(pos)
    assert _verdicts(mirror_x(pos)) == base
    assert _verdicts(rotate(pos)) == base


@settings(max_examples=30, deadline=None)
@given(small, st.data())
def test_adding_a_wall_never_creates_sight_or_removes_cover(pos: Position, data) -> None:
    m = pos.map
    edges = [Edge(x, y, "V") for x in range(1, m.cols) for y in range(m.rows)] + [Edge(x, y, "H") for x in range(m.cols) for y in range(1, m.rows)]
    inside = {e for f in pos.figures for s in f.space for e in (s.edge("N"), s.edge("E"), s.edge("S"), s.edge("W")) if all(sq in f.space for sq in e.squares)}
    candidates = [e for e in edges if e not in m.walls and e not in m.doors and e not in inside]
    assume(candidates)
    wall = data.draw(st.sampled_from(candidates))
    walled = Position(pos.edition, replace(m, walls=m.walls | {wall}), pos.figures, pos.cards)
    before, after = _verdicts(pos), _verdicts(walled)
    for k, (sight_b, cover_b, _) in before.items():
        sight_a, cover_a, _ = after[k]
        assert not (sight_a and not sight_b), f"{k}: the wall {wall.name} created line of sight"
        if sight_a and cover_b:
            assert cover_a, f"{k}: the wall {wall.name} removed cover"


@settings(max_examples=40, deadline=None)
@given(positions(Edition.SWM2004).filter(lambda p: len(p.figures) >= 2))
def test_swm2004_sight_implies_swm2008_sight(pos: Position) -> None:
    as08 = Position(Edition.SWM2008, pos.map, pos.figures, pos.cards)
    for a in pos.figures:
        for b in pos.figures:
            if a.id != b.id and engine.sight(pos, a.id, b.id).line_of_sight:
                assert engine.sight(as08, a.id, b.id).line_of_sight


grid = st.integers(0, 5)


@settings(max_examples=60, deadline=None)
@given(
    st.sets(st.tuples(grid, grid), max_size=6),
    st.sets(st.tuples(grid, st.integers(0, 6), st.sampled_from("HV")), max_size=8),
    st.tuples(grid, grid), st.tuples(grid, grid),
)
def test_exact_search_agrees_with_the_lattice_sampler(squares, edges, a, t) -> None:
    edges = {(x, y, ax) for (x, y, ax) in edges if (ax == "H" and y <= 6) or (ax == "V" and y <= 5)}
    assume(a != t and a not in squares and t not in squares)
    b = Blockers.build(squares, edges)
    exact = any_point_sight(a, t, b)
    sampled = lattice_sight(a, t, b, 4)
    if sampled is not None:
        assert exact.clear, f"the sampler found {sampled} but the exact search found none"
    if exact.clear:
        assert not touches(*exact.witness, b)
    if corner_sight([a], [t], b).clear:
        assert exact.clear


coord = st.fractions(min_value=-1, max_value=7, max_denominator=16) | st.integers(-1, 7).map(F)


@settings(max_examples=400, deadline=None)
@given(
    st.sets(st.tuples(grid, grid), max_size=6),
    st.sets(st.tuples(grid, st.integers(0, 6), st.sampled_from("HV")), max_size=8),
    st.sets(st.tuples(grid, grid), max_size=2),
    st.tuples(coord, coord), st.tuples(coord, coord), st.booleans(),
)
def test_fast_grid_walk_matches_the_reference(squares, edges, opens, p, q, skip) -> None:
    from assistant.geometry.core import first_contact, first_contact_reference

    assume(not (skip and p == q))  # the open segment of a single point is empty
    b = Blockers.build(squares, edges, opens)
    fast, ref = first_contact(p, q, b, skip), first_contact_reference(p, q, b, skip)
    assert (fast is None) == (ref is None), (p, q, fast, ref)
    assert (fast is None) == (not touches(p, q, b) if not skip else fast is None)
