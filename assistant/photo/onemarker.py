"""One corner marker and the sheet's outline: the grid where the printed-lines search finds none
(reading R133 in docs/readings.md).

A single corner marker pins one map corner, but not the map's size in the photo: it is printed at
any size, and its four corners, a square a square or so wide, extrapolate the far side of a
20-square map tens of squares off. The printed-lines search (:mod:`.lines`) reads the map from
the outlines and the lines' combs, and refuses where the art swamps the lines' combs (stone slabs,
sci-fi panels) or the lines are faint (wood on wood): independent diagnosis photos s0352, s0425,
s0461, s0512 and their empty maps, each one marker, were refused so with any work budget (given
30 CPU-seconds, the same refusals), not for the budget the refusal named.

The sheet's outline is a projective frame of the sheet: each point has its place (u, v) in it,
0-1 along each side, whatever the camera (reading R125, where two markers on one side were read
so). The marker's corner on the map stands at (u, v) in that frame, and the sheet is the map with
an even margin ``m`` round it: x = u (cols + 2m) - m, y = v (rows + 2m) - m at that corner give
two measures of ``m``, which must agree. Their grid is a start only: the printed lines must then
show on it, the three corners no marker stands on moved together to where the lines lie best
(:func:`.lines._search_free_corners`, as for two or three markers, R71), clearly over the whole
map and near those corners, and no rival position nearly as good. Two outlines that give grids
apart settle nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import cv2
import numpy as np

from ..i18n import N_
from . import views
from .board import Grid
from .lens import edges_of_outline
from .lines import (
    ANCHOR_TOLERANCE,
    EDGE_SLACK,
    MIN_LINE_SUPPORT,
    MOST_MARGIN,
    OUTLINE_FRAME_AGREEMENT,
    _along_columns,
    _inset_axis,
    _line_ink,
    _line_samples,
    _LineProfiles,
    _mean_ratio,
    _median_ratio,
    _search_free_corners,
    _sheet_outlines,
    _side_px,
    _support,
    _through_the_grid,
    frame_margins,
    lattice_apart,
    lattices_agree,
)
from .markers import Marker

#: the map's corners (board), clockwise on the board as on the photo: a marker's id names its own
BOARD_CORNERS = ((0, 0), (1, 0), (1, 1), (0, 1))
#: the uncertainty (squares) given a grid the lines confirmed from one marker and the sheet's
#: outline: the free-corner search's resolution and the lens's bend. Run alone on the game photos
#: and empty maps of the 19 diagnosis scenes with one corner marker (341-514), it gave 20 grids,
#: 0.03-0.20 squares off the renderer's lattice at their worst point (s0455's empty map 0.20,
#: s0418's game photo 0.17), none wrong
ONE_MARKER_UNCERTAINTY = 0.2




def _clockwise(quad: np.ndarray) -> np.ndarray:
    """A quad's corners in clockwise order on the photo (y down), from any of them."""
    centre = quad.mean(axis=0)
    return quad[np.argsort(np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0]))]


def frame_start(quad: np.ndarray, marker: Marker, cols: int, rows: int,
                agreement: float = OUTLINE_FRAME_AGREEMENT) -> tuple[np.ndarray, np.ndarray] | None:
    """The homography (photo -> board), and the marker's corner on the map (photo), that the sheet outline ``quad`` (photo pixels) and one
    corner ``marker`` give: the quad's corner nearest the marker is the map corner it names, the
    others follow clockwise; the marker's corner nearest the quad's middle stands on that map
    corner; the sheet's margin is measured there in the quad's frame, both ways, and the two
    measures must agree within ``agreement`` squares and lie within 0-:data:`.lines.MOST_MARGIN`
    (less :data:`EDGE_SLACK`).
    None otherwise. A start for the printed lines' search, never an answer alone."""
    framed = _framed(quad, marker, cols, rows, agreement)
    return None if framed is None else (framed[0], framed[1])


