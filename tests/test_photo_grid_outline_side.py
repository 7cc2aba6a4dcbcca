"""Two corner markers on one side of a map whose printed lines are too faint to find its far side
(issue 28, round 12: independent scene 445, lava art with dark lines on dark, markers 0 and 1,
refused with "only 2 corner markers are seen and the printed grid lines cannot confirm them").
The sheet's outline against the table, and its margin round the grid measured at the markers'
corners, give the far side (reading R100). The photos are drawn here: a dark sheet with no
printed lines on a lighter cloth, the markers' corners those read on independent scene 401."""

from __future__ import annotations

import cv2
import numpy as np

from assistant.photo import lines
from assistant.photo.board import find_grid

from .test_photo_grid_sides import S401_CORNERS, S401_MARKERS, _markers, _off

COLS, ROWS = 14, 12


def _photo(margins: tuple[float, float, float, float]) -> np.ndarray:
    """A 4000 x 3000 photo: a grey-blue cloth, on it a dark brown sheet with no printed lines whose
    grid's corners are scene 401's (``margins``: the sheet beyond the grid, squares, west, north,
    east, south), and the two corner markers (white, a black square inside) where they were read."""
    rng = np.random.default_rng(7)
    photo = np.clip(rng.normal(0, 6, (3000, 4000, 3)) + (110, 90, 80), 0, 255).astype(np.uint8)
    board4 = np.array([[0, 0], [COLS, 0], [COLS, ROWS], [0, ROWS]], np.float32)
    to_photo = cv2.getPerspectiveTransform(board4, np.array(S401_CORNERS, np.float32))
    w, n, e, s = margins
    sheet = np.array([[-w, -n], [COLS + e, -n], [COLS + e, ROWS + s], [-w, ROWS + s]], np.float64)
    cv2.fillPoly(photo, [np.round(cv2.perspectiveTransform(sheet[None], to_photo)[0]).astype(np.int32)], (25, 35, 60))
    for corners in S401_MARKERS.values():
        c = np.array(corners, np.float64)
        cv2.fillPoly(photo, [np.round((c - c.mean(axis=0)) * 1.4 + c.mean(axis=0)).astype(np.int32)], (235, 235, 235))
        cv2.fillPoly(photo, [np.round(c).astype(np.int32)], (20, 20, 20))
    return photo


def test_the_sheets_outline_gives_the_far_side_two_markers_leave_open() -> None:
    """R100: no printed lines show, the sheet's margin is 0.4 squares all round: the grid puts
    every map corner within a tenth of a square of where it is drawn (measured 0.035; the old code
    had only the markers' extrapolation, which no printed line confirms, and refused)."""
    markers = _markers(S401_MARKERS)
    grid = find_grid(markers, COLS, ROWS)
    assert grid is not None and grid.corner_markers == 2
    found = lines.outline_far_side(_photo((0.4, 0.4, 0.4, 0.4)), grid, markers, COLS, ROWS)
    assert found is not None
    assert _off(found.H, S401_CORNERS, COLS, ROWS) < 0.1


def test_a_sheet_cut_unevenly_gives_no_far_side() -> None:
    """R100: the margin beyond the markers' side (north, 0.2 squares) differs from the margins
    beside it (0.6): nothing says what the far side's margin is, so the outline gives no grid --
    a refusal, never a grid a fraction of a square off."""
    markers = _markers(S401_MARKERS)
    grid = find_grid(markers, COLS, ROWS)
    assert grid is not None
    assert lines.outline_far_side(_photo((0.6, 0.2, 0.6, 0.6)), grid, markers, COLS, ROWS) is None
