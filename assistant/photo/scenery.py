"""What real tables vary, for the photo generator (domain randomisation).

A detector tuned on one look of one generator fails on the next table: maps are printed as
full-colour art, grid lines are faint, figures are painted black, bases are grey plastic with
a bevel, phones look straight down. :func:`draw_look` picks one random look; the functions
below paint it. The ground truth is never touched: everything here changes how a square looks,
never where the grid is or which squares hold a base.

**Texture families** (issue 28): a classifier trained on one generator's floors does not carry
over to printed art it never saw. The floors are painted by named families (plain paper, the
original colour blotches, flagstones, fractal noise, grass, metal panels, carpet tiles, sand
ripples, lava, floor grates, pebble cells), each with its own colour family, random contrast and,
on any art, dark patches the size of a base. :data:`TRAIN_FAMILIES` are the only ones the
occupancy classifier is trained on; :data:`HELD_OUT_FAMILIES` (disjoint) and the held-out camera
(:data:`HELD_OUT_CAMERA`: focal lengths, white balance, noise and blur outside the training
ranges) are only for the bench's held-out photos, so the bench measures how the model carries
over to floors and cameras it never saw. No photograph packages are installed here, so every
texture is procedural.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

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
    family: str = "blotch"  # which painter draws the floor (TRAIN_FAMILIES, HELD_OUT_FAMILIES)
    contrast: float = 1.0  # the floor texture's amplitude, times


#: floor families the occupancy classifier is trained on ("plain" and "blotch" are the original
#: generator's two looks, which a default ``render_photo(varied=True)`` still draws)
TRAIN_FAMILIES: tuple[str, ...] = ("plain", "blotch", "flagstone", "fractal", "grass", "metal", "carpet")
#: floor families only the bench's held-out photos use: never in training (tests check they are disjoint)
HELD_OUT_FAMILIES: tuple[str, ...] = ("sand", "lava", "grate", "cells")
#: the original looks: what ``draw_look`` draws when no families are named (keeps old seeds' photos)
LEGACY_FAMILIES: tuple[str, ...] = ("plain", "blotch")


@dataclass(frozen=True)
class Camera:
    """The ranges a family of cameras draws from (focal in image widths)."""

    focal: tuple[tuple[float, float], ...]  # one range is picked, then a value in it
    white_balance: float  # each channel's gain within 1 +- this
    noise: tuple[float, float]
    blur: tuple[float, float]


TRAIN_CAMERA = Camera(focal=((0.65, 1.3),), white_balance=0.18, noise=(1.5, 8.0), blur=(0.3, 1.6))
#: wide phones and zoomed-in shots, stronger colour casts and more sensor noise than training saw
HELD_OUT_CAMERA = Camera(focal=((0.52, 0.65), (1.3, 1.6)), white_balance=0.26, noise=(8.0, 11.0), blur=(0.4, 1.9))


def draw_look(rng: np.random.Generator, families: Sequence[str] | None = None, camera: Camera | None = None,
              pick: np.random.Generator | None = None) -> Look:
    """One random look. ``families``: the floor families to draw from (default the two original
    looks, drawn exactly as before so old seeds give the same photos); ``camera``: the camera
    ranges (default the training ones, drawn as before); ``pick`` draws the family and the
    held-out camera (a separate generator, so ``rng``'s sequence -- and the photo -- stays the
    same for the original looks)."""
    look = _legacy_look(rng)
    pick = pick if pick is not None else rng
    if families is not None:
        family = str(families[int(pick.integers(len(families)))])
        if family not in PAINTERS:
            raise ValueError(f"unknown texture family {family!r}")
        art = family != "plain"
        if art and family != "blotch":
            paper = PALETTES[family](pick)
        elif art == look.art:
            paper = look.paper
        else:  # the original draw's paper level depends on art or plain: draw it again for the family picked
            level = int(pick.integers(35, 235)) if art else int(pick.integers(170, 240))
            paper = tuple(int(np.clip(level + t, 0, 255)) for t in pick.integers(-25, 26, size=3))  # type: ignore[assignment]
        look = replace(look, family=family, art=art, paper=paper, contrast=float(pick.uniform(0.5, 1.6)) if art else 1.0)
    if camera is not None and camera != TRAIN_CAMERA:
        lo, hi = camera.focal[int(pick.integers(len(camera.focal)))]
        wb = camera.white_balance
        look = replace(look, focal=float(pick.uniform(lo, hi)),
                       white_balance=tuple(float(x) for x in pick.uniform(1 - wb, 1 + wb, size=3)),  # type: ignore[arg-type]
                       noise=float(pick.uniform(*camera.noise)), blur=float(pick.uniform(*camera.blur)))
    return look


def _legacy_look(rng: np.random.Generator) -> Look:
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
        family="blotch" if art else "plain",
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
    if look.family != "blotch":
        img = PAINTERS[look.family](rng, look, h, w, px)
        if rng.random() < 0.5:
            img = _details(rng, img, h, w, px)
        if rng.random() < 0.6:
            _dark_patches(rng, img, h, w, px)
        return img + rng.normal(0, float(rng.uniform(2, 8)), size=img.shape).astype(np.float32)
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
    img = _details(rng, img, h, w, px)
    img += rng.normal(0, float(rng.uniform(2, 10)), size=img.shape).astype(np.float32)
    return img


def _details(rng: np.random.Generator, img: np.ndarray, h: int, w: int, px: int) -> np.ndarray:
    """Drawn details on the art: consoles, rocks, rugs, pipes, shadows, some dark."""
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
    return img


def _dark_patches(rng: np.random.Generator, img: np.ndarray, h: int, w: int, px: int) -> None:
    """Dark round or blotchy patches the size of a base (0.3-0.5 of a square across): printed
    holes, barrels, stains -- what an art map shows that a classifier must not take for a base."""
    for _ in range(int(rng.integers(1, 10))):
        g = float(rng.integers(5, 70))
        colour = (g + float(rng.integers(0, 20)), g + float(rng.integers(0, 20)), g + float(rng.integers(0, 20)))
        c = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        r = int(rng.uniform(0.3, 0.5) * px)
        if rng.random() < 0.6:
            cv2.circle(img, c, r, colour, -1, lineType=cv2.LINE_AA)
        else:
            cv2.ellipse(img, c, (r, int(r * rng.uniform(0.5, 1.0))), float(rng.uniform(0, 180)), 0, 360, colour, -1)


# ---------------------------------------------------------------- floor families


def _unit(noise: np.ndarray) -> np.ndarray:
    """Scaled to [0, 1] (a flat field stays at 0.5)."""
    lo, hi = float(noise.min()), float(noise.max())
    return np.full_like(noise, 0.5) if hi - lo < 1e-6 else (noise - lo) / (hi - lo)


def _fractal(rng: np.random.Generator, h: int, w: int, octaves: int = 5, base: int = 3, gain: float = 0.55) -> np.ndarray:
    """Multi-octave value noise in [0, 1] (h, w)."""
    out = np.zeros((h, w), np.float32)
    amp, cells = 1.0, base
    for _ in range(octaves):
        out += smooth_noise(rng, h, w, min(cells, max(2, w // 3)), 1)[..., 0] * amp
        amp *= gain
        cells *= 2
    return _unit(out)


def _two_tone(t: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Colour map: t in [0, 1] (h, w) between BGR colours a and b (h, w, 3)."""
    return a[None, None, :] * (1 - t[..., None]) + b[None, None, :] * t[..., None]


