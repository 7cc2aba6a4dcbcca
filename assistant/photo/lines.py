"""Stage 2, without corner markers: the grid from the printed map itself.

1. The printed map's outline: the largest paper-coloured region, each clean four-cornered
   outline the edges give, and the region whose colours the table round the photo's rim does
   not show (the map against the table, whatever its art); each reduced to four corners gives a
   first homography for each way the map could lie (four orientations), and the printed grid is
   looked for on its lattice or inside it (a margin).
2. Each is refined with RANSAC over the grid lines themselves: around every predicted
   lattice point the actual crossing of the printed lines is found (the darkest cross of a
   small template match), and a homography is fitted to all of them.
3. A grid alone is symmetric, so what the photo shows chooses which way round it lies: the
   empty-map reference photo, else a corner marker beside the corner it names, else the map's
   printed terrain read through the grid. Too few matching lattice points, or nothing that
   tells the orientation, and no grid is claimed; the record never orients it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

import cv2
import numpy as np

from ..coords import Edge, Square
from ..i18n import N_, _
from ..model import Position
from ..photofile import lab as lab_of
from . import views
from .board import Grid, anchor_offset, rectify
from .budget import COST_PER_OUTLINE, COST_PER_RIDGE_SEARCH, OUTLINES_IN_RESERVE, Budget
from .mapread import MapReading, read_map
from .reference import Reference, orient_by_reference
from .sheetedges import bend_of_quads, lens_shown
from .straighten import bend_points, straighten_points

WORK = 1600  # the photo is searched at this width


def _touches_border(rect: Sequence[int], shape: tuple[int, ...]) -> bool:
    x, y, w, h = rect
    return x <= 1 or y <= 1 or x + w >= shape[1] - 1 or y + h >= shape[0] - 1


def _paper_quad(small: np.ndarray) -> np.ndarray | None:
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    paper: np.ndarray = ((h >= 8) & (h <= 32) & (s >= 12) & (s <= 110) & (v >= 70)).astype(np.uint8)
    paper = cv2.morphologyEx(paper, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    contours, _ = cv2.findContours(paper, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    # a region running off the photo is the table or the wall behind it, not the whole map
    inside = [c for c in contours if not _touches_border(cv2.boundingRect(c), paper.shape)]
    if not inside:
        return None
    c = max(inside, key=cv2.contourArea)
    if cv2.contourArea(c) < 0.02 * small.shape[0] * small.shape[1]:
        return None
    hull = cv2.convexHull(c)
    for eps in (0.01, 0.02, 0.03, 0.05):
        quad = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True)
        if len(quad) == 4:
            return quad.reshape(4, 2).astype(np.float64)
    return None


TOP = 32  # pixels per square of the top view in which crossings are searched


def _peaks(sums: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Per row of ``sums`` (the ink of a window's columns, or rows; an odd number a row), whether
    the one at ``at`` is a printed line: above the row's median by more than 6 a sum and 8 times
    the sums' median spread from it. All rows at once: a photo's 300-400 windows, 5-9 times a
    photo, one at a time spent a third of the search in ``np.median``'s overhead.

    >>> rows = np.array([[0, 1, 9, 1, 0], [3, 3, 4, 3, 3], [2, 0, 80, 1, 3], [0, 10, 50, 20, 30]], np.float32)
    >>> _peaks(rows, rows.argmax(axis=1)).tolist()  # 8 over the median, not 30; 1; 78 > 30; 30, not 8 x 10
    [False, False, True, False]
    """
    n = sums.shape[1]
    assert n % 2 == 1  # the median is the middle value
    med = np.sort(sums, axis=1)[:, n // 2]
    spread = np.sort(np.abs(sums - med[:, None]), axis=1)[:, n // 2]
    top = sums[np.arange(len(sums)), at]
    return top.astype(np.float64) - med.astype(np.float64) > np.maximum(6.0 * n, 8.0 * spread.astype(np.float64))


def _subpixel(sums: np.ndarray, at: int) -> float:
    """Offset of a peak's true top from its best pixel, by the parabola through three sums."""
    if at == 0 or at == len(sums) - 1:
        return 0.0
    a, b, c = float(sums[at - 1]), float(sums[at]), float(sums[at + 1])
    den = a - 2 * b + c
    return 0.0 if den >= 0 else 0.5 * (a - c) / den


#: the largest view of the printed lines' ink (pixels, one byte each) kept for the rest of a grid search
#: (:func:`_ink_view`): a 30 x 30 map's at :data:`TOP` pixels a square; the 50-70 views of one search of a
#: map that size hold at most about 60 MB, a 100 x 100 map's would hold 10 MB each
INK_VIEW_KEPT_PIXELS = 1_000_000


def _ink_view(gray: np.ndarray, M: np.ndarray, size: tuple[int, int], light: bool) -> np.ndarray:
    """The photo seen through ``M`` as ink: dark printed lines bright (``light``: light lines on a
    dark floor bright instead); outside the photo, no ink. Within one grid search (:func:`.views.shared`)
    each view is made once: the outline search looked through the same lattice again (the line
    profiles, a lattice's lines, its crossings: 14 of the 72 warps of independent photo s0525's
    `photo detect` were views made a second time; round 21 of issue 28); its callers only read it.
    A view larger than :data:`INK_VIEW_KEPT_PIXELS` is made afresh each time, as before."""
    if size[0] * size[1] > INK_VIEW_KEPT_PIXELS:
        return _ink_view_made(gray, M, size, light)
    return views.once(gray, ("ink view", M.tobytes(), M.dtype.str, M.shape, tuple(size), bool(light)), lambda: _ink_view_made(gray, M, size, light))


def _ink_view_made(gray: np.ndarray, M: np.ndarray, size: tuple[int, int], light: bool) -> np.ndarray:
    if light:
        return cv2.warpPerspective(gray, M, size, flags=cv2.INTER_LINEAR, borderValue=0)
    return 255 - cv2.warpPerspective(gray, M, size, flags=cv2.INTER_LINEAR, borderValue=255)


def _crossings(gray: np.ndarray, H_img_from_board: np.ndarray, cols: int, rows: int, light: bool = False,
               speckled: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Lattice points (board) and the crossings of the printed lines found near them (image).

    The photo is first viewed from above through the rough homography, so that the printed
    lines run along the pixel rows and columns whatever the camera's yaw; a crossing is then
    where the darkest column and the darkest row of a small window meet (``light``: the lightest,
    for light lines printed on a dark floor). ``speckled``: a column's (row's) ink is its median
    down the window (times its length, as a sum), not its sum: a line runs the whole window, a
    star or a fleck of printed art touches a pixel or two of it, and on a starfield the flecks'
    sums outshine thin light lines (independent photo s0360: 11 of 300 crossings found by the
    sums, 106 by the medians).
    """
    pad = 1
    top_from_board = np.array([[TOP, 0, pad * TOP], [0, TOP, pad * TOP], [0, 0, 1]], np.float64)
    top_from_img = top_from_board @ np.linalg.inv(H_img_from_board)
    size = (int((cols + 2 * pad) * TOP), int((rows + 2 * pad) * TOP))
    dark = _ink_view(gray, top_from_img, size, light)
    r = int(TOP * 0.3)
    # every lattice point's window at once (a loop over 300-400 windows a photo, each summed and
    # its medians taken in Python, cost 0.01-0.02 CPU-seconds a call, 5-9 calls a photo); the
    # sums are of whole pixel values, exact in any order, so the crossings are the same
    ys = (np.arange(rows + 1) + pad) * TOP - r
    xs = (np.arange(cols + 1) + pad) * TOP - r
    k = np.arange(2 * r + 1)
    wins = dark[(ys[:, None] + k[None, :])[:, None, :, None], (xs[:, None] + k[None, :])[None, :, None, :]].astype(np.int32)
    if speckled:
        col_sums = (np.median(wins, axis=2) * (2 * r + 1)).astype(np.float32).reshape(-1, 2 * r + 1)
        row_sums = (np.median(wins, axis=3) * (2 * r + 1)).astype(np.float32).reshape(-1, 2 * r + 1)
    else:
        col_sums = wins.sum(axis=2).astype(np.float32).reshape(-1, 2 * r + 1)  # per window, each column's ink
        row_sums = wins.sum(axis=3).astype(np.float32).reshape(-1, 2 * r + 1)
    board_pts, top_pts = [], []
    cxs, cys = col_sums.argmax(axis=1), row_sums.argmax(axis=1)
    # a printed line stands clearly above the window's paper, however dim the light
    found = _peaks(col_sums, cxs) & _peaks(row_sums, cys)
    for n in np.flatnonzero(found):
        by, bx = divmod(int(n), cols + 1)
        x0, y0 = int(xs[bx]), int(ys[by])
        cx, cy = int(cxs[n]), int(cys[n])
        board_pts.append((bx, by))
        top_pts.append((x0 + cx + _subpixel(col_sums[n], cx), y0 + cy + _subpixel(row_sums[n], cy)))
    if not top_pts:
        return np.empty((0, 2)), np.empty((0, 2))
    img_pts = cv2.perspectiveTransform(np.array(top_pts, np.float64)[None], np.linalg.inv(top_from_img))[0]
    return np.array(board_pts, np.float64), img_pts


#: how far (squares) a grid fitted to the printed lines may put a map corner from the corner a
#: marker shows: the markers' corners are measured directly, and a printed pattern other than
#: the grid (floor tiles, say) can make a lattice of its own a fraction of a square away
ANCHOR_TOLERANCE = 0.15


class GridMismatchError(Exception):
    """The printed grid lines do not lie where the corner markers put them (the message says how far)."""


class ExtrapolatedCornerError(GridMismatchError):
    """Three (or more) corner markers' grid whose corner with no marker on it is extrapolated too
    uncertainly, and the printed lines do not correct it (:func:`_unconfirmed`): the sheet's outline
    may still give that corner (:func:`outline_fourth_corner`, reading R202)."""


class UnconfirmedMarkersError(GridMismatchError):
    """Two corner markers are seen and the printed lines near their grid do not confirm it: the
    grid may still be found from the printed lines alone, where it then agrees with them."""


#: the printed grid's period along an axis, in the map's squares, may differ from 1 by this much
#: (a map one square larger or smaller than the position's, on 20 squares, is 5 % off)
PERIOD_TOLERANCE = 0.035
#: how coherent the lines must be (their darkness on one comb) for their period to be trusted:
#: clear printed grids give 0.6-1.0; faint lines on busy art as little as 0.07, and a false
#: period up to 0.46 was measured there (no decision is taken on those)
PERIOD_COHERENCE = 0.6
#: how much more coherent than the grid's own period another must be to say the map differs
PERIOD_CLEARER = 1.5
#: the periods searched, in grid squares: 3/4 to 4/3 (their harmonics stay outside: a true period
#: of 1 also shows at 1/2, which is not searched)
PERIODS = np.linspace(0.75, 1.33, 581)


class LineComb(NamedTuple):
    """The printed lines along one axis of a grid (lengths in the grid's squares)."""

    period: float  #: the lines' own period (0.75-1.33)
    coherence: float  #: 1 when every bit of line darkness falls on one comb of that period
    at_one: float  #: the same for a comb of exactly one square (the grid's own)
    phase: float  #: how far that one-square comb's teeth lie from the grid's lines
    #: the clearest comb of a map of another whole number of squares framed by the same markers: how
    #: well the lines keep step with it, a tooth on each of the map's edges (1 best, the least over
    #: the axis's thirds, :func:`_whole_squares_comb`), and that number of squares (0: none searched)
    #: (reading R81 in docs/readings.md)
    edges: float = 0.0
    squares: int = 0


def line_periods(gray: np.ndarray, H_small: np.ndarray, cols: int, rows: int, light: bool = False) -> list[LineComb]:
    """The printed lines' comb along the columns and along the rows, seen through the grid.
    The map seen from above through the grid; per axis the median darkness across it (a line
    runs the whole map, a figure or wall does not), thin lines kept (shading removed), windowed,
    and its power at periods 0.75-1.33 and at exactly one square. ``light``: the lines are
    lighter than the floor (light lines on a dark floor, as often printed on dark art)."""
    out = []
    for axis, thin in enumerate(_thin_line_ink(gray, H_small, cols, rows, light)):
        sig = np.clip(thin, 0, None) * np.hanning(len(thin))
        x = np.arange(len(sig)) / TOP
        power = np.abs(_comb_basis(len(sig)) @ sig)
        best = int(np.argmax(power))
        # coherence: 1 when every bit of line darkness falls on one comb of that period, about
        # 1/sqrt(n) for scattered marks
        total = max(1e-9, float(sig.sum()))
        one = complex(np.exp(-2j * np.pi * x) @ sig)
        edges, squares = _whole_squares_comb(np.clip(thin, 0, None), x, (cols, rows)[axis])
        out.append(LineComb(float(PERIODS[best]), float(power[best]) / total, abs(one) / total, -float(np.angle(one)) / (2 * np.pi),
                            edges, squares))
    return out


def _thin_line_ink(gray: np.ndarray, H_small: np.ndarray, cols: int, rows: int, light: bool) -> list[np.ndarray]:
    """Along the columns and along the rows (:data:`TOP` samples a square), the thin lines' ink
    seen through the grid: the map from above, a line across each axis darker (``light``:
    lighter) than the map a quarter of a square either side of it, wherever it runs (over walls
    and art as well), then the median along the line (a line runs the whole map, a figure or a
    wall does not). Unclipped; the profiles of :class:`_LineProfiles`, shared with it."""
    profiles = _LineProfiles(gray, H_small, light, cols, rows)
    return [profiles.along(0), profiles.along(1)]


#: how far (squares) the printed lines may lie from two corner markers' grid, in every third of
#: both axes, for their combs to confirm it where too few of their crossings are found (reading
#: R82 in docs/readings.md)
STEP_TOLERANCE = 0.08


def _lines_in_step(gray: np.ndarray, H_small: np.ndarray, cols: int, rows: int, light: bool) -> float | None:
    """How far (squares, at worst) the printed lines lie from the grid's own lattice, by their
    one-square comb in each third of each axis (:func:`_thin_line_ink`: each line's median ink
    along the whole map); None where in some third the lines are not coherent on that comb
    (:data:`PERIOD_COHERENCE`: faint, hidden in the art, or off the lattice there). A crossing
    needs a line either way within a small window; the comb, every line of a third of the map
    along its whole length, shows thin light lines among a star field's flecks, and faint ones
    under a wood's grain, where the windows find too few crossings. Reading R82 in docs/readings.md."""
    worst = 0.0
    for n, thin in zip((cols, rows), _thin_line_ink(gray, H_small, cols, rows, light), strict=True):
        ink = np.clip(thin, 0, None)
        x = np.arange(len(ink)) / TOP
        third = np.minimum(2, (3 * x / n).astype(int))
        for k in range(3):
            part = third == k
            comb = complex(np.exp(-2j * np.pi * x[part]) @ ink[part])
            if abs(comb) < PERIOD_COHERENCE * max(1e-9, float(ink[part].sum())):
                return None
            worst = max(worst, abs(float(np.angle(comb))) / (2 * np.pi))
    return worst


#: the shortest and longest printed squares, in grid squares, a map of another size framed by the
#: same markers is looked for with (:func:`_whole_squares_comb`): beyond the periods searched, as a
#: map more than a quarter larger has them, and short of half a square (where the grid's own lines
#: show again, every other tooth on one of them)
WHOLE_PERIODS = (0.6, 1.5)
#: how closely a map of another size's lines keep step with its whole-squares comb in each third
#: of an axis (:attr:`LineComb.edges`: the cosine of the comb's phase there, 0.8 within about a
#: tenth of a period): measured 0.93-1.0 on maps of another size (tests/test_photo.py's drawn
#: corridor framed as 22 x 14, 20 x 16, 19 x 13), 0.15 at most on the carpets of independent
#: diagnosis photos s0395 and s0429, whose pattern drifts off any whole-squares comb
IN_STEP = 0.8
#: how near the most ink the comb of half as many squares may hold and still be taken before its double
#: (:func:`_whole_squares_comb`): its double holds the same lines, give or take their rounding
COMB_TIE = 0.02


def _whole_squares_comb(ink: np.ndarray, x: np.ndarray, n: int) -> tuple[float, int]:
    """The comb a map of another whole number of squares framed by the markers would print along an
    axis of ``n`` squares (``ink``: the thin-line ink at ``x`` squares from the map's edge, not
    windowed), and how well the ink keeps step with it. Of the sizes ``m`` whose squares are in
    :data:`WHOLE_PERIODS` (other than ``n`` by more than :data:`PERIOD_TOLERANCE`), the one whose
    comb (lines ``n / m`` squares apart) holds the most ink at whatever phase; then, in each third
    of the axis, the cosine of that comb's phase measured from the map's edge: 1 where the lines
    there fall on the teeth, a line on each edge, as a map of that size prints them; a pattern of
    its own period (a carpet's weave) drifts off the comb along the axis, or lies between its
    teeth. The least of the three and ``m``; (0, 0) where no size is searched or no line shows. Reading R81 in
    docs/readings.md."""
    sizes = [m for m in range(int(np.ceil(n / WHOLE_PERIODS[1])), int(np.floor(n / WHOLE_PERIODS[0])) + 1)
             if abs(n / m - 1) > PERIOD_TOLERANCE]
    if not sizes:
        return 0.0, 0
    comb = np.exp(-2j * np.pi * np.outer(sizes, x) / n) * ink  # each size's comb times the ink, sample by sample
    third = np.minimum(2, (3 * x / n).astype(int))
    sums = np.array([comb[:, third == k].sum(axis=1) for k in range(3)])
    # the size whose comb holds the most ink, at whatever phase; a comb of twice as many squares
    # holds every line of the one of half as many too, and the lines' rounding to samples can tip
    # it a hair past: the half is taken within COMB_TIE of it, the comb the lines print (the
    # coarser comb holds nothing of a finer one's lines: alternate ones cancel)
    held = np.abs(sums.sum(axis=0))
    best = int(np.argmax(held))
    if sizes[best] % 2 == 0 and sizes[best] // 2 in sizes:
        half = sizes.index(sizes[best] // 2)
        best = half if held[half] >= (1 - COMB_TIE) * held[best] else best
    inked = np.abs(sums[:, best]) > 1e-9  # a third with no line in it says nothing either way
    if not inked.any():
        return 0.0, 0
    return float(np.min(sums[inked, best].real / np.abs(sums[inked, best]))), sizes[best]


@functools.lru_cache(maxsize=4)
def _comb_basis(n: int) -> np.ndarray:
    """The combs of every period searched over ``n`` samples (:data:`TOP` to a square): the same
    for every call on a map of one size, where computing it again cost most of
    :func:`line_periods` (the outline search calls it some 30 times a photo). At most four
    sizes kept, 6 MB each for a 20-square map."""
    x = np.arange(n) / TOP
    return np.exp(-2j * np.pi * x[None, :] / PERIODS[:, None])


def _polarity(gray: np.ndarray, H_small: np.ndarray, cols: int, rows: int) -> tuple[bool, list[LineComb]]:
    """Whether the printed lines are lighter than the floor (light lines on dark art: a quarter of
    the generator's looks, and common on printed dungeon tiles), and their combs that way: the way
    whose lines fall more coherently on the grid's own one-square comb (both are measured: the
    flanks of a light line read as dark ink too, so dark lines seen do not rule light ones out)."""
    dark, light = line_periods(gray, H_small, cols, rows), line_periods(gray, H_small, cols, rows, light=True)
    if sum(c.at_one for c in light) > sum(c.at_one for c in dark):
        return True, light
    return False, dark


def _check_map_size(combs: list[LineComb], cols: int, rows: int) -> None:
    """Refuse a map of another size framed by the markers: its printed squares are not the grid's.
    Only another period that is clear, and much clearer than the grid's own, decides (floor tiles
    three squares wide also make a comb at 3/4 of a square, but over a printed grid that lies where
    it should, and about as clear as it: measured 1.2-1.3 times; a map of another size, 1.7 times
    and more). And only where the lines are those a map of another size prints (reading R81 in
    docs/readings.md): a whole number of squares between the markers, a line on each of the map's
    edges, in step all along the axis (:attr:`LineComb.edges` at least :data:`IN_STEP`); a floor's
    tiled art (a carpet's weave 0.74-0.79 of a square on independent diagnosis photos s0395 and
    s0429) has a period and phase of its own."""
    (pc, sc, oc, _phc, ec, _mc), (pr, sr, orr, _phr, er, _mr) = combs
    off = [(p, what) for p, strength, one, edges, what in ((pc, sc, oc, ec, N_("columns")), (pr, sr, orr, er, N_("rows")))
           if strength >= PERIOD_COHERENCE and abs(p - 1) > PERIOD_TOLERANCE and strength >= PERIOD_CLEARER * one
           and edges >= IN_STEP]
    if not off:
        return
    # a printed grid runs both ways: a map of another size shows its lines along the other axis too,
    # at the grid's own period or at another in step; where that axis shows neither, the one axis's
    # comb is the floor's art (reading R243: s0598's carpet motifs 1.5 squares apart, their half
    # 0.75 in step by chance along the rows, the columns' own lines faint under them)
    if len(off) == 1 and not _printed_both_ways(combs[1] if off[0][1] == "columns" else combs[0]):
        return
    if any(p <= PERIODS[0] + 0.01 or p >= PERIODS[-1] - 0.01 for p in (pc, pr)):  # off the scale searched
        raise GridMismatchError(
            _(
                "the printed squares are not the grid's squares along the {side}: the photo shows a map of another size than {cols} x {rows}, by more than "
                "a quarter. Is this the position's map?"
            ).format(side=_(off[0][1]), cols=cols, rows=rows)
        )
    raise GridMismatchError(
        _(
            "the printed squares are {ratio:.2f} of a grid square along the {side}: the photo shows a map of about {seen_cols:.0f} x {seen_rows:.0f} "
            "squares, not {cols} x {rows}. Is this the position's map?"
        ).format(ratio=off[0][0], side=_(off[0][1]), seen_cols=cols / pc, seen_rows=rows / pr, cols=cols, rows=rows)
    )


#: how clearly the other axis must show printed lines for one axis's other period to be a map's (reading
#: R243): its comb at exactly one square (the map's own lines that way: 0.54 on tests/test_photo_map_size.py's
#: maps of another size, 0.34-0.46 on independent photos s0359 and s0587) -- or a clear comb of another
#: period in step. s0598's carpet, whose motifs made the rows' comb at 0.75: columns 0.10
OTHER_AXIS_LINES = 0.25


def _printed_both_ways(other: LineComb) -> bool:
    """Whether ``other``, the comb along the axis whose period is the grid's, shows printed lines:
    its own (at one square) or another period's, clear and in step (:func:`_check_map_size`)."""
    return other.at_one >= OTHER_AXIS_LINES or (other.coherence >= PERIOD_COHERENCE and other.edges >= IN_STEP)


def _through_the_grid(image: np.ndarray, grid: Grid, cols: int,
                      rows: int) -> tuple[np.ndarray, float, np.ndarray, np.ndarray, bool, list[LineComb]]:
    """The photo's grey copy at :data:`WORK` width, its scale, the scaling matrix, ``grid`` from
    that copy (copy -> board), and the printed lines' polarity and combs through it (:func:`_polarity`)."""
    scale = min(1.0, WORK / image.shape[1])
    small = views.shrunk(image, scale, cv2.INTER_AREA) if scale < 1 else image  # once a grid search (.views)
    gray = views.gray(small)
    S = np.diag([scale, scale, 1.0])
    H_small = grid.H @ np.linalg.inv(S)  # small image -> board
    light, combs = _polarity(gray, H_small, cols, rows)
    return gray, scale, S, H_small, light, combs


def check_with_lines(image: np.ndarray, grid: Grid, cols: int, rows: int) -> Grid:
    """A grid from the corner markers, checked against the printed grid lines and refined by them.

    Around every lattice point the markers predict, the crossing of the printed lines is looked
    for (a window of 0.3 squares; dark lines or light ones, whichever the grid's comb shows,
    :func:`_polarity`). When at least half of those found lie where predicted (within
    0.12 squares), the homography is refitted to them (more points, spread over the whole map,
    than the markers give), and refitted again as more crossings come within reach; a refit that
    moves a map corner a marker shows by more than :data:`ANCHOR_TOLERANCE` is dropped.
    Otherwise, when most crossings make a lattice of their own: within
    0.45 squares (median) of the markers' it is the printed grid, bent by the lens, and is used;
    farther, the markers do not frame this map (:class:`GridMismatchError`). A grid the lines do
    not confirm stands only where the markers alone pin it down (:func:`_unconfirmed`): a corner
    no marker stands on is corrected from the printed lines or refused."""
    gray, scale, S, H_small, light, combs = _through_the_grid(image, grid, cols, rows)
    _check_map_size(combs, cols, rows)
    b, i = _crossings(gray, np.linalg.inv(H_small), cols, rows, light)
    lattice = (cols + 1) * (rows + 1)
    predicted = cv2.perspectiveTransform(i[None], H_small)[0] if len(b) else np.empty((0, 2))
    offsets = np.linalg.norm(predicted - b, axis=1)
    agree = offsets < 0.12
    # two markers leave more to the lines than three or four, so they must confirm more of it
    share = 0.1 if grid.corner_markers >= 3 else 0.15
    if grid.corner_markers == 2 and agree.sum() < max(12, share * lattice, 0.5 * len(b)):
        agree = _regathered(grid, b, i, offsets, scale)
    if agree.sum() >= max(12, share * lattice, 0.5 * len(b)):
        # the printed lines confirm the markers: refit to every crossing that agrees (more
        # points, spread over the whole map, than the markers give). Where the markers' grid is
        # extrapolated (a corner no marker stands on) the crossings lie farther off; each refit
        # brings more of them within reach, so the fit grows across the map until it settles.
        H_fit, err, spread = H_small, grid.reprojection_error_px, grid.uncertainty
        for _turn in range(4):
            H, mask = cv2.findHomography(i[agree], b[agree], cv2.RANSAC, 0.1)
            if H is None or mask.sum() < 8:
                break
            inl = mask.ravel() > 0
            back = cv2.perspectiveTransform(b[agree][inl][None], np.linalg.inv(H))[0]
            H_fit, err = H, float(np.mean(np.linalg.norm(back - i[agree][inl], axis=1)) / scale)
            spread = float(np.mean(np.linalg.norm(cv2.perspectiveTransform(i[agree][inl][None], H)[0] - b[agree][inl], axis=1)))
            b, i = _crossings(gray, np.linalg.inv(H_fit), cols, rows, light)
            if not len(b):
                break
            grown = np.linalg.norm(cv2.perspectiveTransform(i[None], H_fit)[0] - b, axis=1) < 0.12
            if np.array_equal(grown, agree):  # settled
                break
            agree = grown
            if agree.sum() < 8:
                break
        if H_fit is H_small or anchor_offset(grid, H_fit @ S) > ANCHOR_TOLERANCE:
            # the crossings that agree are not all the grid's: the markers' corners decide
            return _unconfirmed(gray, light, grid, scale, cols, rows)
        return Grid(H_fit @ S, err, grid.corner_markers, grid.anchors, uncertainty=spread)
    if len(b) < max(8, 0.3 * lattice):
        if grid.corner_markers >= 3:
            return _unconfirmed(gray, light, grid, scale, cols, rows)
        side = _refine_free_corner(gray, light, grid, scale, cols, rows)
        if side is not None:  # two markers on one side: their far side found on the printed lines (R71); diagonal, R78
            return side
        # too few crossings, no corner found: the lines' combs, third by third, may still show the
        # markers' grid where it lies (reading R82 in docs/readings.md)
        in_step = _lines_in_step(gray, H_small, cols, rows, light)
        if in_step is not None and in_step <= STEP_TOLERANCE:
            return replace(grid, uncertainty=max(grid.uncertainty, in_step))
        raise _unconfirmed_markers(grid, cols, rows)
    # Not confirmed near the markers' lattice. The crossings may make a lattice of their own:
    # near the markers' one (a lens bends the photo, and the markers sit outside the map where it
    # bends most), it is the printed grid itself and is used; far from it, the markers do not
    # frame this map. Crossings that make no lattice (busy art) refuse nothing.
    H_alt, mask = cv2.findHomography(i, b, cv2.RANSAC, 0.08)  # small image -> board, from the crossings alone
    if H_alt is not None and mask.sum() >= max(8, 0.3 * lattice, 0.5 * len(b)):
        inl = mask.ravel() > 0
        med = float(np.median(offsets[inl]))
        if med >= 0.45:
            raise GridMismatchError(_("the printed grid lines lie {med:.2f} squares (median) from where the corner markers put them").format(med=med))
        back = cv2.perspectiveTransform(b[inl][None], np.linalg.inv(H_alt))[0]
        err = float(np.mean(np.linalg.norm(back - i[inl], axis=1)) / scale)
        if anchor_offset(grid, H_alt @ S) <= ANCHOR_TOLERANCE:
            spread = float(np.mean(np.linalg.norm(cv2.perspectiveTransform(i[inl][None], H_alt)[0] - b[inl], axis=1)))
            return Grid(H_alt @ S, err, grid.corner_markers, grid.anchors, uncertainty=spread)
        # a lattice that misses the corners the markers stand on is some other printed pattern
        # (floor tiles offset from the grid, say): the markers' own grid stands
    if grid.corner_markers >= 3:
        return _unconfirmed(gray, light, grid, scale, cols, rows)
    # crossings enough to judge by, and they do not confirm the markers: two diagonal markers' free
    # corners are not searched for here (R78), the printed lines alone decide (independent scene
    # 394's empty map: 90 crossings, its lens bent; searched, 0.18 squares off; by the lines, 0.05)
    side = _refine_free_corner(gray, light, grid, scale, cols, rows, diagonal=False)
    if side is not None:  # two markers on one side: their far side found on the printed lines (R71)
        return side
    raise _unconfirmed_markers(grid, cols, rows)


#: the most a grid the printed lines do not confirm may be uncertain (squares, :attr:`.board.Grid.uncertainty`
#: at its worst corner): beyond it a corner no marker stands on is corrected from the lines or refused
#: (the bench's wrong grids were extrapolated 0.31 and 0.46 squares off, with 0.30-0.35 predicted;
#: right ones 0.06-0.22)
EXTRAPOLATION_TOLERANCE = 0.12
#: how clearly the printed lines must show on the grid for it to be taken from them:
#: (ink on the lines - ink mid-square) / (both), over the whole map and near the corner no marker
#: stands on. Measured on held-out photos at the true grid: clear lines 0.5-0.7, faint lines on
#: busy art 0.25-0.37, lines hidden in a grate's bars about 0 (and a grid 0.2-0.3 squares off
#: scores 0.2-0.45 where the true one scores 0.53-0.71)
MIN_LINE_SUPPORT = 0.3
#: the most a far side's lattice's line support near the free corners may exceed its support on the
#: markers' half (a multiple of the greater of that support and :data:`EVEN_LINES_FLOOR`): reading R295
EVEN_LINES = 2.5
EVEN_LINES_FLOOR = 0.05
#: how far (squares) the corner no marker stands on is searched for, either way along each axis
CORNER_SEARCH = 0.7


#: how far (squares) from where two corner markers put them the printed lines' crossings are
#: gathered again (:func:`_regathered`): two markers' grid lies up to a quarter of a square off
#: where it is extrapolated (independent photo s0394, markers 1 and 3: 0.26 at worst)
REGATHER_WINDOW = 0.25


def _unconfirmed_markers(grid: Grid, cols: int, rows: int) -> UnconfirmedMarkersError:
    """The refusal of two corner markers' grid the printed lines do not confirm, naming the markers
    read (by the map corners their anchors stand on) and the ones to place or uncover: a judge
    looking at the table sees which corners to mark, and a marker placed but hidden (under a
    figure, in glare) is named as unread (reading R348)."""
    if grid.anchors is None or not len(grid.anchors):
        return UnconfirmedMarkersError(
            _(
                "only {corner_markers} corner markers are seen and the printed grid lines cannot confirm them; place all four corner markers (or "
                "photograph the map whole)"
            ).format(corner_markers=grid.corner_markers)
        )
    board4 = [(0, 0), (cols, 0), (cols, rows), (0, rows)]  # the corners of markers 0-3 (NW, NE, SE, SW)
    on = {(round(float(x)), round(float(y))) for x, y in grid.anchors[:, 2:]}
    seen = [k for k, corner in enumerate(board4) if corner in on]
    missing = [k for k in range(4) if k not in seen]
    return UnconfirmedMarkersError(
        _(
            "only {corner_markers} corner markers are seen (ids {seen}) and the printed grid lines cannot confirm them; place (or uncover) markers "
            "{missing} on the map's corners too (0 north-west, 1 north-east, 2 south-east, 3 south-west; 'python -m assistant calibrate markers' "
            "prints them), or photograph the map whole"
        ).format(corner_markers=grid.corner_markers, seen=", ".join(map(str, seen)), missing=", ".join(map(str, missing)))
    )


def _regathered(grid: Grid, b: np.ndarray, i: np.ndarray, offsets: np.ndarray, scale: float) -> np.ndarray:
    """Two corner markers' grid that too few crossings confirm within 0.12 squares: the crossings
    (``b`` board, ``i`` small image; ``offsets`` from the markers' grid, squares) within
    :data:`REGATHER_WINDOW` of it are fitted (RANSAC), and which crossings lie within 0.12 squares
    of that fit is returned -- put then to the same test as the markers' own grid's in
    :func:`check_with_lines`, which refits and checks the markers' corners (within
    :data:`ANCHOR_TOLERANCE`). The fit is dropped (the markers' grid's agreement returned) where
    it moves a map corner a marker shows by more than that: a floor's lattice beside the grid's,
    a quarter of a square or more off, cannot pass (independent photo s0394, markers 1 and 3:
    26 of 72 crossings within 0.12 squares of the markers' grid, 0.26 squares off at its worst;
    the fit to the 58 within a quarter 0.08 off, its corners 0.08 from the markers')."""
    unchanged = offsets < 0.12
    near = offsets < REGATHER_WINDOW
    if near.sum() < 8:
        return unchanged
    H, mask = cv2.findHomography(i[near], b[near], cv2.RANSAC, 0.1)
    if H is None or mask.sum() < 8 or anchor_offset(grid, H @ np.diag([scale, scale, 1.0])) > ANCHOR_TOLERANCE:
        return unchanged
    return np.linalg.norm(cv2.perspectiveTransform(i[None], H)[0] - b, axis=1) < 0.12


def _unconfirmed(gray: np.ndarray, light: bool, grid: Grid, scale: float, cols: int, rows: int) -> Grid:
    """A markers' grid the crossings of the printed lines did not confirm: it stands where the
    markers alone pin it down (:attr:`.board.Grid.uncertainty` within
    :data:`EXTRAPOLATION_TOLERANCE`); else its one corner no marker stands on is taken from the
    printed lines (:func:`_refine_free_corner`); else it is refused -- never answered on a grid
    that may lie a third of a square off."""
    if grid.uncertainty <= EXTRAPOLATION_TOLERANCE and not grid.reassigned:
        return grid  # (corners chosen by the fit stand only on the lines: reading R72)
    refined = _refine_free_corner(gray, light, grid, scale, cols, rows)
    if refined is not None:
        return refined
    raise ExtrapolatedCornerError(
        _(
            "only {n} corner markers are seen: the map's corner with no marker on it is extrapolated, uncertain by about {u:.2f} squares, and the printed "
            "grid lines are too faint (or hidden in the floor's pattern) to correct it. Make all four corner markers visible, or photograph the map "
            "from higher up"
        ).format(n=grid.corner_markers, u=grid.uncertainty)
    )


def _line_samples(cols: int, rows: int, shift: float, per: int = 6) -> np.ndarray:
    """Board points along every printed line of the grid (``shift`` 0), or along the lines half a
    square over (``shift`` 0.5: mid-square, where no line is), ``per`` to a square's side."""
    t = (np.arange(per) + 0.5) / per
    along_cols = [(k + shift, j + u) for k in range(cols + 1) for j in range(rows) for u in t if k + shift <= cols]
    along_rows = [(j + u, k + shift) for k in range(rows + 1) for j in range(cols) for u in t if k + shift <= rows]
    return np.array(along_cols + along_rows, np.float64)


def _line_ink(gray: np.ndarray, light: bool, side_px: float) -> np.ndarray:
    """Thin lines' ink: darker (``light``: lighter) than the photo a fifth of a square around,
    smoothed a little so that a search over the grid's position has a slope to climb."""
    d = gray.astype(np.float32) if light else 255.0 - gray.astype(np.float32)
    k = int(np.clip(0.2 * side_px, 5, 21)) // 2 * 2 + 1
    return cv2.GaussianBlur(np.clip(d - cv2.blur(d, (k, k)), 0, None), (0, 0), 1.2)


def _support(ink: np.ndarray, H_img_from_board: np.ndarray, on: np.ndarray, off: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The line ink at each board point of ``on`` and of ``off``, seen through the grid."""
    p = cv2.perspectiveTransform(on[None], H_img_from_board)[0].astype(np.float32)
    q = cv2.perspectiveTransform(off[None], H_img_from_board)[0].astype(np.float32)
    a = cv2.remap(ink, p[:, :1], p[:, 1:], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0).ravel()
    b = cv2.remap(ink, q[:, :1], q[:, 1:], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0).ravel()
    return a, b


#: the most samples a lattice :func:`_supports` scores with the others at once: OpenCV's remap takes
#: at most 32,767 pixels a row (a 100 x 100 map's lines hold 121,200 samples; a 20 x 15 map's 3,810)
BATCH_SAMPLES = 32_000


def _supports(ink: np.ndarray, lattices: list[np.ndarray], on: np.ndarray, off: np.ndarray, on_cols: np.ndarray, off_cols: np.ndarray,
              support: Support) -> list[float]:
    """``support`` (:func:`_mean_ratio` or :func:`_median_ratio`) of each lattice (board -> image) of
    ``lattices``, the printed lines' ink seen at ``on`` and ``off`` through it (:func:`_support`):
    the same numbers as one lattice after the other, the warps and the samples' ink read for all
    of them in one remap and their means or medians taken row by row (each sample's ink, each
    row's sum and each median's partition are those of the lattice alone). The free-corner search
    scores some 300 lattices a search, up to four searches a photo: one by one, 0.2 CPU-seconds of
    Python on independent photo s0493's two corner markers (round 21 of issue 28)."""
    batched = support is _mean_ratio or support is _median_ratio
    if not lattices or not batched or not len(on) or not len(off) or max(len(on), len(off)) > BATCH_SAMPLES:
        return [support(*_support(ink, H, on, off), on_cols, off_cols) for H in lattices]

    def seen(points: np.ndarray) -> np.ndarray:
        # each lattice's points as _support maps them (float64, then float32), a row a lattice
        p = np.stack([cv2.perspectiveTransform(points[None], H)[0] for H in lattices]).astype(np.float32)
        return cv2.remap(ink, np.ascontiguousarray(p[..., 0]), np.ascontiguousarray(p[..., 1]), cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=0)

    a, b = seen(on), seen(off)
    if support is _mean_ratio:
        return [_ratio_of(float(sa), float(sb)) for sa, sb in zip(_row_means(a), _row_means(b), strict=True)]
    along = [_ratio_of(sa, sb) for sa, sb in zip(_row_medians(a[:, on_cols]), _row_medians(b[:, off_cols]), strict=True)]
    across = [_ratio_of(sa, sb) for sa, sb in zip(_row_medians(a[:, ~on_cols]), _row_medians(b[:, ~off_cols]), strict=True)]
    return [min(x, y) for x, y in zip(along, across, strict=True)]


def _ratio_of(sa: float, sb: float) -> float:
    """:func:`_ratio` of the two centres taken already."""
    return (sa - sb) / max(1e-6, sa + sb)


def _row_means(values: np.ndarray) -> list[float]:
    """:func:`_mean` of each row (0.0 for rows of no samples, as :func:`_ratio` takes them)."""
    if values.shape[1] == 0:
        return [0.0] * len(values)
    return [float(v) for v in np.ascontiguousarray(values).sum(axis=1) / values.shape[1]]


def _row_medians(values: np.ndarray) -> list[float]:
    """:func:`_median` of each row (0.0 for rows of no samples, as :func:`_ratio` takes them)."""
    n = values.shape[1]
    if n == 0:
        return [0.0] * len(values)
    k = n // 2
    if n % 2:
        return [float(v) for v in np.partition(values, k, axis=1)[:, k]]
    return [float(v) for v in np.mean(np.ascontiguousarray(np.partition(values, (k - 1, k), axis=1)[:, k - 1:k + 1]), axis=1)]


def _ratio(a: np.ndarray, b: np.ndarray, centre: Callable[[np.ndarray], Any] = np.mean) -> float:
    """How much more ink ``a`` (on the lines) holds than ``b`` (mid-square), by their ``centre``."""
    sa, sb = float(centre(a)) if len(a) else 0.0, float(centre(b)) if len(b) else 0.0
    return (sa - sb) / max(1e-6, sa + sb)


def _mean_ratio(a: np.ndarray, b: np.ndarray, _a_cols: np.ndarray, _b_cols: np.ndarray) -> float:
    """:func:`_ratio`, by the means over both axes together (a :data:`Support`)."""
    return _ratio(a, b, _mean)


def _mean(values: np.ndarray) -> float:
    """``np.mean`` of a flat array, the same number (numpy's sum, in the array's own type, divided
    by the count), without its handling of any axis and type: the free-corner search takes two
    thousand means a photo (round 16 of issue 28).

    >>> _mean(np.array([0.1, 0.2, 0.4], np.float32)) == float(np.mean(np.array([0.1, 0.2, 0.4], np.float32)))
    True
    """
    return float(values.sum() / len(values))


def _median_ratio(a: np.ndarray, b: np.ndarray, a_cols: np.ndarray, b_cols: np.ndarray) -> float:
    """:func:`_ratio` by the medians, along the column lines and along the row lines apart, the
    lesser of the two (reading R79): a printed line runs the whole map, art crosses it here and
    there, so the median ink along the lines is the lines' own where a mean is the art's; apart,
    because a lattice on one axis's lines alone puts half the samples on ink. ``a_cols``,
    ``b_cols``: which of ``a`` and ``b`` lie along the column lines (:func:`_along_columns`)."""
    return min(_ratio(a[a_cols], b[b_cols], _median), _ratio(a[~a_cols], b[~b_cols], _median))


def _median(values: np.ndarray) -> float:
    """``np.median`` of a flat array of numbers (no NaN: the ink seen through a grid), the same
    number: the middle one, or the mean of the middle two, each found by one partition. Without
    numpy's check for NaN and its handling of any axis: the free-corner search takes a thousand
    medians a photo (round 16 of issue 28).

    >>> [_median(np.array(v, np.float32)) for v in ([3, 1, 2], [4, 1, 3, 2])]
    [2.0, 2.5]
    """
    k = len(values) // 2
    if len(values) % 2:
        return float(np.partition(values, k)[k])
    return float(np.mean(np.partition(values, (k - 1, k))[k - 1:k + 1]))


def _along_columns(cols: int, rows: int, shift: float, per: int = 6) -> np.ndarray:
    """Which of :func:`_line_samples`' points lie along the lines of the columns (the rest along the rows')."""
    n_cols = sum(1 for k in range(cols + 1) if k + shift <= cols) * rows * per
    n_rows = sum(1 for k in range(rows + 1) if k + shift <= rows) * cols * per
    return np.r_[np.ones(n_cols, bool), np.zeros(n_rows, bool)]


def _side_px(H_img_from_board: np.ndarray, cols: int, rows: int) -> float:
    corners = cv2.perspectiveTransform(np.array([[[0, 0], [cols, 0], [cols, rows], [0, rows]]], np.float64), H_img_from_board)[0]
    return float(np.sqrt(max(1.0, cv2.contourArea(corners.astype(np.float32))) / (cols * rows)))


def _refine_free_corner(gray: np.ndarray, light: bool, grid: Grid, scale: float, cols: int, rows: int,
                        diagonal: bool = True) -> Grid | None:
    """Three corner markers pin three map corners; the fourth is extrapolated. Here it is searched
    for (within :data:`CORNER_SEARCH` squares, coarse then fine) where the printed lines lie
    best on the lattice the four corners give (dark lines, or ``light`` ones). Taken only where the lines
    then show clearly over the whole map and near that corner (:data:`MIN_LINE_SUPPORT`) and the
    best position stands alone (no other, a quarter of a square or more away, nearly as good: a
    floor's own stripes can fit a lattice shifted by their period); None otherwise. The lines'
    support is their mean ink against mid-square's; where that does not show them, their median
    ink, along each axis apart (reading R79, :func:`_median_ratio`).

    Two corner markers on one side of the map pin that side's two corners; the far side's two
    are extrapolated, and are searched for together, moved by the same shift (reading R71: the
    far side's place along and across the map; the markers' fit leaves little else open).

    Two diagonal corner markers (``diagonal``: searched for at all) pin two opposite corners; the
    other two are extrapolated from the markers' squares, each on its own (reading R78): each is
    searched for as the fourth corner of three markers is, the other held where the search last
    put it, twice round, and each search must pass the same tests."""
    if grid.anchors is None or len(grid.anchors) not in (2, 3):
        return None
    board4 = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float64)
    known = {k: np.asarray(p, np.float64) * scale for k in range(4) for p, (x, y) in zip(grid.anchors[:, :2], grid.anchors[:, 2:], strict=True)
             if (round(float(x)), round(float(y))) == (round(board4[k][0]), round(board4[k][1]))}
    free = [k for k in range(4) if k not in known]
    if len(free) != 4 - len(grid.anchors):
        return None
    two_diagonal = len(free) == 2 and (free[1] - free[0]) % 2 == 0
    if two_diagonal and not diagonal:
        return None
    H_small = grid.H @ np.linalg.inv(np.diag([scale, scale, 1.0]))
    ink = _line_ink(gray, light, _side_px(np.linalg.inv(H_small), cols, rows))
    for support in (_mean_ratio, _median_ratio):
        H_inv: np.ndarray | None = np.linalg.inv(H_small)
        if two_diagonal:
            # R78: each free corner in turn, the other where the search last put it
            for k in (free[0], free[1], free[0], free[1]):
                assert H_inv is not None
                held = {j: cv2.perspectiveTransform(board4[j][None, None], H_inv)[0][0] for j in free if j != k}
                H_inv = _search_free_corners(ink, {**known, **held}, [k], H_inv, cols, rows, support)
                if H_inv is None:
                    break
        else:
            assert H_inv is not None
            H_inv = _search_free_corners(ink, known, free, H_inv, cols, rows, support)
        if H_inv is not None:
            # the marked corners stay where the markers put them, so the markers' own misfit stands
            # uncertainty: the search's resolution and the lens's bend, which one homography does not follow
            # (measured 0.05-0.18 squares off after the search, on the bench's extrapolated corners)
            return replace(grid, H=np.linalg.inv(H_inv) @ np.diag([scale, scale, 1.0]), uncertainty=0.1)
    return None


#: how a lattice's support by the printed lines is measured (:func:`_mean_ratio`, :func:`_median_ratio`)
Support = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], float]


def _search_free_corners(ink: np.ndarray, known: dict[int, np.ndarray], free: list[int], H_inv: np.ndarray,
                         cols: int, rows: int, support: Support, border: bool = False) -> np.ndarray | None:
    """The map corners ``free`` (indices NW, NE, SE, SW), moved together by one shift from where
    ``H_inv`` (board -> image) puts them, to where the printed lines' ``ink`` lies best (by
    ``support``) on the lattice they give with the ``known`` corners (image points); that
    lattice's homography (board -> image), or None where the lines do not show it clearly and
    alone (:func:`_refine_free_corner`). The lines inside the map are scored, its border lines
    only with ``border`` (one corner marker's search, R133: reading R281)."""
    board4 = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float64)
    on, off = _line_samples(cols, rows, 0.0), _line_samples(cols, rows, 0.5)
    on_cols, off_cols = _along_columns(cols, rows, 0.0), _along_columns(cols, rows, 0.5)
    # the map's own lines only, not its border: the border line stands against the sheet's margin or
    # the table, whose contrast is no printed line's, and a lattice stretched out onto a light margin
    # scored better than the true one (reading R281). One corner marker's search (R133) keeps them:
    # its three free corners found on the inner lines alone refused fresh seed 2624's photo, 0.22
    # squares off with them
    if not border:
        inner = np.where(on_cols, (on[:, 0] > 0) & (on[:, 0] < cols), (on[:, 1] > 0) & (on[:, 1] < rows))
        on, on_cols = on[inner], on_cols[inner]
    # the half of the map (each way the free corners share) nearest them: where an error there shows most
    near_on, near_off = np.ones(len(on), bool), np.ones(len(off), bool)
    for axis, half in ((0, cols / 2), (1, rows / 2)):
        if len({float(board4[f][axis]) for f in free}) == 1:
            at = float(board4[free[0]][axis])
            near_on &= np.abs(on[:, axis] - at) <= half
            near_off &= np.abs(off[:, axis] - at) <= half

    known4 = np.array([known.get(k, np.zeros(2)) for k in range(4)], np.float64)  # the free corners' rows set for each shift
    board4_32 = board4.astype(np.float32)

    def homography(d: tuple[float, float]) -> np.ndarray:
        img4 = known4.copy()
        moved = board4[free] + np.array(d, np.float64)
        img4[free] = cv2.perspectiveTransform(moved[None], H_inv)[0]
        return cv2.getPerspectiveTransform(board4_32, img4.astype(np.float32)).astype(np.float64)

    # the lines near the free corner: there its position shows (near the markers, hardly); only
    # their samples are seen through each lattice tried (each sample's ink is its own, so the
    # numbers are those of all the lattice's samples picked after: half or a quarter of the warps)
    on_near, off_near, on_near_cols, off_near_cols = on[near_on], off[near_off], on_cols[near_on], off_cols[near_off]

    def scores(shifts: list[tuple[float, float]]) -> dict[tuple[float, float], float]:
        # every shift's lattice scored at once (:func:`_supports`): the same numbers as one by one
        return dict(zip(shifts, _supports(ink, [homography(d) for d in shifts], on_near, off_near, on_near_cols, off_near_cols, support),
                        strict=True))

    steps = np.arange(-CORNER_SEARCH, CORNER_SEARCH + 1e-9, 0.1)
    coarse = scores([(float(dx), float(dy)) for dx in steps for dy in steps])
    c = max(coarse, key=lambda k: coarse[k])
    fine_steps = np.arange(-0.1, 0.1 + 1e-9, 0.025)
    fine = scores([(c[0] + float(dx), c[1] + float(dy)) for dx in fine_steps for dy in fine_steps])
    d = max(fine, key=lambda k: fine[k])
    value = fine[d]
    H = homography(d)
    a, b = _support(ink, H, on, off)
    rivals = [v for k, v in coarse.items() if np.hypot(k[0] - d[0], k[1] - d[1]) >= 0.2 + 0.05]
    if value < MIN_LINE_SUPPORT or support(a, b, on_cols, off_cols) < MIN_LINE_SUPPORT:
        return None
    if rivals and max(rivals) > value - 0.1 * abs(value):
        return None
    if len(free) == 2 and (free[1] - free[0]) % 2 == 1 and near_on.any() and (~near_on).any():
        # the printed lines are printed alike over the whole sheet: a lattice whose lines show far
        # more ink near the free corners than on the marked half the markers pin is a floor's own
        # lines (stone slabs' mortar at the squares' period, offset from them: fresh seeds 8138, 8425,
        # 0.56 against 0.09, 0.60 against 0.21) the moved far side was stretched onto. By the mean ink
        # whatever the search scored by: a median over the marked half, figures standing on it, showed
        # a true lattice (diagnosis s0493) 6 times weaker there. Only a far side (two markers on one
        # side, R71): one free corner's quarter of the map differs from the rest as art does (diagnosis
        # s0607's empty map, stars, 0.04 squares off, was refused by it) (reading R295)
        far = _ratio(a[near_on], b[near_off], _mean)
        marked = _ratio(a[~near_on], b[~near_off], _mean)
        if far > EVEN_LINES * max(marked, EVEN_LINES_FLOOR):
            return None
    return H


#: the side (pixels) of the copy on which the map is told from the table by its colours
REGION_SIDE = 800
#: the share of the photo's rim (each side) whose colours are taken as the table's
REGION_RIM = 0.03
#: a pixel is the table's when its colour (Lab, 16 levels a channel) is at least this common on the rim
REGION_TABLE_SHARE = 1e-4
#: a corner marker's quiet zone: its square grown by this factor about its centre
QUIET_ZONE = 1.7


def _region_quad(small: np.ndarray, hide: Sequence[np.ndarray] = ()) -> tuple[float, np.ndarray] | None:
    """The map as the region of the photo unlike the table around it: the colours of the photo's
    rim are the table's (and the wall's behind it), every pixel of a colour the rim does not show
    is the map's, or something on it; the largest such region, reduced to four corners, with its
    area. Edges alone miss a map whose art is busy up to its outline against a busy table (grass
    art on wood planks: every Canny outline ran into the grain, independent photo s0371). The
    corner markers seen (``hide``: their corners, in ``small``'s pixels) lie on the map's corners
    and are painted as table with their white quiet zone, which would otherwise join the map's
    region and pull its corners outward."""
    s = min(1.0, REGION_SIDE / max(small.shape[:2]))
    im = cv2.GaussianBlur(cv2.resize(small, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1 else small, (0, 0), 1.5)
    lab = lab_of(im)  # OpenCV's tables made on the decoding's thread, where it made them (R360)
    h, w = lab.shape[:2]
    b = max(3, int(REGION_RIM * min(h, w)))
    rim = np.zeros((h, w), np.uint8)
    rim[:b], rim[-b:], rim[:, :b], rim[:, -b:] = 1, 1, 1, 1
    counts = cv2.calcHist([lab], [0, 1, 2], rim, [16, 16, 16], [0, 256, 0, 256, 0, 256])
    hist = counts.astype(np.float64) / max(1.0, float(counts.sum()))
    q = lab // 16
    region = (hist[q[..., 0], q[..., 1], q[..., 2]] < REGION_TABLE_SHARE).astype(np.uint8)
    painted: list[np.ndarray] = []  # each corner marker's quiet zone painted as table (the copy's pixels)
    for corners in hide:
        c = np.asarray(corners, np.float64) * s
        grown = (c - c.mean(axis=0)) * QUIET_ZONE + c.mean(axis=0)
        cv2.fillConvexPoly(region, np.round(grown).astype(np.int32), 0)
        painted.append(grown)
    found = _region_outline(cv2.morphologyEx(region, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)), s, painted)
    if found is None:
        # speckled art whose ground is the table's colour (a starfield's black sky on a dark
        # table): only its stars and nebula differ, a sieve the opening breaks into crumbs
        # (independent scene 360's empty map); closed first, the sieve is one region again
        closed = cv2.morphologyEx(region, cv2.MORPH_CLOSE, np.ones((REGION_SIEVE, REGION_SIEVE), np.uint8))
        found = _region_outline(cv2.morphologyEx(closed, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)), s, painted)
    if found is None and not hide:
        # art whose colours are the table's (a lava map's dark ground and orange on wood planks):
        # only the sheet's thin light margin and scattered patches differ, and the opening breaks
        # the margin's ring; filled inside its outer edge first, the ring is the sheet again
        # (independent scene 586's game photo). Only where no corner marker is seen: measured on
        # the diagnosis photos without one (reading R241)
        contours, _h = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        filled = np.zeros_like(closed)
        cv2.drawContours(filled, contours, -1, 1, cv2.FILLED)
        found = _region_outline(cv2.morphologyEx(filled, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)), s, painted)
    return found