def _framed(quad: np.ndarray, marker: Marker, cols: int, rows: int,
            agreement: float) -> tuple[np.ndarray, np.ndarray, float] | None:
    """:func:`frame_start`'s homography and the marker's corner, with the sheet's margin (squares)
    the outline gave."""
    k = marker.id
    board4 = np.array(BOARD_CORNERS, np.float64) * [cols, rows]
    outward = np.sign(board4 - board4.mean(axis=0))
    unit = np.array(BOARD_CORNERS, np.float64)
    seen = np.asarray(marker.corners, np.float64)
    quad = _clockwise(np.asarray(quad, np.float64))
    near = int(np.argmin(np.linalg.norm(quad - seen.mean(axis=0), axis=1)))
    corners = np.roll(quad, k - near, axis=0)  # corners[k]: the one nearest the marker
    anchor = seen[int(np.argmin(np.linalg.norm(seen - quad.mean(axis=0), axis=1)))]
    frame = cv2.getPerspectiveTransform(corners.astype(np.float32), unit.astype(np.float32)).astype(np.float64)
    measures = frame_margins(frame, anchor[None], [board4[k]], cols, rows)
    if measures is None:  # the marker's corner lies near the frame's middle: not this sheet's corner
        return None
    margin = float(np.mean(measures))
    if not -EDGE_SLACK <= margin <= MOST_MARGIN or abs(measures[0] - measures[1]) / 2 > agreement:
        return None
    H, _mask = cv2.findHomography(np.vstack([anchor[None], corners]), np.vstack([board4[k][None], board4 + margin * outward]), 0)
    return (H, anchor, margin) if H is not None and np.all(np.isfinite(H)) else None


def one_marker_grid(image: np.ndarray, markers: Sequence[Any], cols: int, rows: int,
                    afford: Callable[[], bool] = lambda: True) -> Grid | None:
    """The grid from the one corner marker among ``markers`` and the sheet's outline, confirmed and
    placed by the printed lines (see the module's docstring); None where not exactly one corner
    marker is seen, no outline gives a start, the lines do not confirm one, or two outlines'
    confirmed grids disagree. ``afford``: asked before each start's search by the printed lines
    (the work budget's); where it says no, the starts not searched confirm nothing."""
    marker = _the_one_marker(markers)
    if marker is None:
        return None
    scale, framed = _frame_starts(image, marker, cols, rows)
    S = np.diag([scale, scale, 1.0])
    board4 = np.array(BOARD_CORNERS, np.float64) * [cols, rows]
    confirmed: list[np.ndarray] = []
    anchors: list[np.ndarray] = []
    searched: list[int] = []
    undecided: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # the starts searched whose lines neither confirm nor contradict them (R239)
    for i, H, anchor, H_inv, ink in _clearest_first(image, [(H, anchor) for H, anchor, _m in framed], cols, rows):
        if not afford():
            break
        searched.append(i)
        known = {marker.id: anchor * scale}  # held where the marker shows it
        free = [j for j in range(4) if j != marker.id]
        found_apart: list[np.ndarray] = []  # the lines' best lattices (board -> the search copy) not where the frame put them
        for support in (_mean_ratio, _median_ratio):
            found = _search_free_corners(ink, known, free, H_inv, cols, rows, support, border=True)  # R281: the border kept
            # the lines' best lattice must lie where the frame put it: on stone slabs the lines'
            # search alone went 0.28 squares off from a start 0.07 off (independent s0512's empty map)
            if found is not None and lattices_agree([H, np.linalg.inv(found) @ S], cols, rows):
                confirmed.append(np.linalg.inv(found) @ S)
                anchors.append(anchor)
                break
            if found is not None:
                found_apart.append(found)
        else:
            # the lines' best lattice drawn a little off a start they show clearly on (R216)
            if start_stands(ink, H_inv, found_apart, cols, rows):
                confirmed.append(H)
                anchors.append(anchor)
            elif not _lines_elsewhere(ink, found_apart, cols, rows):
                undecided[i] = (H_inv, ink)
    if not confirmed:
        agreed = outlines_agree([(H, m) for H, _a, m in framed], searched, list(undecided), cols, rows)
        if agreed is not None and not lines_shifted(*undecided[agreed], cols, rows):
            # R239: the outlines alone, where the lines say nothing either way
            confirmed.append(framed[agreed][0])
            anchors.append(framed[agreed][1])
    if not confirmed:
        # R261: the sheet's straight edges, where a start searched found the lines nowhere else
        if any(i not in undecided for i in searched):
            return None
        straight = straight_sheet_grid(image, marker, cols, rows, afford, searched=bool(searched))
        return straight if straight is not None else _one_axis_grid(image, framed, list(undecided), marker.id, cols, rows)
    if not lattices_agree(confirmed, cols, rows):
        return None
    return Grid(confirmed[0], 0.0, 1, np.array([[*anchors[0], *board4[marker.id]]], np.float64), uncertainty=ONE_MARKER_UNCERTAINTY)


