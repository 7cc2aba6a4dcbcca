"""The map's terrain from a photo of the empty printed map (``map from-photo``).

The grid comes from the map-corner markers when they show, else from the printed grid lines
(CONTRACT §4 makes markers optional); the rectified map is then read square by square and edge
by edge (:mod:`.mapread`). Where nothing in the photo orients the lines' grid, the answer says
so and lists the square whose terrain tells which way round the map lies (reading R136).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..coords import Square
from ..editions import Edition
from ..i18n import N_, _
from ..model import Map, Position
from . import NoGridError, locate_grid, straighten_lines_grid, views
from .board import Grid, rectify
from .lens import straightened
from .lines import TURNS, CandidateMemo, TurnError, _same_grid, _terrain_match, by_terrain, turned_board, upright_grid
from .mapread import MapReading, read_map
from .markers import find_markers

#: pixels per square of the rectified map that is read
PX = 40
#: the least agreement (:func:`.lines._terrain_match`: the squares and edges read as the map has
#: them, of all either names) of the answer's reading with the map whose terrain oriented it, for
#: that map to be the one photographed (R368): on the 18 diagnosis maps left open without it, each
#: map's own 0.94-1.00 the way it lies, every other record of its size 0.00-0.26 either way
KNOWN_AGREES = 0.5


@dataclass(frozen=True)
class MapPhoto:
    """What ``map from-photo`` read: the terrain, the grid it was read through and how that grid
    was found (``how``: "markers" or "lines")."""

    reading: MapReading
    grid: Grid
    how: str
    #: the square listed to tell which way round the map lies, where the photo left that open (R136)
    telling: str | None = None


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
        # searched as ``photo reference`` and ``photo detect`` search (R280): corner markers' far
        # side a lens's bend carried off, or their refused grid, searched for again straightened --
        # else the empty photo ``photo reference`` reads is refused here, or read on another grid
        grid, _markers, by_lines = locate_grid(image, pos, memo=memo, straighten=True)
        how = "lines" if by_lines else "markers"
    except NoGridError:
        grid = None
    markers = find_markers(image) if grid is None else []
    if turn and (grid is not None or any(m.id < 4 for m in markers)):  # a corner marker orients it (as upright_grid refuses the turn)
        raise TurnError(_("the corner markers seen already say which way round the map lies: --turn is not needed"))
    if grid is None:
        # the judge's --turn turns the very lattice the answer without it read (R265): the photo's
        # top as row 1 first, straightened, then turned -- a turned lattice refitted on its own
        # read another grid a little off, and a colour the reading was unsure of the other way
        grid, how = upright_grid(image, cols, rows, markers, 0, memo), "lines"
    if grid is None:
        return None
    # the map's terrain turned the lines' grid (R116): refitted as the photo's top names it, then
    # turned, as the judge's --turn is (R265) -- refitted as turned, the lattice stood a little off
    by_map = _turn_from_upright(image, grid, cols, rows, memo) if how == "lines" and grid.oriented_by == "the map's terrain" else None
    if by_map is not None:
        grid = by_map[0]
    if how == "lines":  # the lines' grid refitted on the photo its lens's bend straightened, where they show one (R257)
        grid = straighten_lines_grid(image, grid, cols, rows)
    # the photo's-top grid (and its reading, once read), where the map's terrain turned it: what the
    # answer stands on if the map reads too little like the photo to be trusted with the way round
    unoriented: tuple[Grid, MapReading | None] | None = None
    if by_map is not None:
        unoriented = (grid, None)
        grid = replace(grid, H=turned_board(by_map[1], cols, rows) @ grid.H, ways=1, oriented_by=N_("the map's terrain"))
    if grid.lens:
        image = straightened(image, grid.lens)  # the grid stands on it, and so the map is read on it
    if turn:  # the judge's word: the map lay turned from what the photo's top suggests
        grid = replace(grid, H=turned_board(turn, cols, rows) @ grid.H, ways=1,
                       oriented_by=N_("the judge's --turn, from the photo's top as row 1"))
    reading = read_map(rectify(image, grid, cols, rows, PX), cols, rows, PX, mean_named=True)  # R291
    if grid.ways > 1 and known is not None:
        unoriented = (grid, reading)
        grid, reading = _oriented_by_reading(image, grid, reading, pos)
    if unoriented is not None and grid.oriented_by == "the map's terrain" and _terrain_match(reading, pos)[0] < KNOWN_AGREES:
        # another map of the photo's size named: a few of its squares read by chance turned the
        # grid; read through the way it decided, it is not the map photographed (R368)
        grid = unoriented[0]
        reading = unoriented[1] or read_map(rectify(image, grid, cols, rows, PX), cols, rows, PX, mean_named=True)
    if grid.ways > 1:  # the photo left the way round open: the square that tells it, listed (R136)
        telling = telling_square(reading, cols, rows, grid.ways)
        if telling is not None:
            reading.unsure[telling[0]] = _telling_note(reading, telling[0], telling[1])
            return MapPhoto(reading, grid, how, telling[0])
    return MapPhoto(reading, grid, how)


def _turn_from_upright(image: np.ndarray, grid: Grid, cols: int, rows: int, memo: CandidateMemo) -> tuple[Grid, int] | None:
    """The lattice the map's terrain oriented (``grid``), as the photo's top names it, and the turn
    that names it as ``grid`` does (reading R366): so the lens's refit (R257) fits the lattice one
    way whichever way round the map lay, as for the judge's ``--turn`` (R265). None where the
    photo's-top grid is another lattice (``grid`` then stands as found)."""
    upright = upright_grid(image, cols, rows, [], 0, memo)  # the lines' candidates searched once already (the memo)
    if upright is None:
        return None
    for t in TURNS:
        if (t % 180 == 0 or cols == rows) and _same_grid(replace(upright, H=turned_board(t, cols, rows) @ upright.H), grid, cols, rows):
            return upright, t
    return None