#: the gaps (pixels of :data:`REGION_SIDE`'s copy) between a speckled map's pixels unlike the
#: table that :func:`_region_quad` closes where the region alone gives no outline
REGION_SIEVE = 9


def _region_outline(region: np.ndarray, s: float, painted: Sequence[np.ndarray] = ()) -> tuple[float, np.ndarray] | None:
    """The largest region of ``region`` (a mask of ``s`` times the search copy's size) reduced to
    four corners (in the search copy's pixels), with its area; None where it is small, runs off the
    photo or does not nearly fill its hull. ``painted``: the corner markers' quiet zones painted
    out of it (the mask's pixels), under which a corner cut off the region is restored (R89)."""
    h, w = region.shape
    contours, _h = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    c = max(contours, key=cv2.contourArea)
    area = float(cv2.contourArea(c))
    if area < 0.03 * h * w or _touches_border(cv2.boundingRect(c), region.shape):
        return None
    hull = cv2.convexHull(c)
    # a map (and what stands on it) nearly fills its hull: measured 1.02-1.2 times its area on
    # independent photos; things strewn on a table without a map 1.37 (whose quad then cost the
    # lines search up to 0.9 CPU-seconds more, bench/photo_budget.py)
    if cv2.contourArea(hull) > 1.3 * area:
        return None
    outline = c.reshape(-1, 2).astype(np.float64)
    for eps in (0.01, 0.02, 0.03, 0.05):
        polygon = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float64)
        if eps == 0.01 and len(polygon) > 4 and painted:
            # a corner cut off the region by a corner marker's quiet zone painted as table over the
            # sheet's margin: its sides met beyond the cut, under the zone (reading R89 in docs/readings.md).
            # Only there: a region ragged elsewhere (a map's art like the table's along one side,
            # independent scene 441) gave a worse outline so than the coarser fit
            def under_a_marker(corner: np.ndarray) -> bool:
                at = (float(corner[0]), float(corner[1]))
                return any(cv2.pointPolygonTest(zone.astype(np.float32), at, True) >= -CLIPPED_CORNER_REACH for zone in painted)

            unclipped = _unclipped_quad(polygon, CLIPPED_CORNER_SHARE * float(cv2.contourArea(hull)), under_a_marker)
            if unclipped is not None:
                return area / (s * s), _unpulled_corners(outline, unclipped) / s
        if len(polygon) == 4:
            return area / (s * s), _unpulled_corners(outline, polygon) / s
    return None