#: how far (squares) each end line of an axis's printed lines may lie from a start's for the lines
#: to confirm it along that axis (:func:`one_axis_confirms`, reading R323): half of
#: :data:`.lines.ANCHOR_TOLERANCE`'s reach; the right starts' ends read 0.01-0.06 off
AXIS_REACH = 0.08
#: the focal lengths (image widths) a phone's camera may have: one recovered outside them is not measured
FOCAL_RANGE = (0.4, 2.0)
#: how far from 1 the ratio of a start's square's two sides, the camera recovered from its
#: homography, may lie (:func:`square_sides`, reading R323): a start whose axis no line confirms
#: stretched 0.25 squares over 10 is 2.5 % off; the right starts read 0.1 %
SQUARE_SIDES = 0.01


def square_sides(H: np.ndarray, width: int, height: int) -> float | None:
    """The ratio of a board square's two sides on the table, the camera recovered from ``H``
    (photo -> board) as a pinhole with its principal point at the photo's centre and square
    pixels, its focal length from the board's axes being at right angles; None where that gives
    no focal length within :data:`FOCAL_RANGE` (a camera looking nearly straight down measures
    none). A sheet's outline frames a
    map's printed squares only where they come out square (reading R323)."""
    G = np.linalg.inv(np.asarray(H, np.float64))  # board -> photo
    centred = np.array([[1.0, 0.0, -width / 2.0], [0.0, 1.0, -height / 2.0], [0.0, 0.0, 1.0]]) @ G
    u1, u2, z = centred[:2, 0], centred[:2, 1], centred[2, :2]
    if abs(z[0] * z[1]) < 1e-12 or -float(u1 @ u2) / (z[0] * z[1]) <= 0:
        return None
    f = float(np.sqrt(-float(u1 @ u2) / (z[0] * z[1])))
    if not FOCAL_RANGE[0] * width <= f <= FOCAL_RANGE[1] * width:
        return None  # measured poorly (a camera looking nearly straight down): the sides' ratio with it says nothing
    sides = np.diag([1 / f, 1 / f, 1.0]) @ centred
    return float(np.linalg.norm(sides[:, 0]) / np.linalg.norm(sides[:, 1]))


def one_axis_confirms(image: np.ndarray, H: np.ndarray, cols: int, rows: int) -> bool:
    """Whether the printed lines confirm a one-marker start ``H`` (photo -> board) along one axis
    while showing no lattice of their own along the other (reading R323): wood art's planks run
    one way and hide the lines across them, and the lattice search over both axes together then
    finds the lines neither on the start nor elsewhere. Along one axis the lines must stand clearly
    and alone (:func:`.lines._inset_axis`, as for a grid inside an outline) with both end lines within
    :data:`AXIS_REACH` of the start's; along the other, in the same polarity, no lattice stands or
    one within that reach; and the start's squares must come out square (:func:`square_sides`
    within :data:`SQUARE_SIDES`): the axis the lines leave open is held by the sheet's outline
    alone, and an outline edge off along it stretches its squares."""
    sides = square_sides(H, image.shape[1], image.shape[0])
    if sides is None or abs(sides - 1.0) > SQUARE_SIDES:
        return False
    gray, _scale, _S, H_small, light, _combs = _through_the_grid(image, Grid(H, 0.0, 1), cols, rows)
    profiles = _LineProfiles(gray, H_small, light, cols, rows)
    ends = []
    for axis, n in ((0, cols), (1, rows)):
        found = _inset_axis(np.clip(profiles.along(axis), 0, None), n)
        ends.append(None if found is None else max(abs(found[0]), abs(found[0] + n * found[1] - n)))
    on = [e is not None and e <= AXIS_REACH for e in ends]
    return any(on) and all(ok or e is None for ok, e in zip(on, ends, strict=True))


