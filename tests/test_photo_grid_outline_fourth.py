"""Three corner markers, the fourth map corner extrapolated too uncertainly, the printed lines too
faint to correct it (issue 28, round 22: independent scene 565, grass art, the fourth corner marker
hidden under a Large figure's base, refused with "the map's corner with no marker on it is
extrapolated, uncertain by about 0.24 squares"). The sheet's outline against the table, its margin
measured six times at the three markers' corners, may give the fourth corner (reading R202). The
photos are drawn here: a dark sheet with no printed lines on a lighter cloth, seen through a tilted
camera, three corner markers on its margin."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from assistant.editions import Edition
from assistant.model import Map, Position
from assistant.photo import NoGridError, lines, locate_grid
from assistant.photo.board import find_grid, marker_board_corners
from assistant.photo.markers import Marker

from . import test_photo_corner_marker as aruco
from .test_photo_grid_sides import _off

COLS, ROWS = 16, 10
#: the map's corners in the photo (NW, NE, SE, SW): a camera tilted towards the far (north) side
CORNERS = [[1000.0, 800.0], [3000.0, 800.0], [3500.0, 2500.0], [500.0, 2500.0]]
#: the markers' side (squares)
SIDE = 0.4


def _to_photo() -> np.ndarray:
    board4 = np.array([[0, 0], [COLS, 0], [COLS, ROWS], [0, ROWS]], np.float32)
    return cv2.getPerspectiveTransform(board4, np.array(CORNERS, np.float32)).astype(np.float64)


def _markers(ids: tuple[int, ...] = (1, 2, 3)) -> list[Marker]:
    H = _to_photo()
    return [Marker(i, cv2.perspectiveTransform(marker_board_corners(i, COLS, ROWS, SIDE)[None], H)[0]) for i in ids]


def _photo(margins: tuple[float, float, float, float]) -> np.ndarray:
    """A 4000 x 3000 photo: a grey-blue cloth, on it a dark brown sheet with no printed lines
    (``margins``: the sheet beyond the grid, squares, west, north, east, south), and the corner
    markers 1, 2 and 3 on its margin (white, a black square inside)."""
    rng = np.random.default_rng(7)
    photo = np.clip(rng.normal(0, 6, (3000, 4000, 3)) + (110, 90, 80), 0, 255).astype(np.uint8)
    w, n, e, s = margins
    sheet = np.array([[-w, -n], [COLS + e, -n], [COLS + e, ROWS + s], [-w, ROWS + s]], np.float64)
    cv2.fillPoly(photo, [np.round(cv2.perspectiveTransform(sheet[None], _to_photo())[0]).astype(np.int32)], (25, 35, 60))
    for m in _markers():
        c = np.asarray(m.corners, np.float64)
        cv2.fillPoly(photo, [np.round((c - c.mean(axis=0)) * 1.3 + c.mean(axis=0)).astype(np.int32)], (235, 235, 235))
        cv2.fillPoly(photo, [np.round(c).astype(np.int32)], (20, 20, 20))
    return photo


def test_the_sheets_outline_gives_the_fourth_corner_three_markers_leave_open() -> None:
    """R202: no printed lines show, the sheet's margin is 0.6 squares all round: the grid puts
    every map corner within a tenth of a square of where it is drawn (the old code had only the
    markers' extrapolation, which no printed line corrects, and refused it where uncertain)."""
    markers = _markers()
    grid = find_grid(markers, COLS, ROWS)
    assert grid is not None and grid.corner_markers == 3
    found = lines.outline_fourth_corner(_photo((0.6, 0.6, 0.6, 0.6)), grid, markers, COLS, ROWS)
    assert found is not None
    assert _off(found.H, CORNERS, COLS, ROWS) < 0.1
    assert found.uncertainty == pytest.approx(lines.OUTLINE_FOURTH_UNCERTAINTY)


def test_a_sheet_cut_unevenly_gives_no_fourth_corner() -> None:
    """R202: the margin along the north (0.3 squares) differs from the others (0.6): nothing says
    what the fourth corner's margin is, so the outline gives no grid -- a refusal, never a grid a
    fraction of a square off."""
    markers = _markers()
    grid = find_grid(markers, COLS, ROWS)
    assert grid is not None
    assert lines.outline_fourth_corner(_photo((0.6, 0.3, 0.6, 0.6)), grid, markers, COLS, ROWS) is None


def test_a_fourth_corner_beyond_the_markers_own_uncertainty_is_not_taken() -> None:
    """R202: the outline's fourth corner must lie within the markers' own uncertainty of where
    their squares put it; a grid that claims to know that corner better than the outline agrees
    with it gets nothing from the outline."""
    markers = _markers()
    grid = find_grid(markers, COLS, ROWS)
    assert grid is not None
    photo = _photo((0.6, 0.6, 0.6, 0.6))
    assert lines.outline_fourth_corner(photo, replace(grid, uncertainty=1e-6), markers, COLS, ROWS) is None


def test_two_markers_are_not_read_as_three() -> None:
    """R202 is for three markers only: two markers' grid gets no fourth corner from the outline
    (their far side is R100's and R125's)."""
    markers = _markers((1, 2))
    grid = find_grid(markers, COLS, ROWS)
    assert grid is not None and grid.corner_markers == 2
    assert lines.outline_fourth_corner(_photo((0.6, 0.6, 0.6, 0.6)), grid, markers, COLS, ROWS) is None


def test_the_refusal_it_answers_is_the_extrapolated_corners() -> None:
    """R202 answers only the refusal of an extrapolated corner the printed lines do not correct
    (a blank photo: no lines at all), raised as its own kind of grid mismatch."""
    markers = _markers()
    grid = find_grid(markers, COLS, ROWS)
    assert grid is not None
    blank = np.full((3000, 4000, 3), 128, np.uint8)
    with pytest.raises(lines.ExtrapolatedCornerError):
        lines.check_with_lines(blank, replace(grid, uncertainty=0.2), COLS, ROWS)


def test_the_grid_search_answers_with_the_outlines_fourth_corner_where_it_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """R202 in the grid search (`photo detect`'s :func:`assistant.photo.locate_grid`): three corner
    markers read (drawn with ArUco, as R83's test draws them), the printed lines' check refusing their
    extrapolated corner, R83's pattern search reading no fourth marker: the grid is the outline's,
    not a refusal -- and only that refusal is answered so (a grid the lines contradict is refused).
    The check and the outline are stood in for here: their own tests are above."""
    photo = aruco._photo(drawn=(1, 2, 3), head_on=None)
    pos = Position(Edition.SWM2008, Map(aruco.COLS, aruco.ROWS), ())
    seen: list[lines.Grid] = []

    def outline(image: np.ndarray, grid: lines.Grid, markers: object, cols: int, rows: int) -> lines.Grid:
        seen.append(grid)
        return replace(grid, uncertainty=lines.OUTLINE_FOURTH_UNCERTAINTY)

    def refuse_corner(image: np.ndarray, grid: lines.Grid, cols: int, rows: int) -> lines.Grid:
        raise lines.ExtrapolatedCornerError("the fourth corner extrapolated")

    monkeypatch.setattr(lines, "outline_fourth_corner", outline)
    monkeypatch.setattr(lines, "check_with_lines", refuse_corner)
    grid, markers, by_lines = locate_grid(photo, pos)
    assert len(seen) == 1 and seen[0].corner_markers == 3
    assert grid.uncertainty == pytest.approx(lines.OUTLINE_FOURTH_UNCERTAINTY) and not by_lines
    assert sorted(m.id for m in markers if m.id <= 3) == [1, 2, 3]

    def contradict(image: np.ndarray, grid: lines.Grid, cols: int, rows: int) -> lines.Grid:
        raise lines.GridMismatchError("the printed grid lines lie 0.60 squares (median) from where the corner markers put them")

    monkeypatch.setattr(lines, "check_with_lines", contradict)
    with pytest.raises(NoGridError, match="0.60 squares"):
        locate_grid(photo, pos)
    assert len(seen) == 1
