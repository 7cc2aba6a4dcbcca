"""Stage 3a: which figure stands where, by base marker.

A marker's centre, mapped to the board, names its square; the figure is the roster's figure
with that ``marker`` id. Squares holding a base without a readable marker are found by the
occupancy classifier (:mod:`.occupancy`) and matched to the roster by the façade.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..coords import Square
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
        # confidence: how close the marker sits to the centre of the space it names
        off = np.hypot(centre[0] - (col + n / 2), centre[1] - (row + n / 2))
        conf = float(np.clip(1.0 - max(0.0, off - 0.15) / 0.35, 0.0, 1.0))
        seen.append(Seen(fig.id, Square(col, row).name, round(conf, 3), "marker"))
    return seen, notes
