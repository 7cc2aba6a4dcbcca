"""What real tables vary, for the photo generator (domain randomisation).

A detector tuned on one look of one generator fails on the next table: maps are printed as
full-colour art, grid lines are faint, figures are painted black, bases are grey plastic with
a bevel, phones look straight down. :func:`draw_look` picks one random look; the functions
below paint it. The ground truth is never touched: everything here changes how a square looks,
never where the grid is or which squares hold a base.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Look:
    """One random look of the table, drawn once per photo."""

    art: bool  # full-colour printed art under the grid, or plain paper
    paper: tuple[int, int, int]
    grid_colour: tuple[int, int, int]
    grid_width: float  # in squares
    grid_alpha: float
    terrain_alpha: float
    base_grey: int
    base_bevel: bool
    base_radius: float  # in squares
    body_dark: float  # chance that a figure is painted black or near-black
    shadows: bool
    focal: float  # focal length, in image widths (phones: about 0.7-1.2)
    white_balance: tuple[float, float, float]
    noise: float
    blur: float


def draw_look(rng: np.random.Generator) -> Look:
    art = bool(rng.random() < 0.7)
    level = int(rng.integers(35, 235)) if art else int(rng.integers(170, 240))
    tint = rng.integers(-25, 26, size=3)
    paper = tuple(int(np.clip(level + t, 0, 255)) for t in tint)
    if rng.random() < 0.75:  # dark lines on lighter art, or light lines on dark floors
        g = int(rng.integers(10, 110))
    else:
        g = int(rng.integers(150, 235))
    return Look(
        art=art, paper=paper,  # type: ignore[arg-type]
        grid_colour=(g, g, g), grid_width=float(rng.uniform(0.012, 0.05)), grid_alpha=float(rng.uniform(0.35, 1.0)),
        terrain_alpha=float(rng.uniform(0.55, 1.0)),
        base_grey=int(rng.integers(12, 115)), base_bevel=bool(rng.random() < 0.6), base_radius=float(rng.uniform(0.38, 0.46)),
        body_dark=float(rng.choice([0.0, 0.3, 0.8])), shadows=bool(rng.random() < 0.7),
        focal=float(rng.uniform(0.65, 1.3)),
        white_balance=tuple(float(x) for x in rng.uniform(0.82, 1.18, size=3)),  # type: ignore[arg-type]
        noise=float(rng.uniform(1.5, 8.0)), blur=float(rng.uniform(0.3, 1.6)),
    )


def smooth_noise(rng: np.random.Generator, h: int, w: int, cells: int, channels: int = 3) -> np.ndarray:
    """Low-frequency noise in [-1, 1]: ``cells`` random values across the width, cubic between them."""
    ch, cw = max(2, cells * h // max(w, 1)), max(2, cells)
    small = rng.uniform(-1, 1, size=(ch, cw, channels)).astype(np.float32)
    out = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return out if channels > 1 else out[..., None]


def paint_paper(rng: np.random.Generator, look: Look, h: int, w: int, px: int) -> np.ndarray:
    """The printed map under the grid: plain paper, or art -- colour fields, floor tiles, drawn
    details, dark patches, fine texture (float32 BGR)."""
    img: np.ndarray = np.empty((h, w, 3), np.float32)
    img[:] = look.paper
    if not look.art:
        return img + smooth_noise(rng, h, w, 4) * 8
    img += smooth_noise(rng, h, w, int(rng.integers(2, 8))) * float(rng.uniform(10, 45))
    if rng.random() < 0.6:  # floor tiles: plates of one to three squares, each a little lighter or darker
        k = int(rng.integers(1, 4)) * px
        off = rng.integers(0, k, size=2)
        for y in range(-int(off[1]), h, k):
            for x in range(-int(off[0]), w, k):
                img[max(0, y):y + k, max(0, x):x + k] += float(rng.normal(0, 10))
        seam = tuple(float(c) for c in np.clip(np.array(look.paper) * rng.uniform(0.4, 0.8), 0, 255))
        for y in range(-int(off[1]), h, k):
            cv2.line(img, (0, y), (w, y), seam, max(1, px // 30))
        for x in range(-int(off[0]), w, k):
            cv2.line(img, (x, 0), (x, h), seam, max(1, px // 30))
    for _ in range(int(rng.integers(2, 14))):  # drawn details: consoles, rocks, rugs, pipes, shadows
        colour = tuple(float(c) for c in rng.integers(0, 256, size=3))
        if rng.random() < 0.3:
            colour = tuple(float(c) for c in rng.integers(0, 50, size=3))  # dark patches
        layer = img.copy()
        cx, cy = int(rng.integers(0, w)), int(rng.integers(0, h))
        size = int(rng.uniform(0.3, 3.0) * px)
        shape = rng.integers(0, 4)
        if shape == 0:
            cv2.circle(layer, (cx, cy), size, colour, -1)
        elif shape == 1:
            cv2.rectangle(layer, (cx, cy), (cx + size, cy + int(rng.uniform(0.3, 2) * size)), colour, -1)
        elif shape == 2:
            pts = np.array([[cx + rng.normal(0, size), cy + rng.normal(0, size)] for _ in range(5)], np.int32)
            cv2.fillPoly(layer, [pts], colour)
        else:
            cv2.line(layer, (cx, cy), (int(rng.integers(0, w)), int(rng.integers(0, h))), colour, max(2, int(rng.uniform(0.05, 0.4) * px)))
        a = float(rng.uniform(0.4, 1.0))
        img = cv2.addWeighted(layer, a, img, 1 - a, 0)
    img += rng.normal(0, float(rng.uniform(2, 10)), size=img.shape).astype(np.float32)
    return img


def table_texture(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """The table around the map: wood grain or cloth (uint8 BGR)."""
    colour = rng.integers(30, 170, size=3).astype(np.float32)
    grain = smooth_noise(rng, h, w, int(rng.integers(3, 40)), 1)
    if rng.random() < 0.5:  # wood: stretched along one direction
        streak = cv2.resize(rng.uniform(-1, 1, size=(int(rng.integers(30, 200)), 2)).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        grain = grain + streak[..., None] * 0.6
    out = colour + grain * float(rng.uniform(5, 30))
    return np.clip(out, 0, 255).astype(np.uint8)


def draw_base(img: np.ndarray, centre: tuple[int, int], radius: int, look: Look) -> None:
    """A plastic base: a disc of one grey, with a lighter bevel round its rim."""
    g = look.base_grey
    cv2.circle(img, centre, radius, (g, g, g), -1, lineType=cv2.LINE_AA)
    if look.base_bevel:
        rim = min(255, g + 45)
        cv2.circle(img, centre, max(1, int(radius * 0.93)), (rim, rim, rim), max(1, radius // 12), lineType=cv2.LINE_AA)


def figure_body(rng: np.random.Generator, look: Look, n: int) -> list[tuple[float, float, float, float, tuple[int, int, int]]]:
    """A painted figure as stacked solids of revolution: (z0, z1, r0, r1, BGR) in squares.
    Legs, torso, arms, head; dark figures painted black, others any colour."""
    dark = rng.random() < look.body_dark
    base_colour = rng.integers(5, 45, size=3) if dark else rng.integers(20, 250, size=3)
    h = float(rng.uniform(0.9, 1.4)) * (1.0 if n == 1 else 0.8 * n)
    w = float(rng.uniform(0.7, 1.3)) * n

    def shade(k: float) -> tuple[int, int, int]:
        return tuple(int(np.clip(c * k + rng.normal(0, 8), 0, 255)) for c in base_colour)  # type: ignore[return-value]

    return [
        (0.0, 0.45 * h, 0.08 * w, 0.11 * w, shade(0.8)),  # legs
        (0.42 * h, 0.8 * h, 0.15 * w, 0.18 * w, shade(1.0)),  # torso
        (0.5 * h, 0.78 * h, 0.22 * w, 0.2 * w, shade(0.9)),  # arms, held out a little
        (0.8 * h, 0.97 * h, 0.1 * w, 0.1 * w, shade(1.1)),  # head
    ]


def project_solid(P: np.ndarray, x: float, y: float, z0: float, z1: float, r0: float, r1: float) -> np.ndarray:
    """The outline of a vertical frustum on the photo: the hull of its two end circles."""
    t = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    ring = np.concatenate([
        np.stack([x + r0 * np.cos(t), y + r0 * np.sin(t), np.full_like(t, z0), np.ones_like(t)], 1),
        np.stack([x + r1 * np.cos(t), y + r1 * np.sin(t), np.full_like(t, z1), np.ones_like(t)], 1),
    ])
    q = (P @ ring.T).T
    pts = q[:, :2] / q[:, 2:3]
    return cv2.convexHull(pts.astype(np.float32)).astype(np.int32)