#: how far (a share of the outline's diagonal) a corner of the region's quad may stand from where
#: its sides' long straight runs meet before the runs' corners are taken instead (reading R161): a
#: figure standing over the sheet's edge joins the map's region and its hull's corner runs out to
#: the figure's top. Measured on independent photos s0349 and s0365: the hull's corners 0.08-0.12
#: of the diagonal off the sheet's (2-3 squares), the straight runs' 10-32 pixels at 4000 px
PULLED_CORNER = 0.03
#: how much of each side (a share of its length, in hundredths) the straight run found on it must
#: cover for :func:`_straight_sides` to give the quad (measured: 73-96 on those two photos' sides)
STRAIGHT_COVER = 60
#: the straight-run hypotheses tried per side (pairs of the outline's points, drawn with a fixed
#: seed: the same photo always gives the same quad)
STRAIGHT_TRIES = 200


def _unpulled_corners(outline: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """:func:`_fitted_corners`, unless the longest straight run along each side
    (:func:`_straight_sides`) puts a corner more than :data:`PULLED_CORNER` of the diagonal away:
    then the straight runs' corners (reading R161)."""
    fitted = _fitted_corners(outline, quad)
    straight = _straight_sides(outline, quad)
    if straight is None:
        return fitted
    diagonal = float(np.linalg.norm(quad[2] - quad[0]))
    return straight if float(np.max(np.linalg.norm(straight - fitted, axis=1))) > PULLED_CORNER * diagonal else fitted


def _straight_sides(outline: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The corners where the longest straight run of ``outline`` along each side of ``quad`` meets
    the next (reading R161): on each side, of the outline's points within a fifth of the side's
    length of it, the line through two of them that most of the side's length lies on (within
    half a percent of the side); a figure over the sheet's edge bends the outline for a short
    stretch, the sheet's edge runs straight along the rest. None where a run covers less than
    :data:`STRAIGHT_COVER` hundredths of its side, or two runs do not meet."""
    sides = _quad_sides(quad)
    if sides is None:
        return None
    rng = np.random.default_rng(0)
    found = []
    for a, d, length in sides:
        u = d / length
        normal = np.array([-u[1], u[0]])
        rel = outline - a
        t, off = rel @ u / length, rel @ normal
        band = outline[(t > 0.02) & (t < 0.98) & (np.abs(off) < 0.2 * length)]
        if len(band) < 20:
            return None
        bins = np.clip(((band - a) @ u / length * 100).astype(np.int64), 0, 99)
        tol = max(1.5, 0.005 * length)
        i, j = rng.integers(0, len(band), (2, STRAIGHT_TRIES))
        run = band[j] - band[i]
        apart = np.linalg.norm(run, axis=1)
        keep = apart >= 0.2 * length
        if not np.any(keep):
            return None
        p, n = band[i[keep]], np.stack([-run[keep, 1], run[keep, 0]], axis=1) / apart[keep, None]
        near = np.abs(np.einsum("hk,nk->hn", n, band) - np.sum(n * p, axis=1)[:, None]) < tol  # hypotheses x points
        hit, at = np.nonzero(near)
        covered = np.zeros((len(near), 100), bool)
        covered[hit, bins[at]] = True
        cover = covered.sum(axis=1)  # the hundredths of the side each hypothesis runs along
        best = int(np.argmax(cover))
        if cover[best] < STRAIGHT_COVER:
            return None
        vx, vy, x0, y0 = cv2.fitLine(band[near[best]].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        found.append(np.cross([x0, y0, 1.0], [x0 + vx, y0 + vy, 1.0]))
    return _where_sides_meet(found)


#: the most area (a share of the region's hull) that the corners :func:`_unclipped_quad` restores
#: may add: a corner marker's quiet zone grown by :data:`QUIET_ZONE`, painted as table where it
#: lies over a sheet's margin, cut 0.3-0.6 % of the map's region off (independent scene 437)
CLIPPED_CORNER_SHARE = 0.02
#: how far (pixels of :data:`REGION_SIDE`'s copy) outside a painted quiet zone a corner restored
#: under it may fall: the region's opening and blur round the zone's edge by 2-3 pixels
CLIPPED_CORNER_REACH = 3.0


def _unclipped_quad(polygon: np.ndarray, most_added: float, where: Callable[[np.ndarray], bool] | None = None) -> np.ndarray | None:
    """The four-cornered outline a convex ``polygon`` of more corners is, where its extra sides cut
    corners off: the side whose neighbours, extended, meet adding the least area is dropped, until
    four remain; None where that adds more than ``most_added`` (pixels squared) in all, or two
    neighbours do not meet beyond the side between them (or, ``where`` given, not where it allows). A polygon fit gives a clipped corner's
    two ends, and at a coarser tolerance one of them as the corner, which stood 0.6-0.8 squares off
    the sheet's corner (reading R89)."""
    corners = [p for p in polygon]
    added = 0.0
    while len(corners) > 4:
        best: tuple[float, int, np.ndarray] | None = None
        n = len(corners)
        for i in range(n):
            a0, a1, b0, b1 = corners[i - 1], corners[i], corners[(i + 1) % n], corners[(i + 2) % n]
            # the lines through the sides before and after side i (a1 -> b0), in homogeneous form
            meet = np.cross(np.cross([*a0, 1.0], [*a1, 1.0]), np.cross([*b0, 1.0], [*b1, 1.0]))
            if abs(meet[2]) < 1e-9:
                continue
            x = meet[:2] / meet[2]
            # beyond the side: both neighbours run on towards it (not back from it)
            if float(np.dot(x - a1, a1 - a0)) <= 0 or float(np.dot(x - b0, b0 - b1)) <= 0 or (where is not None and not where(x)):
                continue
            u, v = b0 - a1, x - a1
            triangle = 0.5 * abs(float(u[0] * v[1] - u[1] * v[0]))
            if best is None or triangle < best[0]:
                best = (triangle, i, x)
        if best is None:
            return None
        triangle, i, x = best
        added += triangle
        if added > most_added:
            return None
        corners[i] = x
        del corners[(i + 1) % n]
    return np.array(corners, np.float64)


def _outline_quads(small: np.ndarray, hide: Sequence[np.ndarray] = ()) -> list[np.ndarray]:
    """Clean four-cornered outlines, largest first: the printed grid's frame, the sheet's edge,
    whatever the paper's colour (edges at two strengths, each closed outline reduced to four
    corners when it is convex and nearly fills its hull), and the map's region against the table
    (:func:`_region_quad`; ``hide``: the corner markers seen, in ``small``'s pixels). Found once a
    grid search (:func:`.views.once`): the printed-lines search and R100's far side
    (:func:`outline_far_side`) both read them (0.05-0.12 CPU-seconds each time on s0445). The
    corners are read-only arrays: no caller changes them."""
    return list(_outlines_found(small, hide)[0])


def _sheet_edge_outline(small: np.ndarray, hide: Sequence[np.ndarray] = ()) -> np.ndarray | None:
    """The sheet's edge where the map's region (:func:`_region_quad`) stops short of it
    (:func:`_sheet_edge_quad`), unless one of :func:`_outline_quads` already lies on it; None
    otherwise. Found with them, once a grid search (reading R107)."""
    return _outlines_found(small, hide)[1]


def _outlines_found(small: np.ndarray, hide: Sequence[np.ndarray]) -> tuple[tuple[np.ndarray, ...], np.ndarray | None]:
    """:func:`_outline_quads_found`, once a grid search (:func:`.views.once`)."""
    key = ("outline quads", tuple(np.asarray(h, np.float64).tobytes() for h in hide))
    found: tuple[tuple[np.ndarray, ...], np.ndarray | None] = views.once(small, key, lambda: _outline_quads_found(small, hide))
    return found


def _outline_quads_found(small: np.ndarray, hide: Sequence[np.ndarray]) -> tuple[tuple[np.ndarray, ...], np.ndarray | None]:
    """:func:`_outline_quads`, found, and :func:`_sheet_edge_outline`."""
    gray = cv2.GaussianBlur(views.gray(small), (5, 5), 0)  # the search copy's grey, made once (.views)
    area_img = small.shape[0] * small.shape[1]
    found: list[tuple[float, np.ndarray]] = []
    region = _region_quad(small, hide)
    if region is not None:
        found.append(region)
    # the sheet's own edge beyond the region's outline, where the region stops short of it (R107)
    sheet = _sheet_edge_quad(views.gray(small), region[1]) if region is not None else None
    for lo, hi in ((20, 60), (40, 120)):
        edges = cv2.dilate(cv2.Canny(gray, lo, hi), np.ones((3, 3), np.uint8))
        contours, _h = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            area = cv2.contourArea(c)
            if area < 0.03 * area_img:
                continue
            hull = cv2.convexHull(c)
            if cv2.contourArea(hull) > 1.3 * area:
                continue
            for eps in (0.01, 0.02, 0.03):
                quad = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True)
                if len(quad) == 4:
                    found.append((area, _fitted_corners(c.reshape(-1, 2).astype(np.float64), quad.reshape(4, 2).astype(np.float64))))
                    break
    found.sort(key=lambda t: -t[0])
    kept: list[np.ndarray] = []
    for _area, q in found:
        if all(np.abs(np.sort(q, axis=0) - np.sort(k, axis=0)).max() > 4 for k in kept):
            kept.append(q)
    for q in kept:
        q.flags.writeable = False  # handed out again within the grid search
    if sheet is not None and all(np.abs(np.sort(sheet, axis=0) - np.sort(k, axis=0)).max() > 4 for k in kept):
        sheet.flags.writeable = False
        return tuple(kept[:8]), sheet
    return tuple(kept[:8]), None


#: how far beyond a side of the map's region (a share of the region's depth across that side) the
#: sheet's edge is looked for (:func:`_sheet_edge_quad`): a sheet's margin is 0-15 mm, 0.6 squares,
#: and a map is 8 squares deep or more
SHEET_EDGE_REACH = 0.08
#: how much clearer the step in brightness along a side found beyond the region's must be than
#: the step along the region's own side for that side to move to it
SHEET_EDGE_CLEARER = 1.5


