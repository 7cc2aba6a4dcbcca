"""Reading R117: a corner marker stands outside the map, beyond the corner it names.

Independent diagnosis scene 455 (lava, 18 x 10, one corner marker -- id 0 -- seen, tilted 45
degrees): `map from-photo` took, of the printed-lines search's two lattices, the one that put the
marker's centre nearer the NW corner -- 1.35 squares off at its worst, "oriented by the corner
markers seen", 12 squares wrong. That lattice put the large marker over column A (its centre
0.76 squares inside the map along the columns); the right one, 0.11 off, put it beyond the corner
on both axes, as CONTRACT §4 has it (the marker's corner nearest the map on the map's corner).
The candidates are drawn here as the description gives them; the search itself is stubbed.

Reading R118: `photo detect`'s orientation of a printed-lines grid (`lines._orient`) chose by the
map corner nearest each corner marker's centre, which the lattice one square over also gives
(and the marker's corner then lies 0.1 squares from the map corner, within the markers' check):
the same lattices, handed to it, gave the one with the marker over column A.
"""

from __future__ import annotations

import numpy as np
import pytest

from assistant.editions import Edition
from assistant.model import Map, Position
from assistant.photo import lines
from assistant.photo.board import Grid
from assistant.photo.markers import Marker

COLS, ROWS, PX, AT = 18, 10, 100.0, 200.0


def _grid(dx: float, dy: float) -> Grid:
    """Image -> board: the map's lattice at ``PX`` pixels a square from (``AT``, ``AT``), every
    point of the photo named (dx, dy) squares further along the board (the lattice moved back)."""
    return Grid(H=np.array([[1 / PX, 0, -AT / PX + dx], [0, 1 / PX, -AT / PX + dy], [0, 0, 1]]), reprojection_error_px=0.0, corner_markers=0)


def _nw_marker() -> Marker:
    """Corner marker 0 beyond the map's NW corner, 1.4 squares wide, foreshortened to 1.0 deep."""
    x0, x1, y0, y1 = AT - 1.4 * PX, AT, AT - 1.0 * PX, AT
    return Marker(0, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64))


def test_the_lattice_that_puts_the_marker_over_the_map_is_not_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    right, over = _grid(0.0, 0.0), _grid(1.3, 0.0)  # 'over': the marker's centre 0.6 squares inside column A, nearer the corner
    monkeypatch.setattr(lines, "grid_candidates", lambda *a, **k: [over, right])
    got = lines.upright_grid(np.zeros((10, 10, 3), np.uint8), COLS, ROWS, [_nw_marker()])
    assert got is not None and np.allclose(got.H, right.H)
    assert got.oriented_by == "the corner markers seen" and got.ways == 1


def test_no_lattice_with_the_marker_beyond_its_corner_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lines, "grid_candidates", lambda *a, **k: [_grid(1.3, 0.0), _grid(0.0, 1.2)])
    assert lines.upright_grid(np.zeros((10, 10, 3), np.uint8), COLS, ROWS, [_nw_marker()]) is None


@pytest.mark.parametrize(("marker_id", "corner"), [(0, (0, 0)), (1, (COLS, 0)), (2, (COLS, ROWS)), (3, (0, ROWS))])
def test_each_corner_marker_is_beyond_its_own_corner_and_not_beside_it(marker_id: int, corner: tuple[int, int]) -> None:
    """Beyond both of the corner's sides: diagonally outside it, not alongside the first row or column."""
    out = np.array([-1.0 if c == 0 else 1.0 for c in corner])
    grid = _grid(0.0, 0.0)

    def marker_at(centre_board: np.ndarray) -> Marker:
        c = AT + PX * centre_board
        return Marker(marker_id, np.array([c + [-30, -30], c + [30, -30], c + [30, 30], c + [-30, 30]], np.float64))

    assert lines.beyond_its_corner(grid, marker_at(np.array(corner) + 0.3 * out), COLS, ROWS)
    assert not lines.beyond_its_corner(grid, marker_at(np.array(corner) + [0.3 * out[0], -0.3 * out[1]]), COLS, ROWS)
    assert not lines.beyond_its_corner(grid, marker_at(np.array(corner) + [-0.3 * out[0], 0.3 * out[1]]), COLS, ROWS)


POSITION = Position(Edition.SWM2008, Map(COLS, ROWS), ())


def _turned(grid: Grid) -> Grid:
    """The same lattice with its squares named from the other corner (the map read half turned)."""
    return Grid(H=lines._half_turn(COLS, ROWS) @ grid.H, reprojection_error_px=0.0, corner_markers=0)


def test_photo_detect_does_not_orient_onto_the_lattice_with_the_marker_over_the_map() -> None:
    """The lattice one square over, and the right one read half turned: only the first puts the
    marker's centre nearest the NW corner, but over column A -- no grid rather than that one."""
    over, right = _grid(1.3, 0.0), _grid(0.0, 0.0)
    assert lines._orient(np.zeros((10, 10, 3), np.uint8), POSITION, [over, _turned(right)], [_nw_marker()]) is None


def test_photo_detect_takes_the_lattice_with_the_marker_beyond_its_corner(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both lattices each way round: the right one is taken by the marker, not left to the terrain."""
    monkeypatch.setattr(lines, "_terrain_match", lambda *a, **k: (0.0, 0))  # no printed terrain to read
    over, right = _grid(1.3, 0.0), _grid(0.0, 0.0)
    got = lines._orient(np.zeros((10, 10, 3), np.uint8), POSITION, [over, _turned(over), right, _turned(right)], [_nw_marker()])
    assert got is not None and np.allclose(got.H, right.H)
    assert got.oriented_by == "the corner markers seen"
