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

import contextvars
import math
from collections.abc import Collection, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from . import views
from .printed import DICT

MAX_SIDE = 2400  # markers are searched on a copy no larger than this; corners are scaled back
RECTIFIED_PX = 80  # pixels per square of the top-down view searched for base markers


@dataclass(frozen=True)
class Sticker:
    """A base marker's sticker a window showed, its marker not read (R102): the window's square,
    the sticker's middle in board units, and its inner cells as far as they show (1 light, 0
    dark, -1 not read: :func:`name_among` names it among the roster's unread markers, R115);
    where the window kept them, its view from above (grey, the window's pixels a square) and the
    light outlines round its middle it may be the sticker of (centre in the view's pixels, side,
    angle in degrees): :func:`name_by_pattern` names it by its whole printed pattern (R178)."""

    square: tuple[int, int]
    middle: tuple[float, float]
    cells: np.ndarray
    view: np.ndarray | None = None
    outlines: tuple[tuple[tuple[float, float], float, float], ...] = ()


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
    return find_markers_and_stickers_near(image, H, squares, px)[0]


def find_markers_and_stickers_near(image: np.ndarray, H: np.ndarray, squares: list[tuple[int, int]],
                                   px: int = 2 * RECTIFIED_PX) -> tuple[list[Marker], list[Sticker]]:
    """:func:`find_markers_near`'s markers, and the squares of those searched whose window shows a
    base marker's sticker that no marker was read in (:func:`sticker_at`, reading R102 in
    docs/readings.md), each with the sticker's middle in board units (squares from the map's
    north-west corner): a figure carrying a marker stands there, its code hidden or blurred.

    The windows are searched two at a time, one on each core (their warps, blurs and ArUco's
    search let go of the GIL): 0.05-0.07 CPU-seconds a window, a chunk of four was the largest
    part of ``photo detect`` after the grid search on most photos (round 13 of issue 28). Each
    window's search is its own, so the markers and their order are those of one window after
    the other."""
    if len(squares) < 2:
        found = [_near_window(image, H, col, row, px) for col, row in squares]
    else:
        with ThreadPoolExecutor(max_workers=NEAR_THREADS) as pool:
            # each window in its own copy of this thread's context (the player's language)
            found = [job.result() for job in [pool.submit(contextvars.copy_context().run, _near_window, image, H, col, row, px)
                                              for col, row in squares]]
    stickers = [Sticker(square, *shown) for square, (_markers, shown) in zip(squares, found, strict=True) if shown is not None]
    return _real_ones(image, [m for window, _middle in found for m in window]), stickers


#: the threads :func:`find_markers_near` searches its windows on: the two cores of the smallest
#: machine the assistant is measured on (issue 28's 1-second goal)
NEAR_THREADS = 2


#: what an unread sticker a window shows carries back (:class:`Sticker` less its square): its middle in
#: board units, its cells as far as they show, the window's view and the outlines it may be
_Shown = tuple[tuple[float, float], np.ndarray, np.ndarray, tuple[tuple[tuple[float, float], float, float], ...]]


