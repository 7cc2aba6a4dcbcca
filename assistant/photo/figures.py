"""Stage 3a: which figure stands where, by base marker.

A marker's centre, mapped to the board, names its square; the figure is the roster's figure
with that ``marker`` id. Squares holding a base without a readable marker are found by the
occupancy classifier (:mod:`.occupancy`) and matched to the roster by the façade.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..coords import Square, parse_square
from ..i18n import _
from ..model import Position
from .board import Grid, to_board
from .markers import Marker


@dataclass(frozen=True)
class Seen:
    id: str
    at: str
    confidence: float
    by: str


def figures_by_marker(pos: Position, markers: list[Marker], grid: Grid) -> tuple[list[Seen], list[str]]:
    roster = {f.marker: f for f in pos.figures if f.marker is not None}
    seen: list[Seen] = []
    notes: list[str] = []
    for m in markers:
        if m.id < 4:
            continue
        fig = roster.get(m.id)
        centre = to_board(grid, m.corners.mean(axis=0)[None])[0]
        if fig is None:
            notes.append(
                _("marker {id} at board point ({centre:.2f}, {centre2:.2f}) is on no figure of the roster").format(id=m.id, centre=centre[0], centre2=centre[1])
            )
            continue
        n = fig.size.footprint
        col, row = int(np.floor(centre[0] - (n - 1) / 2)), int(np.floor(centre[1] - (n - 1) / 2))
        if not (0 <= col <= pos.map.cols - n and 0 <= row <= pos.map.rows - n):
            notes.append(
                _(
                    "marker {id} ({id2}) lies off the {cols} x {rows} map, at board point ({centre:.2f}, {centre2:.2f}): check the photo against the "
                    "position's map"
                ).format(id=m.id, id2=fig.id, cols=pos.map.cols, rows=pos.map.rows, centre=centre[0], centre2=centre[1])
            )
            continue
        seen.append(Seen(fig.id, Square(col, row).name, _marker_confidence(centre, col, row, n), "marker"))
    return seen, notes


def block_squares(name: str, n: int) -> list[str]:
    """The n x n squares whose north-west corner is ``name``."""
    at = parse_square(name)
    return [at.offset(dc, dr).name for dc in range(n) for dr in range(n)]


def space(pos: Position, seen: Seen) -> list[str]:
    """The squares the figure ``seen`` names covers, by its size."""
    return block_squares(seen.at, pos.figure(seen.id).size.footprint)


#: how far (squares) from the middle of its base a base marker's sticker is seen, at most, on a
#: base of each footprint, before its naming of the space grows doubtful (reading R141 in
#: docs/readings.md): a sticker is stuck whole on the base's top, beside the figure's feet, and
#: seen from its height (3-4 mm) shifted away from the camera. A Medium base is one square across,
#: its sticker near its middle; a Large base two, its sticker anywhere on a disc of its top
#: half a square round the middle. Measured on the 186 diagnosis photos (seeds 341-526, markers
#: read without the reference): Medium 0.02-0.30 (98 read, 95 % under 0.21), Large 0.27-0.50 (15);
#: s0387's Large marker 0.55
SURE_OFF = {1: 0.15, 2: 0.5}
#: how much farther than :data:`SURE_OFF` a marker may lie before it names that space no more
#: (its naming's confidence falls linearly to 0 over this width): a Medium square's neighbour
#: lies a square away, so its naming is void half a square out; a Large block's at 0.75
OFF_WIDTH = {1: 0.35, 2: 0.25}


def _own(off: float, n: int) -> float:
    """How well a marker ``off`` squares from a space's middle fits a base of footprint ``n`` there."""
    sure, width = SURE_OFF.get(n, SURE_OFF[2]), OFF_WIDTH.get(n, OFF_WIDTH[2])
    return float(np.clip(1.0 - max(0.0, off - sure) / width, 0.0, 1.0))


def _marker_confidence(centre: np.ndarray, col: int, row: int, n: int) -> float:
    """How surely the marker at ``centre`` (board units) names the n x n space from ``col``, ``row``:
    how well the space fits it (:func:`_own`), times how badly the likeliest other space of that
    size does (reading R141). A Large base's sticker lies up to half a square from the base's
    middle, and the blocks round it lie a square apart: a marker about as near two blocks' middles
    names neither surely, one 0.45 from one block's and 0.75 from every other's names it surely.

    >>> _marker_confidence(np.array([8.33, 9.69]), 7, 9, 2), _marker_confidence(np.array([8.5, 10.0]), 7, 9, 2)
    (0.953, 0.0)
    >>> _marker_confidence(np.array([0.5, 0.5]), 0, 0, 1), _marker_confidence(np.array([0.8, 0.5]), 0, 0, 1)
    (1.0, 0.571)
    """
    own = _own(float(np.hypot(centre[0] - (col + n / 2), centre[1] - (row + n / 2))), n)
    # the other spaces' middles nearest the marker: the lattice points round it, one step apart
    base_col, base_row = int(np.floor(centre[0] - n / 2)), int(np.floor(centre[1] - n / 2))
    rival = max((_own(float(np.hypot(centre[0] - (c + n / 2), centre[1] - (r + n / 2))), n)
                 for c in range(base_col - 1, base_col + 3) for r in range(base_row - 1, base_row + 3) if (c, r) != (col, row)), default=0.0)
    return round(own * (1.0 - rival), 3)