def _seeds(rng: np.random.Generator, h: int, w: int, spacing: float) -> np.ndarray:
    """Random points about ``spacing`` pixels apart: (n, 2) x, y."""
    n = max(4, int(h * w / max(1.0, spacing * spacing)))
    return np.stack([rng.uniform(0, w, n), rng.uniform(0, h, n)], 1)


def _voronoi(rng: np.random.Generator, h: int, w: int, spacing: float) -> tuple[np.ndarray, np.ndarray]:
    """Cell labels (1..n) and the distance to the nearest seed, for seeds about ``spacing`` apart."""
    mask = np.full((h, w), 255, np.uint8)
    pts = _seeds(rng, h, w, spacing).astype(np.int32)
    mask[np.clip(pts[:, 1], 0, h - 1), np.clip(pts[:, 0], 0, w - 1)] = 0
    dist, labels = cv2.distanceTransformWithLabels(mask, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL)
    return labels, dist


def _colour(rng: np.random.Generator, centre: tuple[int, int, int], spread: int) -> np.ndarray:
    return np.clip(np.array(centre, np.float32) + rng.integers(-spread, spread + 1, size=3), 0, 255).astype(np.float32)


def _flagstone(rng: np.random.Generator, look: Look, h: int, w: int, px: int) -> np.ndarray:
    """Irregular stones (Voronoi cells) of 0.6-2.5 squares, each its own shade, dark mortar seams."""
    labels, _ = _voronoi(rng, h, w, float(rng.uniform(0.6, 2.5)) * px)
    shade = rng.normal(0, 18 * look.contrast, size=int(labels.max()) + 1).astype(np.float32)
    img = np.array(look.paper, np.float32)[None, None, :] + shade[labels][..., None]
    seams = cv2.morphologyEx(labels.astype(np.float32), cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)) > 0
    if px > 40:
        seams = cv2.dilate(seams.astype(np.uint8), np.ones((2, 2), np.uint8)) > 0
    img[seams] *= float(rng.uniform(0.35, 0.7))
    return img + (_fractal(rng, h, w, 3, 8)[..., None] - 0.5) * 30 * look.contrast


