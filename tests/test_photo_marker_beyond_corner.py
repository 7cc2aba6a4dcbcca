"""Reading R117: a corner marker stands outside the map, beyond the corner it names.

Independent diagnosis scene 455 (lava, 18 x 10, one corner marker -- id 0 -- seen, tilted 45
degrees): `map from-photo` took, of the printed-lines search's two lattices, the one that put the
marker's centre nearer the NW corner -- 1.35 squares off at its worst, "oriented by the corner
markers seen", 12 squares wrong. That lattice put the large marker over column A (its centre
0.76 squares inside the map along the columns); the right one, 0.11 off, put it beyond the corner
on both axes, as CONTRACT §4 has it (the marker's corner nearest the map on the map's corner).
The candidates are drawn here as the description gives them; the search itself is stubbed.
"""

from __future__ import annotations

import numpy as np
import pytest

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