def _one_axis_grid(image: np.ndarray, framed: Sequence[tuple[np.ndarray, np.ndarray, float]], undecided: Sequence[int],
                   corner: int, cols: int, rows: int) -> Grid | None:
    """The first start the lattice search left undecided (``undecided``: indices into ``framed``,
    each start's homography, the marker's corner and the margin) that the printed lines confirm
    along one axis (:func:`one_axis_confirms`, reading R323), as :func:`one_marker_grid` gives a
    grid; None where none does. Asked after the sheet's straight edges (R261) gave none."""
    board_corner = np.array(BOARD_CORNERS[corner], np.float64) * [cols, rows]
    for i in undecided:
        H, anchor, _margin = framed[i]
        if one_axis_confirms(image, H, cols, rows):
            return Grid(H, 0.0, 1, np.array([[*anchor, *board_corner]], np.float64), uncertainty=ONE_MARKER_UNCERTAINTY)
    return None


#: how far (squares, at the worst lattice point) the printed lines' best lattice may lie from a
#: start they show clearly on for the start to stand (reading R216): see :func:`start_stands`
START_REACH = 0.25
#: how much more clearly (by each measure, :func:`_clarity`) the lines may show on that best
#: lattice than on the start for the start to stand (R216): measured 0.05-0.08 where the start
#: stood 0.05-0.06 squares off (independent s0425's game photo, s0512's empty map), 0.21 and 0.33
#: where it stood 0.31 off and the lines' lattice 0.47 (s0441's game photo, sand)
START_CLARITY_GAP = 0.1


def _clarity(ink: np.ndarray, H_inv: np.ndarray, cols: int, rows: int) -> tuple[float, float]:
    """How clearly the printed lines show on the lattice ``H_inv`` (board -> ``ink``'s image) gives,
    over the whole map: by their mean ink and by their median ink along each axis
    (:func:`.lines._mean_ratio`, :func:`.lines._median_ratio`)."""
    on, off = _line_samples(cols, rows, 0.0), _line_samples(cols, rows, 0.5)
    on_cols, off_cols = _along_columns(cols, rows, 0.0), _along_columns(cols, rows, 0.5)
    a, b = _support(ink, H_inv, on, off)
    return _mean_ratio(a, b, on_cols, off_cols), _median_ratio(a, b, on_cols, off_cols)


def start_stands(ink: np.ndarray, start_inv: np.ndarray, found: Sequence[np.ndarray], cols: int, rows: int) -> bool:
    """Whether the sheet outline's start (``start_inv``: board -> ``ink``'s image) stands as the
    grid where the printed lines' best lattices (``found``: those the free-corner search gave,
    board -> the image) lie more than :data:`.lines.ANCHOR_TOLERANCE` from it (reading R216): the
    lines show clearly on the start by both measures (:func:`_clarity`, each at least
    :data:`.lines.MIN_LINE_SUPPORT`), and on a best lattice within :data:`START_REACH` of it,
    clearly too and no more than :data:`START_CLARITY_GAP` more clearly by either measure. Panels
    and slabs printed with the map draw the lines' best lattice a fifth of a square off a start
    0.05 off, hardly clearer there; wood grain shows no lines by their median; a start off by a
    third shows the lines, but much less clearly than their lattice."""
    at_start = _clarity(ink, start_inv, cols, rows)
    if min(at_start) < MIN_LINE_SUPPORT:
        return False
    for f in found:
        if lattice_apart(np.linalg.inv(start_inv), np.linalg.inv(f), cols, rows) > START_REACH:
            continue
        there = _clarity(ink, f, cols, rows)
        if min(there) >= MIN_LINE_SUPPORT and max(t - s for t, s in zip(there, at_start, strict=True)) <= START_CLARITY_GAP:
            return True
    return False