def _sheet_edge_quad(gray: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The sheet's edge where the map's region (:func:`_region_quad`, the colours the table does not
    show) stops short of it: a margin of art as dark as a dark table's planks is read as table, and
    the region's outline runs skewed inside the sheet, its grid not parallel to it (independent
    scene 470's empty map: a lava sheet on wood, the region's corners 35-41 pixels of the search
    copy inside the sheet's). A sheet's edge is a straight step in brightness all along a side: at
    each of 120 places along each side of the region's outline, the strongest step (over two pixels
    of the search copy's grey, blurred) within :data:`SHEET_EDGE_REACH` outside it (or 3 pixels
    inside), and a line fitted through them (Huber); the side moves to that line where the median
    step along it is :data:`SHEET_EDGE_CLEARER` times the one along the region's own side. Returns
    the four corners where the sides (moved or not) meet, or None where no side moved (reading R107)."""
    g = cv2.GaussianBlur(gray, (0, 0), 1.0).astype(np.float32)
    corners = quad[np.argsort(np.arctan2(quad[:, 1] - quad[:, 1].mean(), quad[:, 0] - quad[:, 0].mean()))]
    centre = corners.mean(axis=0)
    places = np.linspace(0.1, 0.9, 120)

    def steps(start: np.ndarray, run: np.ndarray, out: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        # the step in brightness across each place of the side moved by each offset, and those places
        pts = start + places[None, :, None] * run + offsets[:, None, None] * out
        seen = cv2.remap(g, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32), cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return np.abs(seen[2:] - seen[:-2]), pts[1:-1]

    sides: list[np.ndarray] = []
    moved = False
    runs = _quad_sides(corners)
    if runs is None:
        return None
    for k, (a, run, length) in enumerate(runs):
        b = a + run
        out = np.array([run[1], -run[0]]) / length
        if float(np.dot(out, (a + b) / 2 - centre)) < 0:
            out = -out
        depth = abs(float(np.dot((corners[(k + 2) % 4] + corners[(k + 3) % 4]) / 2 - (a + b) / 2, out)))
        found, pts = steps(a, run, out, np.arange(-3.0, SHEET_EDGE_REACH * depth + 4.0))
        edge = pts[np.argmax(found, axis=0), np.arange(len(places))]
        vx, vy, x0, y0 = cv2.fitLine(edge.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        along = np.array([vx, vy], np.float64) * length
        along = along if float(np.dot(along, run)) >= 0 else -along
        start = np.array([x0, y0], np.float64)
        start = start + float(np.dot(a - start, along)) / float(np.dot(along, along)) * along  # level with the side's first corner
        near = np.arange(-1.0, 2.0)
        here = float(np.median(steps(a, run, out, near)[0].max(axis=0)))
        there = float(np.median(steps(start, along, out, near)[0].max(axis=0)))
        if there > SHEET_EDGE_CLEARER * here:
            moved = True
            sides.append(np.cross([*start, 1.0], [*(start + along), 1.0]))
        else:
            sides.append(np.cross([*a, 1.0], [*b, 1.0]))
    return _where_sides_meet(sides) if moved else None


def _quad_sides(quad: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, float]] | None:
    """Each side of a four-cornered outline: its first corner, the run to the next and its length
    (pixels); None where a side is shorter than a pixel."""
    sides = []
    for k in range(4):
        run = quad[(k + 1) % 4] - quad[k]
        length = float(np.linalg.norm(run))
        if length < 1:
            return None
        sides.append((quad[k], run, length))
    return sides


def _where_sides_meet(sides: Sequence[np.ndarray]) -> np.ndarray | None:
    """The four corners where each of four sides (homogeneous lines, in order round the outline)
    meets the one before it; None where two of them run parallel."""
    corners = []
    for k in range(4):
        p = np.cross(sides[k - 1], sides[k])
        if abs(p[2]) < 1e-9:
            return None
        corners.append(p[:2] / p[2])
    return np.array(corners, np.float64)


def _fitted_corners(outline: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The quad's corners where lines fitted to its sides meet: a side's points are those of the
    outline near it, away from the corners, so a corner rounded or hidden by a figure does not
    pull it (the vertices a polygon fit picks lie on the outline itself)."""
    lines = []
    sides = _quad_sides(quad)
    if sides is None:
        return quad
    for a, d, length in sides:
        t = (outline - a) @ d / length**2
        rel = outline - a
        off = np.abs(d[0] * rel[:, 1] - d[1] * rel[:, 0]) / length
        near = outline[(t > 0.15) & (t < 0.85) & (off < max(3.0, 0.02 * length))]
        if len(near) < 5:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(near.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append(np.cross([x0, y0, 1.0], [x0 + vx, y0 + vy, 1.0]))
    out = _where_sides_meet(lines)
    if out is None:
        return quad
    return out if float(np.max(np.linalg.norm(out - quad, axis=1))) < 0.1 * float(np.linalg.norm(quad[2] - quad[0])) else quad


#: a grid taken from an outline must have the printed lines on its own lattice: along each axis
#: their period within :data:`PERIOD_TOLERANCE` of one square, this coherent on a one-square
#: comb, and the comb's teeth this close (squares) to the lattice's lines
OUTLINE_COHERENCE = 0.3
OUTLINE_PHASE = 0.05
#: a grate's bars (0.12-0.4 of a square apart) running along one axis swamp that axis's comb: its
#: coherence falls to 0.05-0.1 while its teeth still lie on the lattice's lines (phase 0.00-0.03
#: measured). Such an axis is taken when the other is clear (:data:`PERIOD_COHERENCE`), its
#: period one square, and its teeth within this much (squares) of the lattice's lines -- a
#: tighter phase than :data:`OUTLINE_PHASE`, for the weaker evidence
OUTLINE_SWAMPED_COHERENCE = 0.04
OUTLINE_SWAMPED_PHASE = 0.03


def _lines_on_lattice(combs: list[LineComb]) -> bool:
    """Whether the printed lines fall on an outline's lattice: along both axes (:data:`OUTLINE_COHERENCE`,
    :data:`OUTLINE_PHASE`), or clearly along one and, swamped by a floor's stripes, along the other."""
    def on(c: LineComb, coherence: float, phase: float) -> bool:
        return c.at_one >= coherence and abs(c.phase) <= phase and abs(c.period - 1) <= PERIOD_TOLERANCE

    if all(on(c, OUTLINE_COHERENCE, OUTLINE_PHASE) for c in combs):
        return True
    a, b = combs
    return any(on(x, PERIOD_COHERENCE, OUTLINE_PHASE) and on(y, OUTLINE_SWAMPED_COHERENCE, OUTLINE_SWAMPED_PHASE) for x, y in ((a, b), (b, a)))


def _outline_grids(small: np.ndarray, gray: np.ndarray, cols: int, rows: int, scale: float, hide: Sequence[np.ndarray] = (),
                   budget: Budget | None = None, outlines: Sequence[np.ndarray] | None = None, numbered_from: int = 0,
                   centred: set[bytes] | None = None, framed: set[bytes] | None = None) -> list[Grid]:
    """Grids taken from the outlines whose lattice the printed lines fall on (each way round that
    fits: the rules model orients them), refined by the lines' crossings where enough are found.
    An outline that is the sheet's edge (or its art's), a margin outside the grid's own frame,
    has the printed grid inside it (:func:`_inset_grid`). Each outline beyond the first
    :data:`.budget.OUTLINES_IN_RESERVE` (which the printed-lines search's reserve paid for) is
    searched only while ``budget`` holds its :data:`.budget.COST_PER_OUTLINE` (reading R88).
    ``outlines``: these outlines, not :func:`_outline_quads`, the first counted as outline
    ``numbered_from`` against the budget. Without corner markers (``hide`` empty) and with
    ``centred`` given, each outline is also searched for the grid centred in it
    (:func:`_centred_grid`, reading R135), after its own and its inset lattice; each such grid is
    added to ``centred`` (its homography's bytes, and its half turn's): the outline settles it
    (:func:`_settled_grids`), and a lattice beside it is not claimed (:func:`_beside_none_centred`).
    Without corner markers an inset grid the outline frames far off its centre is not kept
    (:func:`lopsided_frame`, reading R146), nor a centred one beside such a grid (R148); the inset
    search's lattices must stand alone against the floor's ink too (R147). ``framed``: where given,
    added to with the grids an outline frames evenly though its centred search found none
    (:func:`_framed_evenly`, reading R240): spared the rival test, but no lattice beside them is
    dropped for them, as for a centred grid."""
    board_corners = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float32)
    grids: list[Grid] = []

    def keep(grid: Grid | None) -> None:
        if grid is not None and not any(_same_grid(grid, g, cols, rows) for g in grids):
            grids.append(grid)

    half_turn = _half_turn(cols, rows)
    lopsided: list[Grid] = []  # the inset grids an outline framed far off its centre (R146)

    ridges_left_out: list[bool] = []  # the budget refused a ridge search: it is named once, and none runs after it

    def afford_ridges() -> bool:
        # the thin ridges' search (R103), where the profiles and combs gave no inset grid: charged as run
        if budget is None:
            return True
        if ridges_left_out or not budget.afford(_("the printed lines' thin ridges"), COST_PER_RIDGE_SEARCH, reserve=budget.kept):
            ridges_left_out.append(True)
            return False
        budget.charge(COST_PER_RIDGE_SEARCH)
        return True

    def keep_centred(quad: np.ndarray, H_outline: np.ndarray) -> None:
        # the grid centred in the sheet's outline: where a floor's tiles or planks lie beside the
        # printed lines, the lattice neither the outline's own nor the inset search's settles (R135)
        found = _centred_grid(gray, H_outline, cols, rows)
        if found is None or centred is None:
            return
        seen_centred = Grid(found[0] @ np.diag([scale, scale, 1.0]), 0.0, 0)
        if any(_beside(c, g, cols, rows) for g in lopsided for c in (seen_centred, replace(seen_centred, H=half_turn @ seen_centred.H))):
            # the printed lines stand clearly on a lattice the outline frames off its centre (R146),
            # and the centred one lies a fraction of a square beside it: it is not the printed grid
            # (the lines' own lighter flanks, say) and claims nothing (reading R148 in docs/readings.md)
            return
        H_small, light = found
        grid = _refined_grid(gray, H_small, light, line_periods(gray, H_small, cols, rows, light), cols, rows, scale,
                             _side_px(np.linalg.inv(H_small), cols, rows) / scale)
        if not _even_margins(grid, quad / scale, cols, rows, CENTRED_AGREEMENT):
            # the crossings drew it off the centre, towards the floor's joints beside the printed
            # lines (independent scene 471: 0.02 squares off the renderer's lattice centred, 0.09
            # refined): the centred lattice stands as the outline gives it
            grid = Grid(H_small @ np.diag([scale, scale, 1.0]), 0.0, 0)
        for g in (grid, replace(grid, H=half_turn @ grid.H)):
            # the outline's own lattice or the inset one found this grid first (within _same_grid's
            # 0.3 squares) and keep() drops ``g`` as a copy of it: only ``g`` was marked settled, and
            # the grid kept went to the rival test that the floor's joints beside it refuse
            # (independent scene 553: the inset grid 0.01 squares off, refused). Where the outline
            # frames that grid as evenly as ``g`` (CENTRED_AGREEMENT) it settles it too; one it
            # frames less evenly is left to the rival test: put in ``g``'s place it was drawn less
            # well than the crossings had drawn it (0.08 -> 0.19 squares off on scene 481's game
            # photo, turned the wrong way by its reference) (reading R190)
            even = [k for k in grids if _same_grid(g, k, cols, rows) and _even_margins(k, quad / scale, cols, rows, CENTRED_AGREEMENT)]
            keep(g)
            centred.update([g.H.tobytes()] + [k.H.tobytes() for k in even])

    quads = _outline_quads(small, hide) if outlines is None else list(outlines)
    for n, quad in enumerate(quads, start=numbered_from):
        if budget is not None and n >= OUTLINES_IN_RESERVE:
            # each outline costs about the same whatever the map's size (its line profiles are
            # measured on the search copy); uncounted, 3-4 outlines took the search to 1.2-1.8
            # CPU-seconds (independent photo s0419). Reading R88 in docs/readings.md
            if not budget.afford(_("the printed-lines search's outline {n}").format(n=n + 1), COST_PER_OUTLINE, reserve=budget.kept):
                break
            budget.charge(COST_PER_OUTLINE)
        centre = quad.mean(axis=0)
        quad = quad[np.argsort(np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0]))]
        side_px = float(np.sqrt(cv2.contourArea(quad.astype(np.float32)) / (cols * rows))) / scale
        inset_found: set[int] = set()
        for k in range(4):
            H_small = np.linalg.inv(cv2.getPerspectiveTransform(board_corners, np.roll(quad, -k, axis=0).astype(np.float32)))
            if k < 2:
                # the grid inside the outline, wherever its margin puts it (none included): a
                # margin of 0.13 squares still passed the outline's own lattice test below, and the
                # grid then stood 0.24 squares off at a corner; a half turn (k + 2) is the same lattice
                found = _inset_grid(gray, H_small, cols, rows, afford_ridges, against_floor=not hide)
                if found is not None:
                    H_in, light, combs = found
                    grid = _refined_grid(gray, H_in, light, combs, cols, rows, scale, side_px)
                    if hide or lopsided_frame(grid.H, quad / scale, cols, rows) <= INSET_LOPSIDED:
                        keep(grid)
                        keep(replace(grid, H=half_turn @ grid.H))
                        inset_found.add(k)
                    else:
                        # no corner marker settles it and the outline frames it far off its
                        # centre: a floor's panel joints taken for the grid -- with no printed
                        # lines at all, or beside a grid printed off its sheet's centre (R146);
                        # the outline's own lattice is still tried
                        lopsided.append(grid)
            if k % 2 in inset_found or k >= 2:
                # the outline a half turn on (k - 2): the same lattice, its combs the same (mirrored),
                # its grid kept there turned; measured again it cost a quarter of the printed-lines
                # search (independent scene 419: 16 of its 38 combs)
                continue
            # dark lines, or light ones on a dark floor (looked for only where dark ones do not fit)
            light, combs = False, line_periods(gray, H_small, cols, rows)
            if not _lines_on_lattice(combs):
                light, combs = True, line_periods(gray, H_small, cols, rows, light=True)
                if not _lines_on_lattice(combs):
                    continue
            grid = _refined_grid(gray, H_small, light, combs, cols, rows, scale, side_px)
            keep(grid)
            keep(replace(grid, H=half_turn @ grid.H))
        if not hide and centred is not None:
            # after the outline's own lattice and the inset one: where one of them is the printed
            # grid the centred one is the same lattice and adds nothing; where the inset search took
            # a floor's joints, the printed grid centred on the sheet is added beside it (R135)
            for k in range(2):
                keep_centred(quad, np.linalg.inv(cv2.getPerspectiveTransform(board_corners, np.roll(quad, -k, axis=0).astype(np.float32))))
            # a grid the outline's own or inset lattice gave, which the outline frames as evenly as
            # a centred grid must be framed, is settled by it as the centred grid is, where the
            # centred search itself found none (its lines' profile too weak or broad to stand alone
            # at one margin): a lattice a quarter of a square beside it would leave margins half a
            # square uneven -- not beside a lopsided inset lattice, as R148. Spared the rival test
            # only: a grid the sheet settled so drops no other beside it (independent scene 360's
            # empty map: a grid 0.29 squares off framed within 0.145 would have dropped the one
            # 0.16 off) (reading R240)
            if framed is not None:
                framed.update(g.H.tobytes() for g in grids
                              if _framed_evenly(g, quad / scale, cols, rows)
                              and not any(_beside(g, lop, cols, rows) or _beside(replace(g, H=half_turn @ g.H), lop, cols, rows) for lop in lopsided))
    return grids


def _framed_evenly(grid: Grid, outline: np.ndarray, cols: int, rows: int) -> bool:
    """Whether ``outline`` (its four corners, the image's pixels) frames ``grid`` as a sheet frames
    its printed grid (reading R240): every corner's two margins (squares, outward) within
    :data:`CENTRED_AGREEMENT` of each other and between none and :data:`INSET_MARGIN`, the margins
    :func:`_centred_margin` searches."""
    seen = cv2.perspectiveTransform(np.asarray(outline, np.float64)[None], grid.H)[0]
    ends = np.array([[0.0, 0.0], [cols, 0.0], [cols, rows], [0.0, rows]])
    outward = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    nearest = [int(np.argmin(np.linalg.norm(ends - p, axis=1))) for p in seen]
    if len(set(nearest)) < 4:
        return False
    margins = np.array([(p - ends[i]) * outward[i] for p, i in zip(seen, nearest, strict=True)])
    return bool(float(margins.max() - margins.min()) <= CENTRED_AGREEMENT and margins.min() >= -CENTRED_AGREEMENT / 2
                and margins.max() <= INSET_MARGIN)


#: how far (squares of the outline) the printed grid's first line may lie inside an outline that
#: is the sheet's (or its art's) edge: printed maps leave 0-15 mm (0-0.6 squares) of margin
INSET_MARGIN = 0.8
#: how clearly the printed lines must stand on the inset lattice: (ink on its lines - ink
#: mid-square) / (both), per axis, as :data:`MIN_LINE_SUPPORT`
INSET_SUPPORT = 0.3
#: how much weaker any other inset lattice (its first and last lines a quarter of a square or
#: more from the best one's) must be, per axis (ink on its lines beyond mid-square's): a floor's
#: own tiles of the grid's period make a second lattice, and a faint printed grid can be the
#: weaker of the two (independent sci-fi photo s0210: the tiles' lattice, 0.33 squares off the
#: grid, carried 2-3 times the grid's ink). Measured on independent photos: the grid's lattice
#: over its best rival mostly 0.01-0.25 (once 0.33: refused, the grid found from another outline),
#: the tiles' lattice over the grid's 0.36-0.46
INSET_RIVAL = 0.3
#: the same without corner markers, each lattice's ink taken beyond the floor's median rather than
#: mid-square's (reading R147): any other lattice a quarter of a square or more off must hold less
#: than this share of the best one's
INSET_FLOOR_RIVAL = 0.15


def _profile_at(profile: np.ndarray, at: np.ndarray) -> np.ndarray:
    """``profile`` (:data:`TOP` samples to a unit, the first at 0) read at the places ``at`` (units)
    by straight lines between its samples, 0 beyond its ends: the same numbers as
    ``np.interp(at, np.arange(len(profile)) / TOP, profile, left=0.0, right=0.0)`` (the samples'
    places and their slopes are exact in binary: ``TOP`` is a power of two), without its search
    for each place's two samples, which the even spacing makes a multiplication. The inset
    lattices' search reads tens of thousands of places a profile: np.interp was half its cost."""
    scaled = at * TOP
    last = len(profile) - 1
    before = np.clip(np.floor(scaled), 0, last - 1).astype(np.intp)
    low = profile[before]
    read = (profile[before + 1] - low) * TOP * (at - before / TOP) + low
    read[scaled == last] = profile[last]  # np.interp hands the last sample back as it is
    read[(scaled < 0) | (scaled > last)] = 0.0
    return read


def _sorted_quantile(ordered: np.ndarray, q: float) -> np.ndarray:
    """Each row's ``q`` quantile of ``ordered`` (each row sorted): np.quantile's linear method and
    its very numbers (its weighting of the two values either side), without the partition
    np.quantile makes again of rows already sorted (a third of the inset search's cost left)."""
    place = q * (ordered.shape[1] - 1)
    below = int(np.floor(place))
    above = min(below + 1, ordered.shape[1] - 1)
    weight = place - below
    low, high = ordered[:, below], ordered[:, above]
    step = high - low
    return high - step * (1 - weight) if weight >= 0.5 else low + step * weight


