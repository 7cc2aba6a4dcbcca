"""A corner marker a figure's head cuts, read by its pattern where the other three put it (issue 28,
round 10; reading R83): independent diagnosis photo s0427 (grass, tilt 46 degrees, all four
corner markers on the map) was refused "only 3 corner markers are seen: the map's corner with no
marker on it is extrapolated, uncertain by about 0.18 squares" -- a figure's light head lay over
marker 0's corner on the map, and ArUco, which needs the black square's four corners, read it not."""

from __future__ import annotations

import cv2
import numpy as np

from assistant.photo.board import find_grid
from assistant.photo.gridsearch import _fourth_corner_marker
from assistant.photo.markers import Marker, find_corner_marker, find_markers
from assistant.photo.synth import DICT

COLS, ROWS = 10, 8
SIDE = 0.9  # the markers' black square, in squares
#: the map on the table seen obliquely (board squares -> photo pixels)
TO_IMG = np.array([[95.0, 12.0, 420.0], [-8.0, 80.0, 330.0], [0.0, 0.0009, 1.0]])
OUTWARD = {0: (-1, -1), 1: (1, -1), 2: (1, 1), 3: (-1, 1)}


def _photo(drawn: tuple[int, ...] = (0, 1, 2, 3), head_on: int | None = 0) -> np.ndarray:
    """A grey map on a dark table, the corner markers ``drawn`` outside its corners (each squared
    with its edges, its black square's corner on the map's corner, a light margin round it), and a
    light grey head (a disc a third of a marker across) over marker ``head_on``'s corner on the map."""
    photo = np.full((1500, 1900, 3), 40, np.uint8)
    board4 = np.array([[0, 0], [COLS, 0], [COLS, ROWS], [0, ROWS]], np.float64)
    cv2.fillConvexPoly(photo, cv2.perspectiveTransform(board4[None], TO_IMG)[0].astype(np.int32), (150, 150, 150))
    cell = 20
    art = cv2.aruco.getPredefinedDictionary(DICT)
    for mid in drawn:
        sticker = cv2.copyMakeBorder(cv2.aruco.generateImageMarker(art, mid, 6 * cell), cell, cell, cell, cell, cv2.BORDER_CONSTANT, value=255)
        corner = board4[mid]
        centre = corner + np.array(OUTWARD[mid]) * SIDE / 2
        # sticker pixels -> board: the black square (cells 1-7) SIDE squares wide round the centre
        per = SIDE / (6 * cell)
        to_board = np.array([[per, 0, centre[0] - 4 * cell * per], [0, per, centre[1] - 4 * cell * per], [0, 0, 1]])
        warped = cv2.warpPerspective(cv2.cvtColor(sticker, cv2.COLOR_GRAY2BGR), TO_IMG @ to_board, photo.shape[1::-1], flags=cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(np.full(sticker.shape, 255, np.uint8), TO_IMG @ to_board, photo.shape[1::-1]) > 127
        photo[mask] = warped[mask]
    if head_on is not None:
        at = cv2.perspectiveTransform(board4[head_on][None, None], TO_IMG)[0][0]
        cv2.circle(photo, (int(at[0]), int(at[1])), int(0.3 * SIDE * 95), (200, 200, 200), -1, cv2.LINE_AA)
    return photo


def _corner_off(marker: Marker, corner_id: int) -> float:
    """How far (squares) the marker's corner nearest the map lies from the map corner it names."""
    board = cv2.perspectiveTransform(np.asarray(marker.corners, np.float64)[None], np.linalg.inv(TO_IMG))[0]
    target = np.array([[0, 0], [COLS, 0], [COLS, ROWS], [0, ROWS]][corner_id], np.float64)
    return float(np.min(np.linalg.norm(board - target, axis=1)))


def test_a_corner_marker_a_head_cuts_is_read_by_its_pattern_where_the_three_put_it() -> None:
    """R83: ArUco reads markers 1-3, not 0 (the head over its corner); where the three markers'
    grid puts marker 0 its pattern is matched, its corner on the map within 0.05 squares of the
    map's corner, its corners in ArUco's order (as the marker read whole would give them)."""
    photo = _photo()
    read = [m for m in find_markers(photo) if m.id < 4]
    assert sorted(m.id for m in read) == [1, 2, 3]
    grid = find_grid(read, COLS, ROWS)
    assert grid is not None and grid.corner_markers == 3
    fourth = _fourth_corner_marker(photo, grid, read, COLS, ROWS)
    assert fourth is not None and fourth.id == 0
    assert _corner_off(fourth, 0) < 0.05
    whole = next(m for m in find_markers(_photo(head_on=None)) if m.id == 0)
    assert float(np.max(np.linalg.norm(np.asarray(fourth.corners) - np.asarray(whole.corners), axis=1))) < 4.0
    assert find_grid([*read, fourth], COLS, ROWS).corner_markers == 4  # type: ignore[union-attr]


def test_no_corner_marker_is_read_where_none_is_drawn() -> None:
    """Three markers drawn, the fourth corner bare table: nothing is read there."""
    photo = _photo(drawn=(1, 2, 3), head_on=None)
    read = [m for m in find_markers(photo) if m.id < 4]
    grid = find_grid(read, COLS, ROWS)
    assert grid is not None
    assert _fourth_corner_marker(photo, grid, read, COLS, ROWS) is None
    assert find_corner_marker(photo, grid.H, 0, COLS, ROWS, SIDE) is None
