"""Photo position checks: one stage per module behind :func:`detect` (the façade).

markers (ArUco) -> board (the grid's homography from the corner markers, or else from the
printed lines, oriented by the map's terrain) -> figures (base markers, base colour),
then the rules model sanity-checks what vision returned (no figure in a wall, one per square).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..errors import AssistantError
from ..model import Position
from .board import find_grid, rectify
from .figures import Seen, figures_by_marker, occupancy
from .markers import find_markers

OCCUPIED = 0.5
UNCERTAIN_BAND = 0.2  # occupancy scores within this of the threshold are listed for the user
PX = 40  # pixels per square in the rectified image


class NoGridError(AssistantError):
    """The photo shows no board that can be trusted."""


@dataclass
class PhotoResult:
    image: str
    grid_found: bool
    reprojection_error_px: float | None = None
    figures: list[Seen] = field(default_factory=list)
    occupied: list[str] = field(default_factory=list)
    uncertain: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "query": "photo", "image": self.image, "grid_found": self.grid_found,
            "reprojection_error_px": None if self.reprojection_error_px is None else round(self.reprojection_error_px, 3),
            "figures": [{"id": s.id, "at": s.at, "confidence": s.confidence, "by": s.by} for s in self.figures],
            "occupied": self.occupied, "uncertain": self.uncertain, "seconds": round(self.seconds, 3), "notes": self.notes,
        }


def load_image(path: str | Path) -> np.ndarray:
    p = Path(path)
    if not p.is_file():
        raise AssistantError(f"no such image: {p}")
    img = cv2.imread(str(p), cv2.IMREAD_COLOR)
    if img is None:
        raise AssistantError(f"{p} is not an image OpenCV can read")
    return img


def detect(image: np.ndarray, pos: Position, name: str = "<image>", camera: Any = None) -> PhotoResult:
    t0 = time.perf_counter()
    if camera is not None:
        image = cv2.undistort(image, camera.camera_matrix, camera.distortion_coefficients)
    cols, rows = pos.map.cols, pos.map.rows
    markers = find_markers(image)
    grid = find_grid(markers, cols, rows)
    by_lines = False
    if grid is None:
        from .lines import find_grid_from_lines

        grid = find_grid_from_lines(image, pos)
        by_lines = grid is not None
    if grid is None:
        n = len({m.id for m in markers if m.id <= 3})
        raise NoGridError(f"no grid found in {name}: {n} of the 4 map-corner markers (ArUco 4x4_50 ids 0-3) are visible, "
                          "and the printed grid could not be matched to the map; photograph the whole map")
    seen, notes = figures_by_marker(pos, markers, grid)
    top = rectify(image, grid, cols, rows, PX)
    sizes: dict[int, int] = {}
    for f in pos.figures:
        sizes[f.size.footprint] = sizes.get(f.size.footprint, 0) + 1
    scores = occupancy(top, cols, rows, PX, sizes)
    occupied = sorted((s for s, v in scores.items() if v >= OCCUPIED), key=_square_key)
    marked = {sq for f in seen for sq in _space(pos, f)}
    occupied = sorted(set(occupied) | marked, key=_square_key)
    uncertain = [{"square": s, "confidence": round(1 - abs(v - OCCUPIED) / UNCERTAIN_BAND, 3)}
                 for s, v in scores.items() if abs(v - OCCUPIED) < UNCERTAIN_BAND and s not in marked]
    # roster figures not identified by a marker (none on the base, or it was not readable):
    # match the remaining occupied squares to them by the nearest recorded square
    found = {f.id for f in seen}
    unmatched = [f for f in pos.figures if f.id not in found]
    free = [s for s in occupied if s not in marked]
    for f in unmatched:
        if not free:
            break
        best = min(free, key=lambda s: _dist(s, f.at.name))
        seen.append(Seen(f.id, best, round(min(1.0, abs(scores.get(best, 1.0) - OCCUPIED) / (1 - OCCUPIED)), 3), "roster"))
        free.remove(best)
    # the rules model checks what vision returned
    walls = {s.name for s in pos.map.squares.get(next(iter([k for k in pos.map.squares if k.value == "wall"]), None), ())} if pos.map.squares else set()
    for f in seen:
        if f.at in walls:
            notes.append(f"{f.id} seen on {f.at}, a wall square: check the photo")
            uncertain.append({"square": f.at, "confidence": 0.0})
    if by_lines:
        notes.insert(0, "grid found from the printed lines (no corner markers); orientation chosen by the map's terrain")
    return PhotoResult(name, True, grid.reprojection_error_px, seen, occupied, uncertain, time.perf_counter() - t0, notes)


def _space(pos: Position, seen: Seen) -> list[str]:
    from ..coords import parse_square

    fig = pos.figure(seen.id)
    at = parse_square(seen.at)
    n = fig.size.footprint
    return [at.offset(dc, dr).name for dc in range(n) for dr in range(n)]


def _square_key(name: str) -> tuple[int, int]:
    from ..coords import parse_square

    s = parse_square(name)
    return (s.row, s.col)


def _dist(a: str, b: str) -> int:
    from ..coords import parse_square

    x, y = parse_square(a), parse_square(b)
    return abs(x.col - y.col) + abs(x.row - y.row)
