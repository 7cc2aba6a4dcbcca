"""Reading R322: on a square map the printed lines' lattice fits every quarter turn.

Independent diagnosis scene 415 (lava, 13 x 13, one corner marker -- id 0 -- seen, the empty
map): the printed-lines search found the map's lattice 0.11 squares off the renderer's, but the
outline handed on only that lattice named from two corners (its naming and the half turn), and
both put marker 0 beside a corner other than the NW one: `photo reference` and `map from-photo`
refused the empty map ("the printed grid could not be matched to the map"). On a square map the
same lines fit the lattice named from each corner, and the marker seen names which one is the
map's. The candidates are drawn here as the description gives them; the search is stubbed.
"""

from __future__ import annotations

import numpy as np
import pytest

from assistant.editions import Edition
from assistant.model import Map, Position
from assistant.photo import lines
from assistant.photo.board import Grid
from assistant.photo.markers import Marker

N, PX, AT = 13, 100.0, 200.0
#: image -> board: the map's lattice at ``PX`` pixels a square from (``AT``, ``AT``), row 1 at the top
TRUE = Grid(H=np.array([[1 / PX, 0, -AT / PX], [0, 1 / PX, -AT / PX], [0, 0, 1]]), reprojection_error_px=0.0, corner_markers=0)


def _named(turn: int, cols: int = N, rows: int = N) -> Grid:
    """The true lattice with its squares named as the map turned ``turn`` degrees names them."""
    return Grid(H=lines.turned_board(turn, cols, rows) @ TRUE.H, reprojection_error_px=0.0, corner_markers=0)


def _nw_marker() -> Marker:
    """Corner marker 0 beyond the map's true NW corner (image (``AT``, ``AT``)), a square wide."""
    x0, x1, y0, y1 = AT - PX, AT, AT - PX, AT
    return Marker(0, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64))


def test_map_from_photo_names_the_square_lattice_from_the_corner_marker_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lines, "grid_candidates", lambda *a, **k: [_named(90), _named(270)])
    got = lines.upright_grid(np.zeros((10, 10, 3), np.uint8), N, N, [_nw_marker()])
    assert got is not None and np.allclose(got.H, TRUE.H)
    assert got.oriented_by == "the corner markers seen"


def test_photo_reference_names_the_square_lattice_from_the_corner_marker_seen() -> None:
    pos = Position(Edition.SWM2008, Map(N, N), ())
    got = lines._orient(np.zeros((10, 10, 3), np.uint8), pos, [_named(90), _named(270)], [_nw_marker()])
    assert got is not None and np.allclose(got.H, TRUE.H)
    assert got.oriented_by == "the corner markers seen"


def test_a_map_that_is_not_square_is_not_turned_a_quarter() -> None:
    """Its outline fits only one way and half round: no quarter-turned naming is added."""
    h = Grid(H=TRUE.H.copy(), reprojection_error_px=0.0, corner_markers=0)
    half = Grid(H=lines.turned_board(180, N + 2, N) @ TRUE.H, reprojection_error_px=0.0, corner_markers=0)
    assert lines.every_quarter_turn([h, half], N + 2, N) == [h, half]
    assert len(lines.every_quarter_turn([_named(0), _named(180)], N, N)) == 4
