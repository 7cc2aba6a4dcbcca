"""A Medium base whose marker window showed no sticker is likelier an unmarked figure's (R282).

Built from round 25's held-out photo s0618 with the reference (now a diagnosis photo): f3 carries
marker 22 (unread), recorded on A8, stands on A10; f8 carries none, recorded on A9, stands on A5.
The nearest recorded squares named f3 on A5 and f8 on A10 (2.67 squares of moves against 3.00),
though A5's window showed no sticker. A marked figure's unread sticker showed in the windows
searched on its base 207 times of 318 on the diagnosis photos, an unmarked figure's base never: a
bare window makes the marked figure there about three times less likely (``BARE_COST``).
"""

from __future__ import annotations

import math

import numpy as np

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.placement import BARE_COST, IDENTITY_SCALE, SURE, place
from assistant.photo.windows import bare_windows

COLS, ROWS = 10, 12


def _s0618() -> tuple[Position, dict[str, float]]:
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (Figure("f3", "light", parse_square("A8"), Size.MEDIUM, marker=22),
                                                     Figure("f8", "dark", parse_square("A9"), Size.MEDIUM)))
    scores = {Square(c, r).name: 0.01 for c in range(COLS) for r in range(ROWS)} | {"A5": 0.99, "A10": 0.99}
    return pos, scores


def test_without_a_window_the_nearest_recorded_squares_name_the_marked_figure_on_the_nearer_base() -> None:
    pos, scores = _s0618()
    placed = place(pos, scores, [], set())
    assert {s.id: s.at for s in placed.figures} == {"f3": "A5", "f8": "A10"}


def test_a_bare_window_names_the_unmarked_figure_on_that_base_and_both_stay_listed() -> None:
    pos, scores = _s0618()
    placed = place(pos, scores, [], set(), bare={"A5"})
    assert {s.id: s.at for s in placed.figures} == {"f3": "A10", "f8": "A5"}
    # 3.00 squares of moves plus nothing against 2.67 plus BARE_COST: close, so neither is stated
    assert all(s.confidence < SURE for s in placed.figures)
    assert {"A5", "A10"} <= {sq for sq, v in placed.uncertain if v < SURE}


def test_a_bare_window_never_moves_a_figure_off_its_base() -> None:
    # one marked figure, one base read: it is named there, the window bare or not (who, never where)
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (Figure("f1", "light", parse_square("C3"), Size.MEDIUM, marker=9),))
    scores = {Square(c, r).name: 0.01 for c in range(COLS) for r in range(ROWS)} | {"E6": 0.99}
    placed = place(pos, scores, [], set(), bare={"E6"})
    assert [(s.id, s.at) for s in placed.figures] == [("f1", "E6")]


def test_the_cost_is_the_measured_odds_of_a_bare_window() -> None:
    # 111 of 318 unread marked figures' windows showed no sticker (diagnosis photos, 582110d)
    assert abs(BARE_COST - IDENTITY_SCALE * math.log(318 / 111)) < 0.05


def test_bare_windows_leave_out_windows_showing_a_sticker_or_reading_a_marker() -> None:
    bare = bare_windows(["C3", "F6", "H2", "B9"], [(5, 5)], [np.array([7.9, 1.2]), np.array([2.1, 8.5])])
    # F6 showed an unread sticker; H2's window (7-9, 1-3 board units) and B9's read a marker
    assert bare == {"C3"}