def _sorted_median(ordered: np.ndarray, axis: int) -> np.ndarray:
    """The median across ``axis`` of ``ordered`` (sorted across it): np.median's numbers (the mean
    of the two middle values where their count is even), without its partition of the sorted values."""
    count = ordered.shape[axis]
    middle = np.take(ordered, count // 2, axis=axis)
    if count % 2:
        return middle
    return (np.take(ordered, count // 2 - 1, axis=axis) + middle) / 2


def _relative_ink(profile: np.ndarray) -> np.ndarray:
    """A line profile (clipped at 0) blurred a little and each place's ink taken against the
    strongest within a square and a half of it: light falling off across the map leaves the lines
    at one end a fifth as dark as at the other, and a lattice must not pivot on the dark end's lines
    (a floor of no lines stays faint: its local strongest is held to a tenth of the clearest line's)."""
    f = cv2.GaussianBlur(profile.astype(np.float64)[None], (0, 0), 1.5).ravel()
    near = cv2.dilate(f[None].astype(np.float32), np.ones((1, int(1.5 * TOP) | 1), np.uint8)).ravel().astype(np.float64)
    return f / np.maximum(near, 0.1 * float(np.percentile(f, 99)) + 1e-6)


def _inset_axis(profile: np.ndarray, n: int, floor_rivals: list[tuple[float, float]] | None = None) -> tuple[float, float] | None:
    """Where ``n`` + 1 evenly spaced printed lines lie in one axis's line profile (:data:`TOP`
    samples to a unit of the outline, ``n`` units long): the first line's place and their spacing,
    in outline units. The lattice must stand clearly on the lines (:data:`INSET_SUPPORT`) and
    alone (:data:`INSET_RIVAL`); None otherwise. With ``floor_rivals`` given (no corner marker
    seen), it must also stand alone against the floor's median ink (:data:`INSET_FLOOR_RIVAL`,
    reading R147): where it does not, the lattice is added to it and None returned."""
    f = _relative_ink(profile)
    firsts = np.arange(-0.05, INSET_MARGIN + 1e-9, 0.5 / TOP)
    spacings = np.arange((n - 2 * INSET_MARGIN) / n, 1 + 0.05 / n + 1e-12, 0.5 / (TOP * n))
    k = np.arange(n + 1)
    at = firsts[:, None, None] + k[None, None, :] * spacings[None, :, None]
    fits = at[..., -1] <= n + 0.05  # the last line inside the outline
    # a low quantile of the lines' ink, the median of mid-square's: the sheet's edge (or a rim's)
    # makes the strongest "lines" of all, at the ends, and a lattice must neither be pulled onto
    # them nor drift across the map on a few lines: three in four of its lines must show
    # (measured only for the lattices that fit, about half, where any does: the others are never
    # chosen nor rivals; each lattice's values sorted first: the same order statistics, the same
    # numbers, and numpy's partition of thousands of short rows took twice as long as sorting them)
    measured = fits if fits.any() else np.ones_like(fits)
    on, mid = np.zeros(fits.shape), np.zeros(fits.shape)
    on[measured] = _sorted_quantile(np.sort(_profile_at(f, at[measured]), axis=1), 0.25)
    mid_at = (at[..., :-1] + spacings[None, :, None] / 2)[measured]
    mid[measured] = _sorted_median(np.sort(_profile_at(f, mid_at), axis=1), axis=1)
    # the lattice with the most ink on its lines beyond mid-square (the ratio alone would also
    # favour a lattice that meets two lines and nothing else)
    excess = np.where(fits, on - mid, -np.inf)
    i, j = np.unravel_index(int(np.argmax(excess)), excess.shape)
    best = float(excess[i, j])
    if (on[i, j] - mid[i, j]) / max(1e-6, on[i, j] + mid[i, j]) < INSET_SUPPORT:
        return None
    # any lattice whose first and last lines both lie a quarter of a square or more from the best
    # one's (a lattice sharing one of them drifts off the lines gradually, no rival)
    first, spacing = float(firsts[i]), float(spacings[j])
    shift = np.minimum(np.abs(firsts[:, None] - first), np.abs(firsts[:, None] + n * spacings[None, :] - first - n * spacing))
    rivals = excess[shift >= 0.25]
    if len(rivals) and float(rivals.max()) > INSET_RIVAL * best:
        return None
    if floor_rivals is not None:
        # and against the floor's median ink, as the centred search scores (R135): a floor's
        # joints a fraction of a square beside the printed lines lie mid-square of the printed
        # lattice, which mid-square's ink then hides as a rival (reading R147 in docs/readings.md)
        held = np.where(fits, on - float(np.median(f)), -np.inf)
        if held[i, j] > 0 and float(held[shift >= 0.25].max(initial=-np.inf)) > INSET_FLOOR_RIVAL * float(held[i, j]):
            floor_rivals.append((first, spacing))
            return None
    return first, spacing


class _LineProfiles:
    """One axis's line profile of the map seen through an outline (:data:`TOP` samples to a unit):
    the median along each line of how much darker (``light``: lighter) it is than the map a
    quarter of a square either side, as :func:`line_periods` measures it, unclipped. Made once
    for the inset search (:func:`_inset_axis`) and the comb search after it (:func:`_speckled_inset`),
    each axis when first asked for: the two searches made the same view and medians each, 40 % of
    the comb search's cost where it then found no grid (independent scenes 413 and 416: 12 comb
    searches a photo). Within one grid search (:func:`.views.shared`) each profile is made once
    for the same photo, homography and polarity: the outline search measured an outline's combs
    (:func:`line_periods`) after its inset search had made the same profiles (where that found no
    inset grid): 14 views and their medians for 10 different ones on independent photo s0449.
    The profiles are read-only arrays: no caller changes them."""

    def __init__(self, gray: np.ndarray, H_outline: np.ndarray, light: bool, cols: int, rows: int) -> None:
        self._gray, self._H, self._light, self._size = gray, H_outline, light, (cols, rows)
        self._view: np.ndarray | None = None  # made when a profile not made before is first asked for

    def along(self, axis: int) -> np.ndarray:
        """The profile across the lines of ``axis`` (0: the columns' lines, 1: the rows')."""
        cols, rows = self._size
        return views.once(self._gray, ("line profile", self._H.tobytes(), cols, rows, self._light, axis), lambda: self._made(axis))

    def _made(self, axis: int) -> np.ndarray:
        T = TOP
        if self._view is None:
            cols, rows = self._size
            self._view = _ink_view(self._gray, np.diag([T, T, 1.0]) @ self._H, (cols * T, rows * T), self._light).astype(np.float32)
        d, width = self._view, T // 4 * 2 + 1
        across = cv2.blur(d, (width, 1) if axis == 0 else (1, width), borderType=cv2.BORDER_REFLECT)
        # sorted first: the same middle values, and the median's partition across the view's
        # strided axis cost half as much again (s0449's views: 0.065 against 0.038 CPU-seconds);
        # the middle then read off the sorted view, not partitioned again (np.median's numbers)
        profile = _sorted_median(np.sort(d - across, axis=axis), axis=axis)
        profile.flags.writeable = False  # handed out again within the grid search
        return profile


def _inset_grid(gray: np.ndarray, H_outline: np.ndarray, cols: int, rows: int,
                afford_ridges: Callable[[], bool] | None = None, against_floor: bool = False) -> tuple[np.ndarray, bool, list[LineComb]] | None:
    """The printed grid inside an outline whose own lattice the lines do not fall on: the sheet's
    edge, or its art's, with a margin round the grid (the project's own maps print the grid to
    the edge; many printed maps do not). Seen through the outline, each axis's line profile (as
    :func:`line_periods`) is searched for ``cols`` + 1 (``rows`` + 1) evenly spaced lines
    (:func:`_inset_axis`); where they give none, the lines' combs (:func:`_speckled_inset`), then
    their thin ridges (:func:`_ridge_inset`, reading R103); dark lines or light ones, whichever
    stand more clearly. The grid found must then pass the outline's own test (:func:`_lines_on_lattice`,
    or :func:`_each_line_on_lattice`). ``afford_ridges``: asked before each ridge search, whether
    the work budget holds it (and charged for it); none: always. Returns the homography
    (small image -> board), the lines' polarity and their combs; None when no such grid stands."""
    best: tuple[float, np.ndarray, bool, list[LineComb]] | None = None
    floor_rivals: list[tuple[float, float]] | None = [] if against_floor else None
    for light in (False, True):
        profiles = _LineProfiles(gray, H_outline, light, cols, rows)
        found: list[tuple[float, float]] = []
        for axis, n in ((0, cols), (1, rows)):
            axis_lines = _inset_axis(np.clip(profiles.along(axis), 0, None), n, floor_rivals)
            if axis_lines is None:
                break
            found.append(axis_lines)
        if floor_rivals:
            # another lattice beside this one holds the floor's ink too: which is the printed grid
            # is open that way, and the combs' and ridges' searches below would find the clearer
            # one again (R147); the other polarity is still searched (light lines' flanks read as dark)
            floor_rivals.clear()
            continue
        if len(found) < 2:
            fitted = _speckled_inset(gray, H_outline, light, cols, rows, profiles)
            if fitted is None and (afford_ridges is None or afford_ridges()):
                # thin lines under bright art or figures along most of their length (R103)
                fitted = _ridge_inset(gray, H_outline, light, cols, rows)
            if fitted is None:
                continue
            H = fitted
        else:
            (ax, px), (ay, py) = found
            A = np.array([[1 / px, 0, -ax / px], [0, 1 / py, -ay / py], [0, 0, 1]])
            # refined by the lines' crossings first (a lens bends the lines a little off the one
            # homography the profiles give), then checked as an outline's own lattice is
            H = _refined_homography(gray, A @ H_outline, light, cols, rows)
        combs = line_periods(gray, H, cols, rows, light)
        if not (_lines_on_lattice(combs) or _each_line_on_lattice(gray, H, cols, rows, light)):
            continue
        strength = float(sum(c.at_one for c in combs))
        if best is None or strength > best[0]:
            best = (strength, H, light, combs)
    if best is None:
        return None
    _s, H, light, combs = best
    return H, light, combs


#: the margins (squares of the printed grid) at which :func:`_centred_margin` looks for the grid
#: evenly inside a sheet's outline: 0 to :data:`INSET_MARGIN`, a sixty-fourth of a square apart
CENTRED_MARGINS = np.arange(0.0, INSET_MARGIN + 1e-9, 1 / (2 * TOP))
#: how far apart (squares) two margins must be for the lattice at one to be a rival of the other's
#: (:func:`_centred_margin`): their outer lines a quarter of a square apart, their middle ones
#: nearly together (every lattice centred in the outline shares its middle)
CENTRED_RIVAL = 0.25
#: how much less ink (a share of the best's) the margins beside the best may hold and still be
#: taken as the same lattice, whose middle is read (:func:`_centred_margin`)
CENTRED_PLATEAU = 0.05


def _centred_margin(profiles: _LineProfiles, cols: int, rows: int) -> tuple[float, float] | None:
    """The margin (squares) at which the printed grid lies evenly inside an outline that is the
    sheet's edge (reading R135 in docs/readings.md): a printed map's grid is centred on its sheet,
    so through the outline (``profiles``, :class:`_LineProfiles`: outline units, the outline
    ``cols`` x ``rows`` units) the grid's ``n`` + 1 lines of one axis lie at (m + k) n / (n + 2 m)
    for a single margin m of both axes. Of the margins :data:`CENTRED_MARGINS`, the one whose lines
    hold the most ink beyond the floor's median ink on both axes together (three in four of its
    lines must show: the lower quartile over them, the profile taken as :func:`_inset_axis` takes
    it); it must stand clearly on the lines on each axis (:data:`INSET_SUPPORT`) and alone (no
    margin :data:`CENTRED_RIVAL` or more from it over :data:`INSET_RIVAL` of its ink); the middle
    of the run of margins within :data:`CENTRED_PLATEAU` of it is taken. A floor's tiles or planks
    one square apart make a lattice of the grid's period at any phase, which a search free in each
    axis's first line and spacing finds as readily as the printed lines; centred lattices share
    the outline's middle and drift apart towards its edges, so one on the joints at one edge is off
    them at the other. The margin and its lines' ink beyond the floor's (both axes'); None where no
    margin stands so."""
    m = CENTRED_MARGINS
    excess = np.zeros(len(m))
    supports = []
    for axis, n in ((0, cols), (1, rows)):
        f = _relative_ink(np.clip(profiles.along(axis), 0, None))
        unit = n / (n + 2 * m)  # outline units a square, at each margin
        k = np.arange(n + 1)
        at = (m[:, None] + k[None, :]) * unit[:, None]
        on = _sorted_quantile(np.sort(_profile_at(f, at), axis=1), 0.25)
        # against the floor's own ink (its median over the whole profile), not mid-square's:
        # tiles or planks one square apart put their joints mid-square as often as not
        floor = float(np.median(f))
        excess += on - floor
        supports.append((on - floor) / np.maximum(on + floor, 1e-6))
    best = int(np.argmax(excess))
    if excess[best] <= 0 or min(float(a[best]) for a in supports) < INSET_SUPPORT:
        return None
    # the middle of the run of margins about as good as the best: every lattice whose lines all
    # fall within the printed lines' width holds as much of their ink, and the first of them lay
    # a sixteenth of a square off the lines' middle
    good = excess >= (1 - CENTRED_PLATEAU) * excess[best]
    lo, hi = best, best
    while lo > 0 and good[lo - 1]:
        lo -= 1
    while hi < len(m) - 1 and good[hi + 1]:
        hi += 1
    middle = float(m[lo:hi + 1].mean())
    # rivals are measured from that middle, not from the run's first margin: on a small map the
    # run is wide (eight squares: a fifth of a square), and its own far end is no rival of it
    rivals = excess[np.abs(m - middle) >= CENTRED_RIVAL]
    if len(rivals) and float(rivals.max()) > INSET_RIVAL * float(excess[best]):
        return None
    return middle, float(excess[best])


def _centred_grid(gray: np.ndarray, H_outline: np.ndarray, cols: int, rows: int) -> tuple[np.ndarray, bool] | None:
    """The printed grid centred inside an outline (:func:`_centred_margin`, dark lines or light,
    whichever stand more clearly): the homography (small image -> board) and the lines' polarity;
    None where neither polarity's lines stand centred (reading R135)."""
    best: tuple[float, float, bool] | None = None
    for light in (False, True):
        found = _centred_margin(_LineProfiles(gray, H_outline, light, cols, rows), cols, rows)
        if found is not None and (best is None or found[1] > best[0]):
            best = (found[1], found[0], light)
    if best is None:
        return None
    _s, margin, light = best
    A = np.array([[(cols + 2 * margin) / cols, 0, -margin], [0, (rows + 2 * margin) / rows, -margin], [0, 0, 1]])
    return A @ H_outline, light


#: how evenly (squares, the widest margin less the narrowest, each corner's two) the outline must
#: still frame a centred grid (:func:`_centred_grid`) once the crossings have refined it: a lattice
#: a quarter of a square or more beside it (a floor's joints) leaves margins a quarter of a
#: square or more uneven (reading R135)
CENTRED_AGREEMENT = 0.15


#: the share of the lattice's points whose crossings a grid from the lines' combs alone
#: (:func:`_speckled_inset`) must fit, as an outline's grid refined by the crossings must
#: (:func:`_refined`): a starfield's bright patches hide the lines at half the points or more
SPECKLED_FIT = 0.2


def _comb_lines(profile: np.ndarray, n: int) -> tuple[float, float] | None:
    """Where ``n`` + 1 evenly spaced lines lie in a line profile (as :func:`_inset_axis` takes it)
    by its comb alone: the clearest period (:data:`PERIODS`), at least :data:`PERIOD_COHERENCE`
    coherent, short enough for a margin of at most :data:`INSET_MARGIN`, its teeth's phase the
    first line; None otherwise.

    >>> x = np.arange(10 * TOP)
    >>> profile = np.where(np.abs((x - 8) % 30) < 1, 9.0, 0.0)  # lines every 30/32 of a unit from 0.25
    >>> [round(v, 2) for v in _comb_lines(profile, 10)]
    [0.25, 0.94]
    >>> _comb_lines(np.random.default_rng(1).random(10 * TOP), 10) is None  # no lines, no comb
    True
    """
    sig = np.clip(profile.astype(np.float64), 0, None) * np.hanning(len(profile))
    total = float(sig.sum())
    if total <= 0:
        return None
    power = np.abs(_comb_basis(len(sig)) @ sig)
    best = int(np.argmax(power))
    period = float(PERIODS[best])
    if float(power[best]) / total < PERIOD_COHERENCE or not (n - 2 * INSET_MARGIN) / n <= period <= 1 + 0.05 / n:
        return None
    x = np.arange(len(sig)) / TOP
    first = (-float(np.angle(np.exp(-2j * np.pi * x / period) @ sig)) / (2 * np.pi)) % 1.0 * period
    # the last line within a quarter of a square of the outline: a start for the crossings (found
    # within 0.3 squares of it), not the grid (the combs' phase is an average over the map)
    if first > INSET_MARGIN or first + n * period > n + 0.25:
        return None
    return first, period


def _speckled_inset(gray: np.ndarray, H_outline: np.ndarray, light: bool, cols: int, rows: int,
                    profiles: _LineProfiles | None = None) -> np.ndarray | None:
    """The printed grid inside an outline where the line profiles are too sparse for
    :func:`_inset_axis` (thin light lines over a starfield: over the art's bright patches the
    lines vanish, and a quarter of them show nowhere in the profile) but their combs are clear
    (:func:`_comb_lines`): that lattice is only a start -- the outline's corner may be read off by
    half a square, and the combs, averages over the map, do not see it -- so it stands only
    fitted to the lines' crossings, found by their medians (``speckled``, :func:`_crossings`) and
    fitted as a plain sheet's grid is (RANSAC within 0.15 squares, twice, the second time to at
    least :data:`SPECKLED_FIT` of the lattice's points). Returns the homography (small image ->
    board), or None. ``profiles``: the outline's line profiles that way (:class:`_LineProfiles`),
    where the inset search has already made them."""
    profiles = profiles if profiles is not None else _LineProfiles(gray, H_outline, light, cols, rows)
    found: list[tuple[float, float]] = []
    for axis, n in ((0, cols), (1, rows)):
        axis_lines = _comb_lines(profiles.along(axis), n)
        if axis_lines is None:
            return None
        found.append(axis_lines)
    (ax, px), (ay, py) = found
    H = np.array([[1 / px, 0, -ax / px], [0, 1 / py, -ay / py], [0, 0, 1]]) @ H_outline
    need = max(12, SPECKLED_FIT * (cols + 1) * (rows + 1))
    for fit_pass in (1, 2):
        b, i = _crossings(gray, np.linalg.inv(H), cols, rows, light, speckled=True)
        if len(b) < need:
            return None
        fitted, mask = cv2.findHomography(i, b, cv2.RANSAC, 0.15)
        # the second pass, through the first's grid, finds the crossings the combs' lattice missed
        if fitted is None or mask.sum() < (12 if fit_pass == 1 else need):
            return None
        H = fitted
    return H


#: the quantile along each line at which :func:`_ridge_profiles` reads its thin ridge: a printed
#: line shows as a ridge along three tenths of its length or more, where bright veins of art,
#: figures and their shadows cover the rest (reading R103 in docs/readings.md)
RIDGE_QUANTILE = 0.7
#: the ridge's flanks: samples of :data:`TOP` to a square (a sixteenth of a square) either side of
#: a line; a printed line is 0.02-0.04 squares wide, blurred to 1-2 samples on the search copy
RIDGE_FLANK = 2


def _ridge_profiles(gray: np.ndarray, H_outline: np.ndarray, light: bool, cols: int, rows: int) -> list[np.ndarray]:
    """Along the columns and along the rows, how clearly a thin line runs at each place: the map
    seen from above through the outline (``H_outline``: small image -> board), each sample's ink
    (``light``: lightness) over the more inked of its two flanks :data:`RIDGE_FLANK` samples either
    side -- positive only on a ridge thinner than the flanks' gap, whatever the art's level round
    it -- read at :data:`RIDGE_QUANTILE` along the line. The line profiles (:class:`_LineProfiles`)
    measure a line against the mean of half a square round it, which a bright vein beside it
    raises as much as the line does, and take the median along it (reading R103)."""
    seen = _ridge_view(gray, H_outline, cols, rows)
    return [_ridge_profile(seen, light, axis) for axis in (0, 1)]


def _ridge_view(gray: np.ndarray, H_outline: np.ndarray, cols: int, rows: int) -> np.ndarray:
    """The map from above through the outline (:data:`TOP` samples a unit), in grey, for
    :func:`_ridge_profile`: made once for both polarities (within a grid search, .views): dark
    lines' ridges are light ones' with the sign turned; beyond the photo its edge repeated, no ridge either way."""
    T = TOP
    return views.once(gray, ("ridge view", H_outline.tobytes(), cols, rows),
                      lambda: cv2.warpPerspective(gray, np.diag([T, T, 1.0]) @ H_outline, (cols * T, rows * T), flags=cv2.INTER_LINEAR,
                                                  borderMode=cv2.BORDER_REPLICATE).astype(np.float32))


def _ridge_profile(seen: np.ndarray, light: bool, axis: int) -> np.ndarray:
    """One axis's profile of :func:`_ridge_profiles` (0: across the columns' lines, 1: the rows'),
    read off the view :func:`_ridge_view` made."""
    d = seen if light else -seen
    w = RIDGE_FLANK
    # each sample's flanks, the view's own edge repeated beyond it (a line is never read off the far end)
    if axis == 0:
        padded = np.pad(d, ((0, 0), (w, w)), mode="edge")
        before, after = padded[:, : -2 * w], padded[:, 2 * w :]
    else:
        padded = np.pad(d, ((w, w), (0, 0)), mode="edge")
        before, after = padded[: -2 * w], padded[2 * w :]
    ridge = np.minimum(d - before, d - after)
    # sorted, then read at the quantile: the same value as np.quantile's nearest rank, at a
    # quarter of its cost (measured on a 20 x 14 map's view)
    ordered = np.sort(ridge, axis=axis)
    at = int(round(RIDGE_QUANTILE * (ridge.shape[axis] - 1)))
    return ordered[at] if axis == 0 else ordered[:, at]


def _ridge_inset(gray: np.ndarray, H_outline: np.ndarray, light: bool, cols: int, rows: int) -> np.ndarray | None:
    """The printed grid inside an outline read from the lines' thin ridges (:func:`_ridge_profiles`)
    where the line profiles' medians and combs lose it (:func:`_inset_grid` tried them first):
    each axis's lattice must stand clearly and alone on the ridges as on the profiles
    (:func:`_inset_axis`), then it is refined by the lines' crossings; the homography (small image
    -> board), or None. Its grid is then put to every test an inset grid is (reading R103)."""
    found: list[tuple[float, float]] = []
    seen = _ridge_view(gray, H_outline, cols, rows)
    for axis, n in ((0, cols), (1, rows)):
        # the rows' ridges measured only where the columns' lattice stands: where it does not
        # (about 6 ridge searches in 10 on the diagnosis photos) the search is decided
        axis_lines = _inset_axis(np.clip(_ridge_profile(seen, light, axis), 0, None), n)
        if axis_lines is None:
            return None
        found.append(axis_lines)
    (ax, px), (ay, py) = found
    A = np.array([[1 / px, 0, -ax / px], [0, 1 / py, -ay / py], [0, 0, 1]])
    return _refined_homography(gray, A @ H_outline, light, cols, rows)


#: how clear the printed lines must be on an inset lattice's own lines, measured line by line
#: (:func:`_each_line_on_lattice`), against the clearest at any shift: the lattice's lines are the map's clearest
OWN_LINES = 0.8


def _each_line_on_lattice(gray: np.ndarray, H_small: np.ndarray, cols: int, rows: int, light: bool) -> bool:
    """Whether the printed lines stand on this lattice's lines, judged line by line (the median
    over the lines, :func:`shifted_lines`) rather than by a comb: along each axis the lattice's
    own lines are (nearly, :data:`OWN_LINES`) the clearest at any shift, and a lattice a quarter
    to three quarters of a square off stands at most :data:`RIVAL_LINES` as clear. A floor's
    pattern a few squares wide -- a sci-fi map's panel seams every three squares, beside the grid
    lines -- pulls a comb's teeth off the lines and spreads its power onto the pattern's
    harmonics (independent photo s0373: the columns' comb 0.23 coherent at one square, 0.085
    squares off, its clearest period 3/4 of a square), where a median over the lines sees one
    line in three touched by it."""
    for c in shifted_lines(gray, H_small, cols, rows, light):
        strength = float(c[0] - c.min())
        shifts = np.arange(len(c)) / len(c)
        away = (shifts >= RIVAL_SHIFTS[0]) & (shifts <= RIVAL_SHIFTS[1])
        if strength <= 0 or c[0] < OWN_LINES * float(c.max()) or float(c[away].max() - c.min()) >= RIVAL_LINES * strength:
            return False
    return True


def _refined_grid(gray: np.ndarray, H_small: np.ndarray, light: bool, combs: list[LineComb], cols: int, rows: int, scale: float, side_px: float) -> Grid:
    """An outline's grid (``H_small``: small image -> board) refined by the printed lines'
    crossings where enough of them agree with it."""
    H, err = _refined(gray, H_small, light, cols, rows, scale)
    if err is None:
        err = max(abs(c.phase) for c in combs) * side_px  # how far the lines lie off the lattice
    return Grid(H @ np.diag([scale, scale, 1.0]), err, 0)


def _refined_homography(gray: np.ndarray, H_small: np.ndarray, light: bool, cols: int, rows: int) -> np.ndarray:
    return _refined(gray, H_small, light, cols, rows, 1.0)[0]


def _refined(gray: np.ndarray, H_small: np.ndarray, light: bool, cols: int, rows: int, scale: float) -> tuple[np.ndarray, float | None]:
    """``H_small`` (small image -> board) refitted to the crossings of the printed lines that lie
    near its lattice (within 0.12 squares), where enough do and the fit moves no map corner
    more than :data:`ANCHOR_TOLERANCE`; with the refit's mean reprojection error (full-size
    pixels), None when unchanged."""
    board_corners = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float32)
    lattice = (cols + 1) * (rows + 1)
    err: float | None = None
    b, i = _crossings(gray, np.linalg.inv(H_small), cols, rows, light)
    if len(b) >= max(12, 0.2 * lattice):
        agree = np.linalg.norm(cv2.perspectiveTransform(i[None], H_small)[0] - b, axis=1) < 0.12
        if agree.sum() >= max(12, 0.2 * lattice):
            H, mask = cv2.findHomography(i[agree], b[agree], cv2.RANSAC, 0.1)
            corners_then = cv2.perspectiveTransform(board_corners[None].astype(np.float64), np.linalg.inv(H_small))[0]
            if H is not None and mask.sum() >= 12:
                moved = cv2.perspectiveTransform(corners_then[None], H)[0] - board_corners
                if float(np.max(np.linalg.norm(moved, axis=1))) <= ANCHOR_TOLERANCE:
                    inl = mask.ravel() > 0
                    back = cv2.perspectiveTransform(b[agree][inl][None], np.linalg.inv(H))[0]
                    H_small, err = H, float(np.mean(np.linalg.norm(back - i[agree][inl], axis=1)) / scale)
    return H_small, err


def _same_grid(a: Grid, b: Grid, cols: int, rows: int) -> bool:
    corners = np.array([[[0, 0], [cols, 0], [cols, rows], [0, rows]]], np.float64)
    through = cv2.perspectiveTransform(cv2.perspectiveTransform(corners, np.linalg.inv(a.H)), b.H)[0]
    return float(np.max(np.linalg.norm(through - corners[0], axis=1))) < 0.3


def find_grid_from_lines(image: np.ndarray, pos: Position, markers: list[Any] | None = None, reference: Reference | None = None,
                         memo: CandidateMemo | None = None, budget: Budget | None = None, refused: list[str] | None = None) -> Grid | None:
    """The grid from the printed map, without corner markers: each way round it could lie, then
    what the photo shows decides which (:func:`_orient`); None rather than a guess, and
    :class:`UnorientedGridError` when the grid is found but not which way round it lies.
    ``memo``: the photo's grids found so far (:data:`CandidateMemo`); ``budget``: the photo's
    work budget, charged for each outline searched beyond :data:`.budget.OUTLINES_IN_RESERVE`;
    ``refused``: where given, the reasons (untranslated, :func:`.i18n.N_`) each grid the outlines
    gave was not claimed, the best outline's first (reading R95: a refusal names the stage that
    refused, not only that the search ran)."""
    cols, rows = pos.map.cols, pos.map.rows
    candidates = grid_candidates(image, cols, rows, markers, memo, budget, refused)
    if candidates and reference is None and not any(m.id in CORNER_OF for m in markers or []):
        candidates = _within_the_sheets_bend(image, candidates, cols, rows, refused)
    return _orient(image, pos, candidates, markers or [], reference)


#: how far (squares, at worst) the sheet's bend may carry the map's lattice off a grid the printed
#: lines give without corner markers and a reference, for the grid to be claimed (reading R402): the
#: bar of a wrong grid (issue 28's benches count a grid a quarter of a square off as wrong)
BENT_OFF = 0.25
#: the middle of the map (a share of its width and height about its centre) where one homography
#: fitted to a bent photo's lines follows them (:func:`bent_off`)
BENT_MIDDLE = 0.5
#: why no grid the printed lines gave was claimed where the sheet's bend carried each off (R402)
BENT_OFF_REFUSED = N_("the printed lines' grid is one the lens's bend carries off the map's lines toward its edges (the sheet's edges show the bend)")
#: what :func:`_within_the_sheets_bend` notes of a photo whose every grid it set aside (:func:`.views.once`)
_ALL_BENT_OFF = "printed-lines grids all bent off"


def sheets_bend(image: np.ndarray) -> float:
    """The lens's bend the sheet's outlines show on the grid search's copy of ``image``, no marker
    hidden (:func:`.sheetedges.bend_of_quads`), where it shows (:func:`.sheetedges.lens_shown`);
    else 0. Read once a grid search (:func:`.views.once`)."""
    scale = min(1.0, WORK / image.shape[1])
    small = views.shrunk(image, scale, cv2.INTER_AREA) if scale < 1 else image
    return views.once(image, ("sheet's bend",), lambda: lens_shown(*bend_of_quads(views.gray(small), _outline_quads(small))))


def bent_off(H: np.ndarray, shape: tuple[int, ...], k: float, cols: int, rows: int) -> float:
    """How far (squares, at worst) the map's lattice lies off the grid ``H`` (photo -> board, one
    homography) in a photo of ``shape`` a lens bends by ``k`` (reading R402): the grid's lattice
    points straightened by ``k``, the homography nearest them (least squares) is the map as a
    straight photo shows it; its lattice, bent again by ``k``, seen through ``H``. One homography
    fitted to a bent photo's lines follows them in the middle and lets them drift toward the map's
    edges (R257): this is that drift."""
    board = np.array([(c, r) for r in range(rows + 1) for c in range(cols + 1)], np.float64)
    straight = straighten_points(cv2.perspectiveTransform(board[None], np.linalg.inv(H))[0], shape, k)
    middle = (np.abs(board[:, 0] - cols / 2) <= BENT_MIDDLE * cols / 2) & (np.abs(board[:, 1] - rows / 2) <= BENT_MIDDLE * rows / 2)
    G, _mask = cv2.findHomography(straight[middle], board[middle], 0)
    if G is None:
        return float("inf")
    seen = bend_points(cv2.perspectiveTransform(board[None], np.linalg.inv(G))[0], shape, k)
    return float(np.max(np.linalg.norm(cv2.perspectiveTransform(seen[None], H)[0] - board, axis=1)))


def _within_the_sheets_bend(image: np.ndarray, candidates: list[Grid], cols: int, rows: int, refused: list[str] | None) -> list[Grid]:
    """The grids the printed lines gave (no corner marker, no reference) less those the sheet's
    bend (:func:`sheets_bend`) carries :data:`BENT_OFF` or more off the map's lattice
    (:func:`bent_off`): claimed, each stood 0.26-0.40 squares off on photos of a printed map drawn
    bent by -0.05 to -0.08 (tests/test_photo_grid_markerless_lens.py), and no check of the lines
    saw it. Where none is left, the photo is noted (:func:`searched_in_vain`): a caller that reads
    the grid's lens searches it again straightened (R401); ``refused`` is told why (reading R402)."""
    k = sheets_bend(image)
    if not k:
        return candidates
    kept = [g for g in candidates if bent_off(g.H, image.shape, k, cols, rows) < BENT_OFF]
    if not kept:
        views.once(image, (_ALL_BENT_OFF, cols, rows), lambda: True)
        if refused is not None:
            refused.insert(0, BENT_OFF_REFUSED)
    return kept


def _paper_grids(small: np.ndarray, gray: np.ndarray, cols: int, rows: int, scale: float) -> list[Grid]:
    """Grids from the paper's outline (a plain printed sheet), refined by RANSAC over the crossings."""
    quad = _paper_quad(small)
    if quad is None:
        return []
    # order the quad clockwise on screen, starting anywhere; try each corner as NW
    centre = quad.mean(axis=0)
    quad = quad[np.argsort(np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0]))]
    board_corners = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float64)
    grids: list[Grid] = []
    for k in range(4):
        q = np.roll(quad, -k, axis=0)
        H0 = cv2.getPerspectiveTransform(board_corners.astype(np.float32), q.astype(np.float32))
        b, i = _crossings(gray, H0, cols, rows)
        if len(b) < max(8, 0.3 * (cols + 1) * (rows + 1)):
            continue
        H, mask = cv2.findHomography(i, b, cv2.RANSAC, 0.15)
        if H is None or mask.sum() < 8:
            continue
        # a second pass through the refined grid finds the crossings the rough one missed
        b, i = _crossings(gray, np.linalg.inv(H), cols, rows)
        if len(b) < max(8, 0.3 * (cols + 1) * (rows + 1)):
            continue
        H, mask = cv2.findHomography(i, b, cv2.RANSAC, 0.15)
        if H is None or mask.sum() < max(8, 0.3 * (cols + 1) * (rows + 1)):
            continue
        inl = mask.ravel() > 0
        back = cv2.perspectiveTransform(b[inl][None], np.linalg.inv(H))[0]
        err = float(np.mean(np.linalg.norm(back - i[inl], axis=1)) / scale)
        grids.append(Grid(H @ np.diag([scale, scale, 1.0]), err, 0))
    return grids