def _near_window(image: np.ndarray, H: np.ndarray, col: int, row: int, px: int) -> tuple[list[Marker], _Shown | None]:
    """The base markers :func:`find_markers_near` reads in the window round square (``col``, ``row``),
    in image pixels (not yet checked for a light margin), and where no marker is read, the middle
    (board units) of an unread marker's sticker the window shows, if any (R102), with its cells
    as far as they show (R115), the window's view and the light outlines round its middle it may
    be the sticker of (R178). Its own detector
    and CLAHE: OpenCV's CLAHE keeps working buffers, so one is not shared between threads."""
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
    x0, y0 = col + 0.5 - span / 2, row + 0.5 - span / 2
    S = np.array([[px, 0, -x0 * px], [0, px, -y0 * px], [0, 0, 1]], np.float64)
    patch = cv2.warpPerspective(image, S @ H, (size, size), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)
    gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY) if patch.ndim == 3 else patch
    sharp = cv2.addWeighted(gray, 1.8, cv2.GaussianBlur(gray, (0, 0), 2.0), -0.8, 0)
    back = np.linalg.inv(S @ H)
    read: set[int] = set()
    # the contrast-equalised view only where the sharpened one reads no marker (it was made for every window)
    for view in (sharp, None):
        corners, ids, _ = detector.detectMarkers(view if view is not None else clahe.apply(gray))
        if ids is None:
            continue
        for c, i in zip(corners, ids.ravel(), strict=True):
            if int(i) < 4:
                continue
            pts = cv2.perspectiveTransform(c.reshape(1, 4, 2).astype(np.float64), back)[0]
            out.append(Marker(int(i), pts))
            read.add(int(i))
        if read:
            break
    # a sticker whose outline a figure's body cuts: ArUco sees no quadrilateral there (reading R77 in docs/readings.md)
    regions = _LightRegions(gray, px)  # the cut reader's and the sticker finder's, made once
    cuts = read_cut_markers(gray, px, regions)
    if not read and not cuts:
        # nothing read: the cut sticker once more at the board-wide view's scale, half this one
        # (reading R97 in docs/readings.md): the cut reader's blur and cell reading are a fixed
        # number of pixels, so a cut ring may read at one scale and not the other (independent
        # photo s0408 with the reference: f5's sticker at A12 read at 80 px a square, not at 160)
        half = cv2.resize(gray, (size // 2, size // 2), interpolation=cv2.INTER_AREA)
        cuts = [(cut_id, 2.0 * cut) for cut_id, cut in read_cut_markers(half, px // 2)]
    for cut_id, cut in cuts:
        if cut_id not in read:
            out.append(Marker(cut_id, cv2.perspectiveTransform(cut.reshape(1, 4, 2).astype(np.float64), back)[0]))
    shown = None if read or cuts else sticker_at(gray, px, regions)
    if shown is None:
        return out, None
    # the view and the light outlines round its middle, for naming the sticker by its whole pattern (R178)
    outlines = _distinct_outlines([o for squares in regions.squares(STICKER_NEAR) for o in squares])[:PATTERN_OUTLINES]
    return out, ((x0 + shown[0][0] / px, y0 + shown[0][1] / px), shown[1], gray, tuple(outlines))


def merge(first: list[Marker], second: list[Marker]) -> list[Marker]:
    """Markers from both passes, each id once (the top-down pass wins for base markers: its
    corners are found on an upright, sharper view)."""
    by_id = {m.id: m for m in first}
    for m in second:
        by_id[m.id] = m
    return list(by_id.values())


# --------------------------------------------------------------------------- a sticker a figure's body cuts

#: the marker's black square against the light sticker round it (its margin and the square): a
#: sticker's outline, looked for where ArUco finds no quadrilateral, is a light square ring this
#: many times the black square's side across (a margin of 0.08-0.25 of the side on each side)
MARGIN_RATIOS = (1.15, 1.25, 1.35, 1.5)
#: the light sticker's outer side, in squares, a base marker may have (a Medium base's sticker of
#: 0.3-0.45 of a square with its margin, a Large base's up to 0.75)
STICKER_SIDE = (0.3, 0.85)
#: a cell reads light when its brightness lies within this share of the sticker's contrast of its
#: light margin's, dark within it of its black border's; between, it is hidden (under a body of
#: another tone, a cut edge) and not read
CELL_TONE = 0.3
#: the least share of the sticker's light margin (its 28 cells round the black square) that must
#: show light: the body hides at most a corner of it
MARGIN_SHOWN = 0.5
#: a cell is read only where its middle is one tone: its pixels' spread at most this share of the
#: sticker's contrast (a square fitted half a cell off puts an edge across most cells)
CELL_EVEN = 0.2
#: how many of the 16 inner cells must be read (neither hidden nor unclear) to name a marker
MIN_CELLS_READ = 11
#: every other marker of the dictionary (any turn) must differ from the read cells in at least this
#: many of them: the dictionary's markers differ from each other in 4 cells or more, so with a
#: corner hidden a cell read wrong must not make another marker as likely
MIN_RUNNER_UP = 3


@lru_cache(maxsize=1)
def _codes() -> np.ndarray:
    """The inner 4 x 4 cells (light = 1) of every marker of :data:`.printed.DICT`, in its four
    turns: (ids, 4, 4, 4)."""
    d = cv2.aruco.getPredefinedDictionary(DICT)
    n = int(d.bytesList.shape[0])
    return np.array([[np.rot90(cv2.aruco.generateImageMarker(d, i, 6)[1:5, 1:5] > 127, k) for k in range(4)] for i in range(n)])


class _LightRegions:
    """A window's view from above (``px`` pixels a square) blurred, and its light regions of a
    sticker's size, with the squares each may be the outline of and the sticker cells read round
    them: made once for both readers of one window, the cut-marker reader
    (:func:`read_cut_markers`) and, where it reads nothing, the sticker finder
    (:func:`sticker_at`), which tries the same squares -- each made them anew, the cells the larger
    part of a window's cost after ArUco's search (round 18 of issue 28). The same arrays either
    way: no reading changes."""

    def __init__(self, gray: np.ndarray, px: int) -> None:
        self.px, self.shape = px, gray.shape
        self.g = cv2.GaussianBlur(gray, (0, 0), 1.0)
        block = int(0.6 * px) | 1
        light = cv2.adaptiveThreshold(self.g, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, -10)
        self.count, self.labels, self.stats, _c = cv2.connectedComponentsWithStats(light, connectivity=8)
        self._squares: dict[int, list[tuple[tuple[float, float], float, float]]] = {}
        self._cells: dict[tuple[float, float, float, float], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}

    def squares(self, near: float) -> Iterator[list[tuple[tuple[float, float], float, float]]]:
        """For each light region of a sticker's size whose box's middle lies within ``near``
        squares of the view's centre (either way), in the order the regions are labelled, the
        squares (centre, side, angle in degrees) it may be the sticker of: its least rectangle
        (:func:`_square_outlines`) and its straight sides (:func:`_straight_sides`)."""
        px = self.px
        for k in range(1, self.count):
            x, y, w, h, area = (int(v) for v in self.stats[k])
            if not STICKER_SIDE[0] * px * 0.8 <= max(w, h) <= STICKER_SIDE[1] * px * 1.5 or area < 0.1 * (STICKER_SIDE[0] * px) ** 2:
                continue
            if max(abs(x + w / 2 - self.shape[1] / 2), abs(y + h / 2 - self.shape[0] / 2)) > near * px:
                continue
            if k not in self._squares:
                contours, _h = cv2.findContours((self.labels[y:y + h, x:x + w] == k).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
                outline = (max(contours, key=len).reshape(-1, 2) + [x, y]).astype(np.float32)  # the region's least rectangle is its outline's
                (rx, ry), (rw, rh), turned = cv2.minAreaRect(outline)
                self._squares[k] = _square_outlines(((rx, ry), (rw, rh), turned), px) + _straight_sides(outline.astype(np.float64), px)
            yield self._squares[k]

    def sticker_cells(self, centre: tuple[float, float], cell: float, t: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:func:`_sticker_cells` on the blurred view, each made once (callers only read them)."""
        key = (float(centre[0]), float(centre[1]), float(cell), float(t))
        made = self._cells.get(key)
        if made is None:
            made = self._cells[key] = _sticker_cells(self.g, centre, cell, t)
        return made


def read_cut_markers(gray: np.ndarray, px: int, regions: _LightRegions | None = None) -> list[tuple[int, np.ndarray]]:
    """Base markers (id 4 and up) whose outline a figure's body cuts, on a view from above at
    ``px`` pixels a square: (id, its 4 corners in the view's pixels). A body standing on its base
    leans over the sticker from the camera's side; a corner of the black square hidden, ArUco
    finds no quadrilateral and reads nothing (independent photo s0409: 9 of 11 stickers cut so,
    unread). The light sticker is a square ring round the black square all the same, three of its
    corners seen: its outline's least rectangle gives the square; the cells are read where clearly
    light or dark, the rest (under the body) left out, and a marker is named only when the cells
    read match it and no other of the dictionary comes near (:data:`MIN_RUNNER_UP`). ``regions``:
    the view's light regions (:class:`_LightRegions`) where the window made them already."""
    regions = regions if regions is not None else _LightRegions(gray, px)
    codes = _codes()
    out: list[tuple[int, np.ndarray]] = []
    # another square's sticker (its light region's middle beyond NEAR_CENTRE): read in that square's own window, if it is looked at
    for squares in regions.squares(NEAR_CENTRE):
        for (cx, cy), side, ang in squares:
            read = _read_cells(regions, (cx, cy), side, ang, codes)
            if read is None:
                continue
            mid, inner_side, turn = read
            t = np.deg2rad(ang)
            u, v = np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)])
            half = inner_side / 2
            corners = np.array([(cx, cy) + half * (sx * u + sy * v) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))], np.float32)
            out.append((mid, np.roll(corners, -turn, axis=0)))
            break
    return out


#: the least share of a sticker's light margin (its 28 cells round the black square) that must show
#: light round a dark border for a sticker to be read as there (:func:`sticker_at`): on the
#: diagnosis photos' unread stickers 0.32-0.93 (58 of 93 shown at all), on 86 bases without a
#: marker and on 151 squares of printed art read as bases 0.00 but one (0.36, a lava floor)
STICKER_SHOWN = 0.3


def sticker_at(gray: np.ndarray, px: int, regions: _LightRegions | None = None) -> tuple[tuple[float, float], np.ndarray] | None:
    """Where (the view's pixels) the view from above (``px`` pixels a square, the square at the
    view's centre) shows a base marker's sticker, read or not, if it does: a light square ring
    (:data:`MARGIN_RATIOS`, the sticker's margin) of a sticker's size (:data:`STICKER_SIDE`) round
    a dark square border, its inner cells part light, part dark -- however few of them can be read
    (a body over a corner, blur, tilt).
    A base without a sticker is plain dark plastic; printed art seldom holds a light square ring
    round a dark one of that size (reading R102 in docs/readings.md). With the middle, its inner
    cells as far as they show (:func:`_cells_shown`). ``regions``: the view's light regions
    (:class:`_LightRegions`) where the cut reader made them already."""
    regions = regions if regions is not None else _LightRegions(gray, px)
    for squares in regions.squares(STICKER_NEAR):  # a sticker beside the square's middle is another square's
        for centre, side, ang in squares:
            if _ring_shown(regions, centre, side, ang) >= STICKER_SHOWN:
                return (float(centre[0]), float(centre[1])), _cells_shown(regions, centre, side, ang)
    return None


def _cells_shown(regions: _LightRegions, centre: tuple[float, float], outer: float, angle: float) -> np.ndarray:
    """The inner 4 x 4 cells of the sticker of side ``outer`` round ``centre`` turned ``angle``
    degrees as far as they show (:func:`sticker_at`): 1 light, 0 dark, -1 not read (under a body,
    an edge across it, neither tone) -- at the margin ratio (:data:`MARGIN_RATIOS`) that reads
    the most of them (:func:`_inner_cells`). Too few to name a marker among the whole
    dictionary, they may still tell apart the few the roster left unread (:func:`name_among`)."""
    t = np.deg2rad(angle)
    best = np.full((4, 4), -1, np.int8)
    for ratio in MARGIN_RATIOS:
        read = _inner_cells(regions, centre, outer / ratio, t)
        if read is not None and int(read[1].sum()) > int((best >= 0).sum()):
            best = np.where(read[1], read[0].astype(np.int8), np.int8(-1))
    return best


#: the least inner cells (of 16) a sticker must show to be named among the roster's unread markers
#: (:func:`name_among`): half of them
NAMED_CELLS = 8
#: how many of the cells shown the marker named may contradict (:func:`name_among`): the figure's
#: dark body leaning over the sticker darkens a light cell that still reads as one tone. On the
#: diagnosis photos the two stickers named so with one contradicted cell were named right (s0380,
#: s0488); the one with two was not (s0416 with the reference: 20's sticker read as 16, its cells
#: fitted off, 7 of 15 against 20)
NAMED_WRONG = 1
#: how many more of the cells shown every other candidate (in its likeliest turn) must contradict
#: than the one named (:func:`name_among`)
NAMED_LEAD = 3


def name_among(cells: np.ndarray, candidates: Collection[int]) -> int | None:
    """The one marker of ``candidates`` (the roster's markers not yet read) that the sticker's cells
    shown (:func:`_cells_shown`: 1 light, 0 dark, -1 not read) name, or None where they cannot
    tell it from the others (reading R115 in docs/readings.md).

    A sticker half under its figure's body shows too few cells to name its marker among the
    dictionary's 46 base markers in four turns each (:func:`read_cut_markers` asks 11 of 16 and no
    other marker near); among the two to five markers the roster left unread, far fewer cells
    tell them apart. One is named where at least :data:`NAMED_CELLS` show, it contradicts at
    most :data:`NAMED_WRONG` in its likeliest turn, and every other candidate at least
    :data:`NAMED_LEAD` more.

    >>> codes = _codes()
    >>> cells = np.where(codes[23, 1], 1, 0).astype(np.int8)
    >>> cells[:2, 2:] = -1  # a body over the sticker's north-east quarter
    >>> name_among(cells, {23, 24}), name_among(cells, {23}), name_among(np.full((4, 4), -1, np.int8), {23})
    (23, 23, None)
    """
    known = cells >= 0
    if int(known.sum()) < NAMED_CELLS or not candidates:
        return None
    codes = _codes()
    against = {int(mid): int(((codes[mid] != (cells == 1)) & known).sum(axis=(1, 2)).min())
               for mid in candidates if 0 <= mid < len(codes)}
    if not against:
        return None
    ranked = sorted(against, key=lambda mid: (against[mid], mid))
    first = ranked[0]
    if against[first] > NAMED_WRONG or any(against[mid] < against[first] + NAMED_LEAD for mid in ranked[1:]):
        return None
    return first


#: pixels a sticker's cell spans in the upright view its printed pattern is matched on
#: (:func:`name_by_pattern`): 8 read the diagnosis photos' unread stickers as 6 does, at twice the cost
PATTERN_CELL_PX = 6
#: the most light outlines round a sticker's middle its pattern is matched at (:func:`name_by_pattern`):
#: the region's least rectangle and its straight sides give a few, all but the first few alike; with
#: every one (up to 17) the same stickers were named on the diagnosis photos, at 0.075 CPU-s a window
#: against 0.045
PATTERN_OUTLINES = 6
#: how much better (normalised correlation, -1 to 1) the pattern of the marker named must fit the
#: sticker than every other marker the roster left unread, each in its likeliest turn, size and
#: place (:func:`name_by_pattern`). On the 173 windows of the diagnosis photos (seeds 341-550,
#: without the reference) that showed an unread sticker the cells did not name, among two or more
#: unread markers: a lead of 0.07 named 69 right and 1 wrong (its marker's own pattern second);
#: 0.05 named 85 right and 4 wrong, 0.08 55 right and 1 wrong
PATTERN_LEAD = 0.07
#: the scales round each outline's black square the pattern is matched at: a sticker's margin is
#: 0.08-0.25 of its side (:data:`MARGIN_RATIOS`) and its outline is found a few pixels off
PATTERN_SCALES = (0.9, 1.0, 1.1)


def _distinct_outlines(outlines: list[tuple[tuple[float, float], float, float]]) -> list[tuple[tuple[float, float], float, float]]:
    """The outlines (centre, side, angle in degrees) less those nearly another's before them:
    centres within 0.08 of a side, sides within 0.08 of one, angles (modulo a right angle) within
    3 degrees -- the same square found twice."""
    out: list[tuple[tuple[float, float], float, float]] = []
    for c, side, ang in outlines:
        if not any(math.hypot(c[0] - c2[0], c[1] - c2[1]) < 0.08 * side2 and abs(side - side2) < 0.08 * side2
                   and abs((ang - ang2 + 45) % 90 - 45) < 3 for c2, side2, ang2 in out):
            out.append((c, side, ang))
    return out


@lru_cache(maxsize=4096)
def _pattern(mid: int, turn: int, scale: float) -> np.ndarray:
    """Marker ``mid``'s printed pattern in its turn ``turn``: a cell of light margin round the black
    border and its 4 x 4 inner cells, :data:`PATTERN_CELL_PX` pixels a cell times ``scale``."""
    cells = np.full((8, 8), 230, np.float32)
    cells[1:7, 1:7] = 25
    cells[2:6, 2:6] = np.where(_codes()[mid, turn], 230, 25)
    big = cv2.resize(cells, (8 * PATTERN_CELL_PX, 8 * PATTERN_CELL_PX), interpolation=cv2.INTER_NEAREST)
    n = int(round(8 * PATTERN_CELL_PX * scale))
    return cv2.resize(big, (n, n), interpolation=cv2.INTER_AREA)


def pattern_fits(view: np.ndarray, outlines: Collection[tuple[tuple[float, float], float, float]], candidates: Collection[int]) -> dict[int, float]:
    """How well each marker of ``candidates`` fits the sticker on ``view`` (grey, from above): its
    printed pattern's best normalised correlation with the view, in any of its four turns, at each
    outline (centre, the light square's side, angle) at every margin ratio (:data:`MARGIN_RATIOS`),
    scale (:data:`PATTERN_SCALES`) and place within two cells of it (reading R178).

    Each outline at each margin ratio is its own upright view and its own matches: they are made
    :data:`NEAR_THREADS` at a time (OpenCV's warps and matches let go of the GIL) and their best fits
    taken in the order one after the other takes them, so the fits are the same bit for bit (the
    largest of the same correlations); a window cost 0.045 CPU-seconds on one core, the most of
    ``photo detect``'s work after the grid search on a photo of 13 marked figures (s0558, round 21
    of issue 28)."""
    g = cv2.GaussianBlur(view, (0, 0), 0.7).astype(np.float32)
    mids = [int(mid) for mid in candidates if 4 <= mid < len(_codes())]
    places = [(centre, outer, ang, ratio) for centre, outer, ang in outlines for ratio in MARGIN_RATIOS]
    if len(places) < 2:
        found = [_pattern_fits_at(g, place, mids) for place in places]
    else:
        with ThreadPoolExecutor(max_workers=NEAR_THREADS) as pool:
            found = list(pool.map(lambda place: _pattern_fits_at(g, place, mids), places))
    fits: dict[int, float] = {}
    for part in found:
        for mid, v in part.items():
            if v > fits.get(mid, -2.0):
                fits[mid] = v
    return fits


def _pattern_fits_at(g: np.ndarray, place: tuple[tuple[float, float], float, float, float], mids: list[int]) -> dict[int, float]:
    """:func:`pattern_fits` at one outline (centre, side, angle) and margin ratio of the blurred view
    ``g``: each marker's best correlation there, as the whole search took them (a correlation that
    is not a number is never kept)."""
    (cx, cy), outer, ang, ratio = place
    n = 12 * PATTERN_CELL_PX  # 12 cells across: the sticker's 8 and two round it
    t = np.deg2rad(ang)
    scale = PATTERN_CELL_PX / (outer / ratio / 6)  # the upright view's pixels a view's pixel
    c, s = np.cos(t) * scale, np.sin(t) * scale
    M = np.array([[c, s, n / 2 - (c * cx + s * cy)], [-s, c, n / 2 - (-s * cx + c * cy)]], np.float32)
    up = cv2.warpAffine(g, M, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    fits: dict[int, float] = {}
    for mid in mids:
        for turn in range(4):
            for k in PATTERN_SCALES:
                v = float(cv2.matchTemplate(up, _pattern(mid, turn, k), cv2.TM_CCOEFF_NORMED).max())
                if v > fits.get(mid, -2.0):
                    fits[mid] = v
    return fits


def name_by_pattern(sticker: Sticker, candidates: Collection[int]) -> int | None:
    """The one marker of ``candidates`` (the roster's markers not yet read, two or more) whose whole
    printed pattern fits the sticker ``sticker`` shows better than every other's by
    :data:`PATTERN_LEAD`, or None (reading R178 in docs/readings.md).

    The cells :func:`name_among` reads are those of one outline, the first that shows a light ring
    (:func:`sticker_at`); where a body merges with the ring, that outline is often a size or a
    cell off, and the cells read are not the sticker's (diagnosis photo s0406: 13's sticker at
    J8 read 3 cells against 13, 3 against 40). Matched at each outline round the sticker's middle,
    a little larger and smaller and shifted, the pattern finds the sticker's own place: the
    border, the margin and the cells that show all count, and the body over the rest lowers every
    marker's fit alike.

    >>> view = np.full((320, 320), 40, np.uint8)
    >>> big = cv2.resize(_pattern(23, 0, 1.0), (96, 96), interpolation=cv2.INTER_NEAREST).astype(np.uint8)
    >>> view[112:208, 112:208] = big
    >>> view[112:208, 112:140] = 90  # a body over the sticker's west side
    >>> st = Sticker((1, 1), (1.5, 1.5), np.full((4, 4), -1, np.int8), view, (((160.0, 160.0), 96.0, 0.0),))
    >>> name_by_pattern(st, {23, 24, 30}), name_by_pattern(st, {23}), name_by_pattern(Sticker((1, 1), (1.5, 1.5), st.cells), {23, 24})
    (23, None, None)
    """
    if sticker.view is None or not sticker.outlines or len(candidates) < 2:
        return None
    fits = pattern_fits(sticker.view, sticker.outlines, candidates)
    if len(fits) < 2:
        return None
    ranked = sorted(fits, key=lambda mid: (-fits[mid], mid))
    return ranked[0] if fits[ranked[0]] - fits[ranked[1]] >= PATTERN_LEAD else None


#: squares from the window's centre a sticker's light region's middle may lie to be read as the
#: square's own (:func:`sticker_at`): half a square, the square itself
STICKER_NEAR = 0.5


def _ring_shown(regions: _LightRegions, centre: tuple[float, float], outer: float, angle: float) -> float:
    """The share of a sticker's light margin that shows light round a dark border in the light square
    of side ``outer`` round ``centre`` turned ``angle`` degrees, the inner cells part light, part dark
    (0.15-0.85 of them); 0 where no margin ratio (:data:`MARGIN_RATIOS`) gives one."""
    t = np.deg2rad(angle)
    best = 0.0
    for ratio in MARGIN_RATIOS:
        _up, cells, ring, border = regions.sticker_cells(centre, outer / ratio / 6, t)
        white, black = _quantile(ring, 0.75), _quantile(border, 0.25)
        if white - black < 40:
            continue
        tone = CELL_TONE * (white - black)
        lit_inner = float((cells[2:6, 2:6] >= white - tone).mean())
        if int((border >= white - tone).sum()) > 2 or not 0.15 <= lit_inner <= 0.85:
            continue
        best = max(best, float((ring >= white - tone).mean()))
    return best


def _square_outlines(rect: tuple[tuple[float, float], tuple[float, float], float], px: int) -> list[tuple[tuple[float, float], float, float]]:
    """The squares (centre, side, angle in degrees) a light outline's least rectangle ``rect`` may
    be the sticker of: itself where square; where a body hid one side of the ring (a U left), the
    square on its longer side, either way along the shorter (:data:`STICKER_SIDE`)."""
    (cx, cy), (rw, rh), ang = rect
    out = []
    if STICKER_SIDE[0] * px <= (rw + rh) / 2 <= STICKER_SIDE[1] * px and 0.8 <= rw / max(rh, 1e-6) <= 1.25:
        out.append(((cx, cy), (rw + rh) / 2, ang))
    long, short = max(rw, rh), min(rw, rh)
    if STICKER_SIDE[0] * px <= long <= STICKER_SIDE[1] * px and 0.4 * long <= short < 0.9 * long:
        t = np.deg2rad(ang)
        # the shorter side's direction: the rectangle's v axis where its height is the shorter
        d = np.array([-np.sin(t), np.cos(t)]) if rh < rw else np.array([np.cos(t), np.sin(t)])
        for sign in (1, -1):
            c = np.array([cx, cy]) + sign * (long - short) / 2 * d
            out.append(((float(c[0]), float(c[1])), long, ang))
    return out


#: squares from the window's centre a light region's middle may lie to be read as the window's
#: square's sticker (a Large base's sticker lies near its block's centre, a corner of the square)
NEAR_CENTRE = 0.8
#: the least share of a sticker's side a straight run of a light outline's edge must cover to be
#: read as one of the sticker's sides (:func:`_straight_sides`)
SIDE_RUN = 0.5


def _straight_sides(pts: np.ndarray, px: int) -> list[tuple[tuple[float, float], float, float]]:
    """The squares (centre, side, angle in degrees) a light outline may be the sticker of, by its
    straight sides: where a figure's light head or body touches the sticker's ring, the two merge
    and their least rectangle is no square; the ring's outer edge still runs straight along its
    sides, the body's curves. The outline's edge points are turned by the edges' commonest
    direction (modulo a right angle) and counted by where they lie across it: a side is a
    position where at least :data:`SIDE_RUN` of a sticker's side lies (1 px wide). Two sides a
    sticker's size apart across each direction give a square; one pair only, the other found
    once, gives the square beside that one side."""
    if len(pts) < 20:
        return []
    d = np.roll(pts, -3, axis=0) - np.roll(pts, 3, axis=0)
    ang = np.mod(np.degrees(np.arctan2(d[:, 1], d[:, 0])), 90.0)
    hist = np.bincount(np.round(ang / 2).astype(int) % 45, minlength=45).astype(float)
    hist = hist + np.roll(hist, 1) + np.roll(hist, -1)
    turn = float(np.argmax(hist)) * 2.0
    t = np.deg2rad(turn)
    u, v = np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)])
    lo, hi = STICKER_SIDE[0] * px, STICKER_SIDE[1] * px

    def sides(axis: np.ndarray) -> list[float]:
        proj = pts @ axis
        base = np.floor(proj.min())
        counts = np.bincount(np.round(proj - base).astype(int)).astype(float)
        counts = counts + np.concatenate([[0], counts[:-1]])  # an edge a pixel either way
        at = [i for i in range(len(counts)) if counts[i] >= SIDE_RUN * lo and counts[i] == counts[max(0, i - 2):i + 3].max()]
        return [float(i + base - 0.5) for i in at]

    su, sv = sides(u), sides(v)
    pairs_u = [(a, b) for a in su for b in su if lo <= b - a <= hi]
    pairs_v = [(a, b) for a in sv for b in sv if lo <= b - a <= hi]
    out = []
    for a, b in pairs_u:
        side = b - a
        cands = [(c, dd) for c, dd in pairs_v if abs((dd - c) - side) <= 0.15 * side]
        mids_v = [(c + dd) / 2 for c, dd in cands] or [e + side / 2 for e in sv] + [e - side / 2 for e in sv]
        for mv in mids_v:
            centre = (a + b) / 2 * u + mv * v
            out.append(((float(centre[0]), float(centre[1])), side, turn))
    for c, dd in pairs_v:
        if not pairs_u:
            side = dd - c
            for e in su:
                for mu in (e + side / 2, e - side / 2):
                    centre = mu * u + (c + dd) / 2 * v
                    out.append(((float(centre[0]), float(centre[1])), side, turn))
    return out[:12]


