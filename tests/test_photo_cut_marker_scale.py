"""A window with nothing read is read for a cut sticker once more at half its scale (reading R97).

Built from the failure on the independent renderer's diagnosis photo s0408 (star-field art, with
the empty-map reference): figure f5's base marker (id 32) at A12, its sticker's ring cut by the
figure's body, was searched again (`photo.marker_windows` named A12) but not read at the window's
160 pixels a square, while the same window at the board-wide view's 80 read it. Unread, f5 was
named by the record's nearest square onto art (A11/E12). The fixture is that window as
`markers.find_markers_near` warps it (2 x 2 squares round A12 at 160 px a square, grey), so the
test reads it as the photo's own pixels with a homography that maps it onto square A1.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from assistant.photo.markers import find_markers_near

FIXTURE = Path(__file__).parent / "fixtures" / "s0408_a12_cut_sticker.png"
#: the fixture's pixels onto the board's squares: 160 px a square, the window's corner half a
#: square up and left of square (0, 0)'s
TO_SQUARES = np.array([[1 / 160, 0, -0.5], [0, 1 / 160, -0.5], [0, 0, 1.0]])


def test_a_cut_sticker_unread_at_the_windows_scale_is_read_at_half_of_it() -> None:
    window = cv2.imread(str(FIXTURE), cv2.IMREAD_GRAYSCALE)
    assert window is not None
    assert [m.id for m in find_markers_near(window, TO_SQUARES, [(0, 0)])] == [32]  # before: []


def test_a_window_of_bare_art_reads_no_marker_at_either_scale() -> None:
    rng = np.random.default_rng(408)
    art = np.full((320, 320), 20, np.uint8)
    for x, y in rng.integers(0, 320, (120, 2)):  # a star field's white dots
        cv2.circle(art, (int(x), int(y)), int(rng.integers(1, 4)), 230, -1)
    assert find_markers_near(art, TO_SQUARES, [(0, 0)]) == []