class UnorientedGridError(Exception):
    """The printed grid is found, but nothing in the photo tells which way round it lies."""


class MarkersOffGridError(UnorientedGridError):
    """The printed grid is found, but a corner marker seen does not stand on the map corner the grid puts there."""


def markers_off(grid: Grid, markers: list[Any], cols: int, rows: int, tolerance: float = ANCHOR_TOLERANCE) -> tuple[int, float] | None:
    """The corner marker seen whose corner nearest the map lies farthest from the map corner it
    names, through ``grid`` -- (its id, how far in squares) -- when farther than ``tolerance``
    (:data:`ANCHOR_TOLERANCE`); None when every one stands on its corner. Each corner marker's corner
    nearest the map is the map's corner point (CONTRACT §4), measured directly in the photo: a grid
    from the printed lines that puts it elsewhere lies off the map's own lattice (independent
    scenes 359 and 371, the empty maps: grids 0.38 and 0.75 squares off at their worst put the
    markers' corners 0.21-0.27 squares away; the right grids 0.03-0.06)."""
    worst: tuple[int, float] | None = None
    for m in markers:
        if m.id not in CORNER_OF:
            continue
        _point, off = _corner_point(m, grid.H, np.array(CORNER_OF[m.id]) * [cols, rows])
        if off > tolerance and (worst is None or off > worst[1]):
            worst = (int(m.id), off)
    return worst


def _corner_point(marker: Any, H: np.ndarray, target: np.ndarray) -> tuple[np.ndarray, float]:
    """The corner marker's corner (its own pixels) that ``H`` (image -> board) puts nearest the
    map corner ``target`` (board squares), and how far from it (squares)."""
    corners = np.asarray(marker.corners, np.float64)
    off = np.linalg.norm(cv2.perspectiveTransform(corners[None], H)[0] - target, axis=1)
    k = int(np.argmin(off))
    return corners[k], float(off[k])


#: how far (squares) a grid from the printed lines may put a corner marker's corner from the map
#: corner it names and still be fitted again onto the markers and the lines (:func:`_onto_the_markers`):
#: farther, it is not the map's lattice bent a little but another one
ONTO_REACH = 0.5
#: how many times each marker's corner counts in that fit beside one crossing of the printed lines
ONTO_ANCHOR_WEIGHT = 10


def _onto_the_markers(image: np.ndarray, grid: Grid, markers: list[Any], cols: int, rows: int) -> Grid | None:
    """A grid from the printed lines that puts a corner marker's corner (at most :data:`ONTO_REACH`
    squares) off the map corner it names, fitted again to the markers and the lines together: the
    printed lines' crossings gathered through it (within 0.3 squares of each lattice point,
    :func:`_crossings`) and each marker's corner nearest the map on its map corner (CONTRACT §4,
    measured directly in the photo; :data:`ONTO_ANCHOR_WEIGHT` times, so that the fit cannot
    leave it), three times, each through the fit before. Taken only when it stands as two
    markers' grid must (:func:`check_with_lines`): at least max(12, 15 % of the lattice, half of
    those found) of the crossings within 0.12 squares of it, and every marker's corner on its
    map corner (:func:`markers_off`); None otherwise. Then the crossings that agree are fitted
    alone (they follow the lens's bend far from the markers better), kept while the markers'
    corners stay on theirs (reading R70: independent scene 371, the empty map, markers 1 and 2
    on the east side: the outline's grid 0.75 squares off at its worst, the markers' corners 0.21
    off; fitted again 0.13 off at the west edge, and then from the crossings alone 0.11)."""
    off = markers_off(grid, markers, cols, rows)
    corners = [m for m in markers if m.id in CORNER_OF]
    if off is None or off[1] > ONTO_REACH or not corners:
        return None
    fitted = _fitted_onto_the_markers(image, grid, corners, cols, rows)
    if fitted is None:
        # the lines' lattice at the wrong phase: the crossings gathered through it are the art's
        # or a line's halo, and the markers' corners cannot pull the fit across. Gathered again
        # through the lattice moved, whole, onto the markers' corners; the printed lines there
        # dark or light (a stone floor's dark joints made the lattice found, the printed lines
        # between them are light: independent scene 476), whichever the markers' fit holds to
        # (reading R106)
        moved = _moved_onto_the_markers(grid, corners, cols, rows)
        fitted = _fitted_onto_the_markers(image, moved, corners, cols, rows, light=False, moved=True)
        if fitted is None:
            fitted = _fitted_onto_the_markers(image, moved, corners, cols, rows, light=True, moved=True)
    return fitted


def _moved_onto_the_markers(grid: Grid, corners: list[Any], cols: int, rows: int) -> Grid:
    """``grid`` moved along the board, whole, by the mean of how far each corner marker's corner
    nearest the map lies from the map corner it names through it (:func:`_corner_point`): the same
    lattice, at the phase the markers show (reading R106)."""
    moves = [np.array(CORNER_OF[m.id]) * [cols, rows] - cv2.perspectiveTransform(
        _corner_point(m, grid.H, np.array(CORNER_OF[m.id]) * [cols, rows])[0][None, None], grid.H)[0, 0] for m in corners]
    dx, dy = np.mean(moves, axis=0)
    return replace(grid, H=np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]]) @ grid.H)


def _fitted_onto_the_markers(image: np.ndarray, grid: Grid, corners: list[Any], cols: int, rows: int,
                             light: bool | None = None, moved: bool = False) -> Grid | None:
    """:func:`_onto_the_markers`' fit from ``grid``'s lattice: the crossings gathered through it
    and the corner markers' corners, then the tests it must pass; None where it does not stand.
    ``light``: the printed lines' polarity; none: the one the lines' combs through ``grid`` show.
    ``moved``: ``grid`` is the lines' lattice moved onto the markers' corners (reading R106):
    thin lines between a floor's bolder joints give fewer crossings than the share of the
    lattice asked of a fit, and the fit stands instead where, besides :data:`MOVED_AGREEING`
    crossings agreeing with it, the lines of that polarity stand on its lattice as an inset
    grid's must (:func:`_on_its_own_lines`)."""
    gray, scale, S, H_small, shown, _combs = _through_the_grid(image, grid, cols, rows)
    light = shown if light is None else light
    targets = np.array([np.array(CORNER_OF[m.id]) * [cols, rows] for m in corners], np.float64)
    lattice = (cols + 1) * (rows + 1)
    for _turn in range(3):
        b, i = _crossings(gray, np.linalg.inv(H_small), cols, rows, light)
        if len(b) < 8:
            return None
        # each marker's corner nearest the map through the grid so far: the one on its map corner
        inner = [_corner_point(m, H_small @ S, t)[0] * scale for m, t in zip(corners, targets, strict=True)]
        img_pts = np.concatenate([i, np.repeat(np.array(inner), ONTO_ANCHOR_WEIGHT, axis=0)])
        board_pts = np.concatenate([b, np.repeat(targets, ONTO_ANCHOR_WEIGHT, axis=0)])
        H, _mask = cv2.findHomography(img_pts, board_pts, cv2.RANSAC, 0.1)
        if H is None or not np.all(np.isfinite(H)):
            return None
        H_small = np.asarray(H, np.float64)
    b, i = _crossings(gray, np.linalg.inv(H_small), cols, rows, light)
    residual = np.linalg.norm(cv2.perspectiveTransform(i[None], H_small)[0] - b, axis=1) if len(b) else np.empty(0)
    agree = residual < 0.12
    fitted = replace(grid, H=H_small @ S, uncertainty=float(residual[agree].mean()) if agree.any() else 0.0)
    if markers_off(fitted, corners, cols, rows) is not None or agree.sum() < max(12, 0.5 * len(b)):
        return None
    if agree.sum() < 0.15 * lattice and not (moved and agree.sum() >= MOVED_AGREEING and _on_its_own_lines(gray, H_small, light, cols, rows)):
        return None
    # the markers held the fit where they stand; the crossings alone, spread over the whole map,
    # follow the lens's bend better far from them -- kept while the markers' corners stay near
    # theirs. The crossings agreed with the markers' fit, so theirs is the same lattice; a marker
    # laid by hand a tenth of a square off its corner pulls the markers' fit that far and bends it
    # far from the marker instead (reading R119: CROSSINGS_ANCHOR_TOLERANCE)
    H, mask = cv2.findHomography(i[agree], b[agree], cv2.RANSAC, 0.1)
    if H is not None and np.all(np.isfinite(H)) and mask.sum() >= 8:
        plain = replace(fitted, H=np.asarray(H, np.float64) @ S)
        if markers_off(plain, corners, cols, rows, CROSSINGS_ANCHOR_TOLERANCE) is None:
            return plain
    return fitted


#: how far (squares) the fit of the printed lines' crossings alone, after the markers' fit
#: (:func:`_fitted_onto_the_markers`), may put a corner marker's corner from the map corner it
#: names: farther than the markers' own check (:data:`ANCHOR_TOLERANCE`), as a marker laid by hand
#: stands a little off its corner (independent scene 440's empty map: 0.11 squares), closer than
#: the other lattices of printed lines put it (0.21-0.27 squares, independent scenes 359 and 371;
#: reading R119)
CROSSINGS_ANCHOR_TOLERANCE = 0.2


#: the fewest crossings that must agree (within 0.12 squares) with a fit from the lines' lattice
#: moved onto the markers' corners (:func:`_fitted_onto_the_markers`, reading R106)
MOVED_AGREEING = 12


def _on_its_own_lines(gray: np.ndarray, H_small: np.ndarray, light: bool, cols: int, rows: int) -> bool:
    """Whether the printed lines of one polarity (``light``) stand on ``H_small``'s lattice (small
    image -> board) as an inset grid's must: on its own lattice (:func:`_lines_on_lattice` or
    :func:`_each_line_on_lattice`) and with no lattice of that polarity beside it (:func:`_alone`)."""
    on_lattice = _lines_on_lattice(line_periods(gray, H_small, cols, rows, light)) or _each_line_on_lattice(gray, H_small, cols, rows, light)
    return on_lattice and _alone(shifted_lines(gray, H_small, cols, rows, light))


def _on_the_markers(grid: Grid, markers: list[Any], cols: int, rows: int, image: np.ndarray | None = None) -> Grid:
    """``grid``, unless a corner marker seen says it lies off the map (:func:`markers_off`): then
    the grid fitted again onto the markers and the lines (:func:`_onto_the_markers`, given the
    ``image``) where that stands, else refused."""
    off = markers_off(grid, markers, cols, rows)
    if off is None:
        return grid
    onto = _onto_the_markers(image, grid, markers, cols, rows) if image is not None else None
    if onto is not None:
        return onto
    raise MarkersOffGridError(
        _(
            "the printed grid found puts the map corner that corner marker {id} stands on {off:.2f} squares away from that marker's corner, so it does "
            "not lie on the map's own lines (a floor's pattern, or an outline other than the map's). Make all four corner markers visible, or "
            "photograph the map from higher up"
        ).format(id=off[0], off=off[1])
    )


#: the corner markers' map corners (CONTRACT section 4: ids 0-3 at the NW, NE, SE and SW corners)
CORNER_OF = {0: (0.0, 0.0), 1: (1.0, 0.0), 2: (1.0, 1.0), 3: (0.0, 1.0)}


def _orient(image: np.ndarray, pos: Position, candidates: list[Grid], markers: list[Any], reference: Reference | None = None) -> Grid | None:
    """Which way round the printed grid lies (a grid alone is symmetric), from what the photo
    itself shows: the empty-map reference photo's art where there is one, else a corner marker seen beyond the
    corner it names, else the map's printed terrain read through it. Each must clearly prefer one. The record's squares play no part: a record out
    of date would turn the grid to fit itself. None when there is no grid, or none puts every
    corner marker seen beyond the corner it names (reading R118); raises
    :class:`UnorientedGridError` when there is one but nothing tells its orientation."""
    cols, rows = pos.map.cols, pos.map.rows
    corners = [m for m in markers if m.id in CORNER_OF]
    if corners:
        candidates = every_quarter_turn(candidates, cols, rows)
        # a lattice a square or so over can put one corner of a large marker on the map's corner
        # point, and its centre nearest the named corner, the marker over the map's first column
        # or row: only the lattices that put every corner marker seen beyond its corner are the
        # map's (reading R118, as R117 for an empty map's grid)
        candidates = [g for g in candidates if all(beyond_its_corner(g, m, cols, rows) for m in corners)]
    if not candidates:
        return None
    if reference is not None:  # this very map's art, photographed empty: asymmetric, so it tells
        by_reference = orient_by_reference(image, candidates, reference)
        if by_reference is not None:
            return _on_the_markers(by_reference, markers, cols, rows, image)

    if corners:  # one corner marker is enough: it lies beside the corner it names, outside the grid

        def beside_its_corner(g: Grid) -> float:
            pts = cv2.perspectiveTransform(np.array([[m.corners.mean(axis=0) for m in corners]], np.float64), g.H)[0]
            named = [(CORNER_OF[m.id][0] * cols, CORNER_OF[m.id][1] * rows) for m in corners]
            ends = [(0.0, 0.0), (float(cols), 0.0), (float(cols), float(rows)), (0.0, float(rows))]
            return float(sum(min(ends, key=lambda e: np.hypot(x - e[0], y - e[1])) == c for (x, y), c in zip(pts, named, strict=True)))

        # asked before the terrain: the contract's own sign of the map's corners (CONTRACT §4),
        # and a reading of the terrain each way round costs about a CPU-second a photo
        k = _decided([beside_its_corner(g) for g in candidates], 1, 1)
        if k is not None:
            return _on_the_markers(replace(candidates[k], oriented_by=N_("the corner markers seen")), markers, cols, rows, image)
    k = by_terrain(_terrain_matches(image, candidates, pos))
    if k is not None:
        return _on_the_markers(replace(candidates[k], oriented_by=N_("the map's terrain")), markers, cols, rows, image)
    raise UnorientedGridError(
        _(
            "the printed grid is found, but nothing in the photo tells which way round the map lies (its printed terrain does not decide it, and no "
            "corner marker is seen); the record's squares are not used for it. One corner marker (ArUco 4x4_50 id 0-3) at its corner, or a reference "
            "photo of the empty map, settles it"
        )
    )


def _decided(scores: list[float], least: float, margin: float) -> int | None:
    """The index of the best of ``scores`` where it reaches ``least`` and leads the next by ``margin``."""
    order = sorted(range(len(scores)), key=lambda k: -scores[k])
    best = order[0]
    if scores[best] >= least and (len(order) == 1 or scores[best] - scores[order[1]] >= margin):
        return best
    return None


def by_terrain(matches: list[tuple[float, int]]) -> int | None:
    """Which way round the map's printed terrain decides, from each way's :func:`_terrain_match`
    (agreement, hits): an agreement of 0.6 over every square and edge, 0.2 clear of the next way,
    else :func:`_decided_by_hits`; None where it does not decide (reading R116)."""
    k = _decided([m[0] for m in matches], 0.6, 0.2)
    return k if k is not None else _decided_by_hits([m[1] for m in matches])


#: the fewest of the map's terrain squares and edges read where (and as what) the map has them
#: for that alone to orient the grid, when no other way round reads more than a quarter as many
ORIENT_HITS = 3


def _decided_by_hits(hits: list[int]) -> int | None:
    """The way round whose reading finds the map's own terrain where the map has it, when the
    agreement over every square (:func:`_terrain_match`) does not decide: on printed-art floors much of
    the art reads as terrain (sand as difficult ground), which dilutes the agreement of the right
    way round (measured 0.14-0.31 on held-out sand, lava and grate photos) though it alone finds
    the map's terrain (2-4 of 2-14 squares; the other ways none). A map as symmetric as its grid
    finds as much either way round and stays undecided."""
    best = max(range(len(hits)), key=lambda k: hits[k])
    if hits[best] >= ORIENT_HITS and all(4 * h <= hits[best] for k, h in enumerate(hits) if k != best):
        return best
    return None


def _half_turn(cols: int, rows: int) -> np.ndarray:
    """The board turned half round: the same lattice, its squares named from the other corner."""
    return np.array([[-1.0, 0, cols], [0, -1.0, rows], [0, 0, 1]])


def every_quarter_turn(candidates: list[Grid], cols: int, rows: int) -> list[Grid]:
    """``candidates`` and, on a square map, each one's quarter turns: the same lattice, its squares
    named from each corner in turn. An outline gives its lattice and that lattice's half turn; on a
    square map the quarter-turned naming fits the same lines, and a corner marker seen names which
    of the four is the map's (reading R322: independent scene 415's empty 13 x 13 map, marker 0 seen
    at a quarter turn's corner, its grid found 0.11 squares off the truth and refused as lying off
    the marker). Not square: ``candidates`` as they are."""
    if cols != rows:
        return candidates
    every = list(candidates)
    for g in candidates:
        for turn in (90, 270):
            turned = replace(g, H=turned_board(turn, cols, rows) @ g.H)
            if not any(_same_grid(turned, k, cols, rows) for k in every):
                every.append(turned)
    return every


