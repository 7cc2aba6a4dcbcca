"""The map's terrain from a photo of the empty printed map (``map from-photo``).

The grid comes from the map-corner markers when they show, else from the printed grid lines
(CONTRACT §4 makes markers optional); the rectified map is then read square by square and edge
by edge (:mod:`.mapread`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..editions import Edition
from ..i18n import _
from ..model import Map, Position
from . import NoGridError, locate_grid, views
from .board import Grid, rectify
from .lines import CandidateMemo, TurnError, turned_board, upright_grid
from .mapread import MapReading, read_map
from .markers import find_markers

#: pixels per square of the rectified map that is read
PX = 40


@dataclass(frozen=True)
class MapPhoto:
    """What ``map from-photo`` read: the terrain, the grid it was read through and how that grid
    was found (``how``: "markers" or "lines")."""

    reading: MapReading
    grid: Grid
    how: str


def read_map_photo(image: np.ndarray, cols: int, rows: int, turn: int = 0, known: Map | None = None) -> MapPhoto | None:
    """The terrain of a ``cols`` x ``rows`` map in a photo of it; None when no grid is found.

    The corner markers first (the same search as ``photo detect``); without them the printed
    lines give the grid, turned by any corner marker seen, else by ``known``'s terrain where the
    judge names the map the photo shows (its file: ``map from-photo --position``; reading R116 in docs/readings.md),
    else with the photo's top as row 1 and ``grid.ways`` saying how many ways round that leaves
    open (an empty map has no record of figures to orient it, and none is asked for); ``turn``:
    the judge's quarter turns clockwise from there (:func:`.lines.upright_grid`;
    :class:`.lines.TurnError` where the map cannot take it) -- the judge's word, so ``known`` is
    then not asked."""
    turned_board(turn, cols, rows)  # a turn the map cannot take is refused before any search
    if known is not None and (known.cols, known.rows) != (cols, rows):
        raise ValueError(f"the map named is {known.cols} x {known.rows}, the photo is read as {cols} x {rows}")
    with views.shared():  # the photo's copies and marker searches made once for all the searches below
        return _read_map_photo(image, cols, rows, turn, known if not turn else None)


def _read_map_photo(image: np.ndarray, cols: int, rows: int, turn: int, known: Map | None) -> MapPhoto | None:
    # the map named (R116): its printed terrain read through each way round the lines' grid may
    # lie tells which way it lies (:func:`.lines._orient`, as for ``photo reference``); without
    # it the map is empty and only a corner marker orients the lines' grid here
    pos = Position(Edition.SWM2008, known if known is not None else Map(cols, rows), ())
    how = "markers"
    memo: CandidateMemo = {}  # the printed lines searched once: locate_grid's search, read again by upright_grid
    try:
        grid: Grid | None
        grid, _markers, by_lines = locate_grid(image, pos, memo=memo)
        how = "lines" if by_lines else "markers"
    except NoGridError:
        grid = None
    if grid is not None and turn:
        raise TurnError(_("the corner markers seen already say which way round the map lies: --turn is not needed"))
    if grid is None:
        grid, how = upright_grid(image, cols, rows, find_markers(image), turn, memo), "lines"
    if grid is None:
        return None
    return MapPhoto(read_map(rectify(image, grid, cols, rows, PX), cols, rows, PX), grid, how)
