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


def read_map_photo(image: np.ndarray, cols: int, rows: int, turn: int = 0) -> MapPhoto | None:
    """The terrain of a ``cols`` x ``rows`` map in a photo of it; None when no grid is found.

    The corner markers first (the same search as ``photo detect``); without them the printed
    lines give the grid, turned by any corner marker seen, else with the photo's top as row 1
    and ``grid.ways`` saying how many ways round that leaves open (an empty map has no record to
    orient it, and none is asked for); ``turn``: the judge's quarter turns clockwise from there
    (:func:`.lines.upright_grid`; :class:`.lines.TurnError` where the map cannot take it)."""
    turned_board(turn, cols, rows)  # a turn the map cannot take is refused before any search
    with views.shared():  # the photo's copies and marker searches made once for all the searches below
        return _read_map_photo(image, cols, rows, turn)


def _read_map_photo(image: np.ndarray, cols: int, rows: int, turn: int) -> MapPhoto | None:
    empty = Position(Edition.SWM2008, Map(cols, rows), ())
    how = "markers"
    memo: CandidateMemo = {}  # the printed lines searched once: locate_grid's search, read again by upright_grid
    try:
        grid: Grid | None = locate_grid(image, empty, memo=memo)[0]
    except NoGridError:
        grid = None
    if grid is not None and turn:
        raise TurnError(_("the corner markers seen already say which way round the map lies: --turn is not needed"))
    if grid is None:
        grid, how = upright_grid(image, cols, rows, find_markers(image), turn, memo), "lines"
    if grid is None:
        return None
    return MapPhoto(read_map(rectify(image, grid, cols, rows, PX), cols, rows, PX), grid, how)