def _terrain_matches(image: np.ndarray, candidates: list[Grid], pos: Position) -> list[tuple[float, int]]:
    """:func:`_terrain_match` of every candidate. A candidate that is another's lattice turned half
    round is not read again: the terrain read through the other is compared with the map turned
    half round (reading the map costs about half a CPU-second; a map's two ways round along one
    outline are always both candidates)."""
    cols, rows = pos.map.cols, pos.map.rows
    half = _half_turn(cols, rows)
    read: list[tuple[Grid, MapReading]] = []
    out = []
    for g in candidates:
        twin = next((r for prev, r in read if _same_grid(replace(prev, H=half @ prev.H), g, cols, rows)), None)
        if twin is not None:
            out.append(_terrain_match(twin, pos, turned=True))
            continue
        reading = read_map(rectify(image, g, cols, rows, 24), cols, rows, 24)
        read.append((g, reading))
        out.append(_terrain_match(reading, pos))
    return out


def _turned_square(sq: Square, cols: int, rows: int) -> Square:
    return Square(cols - 1 - sq.col, rows - 1 - sq.row)


def _turned_edge(e: Edge, cols: int, rows: int) -> Edge:
    """The edge where a half turn of the board puts ``e`` (its end points turn about the centre)."""
    if e.axis == "H":
        return Edge(cols - e.x - 1, rows - e.y, "H")
    return Edge(cols - e.x, rows - e.y - 1, "V")


def _terrain_match(reading: MapReading, pos: Position, turned: bool = False) -> tuple[float, int]:
    """How well the terrain read through a grid matches the position's map (0..1), and how
    many of the map's terrain squares and edges are read where, and as what, the map has them;
    ``turned``: the map turned half round is compared (the reading is through that grid's half-turned twin)."""
    cols, rows = pos.map.cols, pos.map.rows

    def sq_name(sq: Square) -> str:
        return (_turned_square(sq, cols, rows) if turned else sq).name

    def ed_name(e: Edge) -> str:
        return (_turned_edge(e, cols, rows) if turned else e).name

    expected_sq = {sq_name(s): k.value for k, sqs in pos.map.squares.items() for s in sqs if k.value in ("wall", "low", "difficult", "pit")}
    expected_ed = {ed_name(e): "wall" for e in pos.map.walls} | {ed_name(e): "door" for e in pos.map.doors}
    keys = set(expected_sq) | set(reading.squares)
    keys_e = set(expected_ed) | set(reading.edges)
    hits = sum(reading.squares.get(k) == v for k, v in expected_sq.items()) + sum(reading.edges.get(k) == v for k, v in expected_ed.items())
    if not keys and not keys_e:
        return 0.0, 0  # a map with no printed terrain: its orientation cannot be told, so none is claimed
    right = sum(reading.squares.get(k) == expected_sq.get(k) for k in keys) + sum(reading.edges.get(k) == expected_ed.get(k) for k in keys_e)
    return right / max(1, len(keys) + len(keys_e)), hits


#: the grids :func:`grid_candidates` found on one photo, by the map's size and the corner markers
#: it was given (ids and corners): ``map from-photo`` on a markerless map searched the printed lines
#: twice over (:func:`find_grid_from_lines`, then :func:`upright_grid`), 0.5-1.1 CPU-seconds
#: more than needed on the diagnosis photos. One per photo, made by its caller.
CandidateMemo = dict[tuple[Any, ...], list[Grid]]


def grid_candidates(image: np.ndarray, cols: int, rows: int, markers: list[Any] | None = None, memo: CandidateMemo | None = None,
                    budget: Budget | None = None, refused: list[str] | None = None) -> list[Grid]:
    """Every way the printed grid of a ``cols`` x ``rows`` map fits the photo (paper outline and
    map outline, each turned every way it fits), unoriented: a grid alone is symmetric. Only
    grids no other lattice of lines beside them makes doubtful (:func:`stands_alone`).
    ``markers``: those seen; the corner markers' are kept out of the map's region (:func:`_region_quad`).
    ``memo``: this photo's searches so far (:data:`CandidateMemo`), read and added to; ``budget``:
    the photo's work budget, which each outline beyond the first :data:`.budget.OUTLINES_IN_RESERVE`
    must fit (none: every outline is searched); ``refused``: where given, added to with why each
    grid found was not claimed (:func:`why_unsettled`; the memo keeps grids, not reasons: a photo
    searched again from its memo adds none)."""
    key = (cols, rows, tuple(sorted((m.id, np.asarray(m.corners, np.float64).tobytes()) for m in markers or [] if m.id in CORNER_OF)))
    if memo is not None and key in memo:
        return list(memo[key])
    skipped = len(budget.skipped) if budget is not None else 0
    found = _grid_candidates(image, cols, rows, markers, budget, refused)
    if budget is None or len(budget.skipped) == skipped:  # a search the budget cut short is not the photo's whole answer
        if memo is not None:
            memo[key] = list(found)
        views.once(image, (_WHOLE_SEARCH, key), lambda: len(found))  # for searched_in_vain (reading R401)
    return found


#: what :func:`grid_candidates` notes of a photo searched whole (:func:`.views.once`): how many grids it gave
_WHOLE_SEARCH = "printed-lines grids found"


def searched_in_vain(image: np.ndarray, cols: int, rows: int) -> bool:
    """Whether the printed-lines search ran whole on ``image`` (the budget cut nothing short), with no
    corner marker, within this grid search (:func:`.views.shared`), and found no grid at all -- not
    one it then could not orient or claim -- or only grids the sheet's bend carries off the lattice
    (:func:`_within_the_sheets_bend`, R402). Asked after the search (before it, or outside a shared
    search: False). A photo its lens bends is then searched again straightened (reading R401)."""
    return views.once(image, (_WHOLE_SEARCH, (cols, rows, ())), lambda: -1) == 0 or views.once(image, (_ALL_BENT_OFF, cols, rows), lambda: False)


def _grid_candidates(image: np.ndarray, cols: int, rows: int, markers: list[Any] | None, budget: Budget | None = None,
                     refused: list[str] | None = None) -> list[Grid]:
    scale = min(1.0, WORK / image.shape[1])
    small = views.shrunk(image, scale, cv2.INTER_AREA) if scale < 1 else image  # once a grid search (.views)
    gray = views.gray(small)
    candidates = _paper_grids(small, gray, cols, rows, scale)
    hide = [np.asarray(m.corners, np.float64) * scale for m in markers or [] if m.id in CORNER_OF]
    centred: set[bytes] = set()  # the grids centred in the sheet's outline (R135): the outline settles them
    framed: set[bytes] = set()  # the grids it frames evenly without a centred search's (R240): spared the rival test
    for grid in _outline_grids(small, gray, cols, rows, scale, hide, budget, centred=centred, framed=framed):
        if not any(_same_grid(grid, g, cols, rows) for g in candidates):
            candidates.append(grid)
    S_inv = np.diag([1 / scale, 1 / scale, 1.0])
    kept = _settled_grids(gray, candidates, S_inv, cols, rows, markers or [], refused, centred | framed)
    kept = _beside_none_centred(kept, centred, cols, rows)
    sheet = _sheet_edge_outline(small, hide) if not kept else None
    if sheet is not None:
        # the sheet's edge beyond the map region's outline, searched only where no outline gave
        # a grid that stands: a side moved onto a shadow or a plank a square out gives the printed
        # lines' own lattice one square off, which no rival test sees (independent scene 437, R107)
        found = _outline_grids(small, gray, cols, rows, scale, hide, budget, [sheet], len(_outline_quads(small, hide)), centred, framed)
        # and the grid centred on the sheet, as a printed map is (R100): the lattice a square off
        # leaves a margin a square wider on one side than the other (scene 437: 0.25 and 1.45)
        even = [g for g in found if _even_margins(g, sheet / scale, cols, rows)]
        kept = _beside_none_centred(_settled_grids(gray, even, S_inv, cols, rows, markers or [], refused, centred | framed), centred, cols, rows)
    return kept


#: how far (squares, a map corner at worst) a lattice may lie from a grid centred on the sheet
#: (R135) and be its rival: beyond :func:`_same_grid`'s 0.3, within a square
CENTRED_RIVAL_REACH = 1.0


def _beside_none_centred(grids: list[Grid], centred: Collection[bytes], cols: int, rows: int) -> list[Grid]:
    """``grids`` less those lying a fraction of a square beside a grid the sheet's outline frames
    evenly (``centred``, reading R135): a floor's joints a square apart, clearer than the printed
    lines, give a lattice of their own that stands alone wherever the printed lines are too faint
    to be its rival, and the grid a printed map centres on its sheet is the printed one."""
    frame = [g for g in grids if g.H.tobytes() in centred]
    if not frame:
        return grids
    return [g for g in grids if g.H.tobytes() in centred or not any(_beside(g, c, cols, rows) for c in frame)]


def _beside(g: Grid, c: Grid, cols: int, rows: int) -> bool:
    """Whether two grids are two lattices a fraction of a square apart: not the same
    (:func:`_same_grid`), and no map corner of one more than :data:`CENTRED_RIVAL_REACH` from
    where the other puts it."""
    corners = np.array([[[0, 0], [cols, 0], [cols, rows], [0, rows]]], np.float64)
    through = cv2.perspectiveTransform(cv2.perspectiveTransform(corners, np.linalg.inv(g.H)), c.H)[0]
    return not _same_grid(g, c, cols, rows) and float(np.max(np.linalg.norm(through - corners[0], axis=1))) < CENTRED_RIVAL_REACH


#: how much the sheet's margins round a grid found inside the sheet's edge (R107) may differ
#: (squares, the widest less the narrowest, each corner's two): measured 0.02-0.09 on the grids
#: right, 1.2 on one a square off
SHEET_MARGIN_AGREEMENT = 0.25


def _even_margins(grid: Grid, sheet: np.ndarray, cols: int, rows: int, agreement: float = SHEET_MARGIN_AGREEMENT) -> bool:
    """Whether the sheet's corners (``sheet``: the image's pixels) lie as far outside the map's
    corners through ``grid`` on every side, within ``agreement`` (squares; reading R107)."""
    seen = cv2.perspectiveTransform(np.asarray(sheet, np.float64)[None], grid.H)[0]
    ends = np.array([[0.0, 0.0], [cols, 0.0], [cols, rows], [0.0, rows]])
    margins = np.array([np.abs(p - ends[int(np.argmin(np.linalg.norm(ends - p, axis=1)))]) for p in seen])
    return float(margins.max() - margins.min()) <= agreement


#: how much wider (squares) the margin on one side of a grid found inside an outline without corner
#: markers (:func:`_inset_grid`) may be than on the side across from it (:func:`lopsided_frame`):
#: a printed map centres its grid on its sheet (R100, R135), and a lattice far off the sheet's
#: centre is a floor's joints the search took for the grid (reading R146 in docs/readings.md)
INSET_LOPSIDED = 0.5


def lopsided_frame(H_image_to_board: np.ndarray, outline: np.ndarray, cols: int, rows: int) -> float:
    """How unevenly an outline (its four corners, the image's pixels, in order round it) frames
    the grid ``H_image_to_board``: the most by which the margin beyond one side of the map (squares,
    the outline's corner past it seen through the grid) exceeds the margin beyond the side across
    from it, along each of the outline's four sides. A sheet may leave another margin along its
    length than across it; a printed grid centred on it leaves the same margin either side
    (reading R146)."""
    seen = cv2.perspectiveTransform(np.asarray(outline, np.float64)[None], H_image_to_board)[0]
    ends = np.array([[0.0, 0.0], [cols, 0.0], [cols, rows], [0.0, rows]])
    # each outline corner taken as the map corner nearest it, so the outline's order round does not matter
    at = [seen[int(np.argmin(np.linalg.norm(seen - e, axis=1)))] for e in ends]
    west = [-at[0][0], -at[3][0]]
    east = [at[1][0] - cols, at[2][0] - cols]
    north = [-at[0][1], -at[1][1]]
    south = [at[3][1] - rows, at[2][1] - rows]
    return float(max(abs(west[0] - east[0]), abs(west[1] - east[1]), abs(north[0] - south[0]), abs(north[1] - south[1])))


def _settled_grids(gray: np.ndarray, candidates: list[Grid], S_inv: np.ndarray, cols: int, rows: int, markers: list[Any],
                   refused: list[str] | None, centred: Collection[bytes] = ()) -> list[Grid]:
    """The candidates that may be claimed (:func:`why_unsettled`), in their order; why each other
    was not added to ``refused`` where given. ``centred``: the homographies (bytes) of the grids
    the sheet's outline frames evenly (:func:`_centred_grid`), which it settles: a floor's joints
    beside their lines are no rival there (reading R135)."""
    kept = []
    for grid in candidates:  # the paper's outline first, then the map's outlines best first
        why = "" if grid.H.tobytes() in centred else why_unsettled(gray, grid, S_inv, cols, rows, markers)
        if not why:
            kept.append(grid)
        elif refused is not None:
            refused.append(why)
    return kept


#: why a grid the outlines gave is not claimed (:func:`why_unsettled`), shown in the refusal (R95)
RIVAL_UNSETTLED = N_("the printed lines found match a rival lattice a fraction of a square beside them (the art's own lines, "
                     "a floor's planks or tiles), and no corner marker is seen to settle which is the map's")
RIVAL_MARKER_OFF = N_("the printed lines found match a rival lattice a fraction of a square beside them (the art's own lines, "
                      "a floor's planks or tiles), and the corner marker seen is not on the map's corner through them")


def why_unsettled(gray: np.ndarray, grid: Grid, S_inv: np.ndarray, cols: int, rows: int, markers: list[Any]) -> str:
    """Why ``grid`` may not be claimed (:func:`settled`), untranslated; '' where it may."""
    if settled(gray, grid, S_inv, cols, rows, markers):
        return ""
    return RIVAL_MARKER_OFF if any(m.id in CORNER_OF for m in markers) else RIVAL_UNSETTLED


def settled(gray: np.ndarray, grid: Grid, S_inv: np.ndarray, cols: int, rows: int, markers: list[Any]) -> bool:
    """Whether ``grid`` (image -> board; ``S_inv``: ``gray``'s pixels -> the image's) may be
    claimed: no other lattice of lines lies beside it (:func:`stands_alone`), or one does and a
    corner marker seen settles which lattice is the map's -- each corner marker's corner nearest
    the map lies on the map corner it names through this grid (:func:`markers_off`, within
    :data:`ANCHOR_TOLERANCE`), where a lattice a quarter to three quarters of a square off
    (:data:`RIVAL_SHIFTS`) would put it at least a quarter of a square away (reading R59: "a corner
    marker settles it"; independent scene 392: wood planks on a wood table, one corner marker, the
    grid from the map's outline 0.17 squares from the truth at its worst, refused)."""
    if stands_alone(gray, grid.H @ S_inv, cols, rows):
        return True
    corners = [m for m in markers if m.id in CORNER_OF]
    return bool(corners) and markers_off(grid, corners, cols, rows) is None


#: a lattice of lines beside a grid's own along one axis, at least this share as clear (over that
#: axis's art) as the grid's lines along the other axis (over its art), makes the grid doubtful
#: (:func:`stands_alone`): the printed lines are the same ink both ways
RIVAL_LINES = 0.5
#: the shifts (squares) at which a rival lattice is looked for: a quarter of a square or more
#: from the grid's lines (the lines' own peaks are searched 0.12 squares either side)
RIVAL_SHIFTS = (0.25, 0.75)


