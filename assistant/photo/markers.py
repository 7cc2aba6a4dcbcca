"""Stage 1: find the ArUco markers (CONTRACT §4: 4x4_50; 0-3 map corners, 4+ figure bases).

Two passes:

* on the whole photo (downscaled to 2,400 px for speed) -- the corner markers, which frame the
  map, and any base marker large enough there;
* once the grid is known, on the board seen from straight above at :data:`RECTIFIED_PX` pixels a
  square (:func:`find_base_markers`): a base marker of 0.3 to 0.6 of a square is then an upright
  square of 24-48 px whatever the camera's tilt, where the whole-photo pass misses most markers
  under about 30 px (ArUco's default minimum perimeter is 3 % of the image's side).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import views
from .synth import DICT

MAX_SIDE = 2400  # markers are searched on a copy no larger than this; corners are scaled back
RECTIFIED_PX = 80  # pixels per square of the top-down view searched for base markers


@dataclass(frozen=True)
class Marker:
    id: int
    corners: np.ndarray  # 4 x 2, image pixels, clockwise from the marker's top-left


#: the shortest side (pixels of the photo, or of its copy shrunk to :data:`MAX_SIDE`) a corner marker is looked for at on the whole
#: photo: its 6 x 6 cells need more than a pixel each to decode. The harder search's 0.5 % of the
#: image's side (3 px at 2,400 px) let a wood or rock floor's grain through as candidates:
#: 6,067 on an independent photo (bench/independent, seed 339: wood), 7-9 CPU-seconds in ArUco
#: alone, past the work budget's 2; with 8 px, 1,1xx, the same corner and base markers read
#: on seeds 330, 332, 337 and 339 (sides 36-120 px)
MIN_MARKER_SIDE_PX = 8


#: the widest adaptive-threshold window (pixels) of the harder corner-marker searches: windows of
#: 3, 9 and 15 px. With 3-33 (six windows) they cost twice the CPU and read no corner marker more:
#: on the 48 independent diagnosis photos (seeds 371-394, game and empty map; 12 MP) the harder
#: search on the 2,400-px copy and the full-resolution search read the same corner markers at the
#: same corners (within 0.1 px; one marker 2 px apart, on s0390) with 3-15 -- and one more (s0371's
#: marker 2, on the copy) -- in 5.9 and 18.1 CPU-seconds against 13.1 and 40.9, handing ArUco about
#: half the candidates; on generated 4,000-px photos (bench/photo_grid.py, seeds 2,000,003,
#: 2,000,004, 2,000,006) the same markers, corner markers 118-273 px wide
CORNER_WINDOW_MAX = 15


def _detector(small_markers: bool, min_perimeter_rate: float = 0.005, window_max: int = 33) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    if small_markers:
        # small, slightly blurred, tilted stickers: accept short perimeters, scan more thresholds
        params.minMarkerPerimeterRate = min_perimeter_rate
        params.adaptiveThreshWinSizeMin = 3
        params.adaptiveThreshWinSizeMax = window_max
        params.adaptiveThreshWinSizeStep = 6
        params.polygonalApproxAccuracyRate = 0.05
        params.perspectiveRemovePixelPerCell = 8
        params.perspectiveRemoveIgnoredMarginPerCell = 0.2
        params.errorCorrectionRate = 0.6
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICT), params)


#: how much lighter than its black border a base marker's surround must be, as a fraction of the
#: contrast between that border and its own white cells (a real sticker's margin: 0.66-1.0 measured;
#: a dark base with a bright painted head seen from above, decoded as a marker: 0.0 or less)
MIN_FRAME_CONTRAST = 0.1


def framed(image: np.ndarray, corners: np.ndarray, cell: int = 8) -> float:
    """How light the thin band just outside a marker's black border is: 0 as dark as the border,
    1 as light as the marker's white cells. A printed marker has a light margin (ArUco needs one
    to see the border); a look-alike (a dark base round a light head) does not."""
    n = 10 * cell  # the marker's 6 cells with 2 cells of surround on each side
    dst = np.array([[2, 2], [8, 2], [8, 8], [2, 8]], np.float32) * cell
    M = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    # the patch turned grey, not the photo: a 12 MP photo's grey copy cost 0.006-0.03 CPU-seconds a
    # call, and each search's markers were judged on a fresh one
    p = cv2.warpPerspective(image, M, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    p = (cv2.cvtColor(p, cv2.COLOR_BGR2GRAY) if p.ndim == 3 else p).astype(np.float32)
    yy, xx = (np.mgrid[0:n, 0:n] + 0.5) / cell

    def box(lo: float, hi: float) -> np.ndarray:
        return (xx > lo) & (xx < hi) & (yy > lo) & (yy < hi)

    border = box(2.2, 7.8) & ~box(2.8, 7.2)
    band = box(1.4, 8.6) & ~box(1.85, 8.15)
    black, outside = float(np.median(p[border])), float(np.median(p[band]))
    white = float(np.percentile(p[3 * cell:7 * cell, 3 * cell:7 * cell], 90))
    return (outside - black) / max(1.0, white - black)


def _real(image: np.ndarray, marker: Marker) -> bool:
    return marker.id < 4 or framed(image, marker.corners) >= MIN_FRAME_CONTRAST


def _real_ones(image: np.ndarray, markers: list[Marker]) -> list[Marker]:
    """The markers with a light margin (corner markers all kept)."""
    return [m for m in markers if _real(image, m)]


def find_markers(image: np.ndarray, small_markers: bool = False, full_resolution: bool = False, upscale: float = 1.0) -> list[Marker]:
    """Markers on the whole photo (downscaled to :data:`MAX_SIDE` unless ``full_resolution``);
    ``small_markers`` searches harder (short perimeters, more thresholds), for corner markers
    printed small or without a white margin against the map; ``upscale`` enlarges a small photo
    first, where blurred markers of 20-30 px are read only when their cells span more pixels."""
    return find_markers_counted(image, small_markers, full_resolution, upscale)[0]


def find_markers_counted(image: np.ndarray, small_markers: bool = False, full_resolution: bool = False,
                         upscale: float = 1.0) -> tuple[list[Marker], int]:
    """:func:`find_markers`, and how many candidate quadrilaterals ArUco looked at (decoded or
    rejected): the measure of its work, which the grid search budgets (:mod:`.budget`)."""
    # a search already made on this photo within one grid search (.views) is not made again:
    # ``map from-photo`` asked for the default search once more after a markerless grid search
    found, candidates = views.once(image, ("markers", small_markers, full_resolution, float(upscale)),
                                   lambda: _search(image, small_markers, full_resolution, upscale))
    return list(found), candidates


def _search(image: np.ndarray, small_markers: bool, full_resolution: bool, upscale: float) -> tuple[list[Marker], int]:
    # the grey photo and its copy: made once for all the searches of one grid search (.views)
    gray = views.gray(image)
    scale = upscale if full_resolution else min(1.0, MAX_SIDE / max(gray.shape[:2]))
    if scale > 1:
        small = views.shrunk(gray, scale, cv2.INTER_CUBIC)
    else:
        small = views.shrunk(gray, scale, cv2.INTER_AREA) if scale < 1 else gray
    # the whole photo: grain shorter than a marker is no candidate (sides in the photo's pixels: an
    # enlarged copy's grain is enlarged with it)
    rate = max(0.005, 4 * MIN_MARKER_SIDE_PX * max(1.0, scale) / max(small.shape[:2]))
    corners, ids, rejected = _detector(small_markers=small_markers, min_perimeter_rate=rate, window_max=CORNER_WINDOW_MAX).detectMarkers(small)
    out: list[Marker] = []
    if ids is None:
        return out, len(rejected)
    for c, i in zip(corners, ids.ravel(), strict=True):
        out.append(Marker(int(i), c.reshape(4, 2).astype(np.float64) / scale))
    return _real_ones(gray, out), len(rejected) + len(ids)


#: the smallest base marker (its side, in squares) looked for on the board's top-down view:
#: stickers are 0.3-0.6 of a square (CONTRACT §4's figure bases; the independent renderer's
#: 8.6-15 mm), and the view is upright at :data:`RECTIFIED_PX` a square whatever the camera's
#: tilt. ArUco's default there (0.5 % of the view's side, 8 px) handed it every grain of printed
#: art: 2,400-4,300 candidates and 0.65-1.5 CPU-seconds on independent photos (seeds 341, 348,
#: 350); from 0.2 squares, 56-197 candidates and 0.05-0.1 s, the same markers read (seeds 341,
#: 342, 346, 348, 350)
MIN_BASE_MARKER_SQUARES = 0.2


def find_base_markers(image: np.ndarray, H: np.ndarray, cols: int, rows: int) -> list[Marker]:
    """Base markers (id 4 and up) on the top-down view of the board; ``H`` maps image pixels to
    board squares. Corners are returned in image pixels, like :func:`find_markers`."""
    px = RECTIFIED_PX
    S = np.array([[px, 0, 0], [0, px, 0], [0, 0, 1]], np.float64)
    top = cv2.warpPerspective(image, S @ H, (cols * px, rows * px), flags=cv2.INTER_LINEAR)
    gray = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY) if top.ndim == 3 else top
    rate = 4 * MIN_BASE_MARKER_SQUARES * px / max(gray.shape[:2])  # ArUco's least perimeter, of the view's longer side
    corners, ids, _ = _detector(small_markers=True, min_perimeter_rate=rate).detectMarkers(gray)
    out: list[Marker] = []
    if ids is None:
        return out
    back = np.linalg.inv(S @ H)
    for c, i in zip(corners, ids.ravel(), strict=True):
        if int(i) < 4:
            continue
        pts = cv2.perspectiveTransform(c.reshape(1, 4, 2).astype(np.float64), back)[0]
        out.append(Marker(int(i), pts))
    return _real_ones(image, out)


def find_markers_near(image: np.ndarray, H: np.ndarray, squares: list[tuple[int, int]], px: int = 2 * RECTIFIED_PX) -> list[Marker]:
    """Base markers looked for once more around given squares (those a base stands on whose
    marker the board-wide pass did not read): each square and half a square round it, seen from
    above at ``px`` pixels a square, sharpened, at two contrasts. Small, blurred stickers that
    the board-wide pass misses are often read here."""
    out: list[Marker] = []
    span = 2.0  # squares across each window
    size = int(span * px)
    # markers from a fifth of a square up, as on the board-wide view: ArUco's default least
    # perimeter (0.5 % of the window, under 2 px) handed it every grain of rock art, 1-2 CPU-seconds
    # a window (independent photo s0343: 59 of detect's 69 seconds, on a loaded machine)
    # six threshold windows (3-33 px), as the board-wide pass: with four (3-21) the search was a
    # third cheaper but lost s0371's marker of f6 in detect (independent seed 371), and with three
    # two more (s0387, s0391)
    detector = _detector(small_markers=True, min_perimeter_rate=4 * MIN_BASE_MARKER_SQUARES * px / size)
    clahe = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(4, 4))
    for col, row in squares:
        x0, y0 = col + 0.5 - span / 2, row + 0.5 - span / 2
        S = np.array([[px, 0, -x0 * px], [0, px, -y0 * px], [0, 0, 1]], np.float64)
        patch = cv2.warpPerspective(image, S @ H, (size, size), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)
        gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY) if patch.ndim == 3 else patch
        sharp = cv2.addWeighted(gray, 1.8, cv2.GaussianBlur(gray, (0, 0), 2.0), -0.8, 0)
        back = np.linalg.inv(S @ H)
        for view in (sharp, clahe.apply(gray)):
            corners, ids, _ = detector.detectMarkers(view)
            if ids is None:
                continue
            found = False
            for c, i in zip(corners, ids.ravel(), strict=True):
                if int(i) < 4:
                    continue
                pts = cv2.perspectiveTransform(c.reshape(1, 4, 2).astype(np.float64), back)[0]
                out.append(Marker(int(i), pts))
                found = True
            if found:
                break
    return _real_ones(image, out)


def merge(first: list[Marker], second: list[Marker]) -> list[Marker]:
    """Markers from both passes, each id once (the top-down pass wins for base markers: its
    corners are found on an upright, sharper view)."""
    by_id = {m.id: m for m in first}
    for m in second:
        by_id[m.id] = m
    return list(by_id.values())
