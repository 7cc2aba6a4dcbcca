"""Stage 4 (map reading): classify every square and edge from the printed border colours.

In the rectified top-down image, a terrain square carries a coloured outline just inside its
edges (red wall, green low object, yellow difficult terrain, orange pit); a wall or door on
a grid line is a red line or a row of blue rectangles on that line. Each square's inner
band and each edge's strip are scored by hue among saturated pixels (the beige paper is
unsaturated). Photograph the map without figures: a figure's body would lend its colour.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from ..coords import Edge, Square

#: hue ranges (OpenCV 0-180) of the printed colours
HUES = {"wall": [(0, 8), (165, 180)], "pit": [(9, 19)], "difficult": [(20, 34)], "low": [(40, 85)], "door": [(95, 130)]}


@dataclass
class MapReading:
    squares: dict[str, str] = field(default_factory=dict)  # square -> kind
    edges: dict[str, str] = field(default_factory=dict)  # edge -> wall | door
    confidence: dict[str, float] = field(default_factory=dict)


def _classes(hsv: np.ndarray) -> dict[str, np.ndarray]:
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    sat = (s > 90) & (v > 60)
    out = {}
    for name, ranges in HUES.items():
        m = np.zeros(h.shape, bool)
        for lo, hi in ranges:
            m |= (h >= lo) & (h <= hi)
        out[name] = m & sat
    return out


def read_map(top: np.ndarray, cols: int, rows: int, px: int) -> MapReading:
    hsv = cv2.cvtColor(top, cv2.COLOR_BGR2HSV)
    cls = _classes(hsv)
    res = MapReading()
    inset = max(2, px // 10)
    band = np.zeros((px, px), bool)
    band[inset - 1: inset + max(2, px // 12) + 1, inset:px - inset] = True
    band[px - inset - max(2, px // 12) - 1: px - inset + 1, inset:px - inset] = True
    band[inset:px - inset, inset - 1: inset + max(2, px // 12) + 1] = True
    band[inset:px - inset, px - inset - max(2, px // 12) - 1: px - inset + 1] = True
    n_band = band.sum()
    for r in range(rows):
        for c in range(cols):
            best, score = None, 0.0
            for kind in ("wall", "pit", "difficult", "low"):
                frac = cls[kind][r * px:(r + 1) * px, c * px:(c + 1) * px][band].sum() / n_band
                if frac > score:
                    best, score = kind, frac
            if best is not None and score > 0.3:
                name = Square(c, r).name
                res.squares[name] = best
                res.confidence[name] = round(min(1.0, score / 0.6), 3)
    half = max(1, px // 20)
    lo, hi = px // 5, px - px // 5
    for r in range(rows):
        for c in range(cols + 1):
            _edge(res, cls, Edge(c, r, "V"), np.s_[r * px + lo: r * px + hi, max(0, c * px - half): c * px + half + 1])
    for r in range(rows + 1):
        for c in range(cols):
            _edge(res, cls, Edge(c, r, "H"), np.s_[max(0, r * px - half): r * px + half + 1, c * px + lo: c * px + hi])
    return res


def _edge(res: MapReading, cls: dict[str, np.ndarray], e: Edge, region) -> None:
    if any(sq.col >= 0 and sq.row >= 0 and res.squares.get(sq.name) == "wall" for sq in e.squares):
        return  # a wall square's sides block anyway, and its red fill would read as a wall line
    wall = cls["wall"][region]
    door = cls["door"][region]
    if wall.size == 0:
        return
    fw, fd = wall.mean(), door.mean()
    if fw > 0.45:
        res.edges[e.name] = "wall"
        res.confidence[e.name] = round(min(1.0, fw / 0.7), 3)
    elif fd > 0.3:
        res.edges[e.name] = "door"
        res.confidence[e.name] = round(min(1.0, fd / 0.5), 3)


def as_map_yaml(reading: MapReading, cols: int, rows: int) -> dict:
    """The ``map:`` section of a position file (CONTRACT §2) for the user to review and save."""
    from ..coords import format_edges, format_squares, parse_edge, parse_square

    squares: dict[str, list[str]] = {}
    for kind in ("wall", "low", "difficult", "pit"):
        names = [s for s, k in reading.squares.items() if k == kind]
        if names:
            squares[kind] = format_squares(parse_square(n) for n in names)
    edges: dict[str, list[str]] = {}
    for kind in ("wall", "door"):
        names = [e for e, k in reading.edges.items() if k == kind]
        if names:
            edges[kind] = format_edges(parse_edge(n) for n in names)
    out: dict = {"cols": cols, "rows": rows}
    if squares:
        out["squares"] = squares
    if edges:
        out["edges"] = edges
    return out