def _oriented_by_reading(image: np.ndarray, grid: Grid, reading: MapReading, pos: Position) -> tuple[Grid, MapReading]:
    """The grid the photo left ``grid.ways`` ways round open, oriented by the map named (``pos``'s
    map) where the terrain read through each way round at the answer's own scale decides it, by
    the rule the search applies (:func:`.lines.by_terrain`), with the reading through it; else as
    it was. The search's own reading of each lattice is a coarser one (24 pixels a square), which
    on a dark art floor may read none of the terrain the answer's reads (reading R193)."""
    cols, rows = pos.map.cols, pos.map.rows
    ways = [0, 180] if grid.ways == 2 else [0, 90, 180, 270]
    grids = [grid] + [replace(grid, H=turned_board(t, cols, rows) @ grid.H) for t in ways[1:]]
    readings = [reading] + [read_map(rectify(image, g, cols, rows, PX), cols, rows, PX, mean_named=True) for g in grids[1:]]
    k = by_terrain([_terrain_match(r, pos) for r in readings])
    if k is None:
        return grid, reading
    return replace(grids[k], ways=1, oriented_by=N_("the map's terrain")), readings[k]


def telling_square(reading: MapReading, cols: int, rows: int, ways: int) -> tuple[str, dict[int, str]] | None:
    """The square whose terrain tells which way round the map lies, where the photo left ``ways``
    (2 or 4) open (reading R136 in docs/readings.md): read beyond doubt (not listed), and read
    otherwise than each square a judge's ``--turn`` would put in its place (those read beyond doubt
    too), so one look at it on the map (the scenario's map, the sheet) settles the way round. With
    it, what each turn would read there, by degrees. Preferred: a square that tells every turn
    apart, then one read as terrain (an outline is seen at once; its absence less so), then the
    surest, then the first in reading order. Where no square read beyond doubt tells a half turn,
    a square listed only for which kind its outline's colour names (:attr:`.mapread.MapReading.kind_only`)
    tells it where the half turn reads open there beyond doubt: that it is outlined is not in doubt
    (reading R266). None where no square tells (the terrain reads the same every way round: the
    file is then the same too, whichever way the map lay)."""
    turns = [180] if ways == 2 else [90, 180, 270]
    # with --turn t the grid becomes turned_board(t) @ grid: its square at q reads what this one read at turned^-1 q
    back = {t: np.linalg.inv(turned_board(t, cols, rows)) for t in turns}

    def kind(sq: Square) -> str:
        return reading.squares.get(sq.name, "open")

    best: tuple[tuple[bool, int, bool, float, int], str, dict[int, str]] | None = None
    for r in range(rows):
        for c in range(cols):
            here = Square(c, r)
            doubtful = here.name in reading.unsure
            if doubtful and not (ways == 2 and here.name in reading.kind_only):
                continue
            there: dict[int, Square] = {}
            for t, inv in back.items():
                x, y, w = inv @ np.array([c + 0.5, r + 0.5, 1.0])
                there[t] = Square(int(np.floor(x / w)), int(np.floor(y / w)))
            if any(s.name in reading.unsure for s in there.values()):
                continue
            others = {t: kind(s) for t, s in there.items()}
            if kind(here) in others.values():
                continue  # some turn reads the same here: this square does not tell it
            if doubtful and set(others.values()) != {"open"}:
                continue  # its kind in doubt: only outlined against open tells (R266)
            sure = min([reading.confidence.get(here.name, 1.0)] + [reading.confidence.get(s.name, 1.0) for s in there.values()])
            score = (not doubtful, len(set(others.values())), kind(here) != "open", sure, -(r * cols + c))
            if best is None or score > best[0]:
                best = (score, here.name, others)
    return None if best is None else (best[1], best[2])


def _telling_note(reading: MapReading, where: str, others: dict[int, str]) -> str:
    """What the answer lists at the square that tells which way round (R136): what it is read as,
    what each ``--turn`` would read there instead, and what to do."""
    def named(kind: str) -> str:
        return _("open") if kind == "open" else kind

    here = named(reading.squares.get(where, "open"))
    if where in reading.kind_only and list(others) == [180]:  # outlined beyond doubt, its kind not (R266)
        return _("which way round: outlined here ({doubt}); were the map turned half round it would be open. Check this square on "
                 "the map: if it is open, run this again with --turn 180").format(doubt=reading.unsure[where])
    if list(others) == [180]:
        return _("which way round: read as {kind}; were the map turned half round it would be {other}. Check this square on the map: "
                 "if it is {other}, run this again with --turn 180").format(kind=here, other=named(others[180]))
    return _("which way round: read as {kind}; with --turn 90 it would be {k90}, with 180 {k180}, with 270 {k270}. Check this "
             "square on the map and run this again with the turn it shows").format(
        kind=here, k90=named(others[90]), k180=named(others[180]), k270=named(others[270]))