#: how far apart (squares) two sheet outlines' margins must lie to count as two outlines, not one
#: edge found twice (reading R239): the paper's edge, the art's edge and a border printed round it
#: lie 0.06-0.38 squares apart on the diagnosis photos (s0561's empty map 0.06, 0.13, 0.44, 0.51)
DISTINCT_MARGINS = 0.05


def _lines_elsewhere(ink: np.ndarray, found: Sequence[np.ndarray], cols: int, rows: int) -> bool:
    """Whether the printed lines show clearly (both measures of :func:`_clarity` at least
    :data:`.lines.MIN_LINE_SUPPORT`) on a lattice of theirs (``found``: board -> ``ink``'s image)
    away from a start: they contradict it (reading R239)."""
    return any(min(_clarity(ink, f, cols, rows)) >= MIN_LINE_SUPPORT for f in found)


#: the shifts (squares, along each axis) of a start's lattice on which :func:`lines_shifted` looks
#: for the printed lines: every eighth of a square, half a square either way
SHIFTS = np.arange(-0.5, 0.5, 0.125)


def lines_shifted(H_inv: np.ndarray, ink: np.ndarray, cols: int, rows: int) -> bool:
    """Whether the printed lines show clearly (both measures of :func:`_clarity` at least
    :data:`.lines.MIN_LINE_SUPPORT`) on the lattice of ``H_inv`` (board -> ``ink``'s image)
    shifted by more than :data:`.lines.ANCHOR_TOLERANCE` (:data:`SHIFTS` along each axis): a map
    printed off its sheet's middle, or a marker off the map's corner, whose lines the free-corner
    search, holding the marker's corner, cannot reach (reading R239). 64 looks, 0.1 CPU-seconds."""
    for dx in SHIFTS:
        for dy in SHIFTS:
            if np.hypot(dx, dy) <= ANCHOR_TOLERANCE:
                continue
            shift = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]])
            if min(_clarity(ink, H_inv @ shift, cols, rows)) >= MIN_LINE_SUPPORT:
                return True
    return False


def outlines_agree(starts: Sequence[tuple[np.ndarray, float]], searched: Sequence[int], undecided: Sequence[int],
                   cols: int, rows: int) -> int | None:
    """The start that distinct sheet outlines agree on, where the printed lines neither confirm nor
    contradict any (reading R239): ``starts``, every outline's start (its homography, photo ->
    board, and the margin it gave); ``searched``, those the lines' search ran round (as the work
    budget held it); ``undecided``, those of them on which it found the lines neither standing
    nor clearly elsewhere (:func:`_lines_elsewhere`). None unless every start searched is
    undecided; then the index of a start searched whose agreeing starts (within
    :data:`.lines.ANCHOR_TOLERANCE` of it, :func:`.lines.lattices_agree`) are two outlines or more
    whose margins lie :data:`DISTINCT_MARGINS` apart and more than half of all the starts; the one
    with the most such first. One outline alone is a start, never an answer: a quad round half the
    map gave margins that agree 5.0 squares off (s0563's empty map), a sheet bent by the lens
    0.23-0.36 off (s0563's and s0573's game photos)."""
    if not searched or any(i not in undecided for i in searched):
        return None
    best: tuple[int, int] | None = None
    for i in searched:
        group = [j for j, (H, _m) in enumerate(starts) if lattices_agree([starts[i][0], H], cols, rows)]
        margins = sorted(starts[j][1] for j in group)
        if 2 * len(group) <= len(starts) or margins[-1] - margins[0] < DISTINCT_MARGINS:
            continue
        if best is None or len(group) > best[1]:
            best = (i, len(group))
    return None if best is None else best[0]