def shifted_lines(gray: np.ndarray, H_small: np.ndarray, cols: int, rows: int, light: bool,
                  along: Sequence[float] = (0.5,)) -> list[np.ndarray]:
    """Along the columns and along the rows: how clearly thin lines stand on the grid's lattice
    shifted by 0, 1/16, ... 15/16 of a square (``H_small``: small image -> board): for each shift,
    the median over the lattice's lines of the strongest thin-line ink (as :func:`line_periods`
    measures it: darker than the map a quarter of a square either side, the median along the
    line; ``light``: lighter) within 0.12 squares of each. Entry 0 is the grid's own lines.
    ``along``: the quantiles taken along each line (the median by default); with more than one,
    the two axes' curves for each quantile in turn (one view made for all)."""
    T = TOP
    d = _ink_view(gray, np.diag([T, T, 1.0]) @ H_small, (cols * T, rows * T), light).astype(np.float32)
    width = T // 4 * 2 + 1
    reach = int(round(0.12 * T))
    by_axis = []
    for axis, n in ((0, cols), (1, rows)):
        across = cv2.blur(d, (width, 1) if axis == 0 else (1, width), borderType=cv2.BORDER_REFLECT)
        # sorted first, as the line profiles (_LineProfiles): the same order statistics, cheaper
        profiles = np.clip(np.quantile(np.sort(d - across, axis=axis), list(along), axis=axis), 0, None)
        at = np.arange(n)[None, :] * T + np.arange(0, T, T // 16)[:, None]  # shifts x lines (the last line has no shifted twin inside)
        curves = []
        for prof in profiles:
            # every line's window at every shift at once: the profile's running maximum over 2 reach + 1
            peak = cv2.dilate(prof[None].astype(np.float32), np.ones((1, 2 * reach + 1), np.uint8)).ravel()
            curves.append(np.median(peak[np.clip(at, 0, len(peak) - 1)], axis=1))
        by_axis.append(curves)
    return [by_axis[axis][k] for k in range(len(along)) for axis in (0, 1)]


#: the quantile along each line at which :func:`stands_alone` looks again for lines the median
#: along them does not see at all: a line seen along a quarter of its length (reading R84)
UPPER_QUARTILE = 0.75


def stands_alone(gray: np.ndarray, H_small: np.ndarray, cols: int, rows: int) -> bool:
    """Whether no other lattice of lines lies beside the grid's along either axis nearly as clear
    as the printed lines: dark lines or light, whichever the grid's lines are clearer in. Each
    axis's lines are measured over its art (:func:`shifted_lines`, less the least over the
    shifts), and a rival along one axis is a lattice a quarter to three quarters of a square off
    standing :data:`RIVAL_LINES` as clear as the grid's lines along the other axis -- the same
    ink, so as clear as the printed grid could be there. A floor's stripes one square apart make
    such a lattice, and a grid laid on them one way and on the faint printed lines the other was
    taken half a square off (independent photo s0359, the empty map: the planks' seams along the
    rows 31 over the art, the printed lines 0.3 squares beside them 3.3, the columns' printed
    lines 2.7; on the scene drawn at 2,400 px 27, 8.3 and 13.6). A grate's bars along one axis
    raise that axis's art everywhere and make no such lattice (generated photo 2: 3.5 beside
    lines of 12.8 the other way). Where nothing tells which lattice is the grid's, no grid is claimed.

    Lines of one polarity the median along them does not show at all along an axis are looked
    for again along a quarter of their length (:data:`UPPER_QUARTILE`, reading R84), and the
    grid stands where they stand alone so: thin light lines over a starfield vanish over its
    bright patches, along more than half of each line (reading R74), and the dark view, the
    stars' gaps, was taken with no lattice in it (independent scene 428's empty map, the grid
    found 0.11 squares off the renderer's: by the medians light 0.0 and 0.0, dark 2.0 and 0.4
    beside rivals of 2.0 and 0.5; by the upper quartile light 5.8 and 4.9 beside rivals of 0.8
    and 0.5). Only there: taking the clearer of the two views everywhere refused a carpet map's
    grid the medians let stand (scene 388: the carpet's weave a lattice in the upper quartile)."""
    best: list[np.ndarray] | None = None
    unseen: list[bool] = []  # the polarities whose lines the median does not show along some axis
    for light in (False, True):
        curves = shifted_lines(gray, H_small, cols, rows, light)
        if min(float(c[0] - c.min()) for c in curves) <= 0:
            unseen.append(light)
        if best is None or min(c[0] - c.min() for c in curves) > min(c[0] - c.min() for c in best):
            best = curves
    assert best is not None
    return _alone(best) or any(_alone(shifted_lines(gray, H_small, cols, rows, light, (UPPER_QUARTILE,))) for light in unseen)


def _alone(curves: list[np.ndarray]) -> bool:
    """Whether the lattice's lines (entry 0 of each axis's :func:`shifted_lines` curve) show along
    both axes and no lattice a quarter to three quarters of a square off stands :data:`RIVAL_LINES`
    as clear as the lines along the other axis."""
    strengths = [float(c[0] - c.min()) for c in curves]
    if min(strengths) <= 0:
        return False
    shifts = np.arange(len(curves[0])) / len(curves[0])
    away = (shifts >= RIVAL_SHIFTS[0]) & (shifts <= RIVAL_SHIFTS[1])
    return all(float(c[away].max() - c.min()) < rival_bar(own, other)
               for c, own, other in zip(curves, strengths, strengths[::-1], strict=True))


def rival_bar(own: float, other: float) -> float:
    """How clear a lattice beside a grid's lines along one axis (``own``: how clear those lines
    stand, as :func:`_alone` measures them) may stand before it makes the grid doubtful, given
    the grid's lines along the other axis (``other``): :data:`RIVAL_LINES` of ``other`` -- the
    printed lines are the same ink both ways -- and, where the grid's lines along this axis stand
    out more than the other axis's, that much less in proportion (reading R114 in docs/readings.md).
    Printed lines alone stand about as clear both ways; lines along one axis standing out k times
    more are laid on more than the printed ink there (a floor's seams or tile joints run one way),
    so the printed lines along it may lie beside them, and seen through a lattice that follows the
    seams, not their spacing, they show faded. Independent scene 359's empty map (wood planks about
    a square wide, their seams along the rows; drawn at 2,400 px): a lattice on the seams along the
    rows (24.5 over the art) and on the printed lines along the columns (13.4) had the printed row
    lines 0.35 squares beside it at 6.1 -- under half the columns' 13.4, so the grid stood 0.36
    squares off; weighed against 13.4 x 13.4 / 24.5 it is doubtful."""
    return RIVAL_LINES * other * min(1.0, other / own)


#: the quarter turns ``map from-photo --turn`` takes (degrees clockwise)
TURNS = (0, 90, 180, 270)


class TurnError(ValueError):
    """A ``--turn`` the map cannot take: a quarter turn of a map that is not square, or any turn of
    a grid the corner markers already oriented."""


def turned_board(turn: int, cols: int, rows: int) -> np.ndarray:
    """The board -> board map that names every square as the map turned ``turn`` degrees clockwise
    names it (the same lattice; a quarter turn only where ``cols == rows``)."""
    if turn not in TURNS:
        raise TurnError(_("--turn must be one of {turns}, not {turn}").format(turns=", ".join(map(str, TURNS)), turn=turn))
    if turn % 180 and cols != rows:
        raise TurnError(
            _("a {cols} x {rows} map fits its photo only one way and turned half round: --turn 90 and 270 are for a square map").format(cols=cols, rows=rows)
        )
    if turn % 180 == 0:
        return _half_turn(cols, rows) if turn else np.eye(3)
    quarter = np.array([[0.0, -1.0, float(rows)], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])  # (x, y) -> (n - y, x): a quarter turn clockwise
    return np.linalg.matrix_power(quarter, turn // 90)


def upright_grid(image: np.ndarray, cols: int, rows: int, markers: list[Any] | None = None, turn: int = 0,
                 memo: CandidateMemo | None = None) -> Grid | None:
    """The grid from the printed lines of an empty map, oriented without any record: by a corner
    marker when one is seen (id 0 at the NW corner ... id 3 at the SW, CONTRACT §4), else with the
    photo's top as row 1's side and its left as column A's -- a choice nothing in the photo
    confirms, so the grid says how many ways round are left open (:attr:`.Grid.ways`: 2 for a
    map that is not square, whose outline fits only one way and turned half round; 4 for a
    square one), and ``turn`` (degrees clockwise, the judge's word: ``map from-photo --turn``)
    turns it. None when the lines give no grid; :class:`TurnError` for a turn the map cannot take.
    ``memo``: the photo's grids found so far (:data:`CandidateMemo`)."""
    turned = turned_board(turn, cols, rows)  # a turn the map cannot take is refused before any search
    candidates = grid_candidates(image, cols, rows, markers, memo)
    if not candidates:
        return None
    corner = {0: (0.0, 0.0), 1: (float(cols), 0.0), 2: (float(cols), float(rows)), 3: (0.0, float(rows))}
    seen = [m for m in markers or [] if m.id in corner]
    if seen:
        if turn:
            raise TurnError(_("the corner markers seen already say which way round the map lies: --turn is not needed"))
        candidates = every_quarter_turn(candidates, cols, rows)

        def off(g: Grid) -> float:  # how far (squares) the seen corner markers lie from the corners they name
            pts = cv2.perspectiveTransform(np.array([[np.asarray(m.corners, np.float64).mean(axis=0) for m in seen]]), g.H)[0]
            return float(sum(np.linalg.norm(p - np.array(corner[m.id])) for p, m in zip(pts, seen, strict=True)))

        # a marker's corner nearest the map touches the map's corner from outside (CONTRACT §4): a
        # lattice a square or so over can still put one of a large marker's corners on it, but then
        # puts the marker over the map's first column or row (reading R117 in docs/readings.md, independent scene 455)
        beyond = [g for g in candidates if all(beyond_its_corner(g, m, cols, rows) for m in seen)]
        if not beyond:
            return None
        best = min(beyond, key=off)
        if markers_off(best, seen, cols, rows) is not None:  # the markers say the grid lies off the map's lines
            onto = _onto_the_markers(image, best, seen, cols, rows)  # unless it fits them and the lines again
            if onto is None:
                return None
            best = onto
        return replace(best, oriented_by=N_("the corner markers seen"))

    def upright(g: Grid) -> float:  # board east on the photo's right, board south down the photo
        inv = np.linalg.inv(g.H)
        c = np.array([[[cols / 2, rows / 2], [cols / 2 + 1, rows / 2], [cols / 2, rows / 2 + 1]]], np.float64)
        p = cv2.perspectiveTransform(c, inv)[0]
        east, south = p[1] - p[0], p[2] - p[0]
        return float(east[0] / (np.linalg.norm(east) + 1e-9) + south[1] / (np.linalg.norm(south) + 1e-9))

    best = max(candidates, key=upright)
    if turn:  # the judge's word: the map lay turned from what the photo's top suggests
        return replace(best, H=turned @ best.H, oriented_by=N_("the judge's --turn, from the photo's top as row 1"))
    # an empty map's printed lines are as symmetric as its outline: nothing here tells a half turn
    # (independent scene 388: a carpet-art 15 x 9 map, no marker, read upside down, every terrain square wrong)
    return replace(best, oriented_by=N_("the photo's top taken as row 1, which nothing in the photo confirms"), ways=2 if cols != rows else 4)


#: how far (squares) beyond its map corner, along each of the map's two axes, a corner marker's
#: centre must lie through a grid (:func:`beyond_its_corner`): the smallest marker printed (12 mm,
#: half an inch square) has its centre a quarter of a square out (reading R117)
BEYOND_CORNER = 0.1


def beyond_its_corner(grid: Grid, marker: Any, cols: int, rows: int) -> bool:
    """Whether ``grid`` puts corner marker ``marker``'s centre outside the map beyond the corner it
    names, along both axes (:data:`BEYOND_CORNER`): the marker stands off the map, its corner
    nearest the map on the map's corner (CONTRACT §4; reading R117)."""
    corner = np.array(CORNER_OF[marker.id])
    centre = cv2.perspectiveTransform(np.asarray(marker.corners, np.float64).mean(axis=0)[None, None], grid.H)[0, 0]
    outward = np.where(corner > 0, 1.0, -1.0)  # NW corner: out is -x and -y
    return bool(np.all((centre - corner * [cols, rows]) * outward > BEYOND_CORNER))


#: a printed sheet's margin round its grid (squares, through the two corner markers' grid), measured
#: at the two corners the markers show, across the markers' side and along it: the four
#: measures must agree within this for the margin to be taken as the sheet's all round (reading R100)
MARGIN_AGREEMENT = 0.08
#: the most margin (squares) taken so; and how far (squares) the far corners then found may lie
#: from where the markers' squares extrapolate them
MOST_MARGIN = 1.0
#: how far (squares) a margin may read below none: a map printed to the sheet's very edge reads a
#: few hundredths either way, as the outline's corners are found (one marker's start, R133; two
#: markers' far side, R100: reading R349)
EDGE_SLACK = 0.05
OUTLINE_FAR_REACH = 0.7


def _outlines_at_map_corners(image: np.ndarray, grid: Grid, markers: Sequence[Any],
                             board4: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each sheet outline (:func:`_sheet_outlines`) whose four corners fall, through ``grid``,
    nearest four different map corners: its corners in the photo and on the board, each in the
    order of ``board4`` (the quad's corner beside each map corner). R100's far side and R125's
    outline frame read the sheet's margin from them."""
    scale, quads = _sheet_outlines(image, markers)
    matched: list[tuple[np.ndarray, np.ndarray]] = []
    for quad in quads:
        on_board = cv2.perspectiveTransform((quad / scale)[None], grid.H)[0]
        nearest = [int(np.argmin(np.linalg.norm(on_board - board4[k], axis=1))) for k in range(4)]
        if len(set(nearest)) == 4:
            matched.append(((quad / scale)[nearest], on_board[nearest]))
    return matched


def outline_far_side(image: np.ndarray, grid: Grid, markers: Sequence[Any], cols: int, rows: int) -> Grid | None:
    """Two corner markers on one side of the map pin that side; the sheet's outline against the
    table (:func:`_outline_quads`) gives the far side where the printed lines are too faint to
    (reading R100: dark lines on lava or a starfield). The sheet's margin round the printed grid
    is measured at the two corners the markers show, through the markers' grid: beyond their side
    and beyond the two sides that run from it, four measures; where they agree (within
    :data:`MARGIN_AGREEMENT`) the margin is the sheet's all round, and the grid is the homography
    that puts the outline's corners that margin outside the map's and the markers' corners on
    theirs -- taken where it moves no marker's corner more than :data:`ANCHOR_TOLERANCE` and no
    far corner more than :data:`OUTLINE_FAR_REACH` from the markers' extrapolation. None where two
    markers do not stand on one side, or no outline shows such a margin; never where two outlines
    do and give grids apart."""
    side = _one_side(grid, cols, rows)
    if side is None:
        return None
    board4, known, free = side
    outward = np.sign(board4 - board4.mean(axis=0))  # each map corner's way out of the map, per axis
    fits: list[np.ndarray] = []
    round_markers: list[bool] = []  # each fit's outline runs round the corner markers (R245)
    for corners, on_board in _outlines_at_map_corners(image, grid, markers, board4):
        margins = np.array([(on_board[k] - board4[k]) * outward[k] for k in known]).ravel()
        margin = float(np.median(margins))
        if not -EDGE_SLACK <= margin <= MOST_MARGIN or float(np.max(np.abs(margins - margin))) > MARGIN_AGREEMENT:
            continue
        sheet = board4 + margin * outward
        image_pts = np.array([known[k] for k in known] + [corners[k] for k in range(4)], np.float64)
        board_pts = np.array([board4[k] for k in known] + [sheet[k] for k in range(4)], np.float64)
        H, _mask = cv2.findHomography(image_pts, board_pts, 0)
        if H is None or anchor_offset(grid, H) > ANCHOR_TOLERANCE:
            continue
        far_there = cv2.perspectiveTransform(board4[free][None], np.linalg.inv(H))[0]
        moved = cv2.perspectiveTransform(far_there[None], grid.H)[0]
        if float(np.max(np.linalg.norm(moved - board4[free], axis=1))) > OUTLINE_FAR_REACH:
            continue
        fits.append(H)
        round_markers.append(_round_the_markers(grid, markers, on_board, board4, outward, list(known)))
    # two outlines (the sheet's edge and the art's, say) must give one grid; where they do not, an
    # outline whose corners lie beyond both markers' outer corners is the sheet and the markers on
    # the table together, not the sheet's edge, and the others decide (reading R245)
    if fits and not lattices_agree(fits, cols, rows) and not all(round_markers):
        fits = [H for H, round_them in zip(fits, round_markers, strict=True) if not round_them]
    if not fits or not lattices_agree(fits, cols, rows):
        return None
    return replace(grid, H=fits[0], uncertainty=0.1)


#: how far inside a corner marker's outer corner (squares, along each axis) an outline's corner may
#: stand and still be taken as running round the marker (reading R245)
ROUND_MARKER_REACH = 0.05


def _round_the_markers(grid: Grid, markers: Sequence[Any], on_board: np.ndarray, board4: np.ndarray, outward: np.ndarray,
                       known: list[int]) -> bool:
    """Whether the outline (its corners ``on_board`` through ``grid``, in ``board4``'s order) has its
    corner beyond the outer corner of the corner marker at every map corner in ``known``, along both
    axes (within :data:`ROUND_MARKER_REACH`): an outline that runs round the markers (reading R245)."""
    for k in known:
        marker = next((m for m in markers if m.id == k), None)
        if marker is None:
            return False
        square = cv2.perspectiveTransform(np.asarray(marker.corners, np.float64)[None], grid.H)[0]
        outer = np.max((square - board4[k]) * outward[k], axis=0)  # the marker's reach out of the map, per axis
        if not np.all((on_board[k] - board4[k]) * outward[k] >= outer - ROUND_MARKER_REACH):
            return False
    return True


def lattices_agree(homographies: Sequence[np.ndarray], cols: int, rows: int) -> bool:
    """Whether grids (photo -> board homographies) put every crossing of the map's lattice within
    :data:`ANCHOR_TOLERANCE` of where the first puts it: two outlines that give grids apart settle
    nothing."""
    return all(lattice_apart(homographies[0], other, cols, rows) <= ANCHOR_TOLERANCE for other in homographies[1:])


def lattice_apart(H_a: np.ndarray, H_b: np.ndarray, cols: int, rows: int) -> float:
    """How far apart (squares, at the worst lattice point) two grids (image -> board) put the map's lattice."""
    lattice = np.array([[x, y] for x in range(cols + 1) for y in range(rows + 1)], np.float64)
    seen = cv2.perspectiveTransform(lattice[None], np.linalg.inv(H_a))[0]
    return float(np.max(np.linalg.norm(cv2.perspectiveTransform(seen[None], H_b)[0] - lattice, axis=1)))


def _two_pinned(grid: Grid, cols: int, rows: int, diagonal: bool = False) -> tuple[np.ndarray, dict[int, np.ndarray], list[int]] | None:
    """The map's four corners (board), the photo points of the two a pair of corner markers pins
    (by corner, 0-3 as :data:`CORNER_OF`) and the two left free; None unless ``grid`` is two
    markers' on one side of the map (``diagonal``: on opposite corners)."""
    pinned = _pinned_corners(grid, cols, rows, 2)
    if pinned is None or ((pinned[2][1] - pinned[2][0]) % 2 == 0) != diagonal:
        return None
    return pinned


def _pinned_corners(grid: Grid, cols: int, rows: int, n: int) -> tuple[np.ndarray, dict[int, np.ndarray], list[int]] | None:
    """The map's four corners (board), the photo points of the ``n`` that corner markers pin (by
    corner, 0-3 as :data:`CORNER_OF`) and those left free; None unless ``grid`` is ``n`` markers'."""
    if grid.corner_markers != n or grid.anchors is None or len(grid.anchors) != n:
        return None
    board4 = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float64)
    known = {k: np.asarray(p, np.float64) for k in range(4) for p, (x, y) in zip(grid.anchors[:, :2], grid.anchors[:, 2:], strict=True)
             if (round(float(x)), round(float(y))) == (round(board4[k][0]), round(board4[k][1]))}
    if len(known) != n:
        return None
    return board4, known, [k for k in range(4) if k not in known]


def _one_side(grid: Grid, cols: int, rows: int) -> tuple[np.ndarray, dict[int, np.ndarray], list[int]] | None:
    """:func:`_two_pinned` for two markers on one side of the map (diagonal markers pin no side)."""
    return _two_pinned(grid, cols, rows)


def pins_one_side(grid: Grid, cols: int, rows: int) -> bool:
    """Whether ``grid`` is that of two corner markers on one side of the map (:func:`_one_side`)."""
    return _one_side(grid, cols, rows) is not None


def _sheet_outlines(image: np.ndarray, markers: Sequence[Any]) -> tuple[float, list[np.ndarray]]:
    """The scale of the grid searches' copy of the photo and the outlines' quads found in it
    (:func:`_outline_quads`, the corner markers' quiet zones hidden), in that copy's pixels."""
    scale = min(1.0, WORK / image.shape[1])
    small = views.shrunk(image, scale, cv2.INTER_AREA) if scale < 1 else image  # once a grid search (.views)
    hide = [np.asarray(m.corners, np.float64) * scale for m in markers if m.id in CORNER_OF]
    return scale, _outline_quads(small, hide)


#: how far (squares) each measure of the sheet's margin, read in the outline's own frame at the two
#: corners the markers show, may lie from their median (reading R125): a barrel lens bends the sheet's
#: edges, so its straight-sided quad's corners stand off the true ones (scene 493, k1 -0.11: measures
#: 0.54-0.70 about the true 0.59, where the markers' extrapolated grid read 0.52-0.68 and stood 1.4
#: squares off at the far side)
OUTLINE_FRAME_AGREEMENT = 0.2


def outline_frame_grids(image: np.ndarray, grid: Grid, markers: Sequence[Any], cols: int, rows: int) -> list[Grid]:
    """Two corner markers on one side of the map, their far side extrapolated too far off for the
    printed lines to be found near it: the grids the sheet's outlines give, each a start for the
    printed lines' check, never an answer alone (reading R125). A quad of the sheet's outline is a
    projective frame of the sheet: each point has its place (u, v) in it, 0-1 along each side,
    whatever the camera. The sheet is the map with a margin ``m`` round it, so a map corner the
    markers show, at (u, v) in that frame, has board x = u (cols + 2m) - m (and y likewise):
    four measures of ``m``, each independent of the markers' extrapolation, which through a tilted
    camera runs a square and more off at the far side. Where they agree (within
    :data:`OUTLINE_FRAME_AGREEMENT` of their median, the median within 0-:data:`MOST_MARGIN`),
    the grid is the homography that puts the quad's corners that margin outside the map's
    and the markers' corners on theirs, kept where it moves no marker's corner more than
    :data:`ANCHOR_TOLERANCE`. Empty where two markers do not stand on one side."""
    side = _one_side(grid, cols, rows)
    if side is None:
        return []
    return [replace(grid, H=H) for H in _outline_frame_fits(image, grid, markers, cols, rows, side, OUTLINE_FRAME_AGREEMENT)]


def frame_margins(frame: np.ndarray, seen: np.ndarray, at: Sequence[np.ndarray], cols: int, rows: int) -> list[float] | None:
    """The sheet's margin (squares) that each map corner ``at`` (board) seen at ``seen`` (photo)
    gives along each axis, read in the sheet outline's own frame (``frame``: photo -> the unit
    square, the outline's corners on its corners): a corner at ``t`` of the frame's side stands on
    a sheet that is the map with an even margin ``m`` round it, ``at = t (n + 2m) - m``, so
    ``m = (at - t n) / (2t - 1)``. None where a corner's place lies near the frame's middle
    (``|2t - 1| < 0.5``): the quad is not this corner's sheet. Readings R125 (two markers on one
    side) and R133 (one marker)."""
    uv = cv2.perspectiveTransform(np.asarray(seen, np.float64)[None], frame)[0]
    measures: list[float] = []
    for (u, v), corner in zip(uv, at, strict=True):
        for t, n, along in ((u, cols, corner[0]), (v, rows, corner[1])):
            if abs(2 * t - 1) < 0.5:
                return None
            measures.append((along - t * n) / (2 * t - 1))
    return measures


def _outline_frame_fits(image: np.ndarray, grid: Grid, markers: Sequence[Any], cols: int, rows: int,
                        pinned: tuple[np.ndarray, dict[int, np.ndarray], list[int]], agreement: float) -> list[np.ndarray]:
    """Each sheet outline's homography (photo -> board) read in the outline's own frame
    (:func:`outline_frame_grids`), where its margin's measures at the pinned corners stray from
    their median by at most ``agreement``."""
    board4, known, _free = pinned
    outward = np.sign(board4 - board4.mean(axis=0))  # each map corner's way out of the map, per axis
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)
    fits: list[np.ndarray] = []
    for corners, _on_board in _outlines_at_map_corners(image, grid, markers, board4):
        frame = cv2.getPerspectiveTransform(corners.astype(np.float32), unit.astype(np.float32)).astype(np.float64)
        seen = np.array([known[k] for k in known], np.float64)
        measures = frame_margins(frame, seen, [board4[k] for k in known], cols, rows)
        if measures is None:
            continue
        margin = float(np.median(measures))
        spread = float(np.max(np.abs(np.array(measures) - margin)))
        if not 0 <= margin <= MOST_MARGIN or spread > agreement:
            continue
        image_pts = np.vstack([seen, corners])
        board_pts = np.vstack([np.array([board4[k] for k in known]), board4 + margin * outward])
        H, _mask = cv2.findHomography(image_pts, board_pts, 0)
        if H is None or anchor_offset(grid, H) > ANCHOR_TOLERANCE:
            continue
        fits.append(H)
    return fits


#: three corner markers' grid the printed lines neither confirm nor correct: how far (squares) each of
#: the six measures of the sheet's margin, read in an outline's own frame at the three markers'
#: corners, may lie from their median for that outline to give the fourth corner (reading R202).
#: Measured on the diagnosis photos 341-574 (game and empty, every three of the corner markers read,
#: one dropped on purpose where four are: 873 cases on 267 photos): within 0.05 and with the fourth
#: corner within the markers' own uncertainty of their extrapolation, 283 cases answered, none more
#: than 0.18 squares off; at 0.08, scene 397's game photo (tilt 49 degrees, k1 -0.10) gave a grid
#: 0.34 squares off, and without the uncertainty's test outlines with 0.03-0.04 gave grids 0.31-0.48 off
THREE_MARGIN_AGREEMENT = 0.05
#: how uncertain (squares) a grid whose fourth corner the sheet's outline gave is taken to be (R202):
#: the worst of those measured so (above) was 0.18 squares off
OUTLINE_FOURTH_UNCERTAINTY = 0.2


def outline_fourth_corner(image: np.ndarray, grid: Grid, markers: Sequence[Any], cols: int, rows: int) -> Grid | None:
    """Three corner markers pin three map corners; the fourth is extrapolated from their squares,
    and where the printed lines neither confirm nor correct it (too faint, or hidden in the floor's
    art) the sheet's outline can give it (reading R202): read in the outline's own frame
    (:func:`frame_margins`), the three marked corners give six measures of the sheet's margin; where
    they agree within :data:`THREE_MARGIN_AGREEMENT` of their median (0-:data:`MOST_MARGIN`), the
    grid is the homography that puts the outline's corners that margin outside the map's and the
    markers' corners on theirs, kept where it moves no marker's corner more than
    :data:`ANCHOR_TOLERANCE` and puts the fourth corner within the markers' own uncertainty
    (:attr:`.board.Grid.uncertainty`) of where their squares extrapolate it: an outline pulled out
    by the markers' white patches at the three marked corners, and by nothing at the fourth, shows
    an even margin there too and puts the fourth corner a third of a square and more off. None where
    three markers do not pin the grid, no outline agrees so, or two outlines whose margins agree give
    grids apart (:func:`lattices_agree`)."""
    pinned = _pinned_corners(grid, cols, rows, 3)
    if pinned is None:
        return None
    board4, _known, free = pinned
    fits = _outline_frame_fits(image, grid, markers, cols, rows, pinned, THREE_MARGIN_AGREEMENT)
    if not fits or not lattices_agree(fits, cols, rows):
        return None
    there = cv2.perspectiveTransform(board4[free][None], np.linalg.inv(fits[0]))[0]  # the fourth corner in the photo, by the outline
    apart = float(np.max(np.linalg.norm(cv2.perspectiveTransform(there[None], grid.H)[0] - board4[free], axis=1)))
    if apart > grid.uncertainty:
        return None
    return replace(grid, H=fits[0], uncertainty=OUTLINE_FOURTH_UNCERTAINTY)


#: two diagonal corner markers' grid the printed lines do not confirm: how far (squares) each
#: measure of the sheet's margin, read in an outline's own frame at the markers' corners, may lie
#: from their median, and how near (squares) that outline's grid must put both free map corners to
#: where the markers' grid puts them, for the markers' grid to stand (reading R126). Measured on the
#: ten diagnosis scenes with diagonal markers (341-502): the outlines that agree so, 0.02-0.04 and
#: 0.03-0.09 (scenes 368, 419, 477), each with the markers' grid 0.06-0.08 off; the markers' grids
#: 0.28-0.62 off, every outline 0.17 and more from them
DIAGONAL_MARGIN_AGREEMENT = 0.05
DIAGONAL_OUTLINE_AGREEMENT = 0.1


def outline_confirms_diagonal(image: np.ndarray, grid: Grid, markers: Sequence[Any], cols: int, rows: int) -> Grid | None:
    """Two corner markers on opposite corners pin two map corners and, by their own squares'
    perspective, the other two; where the printed lines do not confirm that grid, a sheet outline
    can: read in its own frame (:func:`outline_frame_grids`), its margin even at both markers'
    corners (within :data:`DIAGONAL_MARGIN_AGREEMENT`), its grid putting both free corners within
    :data:`DIAGONAL_OUTLINE_AGREEMENT` of where the markers' grid puts them -- two measures of the
    free corners that share nothing but the markers' two corner points. The markers' grid then
    stands, uncertain by that disagreement at the least; None where no outline agrees so (reading R126)."""
    pinned = _two_pinned(grid, cols, rows, diagonal=True)
    if pinned is None:
        return None
    board4, _known, free = pinned
    for H in _outline_frame_fits(image, grid, markers, cols, rows, pinned, DIAGONAL_MARGIN_AGREEMENT):
        there = cv2.perspectiveTransform(board4[free][None], np.linalg.inv(H))[0]  # the free corners in the photo, by the outline
        apart = float(np.max(np.linalg.norm(cv2.perspectiveTransform(there[None], grid.H)[0] - board4[free], axis=1)))
        if apart <= DIAGONAL_OUTLINE_AGREEMENT:
            return replace(grid, uncertainty=max(grid.uncertainty, apart))
    return None