def _fractal_floor(rng: np.random.Generator, look: Look, h: int, w: int, px: int) -> np.ndarray:
    """Fractal value noise mapped between two random colours (any hue), random contrast."""
    t = _fractal(rng, h, w, int(rng.integers(3, 7)), int(rng.integers(2, 8)), float(rng.uniform(0.4, 0.7)))
    a = np.array(look.paper, np.float32)
    b = np.clip(a + rng.normal(0, 60, size=3) * look.contrast, 0, 255).astype(np.float32)
    return _two_tone(t, a, b)


def _grass(rng: np.random.Generator, look: Look, h: int, w: int, px: int) -> np.ndarray:
    """Green fields with darker and yellower patches and fine blades."""
    base = np.array(look.paper, np.float32)
    dry = np.clip(base + np.array([-10, 25, 45], np.float32), 0, 255)
    img = _two_tone(_fractal(rng, h, w, 4, 3), base, dry)
    blades = cv2.GaussianBlur(rng.normal(0, 1, size=(h, w)).astype(np.float32), (0, 0), sigmaX=0.6, sigmaY=max(1.0, px / 25))
    return img * (1 + 0.25 * look.contrast * blades[..., None])


def _metal(rng: np.random.Generator, look: Look, h: int, w: int, px: int) -> np.ndarray:
    """Metal deck: panels of one to four squares (not on the grid), brushed streaks, rivets."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = look.paper
    brushed = cv2.GaussianBlur(rng.normal(0, 1, size=(h, w)).astype(np.float32), (0, 0), sigmaX=px / 3, sigmaY=0.8)
    img += brushed[..., None] * 25 * look.contrast
    kx, ky = int(rng.uniform(1.0, 4.0) * px), int(rng.uniform(1.0, 4.0) * px)
    ox, oy = int(rng.integers(0, kx)), int(rng.integers(0, ky))
    seam = tuple(float(c) * 0.45 for c in look.paper)
    for y in range(-oy, h, ky):
        for x in range(-ox, w, kx):
            img[max(0, y):y + ky, max(0, x):x + kx] += float(rng.normal(0, 12 * look.contrast))
            for rx, ry in ((x + px // 8, y + px // 8), (x + kx - px // 8, y + px // 8), (x + px // 8, y + ky - px // 8), (x + kx - px // 8, y + ky - px // 8)):
                cv2.circle(img, (rx, ry), max(1, px // 20), seam, -1)
    for y in range(-oy, h, ky):
        cv2.line(img, (0, y), (w, y), seam, max(1, px // 25))
    for x in range(-ox, w, kx):
        cv2.line(img, (x, 0), (x, h), seam, max(1, px // 25))
    return img


def _carpet(rng: np.random.Generator, look: Look, h: int, w: int, px: int) -> np.ndarray:
    """Carpet and tiles: a checker or diamond pattern of two random colours, any size and angle."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    k = float(rng.uniform(0.25, 2.5)) * px
    ang = float(rng.choice([0.0, np.pi / 4, rng.uniform(0, np.pi)]))
    u, v = (xx * np.cos(ang) + yy * np.sin(ang)) / k, (-xx * np.sin(ang) + yy * np.cos(ang)) / k
    t = ((np.floor(u) + np.floor(v)) % 2).astype(np.float32)
    a = np.array(look.paper, np.float32)
    b = np.clip(a + rng.normal(0, 70, size=3) * look.contrast, 0, 255).astype(np.float32)
    return _two_tone(cv2.GaussianBlur(t, (0, 0), 1.0), a, b)