def _clearest_first(image: np.ndarray, starts: Sequence[tuple[np.ndarray, np.ndarray]], cols: int,
                    rows: int) -> list[tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Each start (its homography, photo -> board, and the marker's corner) with its lattice in the
    search copy (board -> the copy) and the printed lines' ink there, the starts the lines show
    most clearly on first (the lesser of :func:`_clarity`'s two measures; reading R216): where the
    work budget holds one start's search, it is the likeliest. Independent s0425's game photo gave
    an inner quad first (2.74 squares off, the lines' clarity 0.03 on it) and the sheet's second
    (0.05 off, 0.37): its grid was left out for the budget. 0.05 CPU-seconds a start."""
    prepared = []
    for i, (H, anchor) in enumerate(starts):
        gray, _scale, _S, H_small, light, _combs = _through_the_grid(image, Grid(H, 0.0, 1), cols, rows)
        H_inv = np.linalg.inv(H_small)  # board -> the search copy
        ink = _line_ink(gray, light, _side_px(H_inv, cols, rows))
        prepared.append((min(_clarity(ink, H_inv, cols, rows)), i, H, anchor, H_inv, ink))
    prepared.sort(key=lambda p: -p[0])  # stable: equal clarity keeps the outlines' order
    return [(i, H, anchor, H_inv, ink) for _c, i, H, anchor, H_inv, ink in prepared]


def _the_one_marker(markers: Sequence[Any]) -> Marker | None:
    """The one corner marker among ``markers`` (ids 0-3); None where none, or two or more, are seen."""
    corner = [m for m in markers if 0 <= m.id <= 3]
    if len({m.id for m in corner}) != 1:
        return None
    return Marker(corner[0].id, np.asarray(corner[0].corners, np.float64))


def _frame_starts(image: np.ndarray, marker: Marker, cols: int, rows: int) -> tuple[float, list[tuple[np.ndarray, np.ndarray, float]]]:
    """The search copy's scale, and each sheet outline's start (:func:`frame_start`) for ``marker``,
    in the photo's pixels, with the margin that outline gave. The outlines are read once a grid
    search (:func:`.lines._sheet_outlines`), so asking costs a few homographies."""
    scale, quads = _sheet_outlines(image, [marker])
    framed = (_framed(quad / scale, marker, cols, rows, OUTLINE_FRAME_AGREEMENT) for quad in quads)
    return scale, [started for started in framed if started is not None]


def has_frame_start(image: np.ndarray, markers: Sequence[Any], cols: int, rows: int) -> bool:
    """Whether exactly one corner marker is seen and a sheet outline gives it a start
    (:func:`frame_start`): whether :func:`one_marker_grid` has anything for the printed lines to
    confirm. Asked before the printed-lines search, which then keeps one start's work back for it
    (reading R140)."""
    marker = _the_one_marker(markers)
    return marker is not None and bool(_frame_starts(image, marker, cols, rows)[1])


#: how far (px of the grid search's copy, the mean of each side's best 80 %) the sheet's edge may
#: stray from the straight line fitted along each side of its outline for the outline's corners to
#: be read where its sides meet (reading R261). Measured on every sheet outline of the diagnosis
#: photos with one corner marker read (341-610: 77 game and empty-map photos of 41 scenes, 141
#: outlines framing the marker): the 62 whose four sides fit within 0.2 px gave starts 0.015-0.078
#: squares off the renderer's lattice where their margin's two measures agree
#: (:data:`STRAIGHT_AGREEMENT`: 61), 0.149 where they do not (one); the 79 over 0.2 px strayed
#: 0.28-10 px (a figure, a marker or a lens's bend on a side), their starts up to 5.3 squares off
STRAIGHT_FIT = 0.2
#: the share of each side's points whose misfit counts (the rest: a figure over the edge), as R244's
KEPT = 0.8
#: how far apart (squares, half the difference) the sheet's margin's two measures at the marker may
#: lie for a start from straight edges (R261): at most 0.020 on the 61 starts above that stood
#: within 0.08 squares, 0.115 on the one 0.149 off
STRAIGHT_AGREEMENT = 0.05
#: how far from square the corner marker may look in a straight-edged start's board frame (its
#: longest side over its shortest, the most any corner strays from a right angle, degrees): the
#: marker is a square on the map's own axes, so a start that scales one axis wrongly shows it as a
#: rectangle (a quad round half the map, s0563's empty map: 1.44); measured 1.001-1.014 and
#: 0.2-1.6 degrees on the 61 starts that stood
MARKER_ASPECT = 1.05
MARKER_SKEW = 3.0


def straight_quad(grey: np.ndarray, quad: np.ndarray, passes: int = 3) -> np.ndarray | None:
    """The outline ``quad`` (``grey``'s pixels) with its corners where its four sides, each a
    straight line fitted to the sheet's edge along it (:func:`.lens.edges_of_outline`, its best
    :data:`KEPT`), meet; the lines fitted again along the new sides ``passes`` times. None where a
    side's edge strays from its line by more than :data:`STRAIGHT_FIT` (reading R261): a contour's
    corner pulled onto a corner marker beside it, or cut by one, moves the quad's corners and sides,
    not the sheet's straight edges between them."""
    out = np.asarray(quad, np.float64)
    for _ in range(passes):
        lines, misfits = [], []
        for pts in edges_of_outline(grey, out):
            p = pts.astype(np.float32)
            vx, vy, x0, y0 = cv2.fitLine(p, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            d = np.abs((p[:, 0] - x0) * vy - (p[:, 1] - y0) * vx)
            kept = p[d <= np.quantile(d, KEPT)]
            vx, vy, x0, y0 = cv2.fitLine(kept, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            d = np.abs((p[:, 0] - x0) * vy - (p[:, 1] - y0) * vx)
            misfits.append(float(np.sort(d)[: max(1, int(KEPT * len(d)))].mean()))
            lines.append(np.cross([x0, y0, 1.0], [x0 + vx, y0 + vy, 1.0]))
        corners = [np.cross(lines[i - 1], lines[i]) for i in range(4)]
        if any(abs(c[2]) < 1e-9 for c in corners):
            return None
        out = np.array([c[:2] / c[2] for c in corners])
    return out if max(misfits) <= STRAIGHT_FIT else None


def marker_square(H: np.ndarray, marker: Marker) -> bool:
    """Whether the corner ``marker`` looks square through ``H`` (photo -> board): its sides within
    :data:`MARKER_ASPECT` of each other, its corners within :data:`MARKER_SKEW` degrees of right
    angles (reading R261)."""
    b = cv2.perspectiveTransform(np.asarray(marker.corners, np.float64)[None], H)[0]
    sides = [float(np.linalg.norm(b[(i + 1) % 4] - b[i])) for i in range(4)]
    if min(sides) <= 0 or max(sides) / min(sides) > MARKER_ASPECT:
        return False
    for i in range(4):
        u, v = b[(i + 1) % 4] - b[i], b[i - 1] - b[i]
        if abs(90.0 - float(np.degrees(np.arccos(min(1.0, abs(u @ v) / (np.linalg.norm(u) * np.linalg.norm(v))))))) > MARKER_SKEW:
            return False
    return True


def _straight_starts(image: np.ndarray, marker: Marker, cols: int, rows: int) -> tuple[float, list[tuple[np.ndarray, np.ndarray, float]]]:
    """The search copy's scale, and the start (:func:`_framed`, in the photo's pixels) of each sheet
    outline read from its straight edges (:func:`straight_quad`) whose margin's two measures agree
    within :data:`STRAIGHT_AGREEMENT` and through which ``marker`` looks square (reading R261)."""
    scale, quads = _sheet_outlines(image, [marker])
    small = views.shrunk(image, scale, cv2.INTER_AREA) if scale < 1 else image
    grey = views.gray(small)
    starts = []
    for quad in quads:
        straight = straight_quad(grey, quad)
        framed = None if straight is None else _framed(straight / scale, marker, cols, rows, STRAIGHT_AGREEMENT)
        if framed is not None and marker_square(framed[0], marker):
            starts.append(framed)
    return scale, starts


#: why one corner marker's grid was not found where its sheet's outline is the cause (reading R269),
#: named in the refusal: no outline against the table frames it (wood art on a wood table), or every
#: outline's corner at the marker is pulled off the sheet's (the marker's quiet zone, a figure, an
#: unread marker) and no outline's edges run straight enough to read its corners again (R261)
NO_OUTLINE = N_("no outline of the sheet against the table was found round the one corner marker")
NOT_STRAIGHT = N_("the sheet's outline gives the one corner marker no frame, its corner there pulled off the sheet's and "
                  "its edges not straight where figures, another corner marker or the lens's bend lie on them")


def why_no_frame(image: np.ndarray, markers: Sequence[Any], cols: int, rows: int) -> str:
    """Why the one corner marker among ``markers`` has no start from the sheet's outline, untranslated
    (:data:`NO_OUTLINE`, :data:`NOT_STRAIGHT`); '' where not exactly one corner marker is read, or an
    outline gives it a start (R133) or one read from its straight edges does (R261): then the
    printed lines decided, and the refusal says so (reading R269). The outlines are read once a
    grid search: asking costs the straight edges' fit, a few milliseconds an outline."""
    marker = _the_one_marker(markers)
    if marker is None:
        return ""
    if not _sheet_outlines(image, [marker])[1]:
        return NO_OUTLINE
    if _frame_starts(image, marker, cols, rows)[1] or _straight_starts(image, marker, cols, rows)[1]:
        return ""
    return NOT_STRAIGHT


def straight_sheet_grid(image: np.ndarray, marker: Marker, cols: int, rows: int,
                        afford: Callable[[], bool] = lambda: True, searched: bool = False) -> Grid | None:
    """One corner marker whose sheet outlines gave no start the printed lines confirm, nor two that
    agree (R133, R239): the start of an outline read again from its straight edges
    (:func:`straight_quad`), its margin's two measures within :data:`STRAIGHT_AGREEMENT`, the marker
    square on it (:func:`marker_square`); every such start must agree. Where the lines' search ran
    round a start before (``searched``) and found them neither on it nor clearly elsewhere (the
    caller's check, R239's), the lines must not show clearly on this start shifted by more than
    :data:`.lines.ANCHOR_TOLERANCE` (:func:`lines_shifted`, as R239 asks of its start). Where none
    was searched, the lines are searched round this one as round any start (the work budget's
    ``afford`` asked first): they confirm it where they can (R133, R216) and refuse it where they
    show clearly elsewhere or shifted. Where they say nothing, it stands with R133's uncertainty
    (reading R261)."""
    scale, starts = _straight_starts(image, marker, cols, rows)
    if not starts or not lattices_agree([H for H, _a, _m in starts], cols, rows) or not (searched or afford()):
        return None
    H, anchor, _margin = starts[0]
    board4 = np.array(BOARD_CORNERS, np.float64) * [cols, rows]
    _i, _H, _anchor, H_inv, ink = _clearest_first(image, [(H, anchor)], cols, rows)[0]
    if searched:
        if lines_shifted(H_inv, ink, cols, rows):
            return None
        return Grid(H, 0.0, 1, np.array([[*anchor, *board4[marker.id]]], np.float64), uncertainty=ONE_MARKER_UNCERTAINTY)
    S = np.diag([scale, scale, 1.0])
    found_apart: list[np.ndarray] = []
    for support in (_mean_ratio, _median_ratio):
        found = _search_free_corners(ink, {marker.id: anchor * scale}, [j for j in range(4) if j != marker.id], H_inv, cols, rows, support,
                                     border=True)  # R281: the border kept
        if found is not None and lattices_agree([H, np.linalg.inv(found) @ S], cols, rows):
            H = np.linalg.inv(found) @ S  # the lines confirm it (R133)
            break
        if found is not None:
            found_apart.append(found)
    else:
        if not start_stands(ink, H_inv, found_apart, cols, rows) and (
                _lines_elsewhere(ink, found_apart, cols, rows) or lines_shifted(H_inv, ink, cols, rows)):
            return None
    return Grid(H, 0.0, 1, np.array([[*anchor, *board4[marker.id]]], np.float64), uncertainty=ONE_MARKER_UNCERTAINTY)
