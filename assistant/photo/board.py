"""Stage 2: find the grid and its homography (image pixels -> board squares).

From the map-corner markers (CONTRACT §4): each lies outside the grid with one corner on the
map's corner point, so every corner of every corner marker has a known board position. With
three or four of them found, a homography is fitted (RANSAC over up to 16 points) and its
reprojection error reported. With fewer, no grid is claimed: the photo is refused rather
than guessed.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .markers import Marker
from .synth import MARKER_SQUARES


@dataclass(frozen=True)
class Grid:
    H: np.ndarray  # image -> board
    reprojection_error_px: float
    corner_markers: int


def marker_board_corners(mid: int, cols: int, rows: int) -> np.ndarray:
    """Board coordinates of the 4 corners (top-left, clockwise) of corner marker ``mid``."""
    s = MARKER_SQUARES
    x0, y0 = [(-s, -s), (cols, -s), (cols, rows), (-s, rows)][mid]
    return np.array([[x0, y0], [x0 + s, y0], [x0 + s, y0 + s], [x0, y0 + s]], np.float64)


def find_grid(markers: list[Marker], cols: int, rows: int) -> Grid | None:
    found = {m.id: m for m in markers if 0 <= m.id <= 3}
    # three or four corner markers; two will do when they are diagonal (NW+SE or NE+SW),
    # which spans the board -- two on one side would leave the far side extrapolated
    if len(found) < 2 or (len(found) == 2 and set(found) not in ({0, 2}, {1, 3})):
        return None
    img_pts = np.concatenate([found[i].corners for i in sorted(found)])
    board_pts = np.concatenate([marker_board_corners(i, cols, rows) for i in sorted(found)])
    H, mask = cv2.findHomography(img_pts, board_pts, cv2.RANSAC, 0.05)
    if H is None:
        return None
    Hinv = np.linalg.inv(H)
    back = cv2.perspectiveTransform(board_pts[None], Hinv)[0]
    err = float(np.mean(np.linalg.norm(back - img_pts, axis=1)))
    return Grid(H, err, len(found))


def to_board(grid: Grid, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(1, -1, 2), grid.H)[0]


def rectify(image: np.ndarray, grid: Grid, cols: int, rows: int, px: int = 40) -> np.ndarray:
    """The grid seen from straight above, ``px`` pixels per square."""
    S = np.array([[px, 0, 0], [0, px, 0], [0, 0, 1]], np.float64)
    return cv2.warpPerspective(image, S @ grid.H, (cols * px, rows * px), flags=cv2.INTER_AREA)
