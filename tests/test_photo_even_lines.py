"""R295: the printed lines are printed alike over the whole sheet. Two corner markers on one side
pin that side; the far side searched for on the lines (R71) must not be stretched onto a floor's own
dark lines (stone slabs' mortar at the squares' period) that show only near the free corners."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from assistant.photo import lines

from .test_photo_grid_sides import TO_IMG, _off, _printed, north_markers_far_side_off

COLS, ROWS = 10, 8
BOARD4 = np.array([[0, 0], [COLS, 0], [COLS, ROWS], [0, ROWS]], np.float64)


def _mortar(gray: np.ndarray, far_side: list[float], y_from: float) -> np.ndarray:
    """``gray`` under bold dark lines (grey 60) one square apart on the lattice whose far (south)
    side lies ``far_side`` squares from the map's, drawn from board row ``y_from`` south only."""
    img4 = cv2.perspectiveTransform((BOARD4 + [[0, 0], [0, 0], far_side, far_side])[None], TO_IMG)[0]
    S = cv2.getPerspectiveTransform(BOARD4.astype(np.float32), img4.astype(np.float32)).astype(np.float64)
    out = gray.copy()
    ends = [[[x, y_from], [x, ROWS]] for x in range(1, COLS)] + [[[0, y], [COLS, y]] for y in range(int(np.ceil(y_from)), ROWS)]
    for seg in ends:
        a, b = cv2.perspectiveTransform(np.array([seg], np.float64), S)[0]
        cv2.line(out, tuple(int(v) for v in a), tuple(int(v) for v in b), 60, 3, cv2.LINE_AA)
    return out


@pytest.mark.parametrize("far_side", [[0.45, 0.45], [-0.45, 0.5]])
def test_a_far_side_is_not_stretched_onto_a_floors_lines_near_the_free_corners(far_side: list[float], monkeypatch: pytest.MonkeyPatch) -> None:
    """Faint printed lines (grey 150 on a floor of 190) over the whole map, bold mortar (grey 60)
    over its south half on a lattice whose far side lies about half a square off: the search's
    best lattice is the mortar's (more than half a square off, as the search took it before R295:
    shown with the check off), and its lines show far more ink near the free corners than on the
    markers' half, so no far side is taken (the photo refused, never answered on it)."""
    grid, truth = north_markers_far_side_off(COLS, ROWS, TO_IMG)
    gray = _mortar(_printed(COLS, ROWS, TO_IMG, line_grey=150), far_side, ROWS / 2)
    assert lines._refine_free_corner(gray, False, grid, 1.0, COLS, ROWS) is None
    monkeypatch.setattr(lines, "EVEN_LINES", float("inf"))
    before = lines._refine_free_corner(gray, False, grid, 1.0, COLS, ROWS)
    assert before is not None and _off(before.H, truth.tolist(), COLS, ROWS) > 0.5


def test_printed_lines_even_over_the_map_still_give_the_far_side() -> None:
    """The same faint printed lines with no mortar: the far side is found within a tenth of a
    square (the check passes lines printed alike over the map)."""
    grid, truth = north_markers_far_side_off(COLS, ROWS, TO_IMG)
    refined = lines._refine_free_corner(_printed(COLS, ROWS, TO_IMG, line_grey=150), False, grid, 1.0, COLS, ROWS)
    assert refined is not None
    assert _off(refined.H, truth.tolist(), COLS, ROWS) < 0.1