def _quantile(values: np.ndarray, q: float) -> float:
    """``np.percentile(values, 100 * q)`` (linear between the nearest two), for the few dozen cells
    of a sticker: numpy's own cost 0.2 ms a call, half the cut reading's time.

    >>> _quantile(np.array([4.0, 1.0, 3.0, 2.0]), 0.75)
    3.25
    """
    v = np.sort(values)
    at = q * (len(v) - 1)
    lo = int(at)
    hi = min(lo + 1, len(v) - 1)
    return float(v[lo] + (at - lo) * (v[hi] - v[lo]))


#: where the margin's 28 cells and the black border's 20 lie among a sticker's 8 x 8 cells (flat), in
#: the order :func:`_sticker_cells` gives them: the top row, the bottom row, the left column, the right
_RING = np.concatenate([np.arange(8), 56 + np.arange(8), 8 * np.arange(1, 7), 8 * np.arange(1, 7) + 7])
_BORDER = np.concatenate([8 + np.arange(1, 7), 48 + np.arange(1, 7), 8 * np.arange(2, 6) + 1, 8 * np.arange(2, 6) + 6])


def _sticker_cells(g: np.ndarray, centre: tuple[float, float], cell: float, t: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The 8 x 8 cells of a sticker (its margin, the black border and the 4 x 4 inner cells) of
    ``cell`` pixels round ``centre``, turned ``t`` radians, seen upright at 10 px a cell: the
    pixels (80 x 80, as ``g``: 8-bit grey), each cell's middle's mean (8, 8; float32), and the
    margin's 28 cells and the border's 20.

    Each middle's 16 pixels are summed as integers and divided by 16: the float32 mean numpy
    took over the (8, 4, 8, 4) view is the same number (a sum of 16 values of 0-255 and its
    sixteenth are exact in float32, in any order), at a third of the cost -- the cut reader
    reads these cells round 50-60 candidate squares a window (round 18 of issue 28)."""
    size = 80
    scale = size / (8 * cell)
    c, s = np.cos(t) * scale, np.sin(t) * scale
    M = np.array([[c, s, size / 2 - (c * centre[0] + s * centre[1])], [-s, c, size / 2 - (-s * centre[0] + c * centre[1])]], np.float32)
    up = cv2.warpAffine(g, M, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    rows = up.reshape(8, 10, size)[:, 3:7].sum(axis=1, dtype=np.int32)  # each cell row's middle four pixel rows
    cells = (rows.reshape(8, 8, 10)[:, :, 3:7].sum(axis=2).astype(np.float32) / np.float32(16))
    flat = cells.ravel()
    return up, cells, flat[_RING], flat[_BORDER]


def _inner_cells(regions: _LightRegions, centre: tuple[float, float], side: float, t: float, least_toned: int = 0,
                 least_margin: float = 0.0) -> tuple[np.ndarray, np.ndarray, float, int] | None:
    """The inner 4 x 4 cells of the sticker whose black square of side ``side`` lies round ``centre``
    turned ``t`` radians: which read light, which are read at all (clearly near the margin's or
    the border's tone, their middle one tone), the share of the light margin that shows light, and
    how many cells are clearly of either tone; None where the sticker shows no contrast or its
    black border shows light (no sticker there at this size), or fewer than ``least_toned`` cells
    are clearly of either tone or less than ``least_margin`` of the margin shows light (the cut
    reader's own bars, :func:`_read_cells`: the cells' spread, half the reading's cost, is then not
    measured for an answer that would not be read)."""
    up, cells, ring, border = regions.sticker_cells(centre, side / 6, t)
    white, black = _quantile(ring, 0.75), _quantile(border, 0.25)
    if white - black < 40:
        return None
    tone = CELL_TONE * (white - black)
    if int((border >= white - tone).sum()) > 2:
        return None
    inner = cells[2:6, 2:6]
    lit, unlit = inner >= white - tone, inner <= black + tone
    toned, margin = int((lit | unlit).sum()), float((ring >= white - tone).mean())
    if toned < least_toned or margin < least_margin:
        return None
    middles = up.astype(np.float32).reshape(8, 10, 8, 10)[2:6, 2:8, 2:6, 2:8]  # by cell: its middle six by six
    spread = np.sqrt(np.maximum((middles**2).mean(axis=(1, 3)) - middles.mean(axis=(1, 3)) ** 2, 0.0))
    known = (lit | unlit) & (spread <= CELL_EVEN * (white - black))  # a cell the outline lies across is not one tone
    return lit, known, margin, toned


def _read_cells(regions: _LightRegions, centre: tuple[float, float], outer: float, angle: float, codes: np.ndarray) -> tuple[int, float, int] | None:
    """The marker read in the light square of side ``outer`` round ``centre`` turned ``angle``
    degrees (:func:`read_cut_markers`): (id, the black square's side, its turn), or None."""
    best: tuple[int, float, int, int] | None = None
    t = np.deg2rad(angle)
    for ratio in MARGIN_RATIOS:
        side = outer / ratio
        read = _inner_cells(regions, centre, side, t, MIN_CELLS_READ, MARGIN_SHOWN)
        if read is None:
            continue
        bits, known, margin, toned = read
        if toned < MIN_CELLS_READ or margin < MARGIN_SHOWN or int(known.sum()) < MIN_CELLS_READ:
            continue
        wrong = ((codes != bits) & known).sum(axis=(2, 3))  # (ids, turns)
        wrong[:4] = 99  # the map's corner markers are no base's
        order = np.argsort(wrong.min(axis=1))
        first, second = int(order[0]), int(order[1])
        d1 = int(wrong[first].min())
        others = min(int(wrong[second].min()), int(np.sort(wrong[first])[1]))
        if d1 == 0 and others >= MIN_RUNNER_UP and (best is None or others > best[3]):
            best = (first, side, int(wrong[first].argmin()), others)
    return None if best is None else best[:3]


# --------------------------------------------------------------------------- a corner marker a figure cuts

#: pixels a marker's cell spans in the view a missing corner marker is looked for in
#: (:func:`find_corner_marker`)
CORNER_CELL_PX = 8
#: the least normalised correlation of the view with the marker's own printed pattern for it to be
#: read there: a figure's head over a corner of it leaves 0.86 (independent diagnosis photo s0427);
#: other markers' patterns, or the same turned, score 0.5-0.6 there
CORNER_MATCH = 0.7
#: the most any place of the window a cell or more away may match it: the sticker is in one place
CORNER_ELSEWHERE = 0.5


def find_corner_marker(image: np.ndarray, H: np.ndarray, corner_id: int, cols: int, rows: int, side: float) -> Marker | None:
    """The map-corner marker ``corner_id`` (0-3: NW, NE, SE, SW) that the marker search did not
    read, looked for once more where the grid ``H`` (image -> board, from the other three) puts it,
    by its own printed pattern (reading R83 in docs/readings.md). ArUco needs the black square's
    four corners; a figure standing at the map's corner, seen from the side, hides the one on the
    map (independent diagnosis photo s0427: a head over marker 0's corner, the grid extrapolated
    0.18 squares uncertain and refused). The marker lies outside the map, squared with its edges,
    its corner nearest the map on the map's corner, ``side`` squares wide (as the markers read
    are): the window two sides across round where it must be, seen from above at
    :data:`CORNER_CELL_PX` a cell, is correlated with the marker's pattern (with its light margin),
    each way it may be turned; it is read where the best match is clear (:data:`CORNER_MATCH`) and
    stands alone (:data:`CORNER_ELSEWHERE`). None otherwise."""
    map_corner = np.array([(0, 0), (cols, 0), (cols, rows), (0, rows)][corner_id], np.float64)
    outward = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)][corner_id], np.float64)
    cell = CORNER_CELL_PX
    per_square = 6 * cell / side  # the black square and its border are 6 cells across
    half = side * per_square  # a marker's side either way of where its centre must be
    centre = map_corner + outward * side / 2
    view_from_board = np.array([[per_square, 0, half - centre[0] * per_square], [0, per_square, half - centre[1] * per_square], [0, 0, 1]])
    size = int(2 * half)
    view = cv2.warpPerspective(image, view_from_board @ H, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    gray = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY) if view.ndim == 3 else view
    pattern = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(DICT), corner_id, 6 * cell)
    pattern = cv2.copyMakeBorder(pattern, cell, cell, cell, cell, cv2.BORDER_CONSTANT, value=255)  # the light margin
    best: tuple[float, int, np.ndarray] | None = None
    for turn in range(4):
        match = cv2.matchTemplate(gray, np.ascontiguousarray(np.rot90(pattern, turn)), cv2.TM_CCOEFF_NORMED)
        if best is None or float(match.max()) > best[0]:
            best = (float(match.max()), turn, match)
    assert best is not None
    score, turn, match = best
    y, x = (int(v) for v in np.unravel_index(int(np.argmax(match)), match.shape))
    elsewhere = match.copy()
    elsewhere[max(0, y - cell):y + cell + 1, max(0, x - cell):x + cell + 1] = -1.0
    if score < CORNER_MATCH or float(elsewhere.max()) > CORNER_ELSEWHERE:
        return None

    def vertex(profile: np.ndarray, at: int) -> float:  # the peak's subpixel offset (a parabola through three)
        if at <= 0 or at >= len(profile) - 1:
            return 0.0
        a, b, c = (float(v) for v in profile[at - 1:at + 2])
        return 0.5 * (a - c) / (a - 2 * b + c) if a - 2 * b + c < 0 else 0.0

    top_left = np.array([x + vertex(match[y], x), y + vertex(match[:, x], y)]) + cell
    black = top_left + np.array([[0, 0], [6, 0], [6, 6], [0, 6]], np.float64) * cell
    # ArUco's corner order is the marker's own (its top-left first): turned a quarter anticlockwise
    # in the view, its top-left lies at the view's bottom-left
    corners = cv2.perspectiveTransform(np.roll(black, turn, axis=0)[None], np.linalg.inv(view_from_board @ H))[0]
    return Marker(corner_id, corners)
