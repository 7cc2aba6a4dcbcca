"""Two corner markers on one side of a map whose printed lines are too faint to find its far side
(issue 28, round 12: independent scene 445, lava art with dark lines on dark, markers 0 and 1,
refused with "only 2 corner markers are seen and the printed grid lines cannot confirm them").
The sheet's outline against the table, and its margin round the grid measured at the markers'
corners, give the far side (reading R100). The photos are drawn here: a dark sheet with no
printed lines on a lighter cloth, the markers' corners those read on independent scene 401."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

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


def _outlines(grid: lines.Grid, sheets: list[np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
    """What :func:`.lines._outlines_at_map_corners` gives for outlines whose corners lie at ``sheets``
    (board squares, NW NE SE SW) through ``grid``: their corners in the photo and on the board."""
    to_photo = np.linalg.inv(grid.H)
    return [(cv2.perspectiveTransform(s[None], to_photo)[0], s) for s in sheets]


def test_an_outline_round_the_markers_gives_way_to_the_sheets_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """R245: diagnosis photo s0359 (wood art, faint lines, markers 0 and 1) gave two outlines: the
    sheet's edge (margin 0.27-0.39 at the markers' corners) and one round the sheet and the two
    markers (0.70-0.80, beyond the markers' outer corners at 0.63). Each gave a far side, the two
    0.6 squares apart, and R100 gave none: refused. The one round the markers gives way."""
    markers = _markers(S401_MARKERS)
    grid = find_grid(markers, COLS, ROWS)
    assert grid is not None
    outer = max(float(np.max(-cv2.perspectiveTransform(np.asarray(m.corners, np.float64)[None], grid.H)[0][:, 1])) for m in markers if m.id in (0, 1))
    sheet = np.array([[-0.3, -0.3], [COLS + 0.3, -0.3], [COLS + 0.3, ROWS + 0.3], [-0.3, ROWS + 0.3]])
    # the markers' outline (scene 401's markers reach 0.94 squares out): just beyond their outer
    # corners, its far corners 0.5 out, so that its even margin puts the grid's far side 0.47 squares
    # short of the sheet's
    m = outer + 0.03
    round_them = np.array([[-m, -m], [COLS + m, -m], [COLS + 0.5, ROWS + 0.5], [-0.5, ROWS + 0.5]])
    assert lines._round_the_markers(grid, markers, round_them, np.array([[0, 0], [COLS, 0], [COLS, ROWS], [0, ROWS]], np.float64),
                                    np.sign(np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64)), [0, 1])
    monkeypatch.setattr(lines, "_outlines_at_map_corners", lambda *_a: _outlines(grid, [sheet, round_them]))
    found = lines.outline_far_side(np.zeros((3000, 4000, 3), np.uint8), grid, markers, COLS, ROWS)
    assert found is not None
    assert lines.lattice_apart(found.H, grid.H, COLS, ROWS) < 0.05  # the sheet's edge: drawn on the markers' grid


def test_two_outlines_apart_neither_round_the_markers_still_give_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """R100 as before: two outlines whose far sides disagree, neither round the markers: no far side."""
    markers = _markers(S401_MARKERS)
    grid = find_grid(markers, COLS, ROWS)
    assert grid is not None
    sheet = np.array([[-0.3, -0.3], [COLS + 0.3, -0.3], [COLS + 0.3, ROWS + 0.3], [-0.3, ROWS + 0.3]])
    other = np.array([[-0.3, -0.3], [COLS + 0.3, -0.3], [COLS + 0.3, ROWS + 0.9], [-0.3, ROWS + 0.9]])  # its far side 0.6 beyond
    monkeypatch.setattr(lines, "_outlines_at_map_corners", lambda *_a: _outlines(grid, [sheet, other]))
    assert lines.outline_far_side(np.zeros((3000, 4000, 3), np.uint8), grid, markers, COLS, ROWS) is None
