"""The camera lens's bend (radial distortion), estimated from the photo itself (reading R242).

A phone's wide lens bends the map's printed lines: one homography (:class:`.board.Grid`) follows
them near the corner markers and lets them drift where it extrapolates. The bend is modelled by one
parameter ``k``: the photo's pixel ``p`` (centred on the photo's middle, in half-diagonals) shows the
point ``p (1 + k |p|^2)`` of a straight (pinhole) photo of the same size; ``k`` < 0 is a barrel lens.

``k`` is read where the photo shows it: three or four corner markers -- each a square whose four
corners lie on the map's corners' grid -- fit one homography best once straightened by the lens's own
``k`` (:func:`bend_of_markers`); two markers' eight corners fit any, and the printed lines' crossings
found round their grid are fitted instead (:func:`bend_of_crossings`).

>>> p = np.array([[100.0, 50.0], [10.0, 20.0]])
>>> bool(np.allclose(bend_points(straighten_points(p, (60, 80), -0.08), (60, 80), -0.08), p))
True
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from ..model import Position
from . import views
from .board import Grid, NotAMapError, find_grid
from .budget import LINES_RESERVE, Budget
from .lines import (
    INSET_LOPSIDED,
    WORK,
    UnorientedGridError,
    _crossings,
    _polarity,
    find_grid_from_lines,
    lopsided_frame,
    searched_in_vain,
)
from .markers import Marker
from .sheetedges import EDGE_FIT as EDGE_FIT
from .sheetedges import K_TRIED as K_TRIED
from .sheetedges import KEPT, _least, bend_of_quads, lens_shown
from .sheetedges import bend_of_edges as bend_of_edges
from .sheetedges import coherent_edges_of_outline as coherent_edges_of_outline
from .sheetedges import edges_of_outline as edges_of_outline
from .straighten import MESH as MESH
from .straighten import bend_points as bend_points
from .straighten import straighten_points as straighten_points
from .straighten import straightened as straightened

#: how near (squares) one homography must carry a crossing onto its lattice point to count it
FIT = 0.08


def bend_of_markers(markers: list[Marker], shape: tuple[int, ...], cols: int, rows: int) -> tuple[float, float, float]:
    """The bend whose straightened corner markers (three or four: their 12-16 corners) one
    homography carries onto the map most closely (:func:`.board.find_grid`'s misfit, px), that
    misfit, and the misfit at ``k`` = 0."""

    def misfit(k: float) -> float | None:
        moved = [Marker(m.id, straighten_points(m.corners, shape, k)) for m in markers]
        try:
            grid = find_grid(moved, cols, rows, uncertainty=False)
        except NotAMapError:
            return None
        return None if grid is None else grid.reprojection_error_px

    return _least(misfit)


def bend_of_crossings(board: np.ndarray, img: np.ndarray, shape: tuple[int, ...]) -> tuple[float, float, float]:
    """The bend that lets one homography carry the printed lines' crossings found (``board``
    lattice points, ``img`` where the photo of ``shape`` shows them) onto the lattice most
    closely: the most crossings one homography holds within :data:`FIT` squares at some ``k``
    tried are refitted (least squares) at each, and the ``k`` whose fit leaves the least mean
    misfit (squares, over the best :data:`KEPT` of them) is taken; with that misfit and the
    misfit at ``k`` = 0. Fewer than 12 crossings held: no bend (0, 0, 0)."""
    keep = np.zeros(len(board), bool)
    for k in K_TRIED if len(board) >= 12 else ():
        moved = straighten_points(img, shape, k)
        H, _mask = cv2.findHomography(moved, board, cv2.RANSAC, FIT)
        if H is not None:
            near = np.linalg.norm(cv2.perspectiveTransform(moved[None], H)[0] - board, axis=1) < FIT
            if near.sum() > keep.sum():
                keep = near
    if keep.sum() < 12:
        return 0.0, 0.0, 0.0

    def misfit(k: float) -> float | None:
        moved = straighten_points(img[keep], shape, k)
        H, _mask = cv2.findHomography(moved, board[keep], 0)
        if H is None:
            return None
        off = np.sort(np.linalg.norm(cv2.perspectiveTransform(moved[None], H)[0] - board[keep], axis=1))
        return float(off[: max(8, int(KEPT * len(off)))].mean())

    return _least(misfit)


def crossings_of_markers(image: np.ndarray, markers: list[Marker], cols: int, rows: int) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """The printed lines' crossings found round two corner markers' grid (lattice points, and
    where the printed-lines search's grey copy shows them), and that copy's shape."""
    scale, grey = _search_copy(image)
    try:
        grid = find_grid([Marker(m.id, m.corners * scale) for m in markers], cols, rows, uncertainty=False)
    except NotAMapError:  # two markers that frame no such map: no crossings, no bend (it escaped as an internal error, R331)
        grid = None
    if grid is None:
        return np.empty((0, 2)), np.empty((0, 2)), grey.shape
    return _crossings_on(grey, grid.H, cols, rows)


def crossings_round(image: np.ndarray, H: np.ndarray, cols: int, rows: int) -> tuple[np.ndarray, np.ndarray, tuple[int, ...], float]:
    """The printed lines' crossings found round the grid ``H`` (photo pixels -> board): lattice
    points, where the printed-lines search's grey copy shows them, that copy's shape, and its
    scale (its pixels per the photo's). A crossing is found by the lines' sums across its window
    and by their medians (:func:`.lines._crossings`' ``speckled``: art's flecks outshine faint
    lines' sums, own render 764's lava 17 crossings by sums, 68 by medians): the more found, taken."""
    scale, grey = _search_copy(image)
    H_small = np.asarray(H, np.float64) @ np.diag([1 / scale, 1 / scale, 1.0])
    found = [_crossings_on(grey, H_small, cols, rows, speckled) for speckled in (False, True)]
    return (*max(found, key=lambda f: len(f[0])), scale)


def _search_copy(image: np.ndarray) -> tuple[float, np.ndarray]:
    """The printed-lines search's grey copy of the photo, and its scale."""
    scale = min(1.0, WORK / image.shape[1])
    small = views.shrunk(image, scale, cv2.INTER_AREA) if scale < 1 else image
    return scale, views.gray(small)


def _crossings_on(grey: np.ndarray, H_small: np.ndarray, cols: int, rows: int,
                  speckled: bool = False) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """The crossings found round the grid ``H_small`` (``grey``'s pixels -> board), and ``grey``'s shape."""

    light, _combs = _polarity(grey, H_small, cols, rows)
    b, i = _crossings(grey, np.linalg.inv(H_small), cols, rows, light, speckled)
    return b, i, grey.shape


def bend_of_outline(image: np.ndarray, markers: list[Marker]) -> tuple[float, float, float]:
    """The bend the sheet's outlines against the table (:func:`.lines._outline_quads`, the corner
    markers' quiet zones hidden) show, read on the grid search's copy of the photo
    (:func:`.sheetedges.bend_of_quads`). For two corner markers whose grid is too far off for
    the printed lines' crossings to be found round it (reading R244), one corner marker's sheet
    (R262) and a markerless sheet (R401)."""
    from .lines import _sheet_outlines  # looked up at each call, not bound at import: the tests stand in for the sheet's outlines

    scale, quads = _sheet_outlines(image, markers)
    small = views.shrunk(image, scale, cv2.INTER_AREA) if scale < 1 else image
    return bend_of_quads(views.gray(small), quads)


def sheet_bent_grid(image: np.ndarray, pos: Position, markers: list[Marker]) -> tuple[Grid, list[Marker], bool] | None:
    """No corner marker read, and the printed-lines search found no grid at all, or only grids the
    sheet's bend carries off (R402; :func:`.lines.searched_in_vain`): where the sheet's edges show
    the lens's bend (:func:`bend_of_outline`, by :func:`.sheetedges.lens_shown`'s bar), the
    printed-lines search again on the photo straightened by it, with every check it has, within the
    printed-lines search's own reserve (its first outlines; no ridges); the grid found stands on the
    straightened photo (its ``lens``, cited as reading R401), with the markers read (none of the
    map's corners) and True (the printed lines gave it). None otherwise, or where the grid found is
    not oriented. A barrel lens bows the lines of a map's outer squares off any one homography,
    so no outline's lattice fits them (diagnosis photo s0729: k1 -0.08; its grid found straightened
    0.14 squares off the renderer's lattice, refused as taken) (reading R401)."""
    cols, rows = pos.map.cols, pos.map.rows
    if any(m.id < 4 for m in markers) or not searched_in_vain(image, cols, rows):
        return None
    k = lens_shown(*bend_of_outline(image, []))
    if not k:
        return None
    budget = Budget(seconds=LINES_RESERVE)
    budget.charge(LINES_RESERVE)  # the outlines its reserve pays for, as the first search had (.budget)
    try:
        grid = find_grid_from_lines(straightened(image, k), pos, markers, None, None, budget)
    except UnorientedGridError:
        return None
    if grid is None or not framed_by_the_sheet(image, grid.H, k, cols, rows):
        return None
    return replace(grid, lens=k, lens_reading="R401"), markers, True


def framed_by_the_sheet(image: np.ndarray, H: np.ndarray, k: float, cols: int, rows: int) -> bool:
    """Whether a sheet outline of ``image`` (:func:`.lines._sheet_outlines`, no marker hidden), its
    corners straightened by ``k``, frames the grid ``H`` (the photo straightened by ``k`` -> board)
    as a printed map's sheet frames its grid: its margins either side of the map within
    :data:`.lines.INSET_LOPSIDED` of each other (:func:`.lines.lopsided_frame`, R146). The photo
    straightened keeps its size, so a barrel lens's straightened corners run off it, and the
    photo's edge repeated there gave the printed-lines search a lattice at half the rows' period
    over the sheet's upper half (own render: 12 x 10, k -0.09), which the sheet frames five squares
    off its centre (reading R401)."""
    from .lines import _sheet_outlines  # looked up at each call, as bend_of_outline does

    scale, quads = _sheet_outlines(image, [])
    return any(lopsided_frame(H, straighten_points(np.asarray(q, np.float64) / scale, image.shape, k), cols, rows) <= INSET_LOPSIDED
               for q in quads)
