"""The picture a judge shows both players: the map, the figures and the lines (PNG).

Presentation only: it draws what the rules engine decided -- the witness line in green,
the obstacle that blocks in red, the cover fan from the chosen corner in orange with
the cover sources outlined -- and decides nothing itself.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..coords import column_name
from ..editions import SquareTerrain
from ..geometry.fan import fan
from ..model import Position
from ..overlay import XY, Overlay, cover_overlay, sight_overlay, targets_overlay  # noqa: F401  (re-exported)
from ..yamlio import write_bytes_atomic

S = 44  # pixels per square
M = 28  # margin for coordinates

# BGR colours after the printed borders
FILL = {
    SquareTerrain.WALL: (40, 40, 170),
    SquareTerrain.LOW: (150, 220, 150),
    SquareTerrain.DIFFICULT: (140, 230, 240),
    SquareTerrain.PIT: (60, 140, 245),
    SquareTerrain.FOREST: (60, 140, 60),
    SquareTerrain.STATUE: (170, 170, 170),
    SquareTerrain.FOG: (205, 205, 205),
    SquareTerrain.RISKY: (210, 150, 220),
    SquareTerrain.SPIKE_STONES: (140, 180, 210),
    SquareTerrain.SACRED_CIRCLE: (170, 240, 250),
    SquareTerrain.BLOOD_ROCK: (30, 30, 120),
    SquareTerrain.TELEPORTER: (230, 220, 120),
}
RED, BLUE, GREEN, ORANGE, MAGENTA = (30, 30, 220), (200, 90, 20), (40, 170, 40), (0, 140, 255), (200, 40, 200)
SIDE_COLOURS = [(200, 160, 40), (60, 60, 200), (60, 160, 60), (40, 180, 220), (160, 60, 160), (120, 120, 120)]


def _px(p: XY) -> tuple[int, int]:
    return int(round(M + float(p[0]) * S)), int(round(M + float(p[1]) * S))


def ascii_text(text: str) -> str:
    """Text as OpenCV's built-in font can draw it: Polish and Czech letters without their marks
    (the SVG picture, ``--svg``, keeps them).

    >>> ascii_text("linia wzroku (zielona) – osłona, krytí, Łódź")
    'linia wzroku (zielona) - oslona, kryti, Lodz'
    """
    import unicodedata  # start-up time: Unicode's tables only where a picture's text is written for OpenCV

    letters: dict[str, str | int | None] = {"ł": "l", "Ł": "L", "–": "-", "—": "-", "→": "->", "„": '"', "”": '"'}
    text = text.translate(str.maketrans(letters))
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).encode("ascii", "replace").decode()


def draw(pos: Position, overlay: Overlay | None = None) -> np.ndarray:
    m = pos.map
    h, w = M * 2 + m.rows * S + (22 if overlay and overlay.caption else 0), M * 2 + m.cols * S
    img: np.ndarray = np.full((h, w, 3), 255, np.uint8)
    for kind, squares in m.squares.items():
        for sq in squares:
            cv2.rectangle(img, _px((sq.col, sq.row)), _px((sq.col + 1, sq.row + 1)), FILL.get(kind, (200, 200, 200)), -1)
    for x in range(m.cols + 1):
        cv2.line(img, _px((x, 0)), _px((x, m.rows)), (215, 215, 215), 1)
    for y in range(m.rows + 1):
        cv2.line(img, _px((0, y)), _px((m.cols, y)), (215, 215, 215), 1)
    for c in range(m.cols):
        cv2.putText(img, column_name(c), (M + c * S + S // 2 - 6, M - 9), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1, cv2.LINE_AA)
    for r in range(m.rows):
        cv2.putText(img, str(r + 1), (3, M + r * S + S // 2 + 4), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1, cv2.LINE_AA)

    if overlay and overlay.fan_corner is not None and overlay.fan_target:
        poly = fan(overlay.fan_corner, list(overlay.fan_target))
        layer = img.copy()
        cv2.fillPoly(layer, [np.array([_px(p) for p in poly], np.int32)], ORANGE)
        img = cv2.addWeighted(layer, 0.35, img, 0.65, 0)

    for e in m.walls:
        a, b = e.endpoints
        cv2.line(img, _px((a.x, a.y)), _px((b.x, b.y)), RED, 5)
    for e in m.doors:
        a, b = e.endpoints
        thick = 5 if e not in m.open_doors else 2
        for i in range(4):
            t0, t1 = i / 4 + 0.03, i / 4 + 0.2
            p: XY = (a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0)
            q: XY = (a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1)
            cv2.line(img, _px(p), _px(q), BLUE, thick)
    for corner in m.open_corners:
        cv2.circle(img, _px((corner.x, corner.y)), 5, (255, 255, 255), -1)
        cv2.circle(img, _px((corner.x, corner.y)), 5, RED, 1)

    sides = {s: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, s in enumerate(pos.sides_to_colour())}
    for f in pos.figures:
        n = f.size.footprint
        centre = _px((f.at.col + n / 2, f.at.row + n / 2))
        cv2.circle(img, centre, int(S * n * 0.38), sides[f.side], -1)
        cv2.circle(img, centre, int(S * n * 0.38), (0, 0, 0), 1)
        label = f.id[:6]
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 0.38, 1)
        cv2.putText(img, label, (centre[0] - tw // 2, centre[1] + th // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.38, (255, 255, 255), 1, cv2.LINE_AA)

    if overlay:
        for (c, r) in overlay.highlight_squares:
            cv2.rectangle(img, _px((c, r)), _px((c + 1, r + 1)), MAGENTA, 3)
        for (x, y, axis) in overlay.highlight_edges:
            end = (x + 1, y) if axis == "H" else (x, y + 1)
            cv2.line(img, _px((x, y)), _px(end), MAGENTA, 7)
        if overlay.fan_corner is not None:
            cv2.circle(img, _px(overlay.fan_corner), 6, ORANGE, -1)
        if overlay.blocker is not None:
            blocker = overlay.blocker
            if blocker.square is not None:
                cv2.rectangle(img, _px(blocker.square), _px((blocker.square[0] + 1, blocker.square[1] + 1)), RED, 4)
            if blocker.edge is not None:
                x, y, axis = blocker.edge
                cv2.line(img, _px((x, y)), _px((x + 1, y) if axis == "H" else (x, y + 1)), (0, 0, 255), 9)
            if blocker.at is not None:
                cv2.circle(img, _px(blocker.at), 7, (0, 0, 255), 2)
        for p, q, legal, label in overlay.target_lines:
            colour = GREEN if legal else RED
            cv2.line(img, _px(p), _px(q), colour, 2, cv2.LINE_AA)
            mid = _px(((p[0] + q[0]) / 2, (p[1] + q[1]) / 2))
            cv2.putText(img, ascii_text(label), (mid[0] + 4, mid[1] - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1, cv2.LINE_AA)
        if overlay.attempt is not None:
            p, q = overlay.attempt
            cv2.line(img, _px(p), _px(q), (150, 150, 150), 1, cv2.LINE_AA)
        if overlay.witness is not None:
            p, q = overlay.witness
            cv2.line(img, _px(p), _px(q), GREEN, 3, cv2.LINE_AA)
            cv2.circle(img, _px(p), 4, GREEN, -1)
            cv2.circle(img, _px(q), 4, GREEN, -1)
        if overlay.caption:
            cv2.putText(img, ascii_text(overlay.caption)[:140], (6, h - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (0, 0, 0), 1, cv2.LINE_AA)
    return img


def save_png(img: np.ndarray, path: str) -> None:
    ok, data = cv2.imencode(".png", img)
    if not ok:  # pragma: no cover
        raise RuntimeError("PNG encoding failed")
    write_bytes_atomic(path, data.tobytes())
