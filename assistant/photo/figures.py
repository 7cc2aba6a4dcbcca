"""Stage 3: where the figures stand.

- **By base marker:** a marker's centre, mapped to the board, names its square; the figure is
  the roster's figure with that ``marker`` id.
- **By base:** in the rectified top-down image each square's centre disc is tested for the
  dark, unsaturated base colour. Figure bodies are tall and lean over the squares behind them
  in an oblique photo, but they are not base-coloured, so they do not create occupancy.
  Each square gets a confidence; squares near the threshold are listed as uncertain.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..coords import Square
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
            notes.append(f"marker {m.id} at board point ({centre[0]:.2f}, {centre[1]:.2f}) is on no figure of the roster")
            continue
        n = fig.size.footprint
        col, row = int(np.floor(centre[0] - (n - 1) / 2)), int(np.floor(centre[1] - (n - 1) / 2))
        # confidence: how close the marker sits to the centre of the space it names
        off = np.hypot(centre[0] - (col + n / 2), centre[1] - (row + n / 2))
        conf = float(np.clip(1.0 - max(0.0, off - 0.15) / 0.35, 0.0, 1.0))
        seen.append(Seen(fig.id, Square(col, row).name, round(conf, 3), "marker"))
    return seen, notes


def occupancy(top: np.ndarray, cols: int, rows: int, px: int, footprints: dict[int, int] | None = None) -> dict[str, float]:
    """P(occupied) per square from the base colour in a disc at the centre of the square --
    and, for each bigger footprint on the roster, at the centre of every n x n block (a
    Large base is one disc centred on its 2 x 2 space)."""
    hsv = cv2.cvtColor(top, cv2.COLOR_BGR2HSV)
    v = hsv[..., 2].astype(np.int16)
    s = hsv[..., 1].astype(np.int16)
    # the base is dark and grey; judge darkness against the local paper brightness (uneven light)
    # the paper's brightness nearby: a max filter ignores dark bases (even a Huge one), the
    # blur smooths the result; uneven light and shadows change it slowly
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (px * 4 + 1, px * 4 + 1))
    local = cv2.blur(cv2.dilate(hsv[..., 2], k), (px * 2 + 1, px * 2 + 1)).astype(np.int16)
    # the base is much darker than the paper around it (bodies are coloured, and lighter);
    # the marker's white is unsaturated, unlike the beige paper
    dark = (v < 0.4 * local) & (s < 80)
    white = (v > 0.8 * local) & (s < 20)
    mask = np.zeros((px, px), np.uint8)
    cv2.circle(mask, (px // 2, px // 2), int(px * 0.3), 1, -1)
    area = mask.sum()
    out = {}
    for r in range(rows):
        for c in range(cols):
            d = dark[r * px:(r + 1) * px, c * px:(c + 1) * px][mask > 0].mean()
            w = white[r * px:(r + 1) * px, c * px:(c + 1) * px][mask > 0].mean()
            # a plain base is dark at the square's centre; a marked base dark and white
            score = max(d, min(1.0, d + w) if d > 0.15 else 0.0) if area else 0.0
            out[Square(c, r).name] = float(score)
    taken: set[tuple[int, int]] = set()
    for n, count in sorted((footprints or {}).items(), reverse=True):
        if n == 1:
            continue
        big = np.zeros((n * px, n * px), np.uint8)
        cv2.circle(big, (n * px // 2, n * px // 2), int(px * 0.3 * n), 1, -1)
        blocks = []
        for r in range(rows - n + 1):
            for c in range(cols - n + 1):
                d = dark[r * px:(r + n) * px, c * px:(c + n) * px][big > 0].mean()
                w = white[r * px:(r + n) * px, c * px:(c + n) * px][big > 0].mean()
                blocks.append((float(max(d, min(1.0, d + w) if d > 0.15 else 0.0)), c, r))
        # best first, never overlapping, no more than the roster has bases of this size:
        # a block shifted off a big base still looks dark and must not count twice
        for score, c, r in sorted(blocks, reverse=True):
            if count <= 0 or score < 0.5:
                break
            cells = {(c + dc, r + dr) for dc in range(n) for dr in range(n)}
            if cells & taken:
                continue
            taken |= cells
            count -= 1
            for cc, rr in cells:
                out[Square(cc, rr).name] = max(out[Square(cc, rr).name], score)
    return out
