"""Two corner markers the printed lines cannot confirm: the refusal names the markers read and the
ones to place (issue 28, round 31; reading R348). Round 30's held-out game photo s0678 (a stone
map, markers 0 and 3 on its west side, a strong barrel lens) was refused "only 2 corner markers are
seen and the printed grid lines cannot confirm them; place all four corner markers": the judge at
the table was not told which two were read, nor which corners still need one."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from assistant.photo import lines
from assistant.photo.board import Grid

COLS, ROWS = 10, 8
#: the map seen obliquely (board squares -> photo pixels), as tests/test_photo_lines_in_step.py's
TO_IMG = np.array([[55.0, 6.0, 150.0], [-4.0, 50.0, 120.0], [0.0, 0.0006, 1.0]])
BOARD4 = np.array([[0, 0], [COLS, 0], [COLS, ROWS], [0, ROWS]], np.float64)


def _blank_table() -> np.ndarray:
    """A photo with no printed lines at all (a grey cloth, faint noise): nothing can confirm a grid."""
    rng = np.random.default_rng(7)
    gray = np.clip(rng.normal(120, 4, (700, 900)), 0, 255).astype(np.uint8)
    return cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)


def _markers_grid(ids: tuple[int, int]) -> Grid:
    """Two corner markers' grid, their corners (``ids``: 0 NW, 1 NE, 2 SE, 3 SW) where the map's are drawn."""
    truth = cv2.perspectiveTransform(BOARD4[None], TO_IMG)[0]
    H = cv2.getPerspectiveTransform(truth.astype(np.float32), BOARD4.astype(np.float32)).astype(np.float64)
    anchors = np.array([[*truth[k], *BOARD4[k]] for k in ids], np.float64)
    return Grid(H, 0.5, 2, anchors, uncertainty=0.3)


@pytest.mark.parametrize(("ids", "seen", "missing"), [((0, 3), "ids 0, 3", "markers 1, 2"), ((0, 2), "ids 0, 2", "markers 1, 3")])
def test_the_refusal_names_the_markers_read_and_the_corners_to_mark(ids: tuple[int, int], seen: str, missing: str) -> None:
    """No printed line confirms two markers' grid: refused, naming the two read and the two the
    judge is to place (or uncover), each with its corner, and how to print them."""
    with pytest.raises(lines.UnconfirmedMarkersError) as refused:
        lines.check_with_lines(_blank_table(), _markers_grid(ids), COLS, ROWS)
    said = str(refused.value)
    assert said.startswith("only 2 corner markers are seen (" + seen + ")")
    assert f"place (or uncover) {missing} on the map's corners too" in said
    assert "0 north-west, 1 north-east, 2 south-east, 3 south-west" in said
    assert "python -m assistant calibrate markers" in said