#: a figure named by its base marker less surely than this lies between spaces: the marker's
#: centre is about half a square from the centre of the space it names
BETWEEN = 0.5


def settle_by_squares(pos: Position, markers: list[Marker], grid: Grid, seen: list[Seen], scores: Mapping[str, float],
                      away: Mapping[str, tuple[float, float]] | None = None) -> list[Seen]:
    """The figures named by their base markers, each one whose marker lies between spaces
    (confidence under :data:`BETWEEN`) put on the space, of those whose centre lies within 0.75
    squares of the marker's (across and down), that the photo reads as holding a base on most of
    its squares (``scores``: P(a base), per square name), the nearest on a tie; its confidence
    stays the marker's to that space (low: listed). A Large base's marker, on the base's top
    3.5 mm up, is seen shifted away from the camera, and half a square off it names the block
    beside the base as often as the base's own (independent photo s0387: a Large base on H4:I5
    read 0.86, 0.42, 0.97, 1.0 named H5:I6, read 0.97, 1.0, 0.0, 0.01). The record plays no part.

    ``away``: each square's direction away from the camera on the map (:func:`.bases.away_from_camera`):
    the squares never settle a Large or bigger figure on a block farther from the camera than the
    one its marker names (reading R195): its marker is seen shifted away from the camera, and its
    body, leaning away, reads the squares behind its base as a base, so the block beyond is the
    body's (diagnosis photo s0468: a Large base on I10:J11 read 0.03, 0.20, 0.05, 0.99, its body
    over J12 0.99, named I11:J12)."""
    centres = {m.id: to_board(grid, m.corners.mean(axis=0)[None])[0] for m in markers if m.id >= 4}
    by_id = {f.id: f for f in pos.figures}
    # the spaces of the figures their markers name surely: a doubtful one is never put on them
    # (a lava floor's speckle read as a base beside a Large base put it over a Medium one's square)
    sure = {sq for s in seen if s.by == "marker" and s.confidence >= BETWEEN for sq in space(pos, s)}
    out = []
    for s in seen:
        fig = by_id[s.id]
        centre = centres.get(fig.marker) if fig.marker is not None else None
        if s.by != "marker" or s.confidence >= BETWEEN or centre is None:
            out.append(s)
            continue
        n = fig.size.footprint
        options = []
        for col in range(int(np.floor(centre[0] - n / 2 - 0.75)), int(np.ceil(centre[0] - n / 2 + 0.75)) + 1):
            for row in range(int(np.floor(centre[1] - n / 2 - 0.75)), int(np.ceil(centre[1] - n / 2 + 0.75)) + 1):
                if not (0 <= col <= pos.map.cols - n and 0 <= row <= pos.map.rows - n):
                    continue
                if max(abs(centre[0] - (col + n / 2)), abs(centre[1] - (row + n / 2))) > 0.75:
                    continue
                if _own(float(np.hypot(centre[0] - (col + n / 2), centre[1] - (row + n / 2))), n) <= 0.0:
                    continue  # farther from the marker than its sticker can lie on a base there (R141)
                squares = block_squares(Square(col, row).name, n)
                if sure.intersection(squares):
                    continue
                if n > 1 and _farther_from_camera(s.at, Square(col, row).name, away):
                    continue  # the body's block behind the base, not the base's (R195)
                options.append((-sum(float(scores.get(q, 0.0)) for q in squares), -_marker_confidence(centre, col, row, n), col, row))
        if not options:
            out.append(s)
            continue
        _p, _c, col, row = min(options)
        out.append(Seen(s.id, Square(col, row).name, _marker_confidence(centre, col, row, n), "marker"))
    return out


def _farther_from_camera(named: str, other: str, away: Mapping[str, tuple[float, float]] | None) -> bool:
    """Whether the space from ``other`` lies farther from the camera than the one from ``named``
    (their north-west squares; ``away``: :func:`.bases.away_from_camera`, at ``named``), by the
    step between them along the direction away from the camera (reading R195).

    >>> _farther_from_camera("I10", "I11", {"I10": (0.64, 0.77)}), _farther_from_camera("H9", "H8", {"H9": (-0.52, 0.86)})
    (True, False)
    >>> _farther_from_camera("I10", "I11", None)
    False
    """
    d = (away or {}).get(named)
    if d is None:
        return False
    a, b = parse_square(named), parse_square(other)
    return (b.col - a.col) * d[0] + (b.row - a.row) * d[1] > 0
