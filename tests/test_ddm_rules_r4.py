"""DDM 2005, issue 30: golden cases written from the Polish rulebook's words (the seed) before the
fixes -- the diagonal count over a turn, commander effects, magic damage, Invisible, reach,
area spells, routing, spell uses and Flight."""

from __future__ import annotations

import json
import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.coords import Square, parse_square
from assistant.game.movement import route
from assistant.position import parse_position
from tests.test_game_turns import home, ok, refused, start, status  # noqa: F401  (home is a fixture)

BOARD = textwrap.dedent("""\
    format: tabletop-position/1
    rules: ddm2005
    map:
      cols: 14
      rows: 10
    figures:
      - {id: runner, side: a, at: L4, stats: {hp: 40, defense: 18, attack: 8, damage: 10, speed: 6, level: 4}}
      - {id: orc, side: b, at: B9, stats: {hp: 30, defense: 14, attack: 6, damage: 10, speed: 6, level: 3}}
    """)


def test_diagonal_count_runs_over_single_square_moves(home) -> None:
    """PL p.9 Przekątne: "pierwsza przekątna liczy się jako 1 pole, druga jako 2 pola, trzecia jako 1 ...
    Licz parzyste przekątne jako 2 pola, nawet jeśli pomiędzy pojawia się ruch po prostej": four diagonals
    L4→K5→J6→I7→H8 cost 1+2+1+2 = 6 whether moved at once or one square at a time."""
    start(home, BOARD)
    ok("game", "initiative", "--roll", "a=15", "--roll", "b=3")
    ok("game", "activate", "runner")
    costs = [json.loads(ok("game", "move", "runner", sq, "--json"))["event"]["cost"] for sq in ("K5", "J6", "I7", "H8")]
    assert costs == [1, 2, 1, 2]


def _board(at: str, walls: list[str], difficult: list[str]) -> str:
    return textwrap.dedent(f"""\
        format: tabletop-position/1
        rules: ddm2005
        map:
          cols: 7
          rows: 7
          squares:
            wall: [{", ".join(walls)}]
            difficult: [{", ".join(difficult)}]
        figures:
          - {{id: m, side: a, at: {at}, stats: {{hp: 10, defense: 10, attack: 1, damage: 5, speed: 6, level: 1}}}}
        """)


_SQUARES = [Square(c, r).name for c in range(7) for r in range(7)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_SQUARES), max_size=8), st.lists(st.sampled_from(_SQUARES), max_size=8),
       st.sampled_from(_SQUARES), st.sampled_from(_SQUARES), st.integers(0, 1), st.data())
def test_a_move_split_into_steps_never_costs_more_than_at_once(walls, difficult, a, b, parity, data) -> None:
    """The diagonal count is state carried through the search: moving along the cheapest path in legs
    (one square at a time, or cut at chosen squares; the turn's parity carried from leg to leg) costs
    no more than the whole path at once."""
    walls = sorted(set(walls) - {a, b})
    difficult = sorted(set(difficult) - set(walls))
    pos = parse_position(_board(a, walls, difficult))
    whole = route(pos, pos.figure("m"), parse_square(b), parity)
    if whole.cost is None or len(whole.path) < 3:
        return
    cuts = data.draw(st.one_of(st.just(list(whole.path[1:])),
                               st.lists(st.sampled_from(whole.path[1:-1]), min_size=1, max_size=3, unique=True)))
    legs = [s for s in whole.path[1:] if s in cuts or s == whole.path[-1]]
    total, here, par = 0, a, parity
    for leg in legs:
        p = parse_position(_board(here, walls, difficult))
        r = route(p, p.figure("m"), leg, par)
        assert r.cost is not None, r.text
        total, here, par = total + r.cost, leg.name, r.parity
    assert total <= whole.cost, (legs, whole.text)