def _sand(rng: np.random.Generator, look: Look, h: int, w: int, px: int) -> np.ndarray:
    """Sand: tan to ochre, wind ripples bent by low noise, fine grain, darker dunes."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = float(rng.uniform(0, np.pi))
    warp = smooth_noise(rng, h, w, 4, 1)[..., 0] * px * 1.5
    ripples = np.sin((xx * np.cos(ang) + yy * np.sin(ang) + warp) / (float(rng.uniform(0.15, 0.6)) * px) * 2 * np.pi)
    base = np.array(look.paper, np.float32)
    img = _two_tone(_fractal(rng, h, w, 4, 2), base * 0.8, np.clip(base * 1.1, 0, 255))
    grain = rng.normal(0, 1, size=(h, w)).astype(np.float32)
    return img * (1 + 0.06 * look.contrast * ripples[..., None] + 0.05 * look.contrast * grain[..., None])


def _lava(rng: np.random.Generator, look: Look, h: int, w: int, px: int) -> np.ndarray:
    """Lava fields: dark rock with glowing orange-red veins and pools."""
    rock = np.array(look.paper, np.float32)
    img = _two_tone(_fractal(rng, h, w, 4, 4), rock * 0.6, rock * 1.3)
    ridge = np.abs(_fractal(rng, h, w, 5, int(rng.integers(2, 6))) - 0.5) * 2  # 0 on the veins
    glow = np.clip(1 - ridge / float(rng.uniform(0.05, 0.2)), 0, 1)
    hot = np.array([float(rng.integers(0, 60)), float(rng.integers(60, 200)), float(rng.integers(200, 256))], np.float32)
    return img * (1 - glow[..., None]) + hot[None, None, :] * glow[..., None] * min(1.0, look.contrast)


def _grate(rng: np.random.Generator, look: Look, h: int, w: int, px: int) -> np.ndarray:
    """Floor grating: bars 0.12-0.4 of a square apart, one way or crossed, dark gaps between."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = float(rng.uniform(0.12, 0.4)) * px
    ang = float(rng.choice([0.0, np.pi / 4, np.pi / 2]))
    u = (xx * np.cos(ang) + yy * np.sin(ang)) / period
    bars = (u % 1) < float(rng.uniform(0.3, 0.6))
    if rng.random() < 0.5:
        v = (-xx * np.sin(ang) + yy * np.cos(ang)) / period
        bars |= (v % 1) < float(rng.uniform(0.2, 0.5))
    metal = np.array(look.paper, np.float32)
    gap = metal * float(rng.uniform(0.1, 0.45))
    img = _two_tone(cv2.GaussianBlur(bars.astype(np.float32), (0, 0), 0.8), gap, metal)
    return img * (1 + 0.15 * look.contrast * (_fractal(rng, h, w, 3, 3)[..., None] - 0.5))


def _cells(rng: np.random.Generator, look: Look, h: int, w: int, px: int) -> np.ndarray:
    """Pebbles and organic cells (Worley noise): each cell bright at its centre, dark at its rim."""
    labels, dist = _voronoi(rng, h, w, float(rng.uniform(0.3, 1.5)) * px)
    t = np.clip(dist / max(1.0, float(np.percentile(dist, 95))), 0, 1)
    tone = rng.uniform(0.8, 1.2, size=int(labels.max()) + 1).astype(np.float32)[labels]
    a = np.array(look.paper, np.float32)
    b = np.clip(a * float(rng.uniform(0.3, 0.7)), 0, 255)
    return _two_tone(t, a, b) * (1 + (tone[..., None] - 1) * look.contrast)


def _palette(*ranges: tuple[int, int]) -> Callable[[np.random.Generator], tuple[int, int, int]]:
    """A colour family: B, G, R each drawn from its range."""
    def draw(rng: np.random.Generator) -> tuple[int, int, int]:
        return tuple(int(rng.integers(lo, hi)) for lo, hi in ranges)  # type: ignore[return-value]
    return draw


def _any_colour(rng: np.random.Generator) -> tuple[int, int, int]:
    return tuple(int(c) for c in rng.integers(25, 235, size=3))  # type: ignore[return-value]


Painter = Callable[[np.random.Generator, Look, int, int, int], np.ndarray]
PAINTERS: dict[str, Painter] = {
    "plain": lambda rng, look, h, w, px: np.full((h, w, 3), look.paper, np.float32),
    "blotch": lambda rng, look, h, w, px: paint_paper(rng, replace(look, family="blotch", art=True), h, w, px),
    "flagstone": _flagstone, "fractal": _fractal_floor, "grass": _grass, "metal": _metal, "carpet": _carpet,
    "sand": _sand, "lava": _lava, "grate": _grate, "cells": _cells,
}
#: each family's colour family (BGR ranges): stone greys and browns, any colour, greens, steel
#: greys and blues; held out: sand tans, lava's dark rock, the grate's metal, any colour
PALETTES: dict[str, Callable[[np.random.Generator], tuple[int, int, int]]] = {
    "flagstone": _palette((60, 180), (70, 185), (80, 195)),
    "fractal": _any_colour,
    "grass": _palette((20, 70), (80, 170), (40, 110)),
    "metal": _palette((90, 190), (90, 180), (80, 170)),
    "carpet": _any_colour,
    "sand": _palette((90, 150), (150, 200), (180, 235)),
    "lava": _palette((20, 60), (20, 55), (25, 70)),
    "grate": _palette((70, 170), (70, 165), (65, 160)),
    "cells": _any_colour,
}


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
