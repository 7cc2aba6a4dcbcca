"""A base-marker window's sticker cells are read once, the same numbers as before (round 18 of issue 28).

Built from the profile of ``photo detect`` on the diagnosis photos 515-526 (24 calls): the windows
searched again for unread base markers (:func:`assistant.photo.markers.find_markers_and_stickers_near`)
cost 0.1-0.6 CPU-seconds a call, on two threads, and the larger part of each window after ArUco's
search was the cut-marker reader's and the sticker finder's cells: the sticker finder, asked where
the cut reader read nothing, blurred and labelled the same view again and read the cells round the
same candidate squares once more; each square's cells were averaged as a float array over a
strided view. Now one blurred view serves both, each square's cells are read once, summed as
integers, and the cells' spread is measured only where the cut reader's own bars are met.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.photo import markers
from assistant.photo.markers import RECTIFIED_PX, _sticker_cells, find_markers_and_stickers_near
from tests.test_photo_markers_cut import H, board
from tests.test_photo_placement_sticker import with_body_over_sticker


def test_a_window_reads_each_sticker_square_s_cells_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # a sticker half under its figure's body: ArUco and the cut reader read nothing, the sticker
    # finder then tries the squares the cut reader tried (before: each read again, 2-3 times)
    img = with_body_over_sticker(board([(1, 1, 23, 20.0, "")]), 1, 1)
    made: Counter[tuple[float, ...]] = Counter()
    real = markers._sticker_cells

    def counted(g: np.ndarray, centre: tuple[float, float], cell: float, t: float) -> Any:
        made[(float(centre[0]), float(centre[1]), float(cell), float(t))] += 1
        return real(g, centre, cell, t)

    monkeypatch.setattr(markers, "_sticker_cells", counted)
    found, stickers = find_markers_and_stickers_near(img, H, [(1, 1)], 2 * RECTIFIED_PX)
    assert found == [] and [s.square for s in stickers] == [(1, 1)]  # the sticker seen, its marker not read
    assert made, "the cut reader read no square's cells"
    assert max(made.values()) == 1, f"{sum(made.values()) - len(made)} squares' cells read again"


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cx=st.floats(40.0, 120.0), cy=st.floats(40.0, 120.0),
       cell=st.floats(3.0, 9.0), t=st.floats(-np.pi, np.pi))
def test_the_cells_are_numpy_s_float32_means_of_each_cell_s_middle(seed: int, cx: float, cy: float, cell: float, t: float) -> None:
    # the reference: the sticker seen upright at 10 px a cell, each cell's middle 4 x 4 pixels
    # averaged by numpy in float32, as the reader read them before its integer sums
    g = cv2.GaussianBlur(np.random.default_rng(seed).integers(0, 256, (160, 160), dtype=np.uint8), (0, 0), 1.0)
    scale = 80 / (8 * cell)
    c, s = np.cos(t) * scale, np.sin(t) * scale
    M = np.array([[c, s, 40 - (c * cx + s * cy)], [-s, c, 40 - (-s * cx + c * cy)]], np.float32)
    up = cv2.warpAffine(g, M, (80, 80), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    want = up.reshape(8, 10, 8, 10)[:, 3:7, :, 3:7].mean(axis=(1, 3))
    pixels, cells, ring, border = _sticker_cells(g, (cx, cy), cell, t)
    assert cells.dtype == np.float32 and cells.tobytes() == want.tobytes()
    assert pixels.astype(np.float32).tobytes() == up.tobytes()
    assert ring.tolist() == [*want[0], *want[-1], *want[1:-1, 0], *want[1:-1, -1]]
    assert border.tolist() == [*want[1, 1:-1], *want[6, 1:-1], *want[2:6, 1], *want[2:6, 6]]
