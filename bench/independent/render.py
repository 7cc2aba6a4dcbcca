"""An independent table-photo renderer: printed art maps, 3-D figures, phone cameras.

Written from the public contract alone (CONTRACT.md §2 position files, §4 photo conventions)
WITHOUT reading the project's photo code or its own generator, so that the photos it makes
test the detector on looks it was never tuned to.  Only numpy and OpenCV are used.

World: the table is the plane z = 0, in millimetres; x to the east, y to the south, z up.
The map's grid is printed with its north-west corner at (0, 0); one square is one inch.
A scene is drawn in four steps:

1. a top-down canvas of the table (table cloth or wood, the map sheet with its floor art,
   the grid lines, the terrain borders, the corner-marker stickers, the figures' soft shadows);
2. the canvas is seen by a pinhole camera through the homography of the plane z = 0;
3. the figures are drawn over it, far to near: each round dark base (its side wall as shaded
   quads, its top, with the marker sticker, warped through the homography of the plane z = h)
   and a body of shaded cylinders, cones and spheres (quads projected in perspective, back
   faces culled, painted far to near), which may hide part of its own sticker or a neighbour's;
4. the phone: light fall-off, vignette, white-balance cast, radial lens distortion, blur,
   noise and JPEG compression.

The truth is kept in squares (the position file), never in pixels, so lens distortion and
the camera do not have to be inverted to score an answer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import yaml

INCH = 25.4  # mm: one square
ARUCO = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)

# CONTRACT §4 border colours (RGB, printed): walls red, low green, difficult yellow, pits orange,
# doors blue.
BORDER_RGB: dict[str, tuple[int, int, int]] = {
    "wall": (205, 30, 35),
    "low": (40, 160, 60),
    "difficult": (235, 205, 30),
    "pit": (240, 125, 20),
    "door": (35, 80, 200),
}

FLOORS = (
    "wood", "stone", "rock", "scifi", "water", "stars", "carpet", "lava", "sand", "grass",
    "plain",
)


# --------------------------------------------------------------------------- scene model


@dataclass(frozen=True)
class Figure:
    """One figure: its id, side, NW square (col, row; 0-based), size in squares, marker id."""

    id: str
    side: str
    col: int
    row: int
    n: int  # 1 (small/medium) or 2 (large)
    marker: int | None


@dataclass(frozen=True)
class MapSpec:
    """The map: its size and terrain, as the position file will say it."""

    cols: int
    rows: int
    squares: dict[str, list[tuple[int, int, int, int]]]  # kind -> rectangles c0, r0, c1, r1
    edges: dict[str, list[tuple[int, int, str]]]  # kind -> (col, row, side)


@dataclass(frozen=True)
class Look:
    """How the printed map looks (kept between the game photo and the empty-map photo)."""

    floor: str
    seed: int
    grid_rgb: tuple[int, int, int]
    grid_width_mm: float
    grid_alpha: float
    border_width_mm: float
    border_on_line: bool  # borders drawn on the grid lines (else just inside the squares)
    paper_margin_mm: float
    corner_ids: tuple[int, ...]  # the corner markers present (subset of 0..3)
    corner_size_mm: float


@dataclass(frozen=True)
class Camera:
    """A phone camera pose and its picture-making."""

    width: int
    height: int
    tilt_deg: float
    yaw_deg: float
    f_px: float
    k1: float
    blur_px: float
    noise: float
    jpeg: int
    wb: tuple[float, float, float]
    light_az: float
    light_el: float
    exposure: float
    seed: int


@dataclass
class Scene:
    """Everything one scene writes."""

    spec: MapSpec
    look: Look
    truth: list[Figure]
    stale: list[Figure]
    cam: Camera
    cam_empty: Camera
    notes: dict[str, object] = field(default_factory=dict)


# --------------------------------------------------------------------------- naming


def col_name(c: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA (CONTRACT §1)."""
    s = ""
    c += 1
    while c:
        c, r = divmod(c - 1, 26)
        s = chr(65 + r) + s
    return s


def sq(c: int, r: int) -> str:
    return f"{col_name(c)}{r + 1}"


# --------------------------------------------------------------------------- scene drawing


def _terrain(rng: np.random.Generator, cols: int, rows: int) -> MapSpec:
    """A few outlined areas and wall/door edges, none on the map's own edge squares' rim."""
    taken = np.zeros((rows, cols), bool)
    squares: dict[str, list[tuple[int, int, int, int]]] = {k: [] for k in ("wall", "low", "difficult", "pit")}
    counts = {"wall": rng.integers(1, 4), "low": rng.integers(0, 3), "difficult": rng.integers(0, 3),
              "pit": rng.integers(0, 2)}
    for kind, k in counts.items():
        for _ in range(int(k)):
            for _try in range(20):
                w = int(rng.integers(1, 4))
                h = int(rng.integers(1, 4))
                c0 = int(rng.integers(1, max(2, cols - w)))
                r0 = int(rng.integers(1, max(2, rows - h)))
                c1, r1 = min(cols - 1, c0 + w - 1), min(rows - 1, r0 + h - 1)
                # one free square of gap around each area, so outlines never touch
                if taken[max(0, r0 - 1): r1 + 2, max(0, c0 - 1): c1 + 2].any():
                    continue
                taken[r0: r1 + 1, c0: c1 + 1] = True
                squares[kind].append((c0, r0, c1, r1))
                break
    edges: dict[str, list[tuple[int, int, str]]] = {"wall": [], "door": []}
    for _ in range(int(rng.integers(1, 3))):
        # a straight wall line along a column's east edges, with a door in it sometimes
        for _try in range(20):
            c = int(rng.integers(1, cols - 2))
            r0 = int(rng.integers(0, rows - 3))
            length = int(rng.integers(2, min(7, rows - r0) + 1))
            if taken[r0: r0 + length, c: c + 2].any():
                continue
            taken[r0: r0 + length, c: c + 2] = True
            door_at = int(rng.integers(0, length)) if rng.random() < 0.6 else -1
            for i in range(length):
                (edges["door"] if i == door_at else edges["wall"]).append((c, r0 + i, "E"))
            break
    return MapSpec(cols, rows, squares, edges)


def _blocked(spec: MapSpec) -> np.ndarray:
    b = np.zeros((spec.rows, spec.cols), bool)
    for kind in ("wall", "low", "pit"):  # figures stand on open or difficult squares only
        for c0, r0, c1, r1 in spec.squares[kind]:
            b[r0: r1 + 1, c0: c1 + 1] = True
    return b


def _fits(f: Figure, occ: np.ndarray, blocked: np.ndarray, spec: MapSpec | None = None) -> bool:
    rows, cols = occ.shape
    if f.col < 0 or f.row < 0 or f.col + f.n > cols or f.row + f.n > rows:
        return False
    if spec is not None and f.n > 1:  # a Large base may not stand astride a wall or door line
        for c, r, _side in spec.edges["wall"] + spec.edges["door"]:
            if f.col <= c < f.col + f.n - 1 and f.row <= r < f.row + f.n:
                return False
    s = (slice(f.row, f.row + f.n), slice(f.col, f.col + f.n))
    return not (occ[s].any() or blocked[s].any())


def _place(f: Figure, occ: np.ndarray, value: bool) -> None:
    occ[f.row: f.row + f.n, f.col: f.col + f.n] = value


def make_scene(seed: int, width: int = 4000, floor: str | None = None, distortion: float = 1.0) -> Scene:
    """A random scene from its seed: map, look, figures (true and recorded), two cameras.

    `distortion` scales the lens's k1 (drawn from -0.12..0.04, a raw wide lens; 0.15 is about what
    is left in a phone's JPEG after its own correction) without changing any other draw.
    """
    rng = np.random.default_rng(seed)
    cols = int(rng.integers(10, 21))
    rows = int(rng.integers(8, 15))
    spec = _terrain(rng, cols, rows)
    blocked = _blocked(spec)
    n_present = int(rng.choice([4, 4, 4, 3, 2, 1, 0]))
    corner_ids = tuple(sorted(int(i) for i in rng.choice(4, n_present, replace=False)))
    look = Look(
        floor=floor or str(rng.choice(FLOORS)),
        seed=int(rng.integers(1 << 30)),
        grid_rgb=tuple(int(v) for v in rng.choice(
            [(15, 15, 15), (60, 60, 60), (240, 240, 240), (70, 50, 30), (200, 200, 180), (20, 30, 60)])),
        grid_width_mm=float(rng.uniform(0.25, 1.0)),
        grid_alpha=float(rng.uniform(0.35, 1.0)),
        border_width_mm=float(rng.uniform(1.0, 2.5)),
        border_on_line=bool(rng.random() < 0.4),
        paper_margin_mm=float(rng.uniform(0, 15)),
        corner_ids=corner_ids,
        corner_size_mm=float(rng.uniform(12, 40)),
    )
    # figures: 4-14, about one in six Large; most carry a base marker (ids from 4)
    occ = np.zeros((rows, cols), bool)
    truth: list[Figure] = []
    n_fig = int(rng.integers(4, 15))
    ids = list(rng.permutation(np.arange(4, 50))[:n_fig])
    for i in range(n_fig):
        n = 2 if rng.random() < 0.17 else 1
        for _try in range(60):
            f = Figure(f"f{i + 1}", "light" if i % 2 == 0 else "dark", int(rng.integers(0, cols)),
                       int(rng.integers(0, rows)), n, int(ids[i]) if rng.random() < 0.8 else None)
            if _fits(f, occ, blocked, spec):
                _place(f, occ, True)
                truth.append(f)
                break
    # the record, one turn old: about half of the figures stood 1-6 squares from here
    stale: list[Figure] = []
    occ_old = occ.copy()
    for f in truth:
        if rng.random() < 0.5:
            _place(f, occ_old, False)
            for _try in range(60):
                d = int(rng.integers(1, 7))
                ang = rng.uniform(0, 2 * math.pi)
                g = Figure(f.id, f.side, f.col + round(d * math.cos(ang)), f.row + round(d * math.sin(ang)),
                           f.n, f.marker)
                if (g.col, g.row) != (f.col, f.row) and _fits(g, occ_old, blocked, spec):
                    _place(g, occ_old, True)
                    stale.append(g)
                    break
            else:
                _place(f, occ_old, True)
                stale.append(f)
        else:
            stale.append(f)
    cam = _camera(rng, width, seed * 7 + 1, tilt_max=50, distortion=distortion)
    cam_empty = _camera(rng, width, seed * 7 + 2, tilt_max=35, distortion=distortion)
    return Scene(spec, look, truth, stale, cam, cam_empty)


def _camera(rng: np.random.Generator, width: int, seed: int, tilt_max: float, distortion: float = 1.0) -> Camera:
    height = width * 3 // 4
    return Camera(
        width=width, height=height,
        tilt_deg=float(rng.uniform(0, tilt_max)), yaw_deg=float(rng.uniform(0, 360)),
        f_px=float(width * rng.uniform(0.68, 0.85)),
        k1=float(rng.uniform(-0.12, 0.04)) * distortion,
        blur_px=float(rng.uniform(0.0, 1.6) * width / 4000),
        noise=float(rng.uniform(1.5, 7.0)),
        jpeg=int(rng.integers(60, 95)),
        wb=(float(rng.uniform(0.82, 1.12)), 1.0, float(rng.uniform(0.82, 1.15))),
        light_az=float(rng.uniform(0, 2 * math.pi)), light_el=float(rng.uniform(math.radians(35), math.radians(80))),
        exposure=float(rng.uniform(0.75, 1.1)),
        seed=seed,
    )


# --------------------------------------------------------------------------- textures


def _noise(rng: np.random.Generator, h: int, w: int, cell: float, octaves: int = 4) -> np.ndarray:
    """Multi-octave value noise in [0, 1] (small random grids enlarged by bicubic resizing)."""
    out = np.zeros((h, w), np.float32)
    amp, tot = 1.0, 0.0
    for _ in range(octaves):
        gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
        g = rng.random((gh, gw)).astype(np.float32)
        out += amp * cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)
        tot += amp
        amp *= 0.5
        cell /= 2.0
        if cell < 1.5:
            break
    out /= tot
    lo, hi = np.percentile(out[:: max(1, h // 64), :: max(1, w // 64)], [1, 99])
    return np.clip((out - lo) / max(hi - lo, 1e-6), 0, 1)


def _mix(a: np.ndarray, b: tuple[float, float, float] | np.ndarray, t: np.ndarray) -> np.ndarray:
    return a * (1 - t[..., None]) + np.asarray(b, np.float32) * t[..., None]


def _floor(kind: str, rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """Printed floor art, RGB float 0..255, h x w pixels at ppm pixels a millimetre."""
    sqp = INCH * ppm
    base = np.zeros((h, w, 3), np.float32)
    if kind == "wood":
        plank = sqp * rng.uniform(0.4, 1.3)
        c0 = np.array(rng.choice([(150, 100, 55), (110, 70, 40), (185, 140, 90), (80, 55, 35)]), np.float32)
        yy = np.arange(h, dtype=np.float32)[:, None]
        idx = (yy // plank).astype(int)
        shade = rng.uniform(0.75, 1.15, idx.max() + 2)[idx]
        grain = _noise(rng, h, w, sqp * 0.15, 3)
        streak = 0.5 + 0.5 * np.sin(yy / (plank / rng.uniform(6, 14)) * 2 * math.pi + grain * 6)
        base[:] = c0 * (shade * (0.8 + 0.3 * streak))[..., None]
        seam = (yy % plank) < max(1.0, 0.6 * ppm)
        base[np.broadcast_to(seam, (h, w))] *= 0.35
    elif kind in ("stone", "scifi"):
        tile = sqp * (rng.choice([1.0, 2.0, 0.5]) if kind == "stone" else rng.choice([1.0, 2.0, 3.0]))
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        off = rng.uniform(0, tile, 2)
        ti = ((yy + off[0]) // tile).astype(int) * 997 + ((xx + off[1]) // tile).astype(int)
        per = rng.uniform(0.7, 1.2, 997 * 997 // 10 + 2000)[ti % (997 * 997 // 10 + 2000)]
        if kind == "stone":
            c0 = np.array(rng.choice([(140, 135, 125), (100, 95, 90), (165, 150, 120), (70, 75, 80)]), np.float32)
            tex = _noise(rng, h, w, sqp * 0.3, 4)
            base[:] = c0 * (per * (0.75 + 0.45 * tex))[..., None]
        else:
            c0 = np.array(rng.choice([(120, 130, 140), (70, 80, 95), (170, 175, 180), (60, 65, 60)]), np.float32)
            base[:] = c0 * (0.85 + 0.3 * (per - 0.95))[..., None]
            # panel insets and rivets
            fy, fx = (yy + off[0]) % tile, (xx + off[1]) % tile
            inset = (np.minimum(fy, tile - fy) > tile * 0.12) & (np.minimum(fx, tile - fx) > tile * 0.12)
            base[inset] *= rng.uniform(0.8, 1.15)
            rv = (np.hypot(fy - tile * 0.06, fx - tile * 0.06) < tile * 0.025)
            base[rv] = (40, 40, 45)
            if rng.random() < 0.5:  # hazard stripes across one band
                band = (yy > h * 0.4) & (yy < h * 0.4 + sqp * 0.5)
                stripe = ((xx + yy) // (sqp * 0.25)) % 2 == 0
                base[band & stripe] = (230, 190, 20)
                base[band & ~stripe] = (25, 25, 25)
        mortar = (np.minimum((yy + off[0]) % tile, (xx + off[1]) % tile) < max(1.0, ppm * rng.uniform(0.5, 2)))
        base[mortar] *= 0.4
    elif kind == "rock":
        c0 = np.array(rng.choice([(120, 100, 80), (90, 90, 95), (150, 120, 90)]), np.float32)
        t = _noise(rng, h, w, sqp * 1.5, 6)
        base[:] = _mix(c0[None, None] * np.ones((h, w, 3), np.float32) * 0.5, c0 * 1.3, t)
        cracks = np.abs(_noise(rng, h, w, sqp * 0.8, 3) - 0.5) < 0.02
        base[cracks] *= 0.3
    elif kind == "water":
        t = _noise(rng, h, w, sqp * 0.6, 4)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        rip = 0.5 + 0.5 * np.sin((xx * 0.7 + yy) / (sqp * 0.2) + t * 8)
        base[:] = _mix(np.full((h, w, 3), (20, 60, 110), np.float32), (80, 160, 200), 0.6 * t + 0.4 * rip)
    elif kind == "stars":
        t = _noise(rng, h, w, sqp * 3, 5)
        neb = np.array(rng.choice([(120, 40, 140), (40, 80, 150), (150, 60, 40)]), np.float32)
        base[:] = _mix(np.full((h, w, 3), (5, 5, 12), np.float32), neb, np.clip(t - 0.4, 0, 1) * 0.9)
        # the stars are printed on the map: the same stars at the same places in every photo of it
        # (the empty map's too), so they are drawn in the art's own fractions from their own
        # generator, not at pixel positions whose count and order followed each camera's scale
        n_st = int(round(h * w / (sqp * sqp))) * 25
        stars = np.random.default_rng(int(rng.integers(1 << 62))).random((n_st, 3))
        for fy, fx, fr in stars:
            cv2.circle(base, (int(fx * w), int(fy * h)), max(1, int((0.2 + fr) * ppm)), (255, 255, 240), -1)
    elif kind == "carpet":
        c1 = np.array(rng.choice([(150, 30, 40), (40, 60, 120), (30, 90, 60)]), np.float32)
        c2 = np.array(rng.choice([(220, 180, 90), (200, 200, 200), (20, 20, 20)]), np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        p = sqp * rng.uniform(0.7, 2.5)
        motif = (np.sin(xx / p * 2 * math.pi) * np.sin(yy / p * 2 * math.pi)) > 0.55
        ring = np.abs(np.hypot((xx % p) - p / 2, (yy % p) - p / 2) - p * 0.35) < p * 0.04
        base[:] = c1
        base[motif | ring] = c2
        base *= (0.85 + 0.3 * _noise(rng, h, w, ppm * 1.5, 2))[..., None]
    elif kind == "lava":
        t = _noise(rng, h, w, sqp * 1.2, 5)
        cr = np.abs(_noise(rng, h, w, sqp * 0.7, 4) - 0.5)
        base[:] = _mix(np.full((h, w, 3), (25, 18, 15), np.float32), (70, 50, 40), t)
        glow = np.clip(1 - cr / 0.06, 0, 1)
        base[:] = _mix(base, (250, 120, 20), glow)
    elif kind == "sand":
        t = _noise(rng, h, w, sqp * 2, 5)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        dune = 0.5 + 0.5 * np.sin((xx + 2 * yy) / (sqp * 1.3) + t * 5)
        base[:] = _mix(np.full((h, w, 3), (190, 150, 95), np.float32), (230, 200, 140), 0.5 * t + 0.5 * dune)
        base *= (0.9 + 0.2 * _noise(rng, h, w, ppm * 1.0, 1))[..., None]
    elif kind == "grass":
        t = _noise(rng, h, w, sqp * 1.5, 6)
        base[:] = _mix(np.full((h, w, 3), (40, 80, 30), np.float32), (120, 160, 60), t)
        blades = _noise(rng, h, w, ppm * 1.2, 1)
        base *= (0.8 + 0.4 * blades)[..., None]
    else:  # plain paper, slightly tinted
        base[:] = np.array(rng.choice([(238, 236, 228), (225, 230, 235), (240, 232, 210)]), np.float32)
        base *= (0.96 + 0.06 * _noise(rng, h, w, sqp, 3))[..., None]
    # printed decoration: dark round shapes (craters, barrels, holes) that are art, not bases
    if kind != "plain" or rng.random() < 0.3:
        for _ in range(int(rng.integers(0, 10))):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            r = sqp * rng.uniform(0.25, 0.7)
            col = rng.uniform(10, 70, 3)
            cv2.circle(base, (int(x), int(y)), int(r), tuple(float(v) for v in col), -1, cv2.LINE_AA)
            if rng.random() < 0.5:
                cv2.circle(base, (int(x), int(y)), int(r * 0.7), tuple(float(v) for v in col * 1.8), max(1, int(ppm)),
                           cv2.LINE_AA)
    return np.clip(base, 0, 255)


# --------------------------------------------------------------------------- the top-down canvas


@dataclass(frozen=True)
class Frame:
    """The canvas's place on the table: pixel (u, v) = ((x - x0) * ppm, (y - y0) * ppm)."""

    x0: float
    y0: float
    ppm: float
    w: int
    h: int

    def px(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.x0) * self.ppm, (y - self.y0) * self.ppm


def _aruco(mid: int, size_px: int) -> np.ndarray:
    return cv2.aruco.generateImageMarker(ARUCO, mid, size_px)


def _paste_marker(img: np.ndarray, fr: Frame, mid: int, x: float, y: float, size: float, quiet: float) -> None:
    """An ArUco sticker with its black square's NW corner at table point (x, y), size mm a side."""
    u0, v0 = fr.px(x - quiet, y - quiet)
    s_px = int(round((size + 2 * quiet) * fr.ppm))
    u0i, v0i = int(round(u0)), int(round(v0))
    inner = int(round(size * fr.ppm))
    m = _aruco(mid, max(6, inner))
    sticker = np.full((s_px, s_px), 250, np.uint8)
    q = (s_px - m.shape[0]) // 2
    sticker[q: q + m.shape[0], q: q + m.shape[1]] = np.where(m > 0, 245, 18)
    y1, x1 = max(0, v0i), max(0, u0i)
    y2, x2 = min(img.shape[0], v0i + s_px), min(img.shape[1], u0i + s_px)
    if y2 > y1 and x2 > x1:
        img[y1:y2, x1:x2] = sticker[y1 - v0i: y2 - v0i, x1 - u0i: x2 - u0i, None]


def _art_box(spec: MapSpec, look: Look, fr: Frame) -> tuple[int, int, int, int]:
    """The printed sheet's pixels on a canvas: u0, v0, u1, v1."""
    W, H = spec.cols * INCH, spec.rows * INCH
    m = look.paper_margin_mm
    u0, v0 = (int(round(v)) for v in fr.px(-m, -m))
    u1, v1 = (int(round(v)) for v in fr.px(W + m, H + m))
    return u0, v0, u1, v1


def _draw_map(look: Look, spec: MapSpec, fr: Frame, canvas: np.ndarray, printed: Frame) -> None:
    """The map on the canvas. Its floor art is drawn at the scale of `printed` (the game photo's
    canvas) and resampled onto this one: the map is printed once, so the empty-map photo must show
    the same art as the game photo. Drawn at each camera's own scale, the noise's random grids
    (sized in pixels) came out of other sizes, and 17 of the scenes 341-490 showed an empty map
    whose art was not the game's."""
    rng = np.random.default_rng(look.seed)
    ppm = fr.ppm
    W, H = spec.cols * INCH, spec.rows * INCH
    m = look.paper_margin_mm
    u0, v0, u1, v1 = _art_box(spec, look, fr)
    pu0, pv0, pu1, pv1 = _art_box(spec, look, printed)
    art = _floor(look.floor, rng, pv1 - pv0, pu1 - pu0, printed.ppm)
    if (pv1 - pv0, pu1 - pu0) != (v1 - v0, u1 - u0):
        shrink = (u1 - u0) < (pu1 - pu0)
        art = cv2.resize(art, (u1 - u0, v1 - v0), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
    if rng.random() < 0.4 and look.floor != "plain":  # a white paper rim round the art
        rim = int(m * ppm * rng.uniform(0.3, 1.0))
        if rim > 0:
            art[:rim], art[-rim:], art[:, :rim], art[:, -rim:] = 240, 240, 240, 240
    # wall and pit squares are printed as a darker fill (the art under a border does not matter)
    gx, gy = fr.px(0, 0)

    def rect_px(c0: int, r0: int, c1: int, r1: int, inset: float) -> tuple[tuple[int, int], tuple[int, int]]:
        a = (int(round(gx + (c0 * INCH + inset) * ppm - u0)), int(round(gy + (r0 * INCH + inset) * ppm - v0)))
        b = (int(round(gx + ((c1 + 1) * INCH - inset) * ppm - u0)), int(round(gy + ((r1 + 1) * INCH - inset) * ppm - v0)))
        return a, b

    fills = {"wall": [(60, 55, 50), (110, 80, 50), (35, 35, 40), (130, 120, 110)],
             "pit": [(10, 10, 10), (50, 30, 20)], "low": [(120, 90, 50), (90, 110, 70)],
             "difficult": [(170, 140, 90), (90, 120, 60)]}
    for kind, rects in spec.squares.items():
        for c0, r0, c1, r1 in rects:
            if kind in ("wall", "pit") or rng.random() < 0.5:
                a, b = rect_px(c0, r0, c1, r1, 0)
                col = np.array(fills[kind][int(rng.integers(len(fills[kind])))], np.float32)
                patch = art[a[1]: b[1], a[0]: b[0]]
                patch[:] = patch * 0.25 + col * 0.75
    # grid lines: 1-inch squares
    lw = max(1, int(round(look.grid_width_mm * ppm)))
    grid = np.zeros(art.shape[:2], np.float32)
    for c in range(spec.cols + 1):
        x = int(round(gx + c * INCH * ppm - u0))
        cv2.line(grid, (x, int(gy - v0)), (x, int(gy + H * ppm - v0)), 1.0, lw, cv2.LINE_AA)
    for r in range(spec.rows + 1):
        y = int(round(gy + r * INCH * ppm - v0))
        cv2.line(grid, (int(gx - u0), y), (int(gx + W * ppm - u0), y), 1.0, lw, cv2.LINE_AA)
    art[:] = _mix(art, look.grid_rgb, grid * look.grid_alpha)
    # terrain borders, each area outlined once (on the grid line or just inside it)
    bw = max(2, int(round(look.border_width_mm * ppm)))
    inset = 0.0 if look.border_on_line else (look.border_width_mm / 2 + 0.8)
    for kind, rects in spec.squares.items():
        for c0, r0, c1, r1 in rects:
            a, b = rect_px(c0, r0, c1, r1, inset)
            cv2.rectangle(art, a, b, BORDER_RGB[kind], bw, cv2.LINE_AA)
    for c, r, side in spec.edges["wall"]:
        assert side == "E"
        x = int(round(gx + (c + 1) * INCH * ppm - u0))
        cv2.line(art, (x, int(round(gy + r * INCH * ppm - v0))), (x, int(round(gy + (r + 1) * INCH * ppm - v0))),
                 BORDER_RGB["wall"], bw + 1, cv2.LINE_AA)
    for c, r, _side in spec.edges["door"]:
        x = int(round(gx + (c + 1) * INCH * ppm - u0))
        ya, yb = gy + r * INCH * ppm - v0, gy + (r + 1) * INCH * ppm - v0
        n = 3
        for i in range(n):
            t0 = ya + (yb - ya) * (i + 0.15) / n
            t1 = ya + (yb - ya) * (i + 0.85) / n
            cv2.rectangle(art, (int(x - bw), int(t0)), (int(x + bw), int(t1)), BORDER_RGB["door"], -1, cv2.LINE_AA)
    canvas[v0:v1, u0:u1] = art
    # corner markers, squared with the map, the corner nearest the map on the map's corner point
    s = look.corner_size_mm
    quiet = s / 6
    corners = {0: (-s, -s), 1: (W, -s), 2: (W, H), 3: (-s, H)}
    for mid in look.corner_ids:
        x, y = corners[mid]
        _paste_marker(canvas, fr, mid, x, y, s, quiet)


def _table(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    kind = rng.choice(["wood", "cloth", "dark"])
    if kind == "wood":
        t = _floor("wood", rng, h, w, ppm * 0.5)
    elif kind == "cloth":
        c = np.array(rng.choice([(40, 90, 50), (60, 60, 70), (150, 140, 120)]), np.float32)
        t = np.ones((h, w, 3), np.float32) * c * (0.85 + 0.3 * _noise(rng, h, w, ppm * 30, 3))[..., None]
    else:
        t = np.ones((h, w, 3), np.float32) * rng.uniform(20, 50) * (0.9 + 0.2 * _noise(rng, h, w, ppm * 40, 3))[..., None]
    return t


# --------------------------------------------------------------------------- camera geometry


@dataclass(frozen=True)
class Pose:
    K: np.ndarray
    R: np.ndarray
    t: np.ndarray

    def project(self, P: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Points N x 3 (mm) -> pixels N x 2 and camera depth N."""
        Pc = P @ self.R.T + self.t
        z = Pc[:, 2]
        uv = (Pc @ self.K.T)[:, :2] / z[:, None]
        return uv, z

    def plane_h(self, z: float) -> np.ndarray:
        """Homography from table plane z = const (x, y, 1) to pixels."""
        M = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.R[:, 2] * z + self.t])
        return M / M[2, 2]

    @property
    def centre(self) -> np.ndarray:
        return -self.R.T @ self.t


def _pose(cam: Camera, spec: MapSpec, look: Look, rng: np.random.Generator) -> Pose:
    """Aim at the map's middle from tilt/yaw; back off until the map and its markers fit."""
    W, H = spec.cols * INCH, spec.rows * INCH
    s = look.corner_size_mm * 1.2
    pts = np.array([[-s, -s, 0], [W + s, -s, 0], [W + s, H + s, 0], [-s, H + s, 0]], float)
    target = np.array([W / 2 + rng.uniform(-0.05, 0.05) * W, H / 2 + rng.uniform(-0.05, 0.05) * H, 0.0])
    tilt, yaw = math.radians(cam.tilt_deg), math.radians(cam.yaw_deg)
    d = np.array([math.sin(tilt) * math.cos(yaw), math.sin(tilt) * math.sin(yaw), math.cos(tilt)])  # to camera
    K = np.array([[cam.f_px, 0, cam.width / 2], [0, cam.f_px, cam.height / 2], [0, 0, 1]])
    fwd = -d
    up_hint = np.array([math.cos(yaw + math.pi / 2 + rng.uniform(-0.3, 0.3)), math.sin(yaw + math.pi / 2), 0.0])
    if cam.tilt_deg > 3:
        up_hint = np.array([0, 0, 1.0])
    right = np.cross(up_hint, fwd)  # the far side of the table at the photo's top, as a phone is held
    if np.linalg.norm(right) < 1e-6:
        right = np.array([1.0, 0, 0])
    right /= np.linalg.norm(right)
    # the table's frame (x east, y south, z up) is left-handed, so the camera's down is
    # right x forward: a photo from above then shows the map as printed, not mirrored
    down = np.cross(right, fwd)
    if cam.tilt_deg <= 3:  # straight down: the photo's up is any direction
        a = rng.uniform(0, 2 * math.pi)
        right, down = right * math.cos(a) + down * math.sin(a), -right * math.sin(a) + down * math.cos(a)
    R = np.vstack([right, down, fwd])
    fill = rng.uniform(0.72, 0.95)
    dist = 300.0
    for _ in range(60):
        C = target + d * dist
        pose = Pose(K, R, -R @ C)
        uv, _z = pose.project(pts)
        spanx = (uv[:, 0].max() - uv[:, 0].min()) / cam.width
        spany = (uv[:, 1].max() - uv[:, 1].min()) / cam.height
        margin = min(uv[:, 0].min(), uv[:, 1].min(), cam.width - uv[:, 0].max(), cam.height - uv[:, 1].max())
        if max(spanx, spany) <= fill and margin > 0.03 * cam.width:
            break
        dist *= 1.06
    return pose


# --------------------------------------------------------------------------- figures in 3-D


@dataclass(frozen=True)
class Body:
    """One figure's sculpt: primitives in mm, relative to the base's centre on its top."""

    parts: tuple[tuple[str, float, float, float, float, float, tuple[float, float, float]], ...]
    # (kind, dx, dy, z0, r0/r, height or r1, rgb); kind: cyl (r0 -> r1 over height), sph


def lattice_px(scene: Scene, empty: bool = False) -> np.ndarray:
    """Where this renderer puts the map's lattice points in its photo (the empty-map photo with
    ``empty``): rows of ``cols`` + 1 points, board (c, r) at row-major index r * (cols + 1) + c.
    Its camera's pose is drawn as :func:`render` first draws it, then its lens: the photo's pixel
    p shows the ideal point p (1 + k1 |p|^2) (normalised), solved here for p. A bench scores a
    grid against these points; no reader is given them."""
    cam = scene.cam_empty if empty else scene.cam
    pose = _pose(cam, scene.spec, scene.look, np.random.default_rng(cam.seed))
    cols, rows = scene.spec.cols, scene.spec.rows
    board = np.array([(c, r) for r in range(rows + 1) for c in range(cols + 1)], np.float64)
    ideal, _depth = pose.project(np.column_stack([board * INCH, np.zeros(len(board))]))
    centre = np.array([cam.width / 2, cam.height / 2])
    qn = (ideal - centre) / cam.f_px
    p = qn.copy()
    for _ in range(30):
        p = qn / (1 + cam.k1 * (p**2).sum(axis=1))[:, None]
    return p * cam.f_px + centre


def grid_error(H: np.ndarray, scene: Scene, empty: bool = False) -> float:
    """How far (squares, at the worst lattice point) a grid -- ``H``, the photo's pixels to the
    board -- puts the map's lattice from where this renderer drew it: over 0.25 a square's
    reading lands on its neighbour's edge (a wrong grid)."""
    cols, rows = scene.spec.cols, scene.spec.rows
    board = np.array([(c, r) for r in range(rows + 1) for c in range(cols + 1)], np.float64)
    seen = cv2.perspectiveTransform(lattice_px(scene, empty)[None], np.asarray(H, np.float64))[0]
    return float(np.max(np.linalg.norm(seen - board, axis=1)))


def _body(rng: np.random.Generator, n: int) -> Body:
    s = 1.0 if n == 1 else rng.uniform(1.8, 2.4)
    pal = [(200, 40, 40), (230, 230, 220), (60, 60, 70), (40, 80, 160), (180, 150, 90), (90, 120, 60),
           (30, 30, 30), (150, 90, 160), (200, 170, 140)]
    c1 = tuple(float(v) for v in pal[int(rng.integers(len(pal)))])
    c2 = tuple(float(v) for v in pal[int(rng.integers(len(pal)))])
    skin = tuple(float(v) for v in pal[int(rng.integers(len(pal)))])
    # the feet stand off the base's centre (the sticker lies on the other side, see _base_top)
    foot = rng.uniform(6.0, 7.5) * s  # towards the rim: the sticker needs the rest of the base
    ang = rng.uniform(0, 2 * math.pi)
    dx, dy = foot * math.cos(ang), foot * math.sin(ang)
    lean_x, lean_y = rng.uniform(-3, 3, 2) * s
    legs_h = rng.uniform(8, 14) * s
    torso_h = rng.uniform(9, 14) * s
    r_torso = rng.uniform(4.0, 6.5) * s
    parts = [
        ("cyl", dx, dy, 0.0, r_torso * 0.5, legs_h, c2),
        ("cone", dx + lean_x * 0.5, dy + lean_y * 0.5, legs_h, r_torso, torso_h, c1),
        ("sph", dx + lean_x, dy + lean_y, legs_h + torso_h + rng.uniform(2.5, 4) * s, rng.uniform(3.2, 4.5) * s, 0.0, skin),
    ]
    if rng.random() < 0.6:  # a weapon or an arm held out over the base's edge (or a neighbour's)
        ang = rng.uniform(0, 2 * math.pi)
        reach = rng.uniform(6, 14) * s
        parts.append(("cyl", dx + math.cos(ang) * reach, dy + math.sin(ang) * reach, legs_h * 0.9,
                      1.3 * s, torso_h * rng.uniform(0.5, 1.2), (60.0, 60.0, 60.0)))
    if n == 2 and rng.random() < 0.6:  # a creature's bulk
        parts.append(("sph", dx * 0.3, dy * 0.3, legs_h * 0.9, r_torso * 1.6, 0.0, c1))
    return Body(tuple(parts))


def _prim_quads(kind: str, cx: float, cy: float, z0: float, r: float, h: float, segs: int = 20
                ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Quads (4 x 3 vertices) with outward normals for a cylinder/cone or a sphere."""
    quads: list[tuple[np.ndarray, np.ndarray]] = []
    if kind in ("cyl", "cone"):
        r_top = r if kind == "cyl" else r * 0.55
        r_bot = r
        for i in range(segs):
            a0, a1 = 2 * math.pi * i / segs, 2 * math.pi * (i + 1) / segs
            am = (a0 + a1) / 2
            q = np.array([
                [cx + r_bot * math.cos(a0), cy + r_bot * math.sin(a0), z0],
                [cx + r_bot * math.cos(a1), cy + r_bot * math.sin(a1), z0],
                [cx + r_top * math.cos(a1), cy + r_top * math.sin(a1), z0 + h],
                [cx + r_top * math.cos(a0), cy + r_top * math.sin(a0), z0 + h],
            ])
            slope = (r_bot - r_top) / max(h, 1e-6)
            nrm = np.array([math.cos(am), math.sin(am), slope])
            quads.append((q, nrm / np.linalg.norm(nrm)))
        # the top cap as a fan of quads
        for i in range(segs):
            a0, a1 = 2 * math.pi * i / segs, 2 * math.pi * (i + 1) / segs
            q = np.array([[cx, cy, z0 + h], [cx, cy, z0 + h],
                          [cx + r_top * math.cos(a0), cy + r_top * math.sin(a0), z0 + h],
                          [cx + r_top * math.cos(a1), cy + r_top * math.sin(a1), z0 + h]])
            quads.append((q, np.array([0, 0, 1.0])))
    else:
        zc = z0
        nl = segs // 2
        for i in range(nl):
            t0, t1 = math.pi * i / nl, math.pi * (i + 1) / nl
            for j in range(segs):
                a0, a1 = 2 * math.pi * j / segs, 2 * math.pi * (j + 1) / segs
                pts = []
                for t, a in ((t0, a0), (t0, a1), (t1, a1), (t1, a0)):
                    pts.append([cx + r * math.sin(t) * math.cos(a), cy + r * math.sin(t) * math.sin(a),
                                zc + r * math.cos(t)])
                q = np.array(pts)
                n = q.mean(0) - np.array([cx, cy, zc])
                quads.append((q, n / (np.linalg.norm(n) + 1e-9)))
    return quads


BASE_H = 3.5  # mm: the base's height


def _base_radius(n: int) -> float:
    return (n * INCH - 1.5) / 2  # a base fills its squares less a little


def _shade(rgb: tuple[float, float, float], nrm: np.ndarray, light: np.ndarray, view: np.ndarray,
           shine: float) -> tuple[float, float, float]:
    lam = max(0.0, float(nrm @ light))
    hv = light + view
    hv /= np.linalg.norm(hv) + 1e-9
    spec = shine * max(0.0, float(nrm @ hv)) ** 20
    k = 0.35 + 0.75 * lam
    return tuple(float(min(255.0, c * k + 255 * spec)) for c in rgb)  # type: ignore[return-value]


def _draw_figures(img: np.ndarray, pose: Pose, figs: list[Figure], bodies: dict[str, Body],
                  light: np.ndarray, rng: np.random.Generator, base_rgb: dict[str, float]) -> None:
    C = pose.centre
    order = sorted(figs, key=lambda f: -float(np.linalg.norm(
        np.array([(f.col + f.n / 2) * INCH, (f.row + f.n / 2) * INCH, 0]) - C)))
    for f in order:
        cx, cy = (f.col + f.n / 2) * INCH, (f.row + f.n / 2) * INCH
        rb = _base_radius(f.n)
        grey = base_rgb[f.id]
        quads: list[tuple[np.ndarray, np.ndarray, tuple[float, float, float], float]] = []
        # the base's side wall (slightly bevelled)
        for q, nrm in _prim_quads("cyl", cx, cy, 0.0, rb, BASE_H, 48)[:48]:
            quads.append((q, nrm, (grey, grey, grey * 1.05), 0.15))
        _paint(img, pose, quads, light, C)
        legs = bodies[f.id].parts[0]
        _base_top(img, pose, f, cx, cy, rb, grey, light, rng, (legs[1], legs[2]))
        quads = []
        for kind, dx, dy, z0, r, h, rgb in bodies[f.id].parts:
            k = "cyl" if kind == "cyl" else ("cone" if kind == "cone" else "sph")
            for q, nrm in _prim_quads(k, cx + dx, cy + dy, BASE_H + z0, r, h, 20):
                quads.append((q, nrm, rgb, 0.25))
        _paint(img, pose, quads, light, C)


def _paint(img: np.ndarray, pose: Pose, quads: list[tuple[np.ndarray, np.ndarray, tuple[float, float, float], float]],
           light: np.ndarray, C: np.ndarray) -> None:
    items = []
    for q, nrm, rgb, shine in quads:
        mid = q.mean(0)
        view = C - mid
        dist = float(np.linalg.norm(view))
        view /= dist
        if float(nrm @ view) <= 0:  # back face
            continue
        uv, z = pose.project(q)
        if (z <= 0).any():
            continue
        items.append((dist, uv, _shade(rgb, nrm, light, view, shine)))
    items.sort(key=lambda t: -t[0])
    for _d, uv, col in items:
        pts = np.round(uv * 16).astype(np.int32)
        cv2.fillConvexPoly(img, pts, col, cv2.LINE_AA, shift=4)


def _base_top(img: np.ndarray, pose: Pose, f: Figure, cx: float, cy: float, rb: float, grey: float,
              light: np.ndarray, rng: np.random.Generator, feet: tuple[float, float]) -> None:
    """The base's top disc with its marker sticker, warped through the plane z = BASE_H."""
    ppm = 8.0
    size = int(2 * rb * ppm) + 4
    top = np.zeros((size, size, 3), np.float32)
    mask = np.zeros((size, size), np.float32)
    c = size / 2
    cv2.circle(mask, (int(c), int(c)), int(rb * ppm), 1.0, -1, cv2.LINE_AA)
    # dark plastic, a little lighter towards the light, a faint rim
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    grad = ((xx - c) * light[0] + (yy - c) * light[1]) / (rb * ppm)
    top[:] = (grey * (0.85 + 0.5 * float(light[2])) * (1 + 0.12 * grad))[..., None]
    cv2.circle(top, (int(c), int(c)), int(rb * ppm) - 2, (grey * 1.5,) * 3, 2, cv2.LINE_AA)
    if f.marker is not None:
        side_mm = rng.uniform(0.34, 0.45) * INCH if f.n == 1 else rng.uniform(0.35, 0.6) * INCH
        quiet = side_mm / 8
        m = _aruco(f.marker, int(side_mm * ppm))
        tot = m.shape[0] + 2 * int(quiet * ppm)
        st = np.full((tot, tot), 240, np.uint8)
        q = int(quiet * ppm)
        st[q: q + m.shape[0], q: q + m.shape[0]] = np.where(m > 0, 240, 20)
        # the sticker sits towards the base's front, turned at random (a sticker is stuck by hand)
        ang = rng.uniform(0, 360)
        Mr = cv2.getRotationMatrix2D((tot / 2, tot / 2), ang, 1.0)
        diag = int(tot * 1.45)
        Mr[:, 2] += (diag - tot) / 2
        st_r = cv2.warpAffine(st, Mr, (diag, diag), flags=cv2.INTER_LINEAR, borderValue=0)
        st_m = cv2.warpAffine(np.ones((tot, tot), np.float32), Mr, (diag, diag), flags=cv2.INTER_LINEAR)
        # as far from the feet as the base allows: a sticker is stuck whole on the base's top
        # (its corners inside the rim), so only the body leaning over it, not the rim, cuts it
        reach = tot / ppm / math.sqrt(2)  # mm from the sticker's centre to its farthest corner
        off = max(0.0, min(rng.uniform(0.35, 0.5) * rb, rb - 0.6 - reach)) * ppm
        oa = math.atan2(-feet[1], -feet[0]) + rng.uniform(-0.5, 0.5)  # opposite the feet
        px, py = int(c + off * math.cos(oa) - diag / 2), int(c + off * math.sin(oa) - diag / 2)
        y1, x1 = max(0, py), max(0, px)
        y2, x2 = min(size, py + diag), min(size, px + diag)
        sm = st_m[y1 - py: y2 - py, x1 - px: x2 - px] * mask[y1:y2, x1:x2]
        lit = 0.8 + 0.3 * float(light[2])
        top[y1:y2, x1:x2] = (top[y1:y2, x1:x2] * (1 - sm[..., None])
                             + (st_r[y1 - py: y2 - py, x1 - px: x2 - px, None] * lit) * sm[..., None])
    # top pixel (u, v) -> table (x, y) at z = BASE_H -> image
    A = np.array([[1 / ppm, 0, cx - c / ppm], [0, 1 / ppm, cy - c / ppm], [0, 0, 1]])
    Hm = pose.plane_h(BASE_H) @ A
    corners = cv2.perspectiveTransform(np.array([[[0, 0]], [[size, 0]], [[size, size]], [[0, size]]], np.float32), Hm)
    x0, y0 = np.floor(corners.reshape(-1, 2).min(0)).astype(int) - 2
    x1_, y1_ = np.ceil(corners.reshape(-1, 2).max(0)).astype(int) + 2
    x0, y0 = max(0, x0), max(0, y0)
    x1_, y1_ = min(img.shape[1], x1_), min(img.shape[0], y1_)
    if x1_ <= x0 or y1_ <= y0:
        return
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float)
    Ht = T @ Hm
    wdt, hgt = x1_ - x0, y1_ - y0
    warped = cv2.warpPerspective(top, Ht, (wdt, hgt), flags=cv2.INTER_LINEAR)
    wm = cv2.warpPerspective(mask, Ht, (wdt, hgt), flags=cv2.INTER_LINEAR)[..., None]
    roi = img[y0:y1_, x0:x1_]
    roi[:] = roi * (1 - wm) + warped * wm


# --------------------------------------------------------------------------- the photo


def _shadows(canvas: np.ndarray, fr: Frame, figs: list[Figure], bodies: dict[str, Body], light: np.ndarray,
             strength: float) -> None:
    """Soft shadows of bases and bodies on the table, along the light, multiplied in."""
    sh = np.zeros(canvas.shape[:2], np.float32)
    lx, ly = -light[0] / max(light[2], 0.2), -light[1] / max(light[2], 0.2)
    for f in figs:
        cx, cy = (f.col + f.n / 2) * INCH, (f.row + f.n / 2) * INCH
        pts = []
        for kind, dx, dy, z0, r, h, _rgb in bodies[f.id].parts:
            top = BASE_H + z0 + (h if kind != "sph" else r)
            for a in np.linspace(0, 2 * math.pi, 12, endpoint=False):
                for z in (BASE_H + z0, top):
                    x = cx + dx + r * math.cos(a) + lx * z
                    y = cy + dy + r * math.sin(a) + ly * z
                    pts.append(fr.px(x, y))
        rb = _base_radius(f.n)
        for a in np.linspace(0, 2 * math.pi, 24, endpoint=False):
            pts.append(fr.px(cx + rb * math.cos(a) + lx * BASE_H, cy + rb * math.sin(a) + ly * BASE_H))
        hull = cv2.convexHull(np.array(pts, np.float32)).astype(np.int32)
        cv2.fillConvexPoly(sh, hull, 1.0, cv2.LINE_AA)
    k = int(fr.ppm * 4) | 1
    sh = cv2.GaussianBlur(sh, (k, k), 0)
    canvas *= (1 - strength * sh)[..., None]


def _frame(cam: Camera, spec: MapSpec, look: Look, rng: np.random.Generator) -> tuple[Pose, Frame]:
    """The camera's pose and its canvas: what the camera sees of the table, at about the photo's
    resolution."""
    pose = _pose(cam, spec, look, rng)
    inv = np.linalg.inv(pose.plane_h(0.0))
    border = np.array([[[0, 0]], [[cam.width, 0]], [[cam.width, cam.height]], [[0, cam.height]]], np.float32)
    tb = cv2.perspectiveTransform(border, inv).reshape(-1, 2)
    W, H = spec.cols * INCH, spec.rows * INCH
    x0 = max(float(tb[:, 0].min()), -W)
    y0 = max(float(tb[:, 1].min()), -H)
    x1 = min(float(tb[:, 0].max()), 2 * W)
    y1 = min(float(tb[:, 1].max()), 2 * H)
    # pixels a millimetre: the sharpest the photo sees the map, capped for memory
    near = cv2.perspectiveTransform(np.array([[[W / 2, H / 2]], [[W / 2 + 1, H / 2]]], np.float32), pose.plane_h(0))
    ppm_img = float(np.linalg.norm(near[1] - near[0]))
    ppm = min(ppm_img * 1.4, math.sqrt(2.4e7 / max(1.0, (x1 - x0) * (y1 - y0))))
    fr = Frame(x0, y0, ppm, int((x1 - x0) * ppm) + 1, int((y1 - y0) * ppm) + 1)
    return pose, fr


def render(scene: Scene, *, empty: bool = False) -> np.ndarray:
    """The photo (BGR uint8): the game (the true figures) or the empty map."""
    cam = scene.cam_empty if empty else scene.cam
    spec, look = scene.spec, scene.look
    rng = np.random.default_rng(cam.seed)
    pose, fr = _frame(cam, spec, look, rng)
    x0, y0, ppm = fr.x0, fr.y0, fr.ppm
    canvas = _table(rng, fr.h, fr.w, ppm)
    # the map's art is printed once, at the game photo's scale (see _draw_map)
    printed = fr if not empty else _frame(scene.cam, spec, look, np.random.default_rng(scene.cam.seed))[1]
    _draw_map(look, spec, fr, canvas, printed)
    light = np.array([math.cos(cam.light_az) * math.cos(cam.light_el),
                      math.sin(cam.light_az) * math.cos(cam.light_el), math.sin(cam.light_el)])
    figs = [] if empty else scene.truth
    brng = np.random.default_rng(look.seed + 11)  # the figures' sculpts do not change between photos
    bodies = {f.id: _body(brng, f.n) for f in scene.truth}
    base_rgb = {f.id: float(brng.uniform(22, 60)) for f in scene.truth}
    if figs:
        _shadows(canvas, fr, figs, bodies, light, float(rng.uniform(0.25, 0.55)))
    A = np.array([[1 / ppm, 0, x0], [0, 1 / ppm, y0], [0, 0, 1]])
    img = cv2.warpPerspective(canvas, pose.plane_h(0.0) @ A, (cam.width, cam.height), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    del canvas
    if figs:
        _draw_figures(img, pose, figs, bodies, light, np.random.default_rng(look.seed + 12), base_rgb)
    # light fall-off across the table and the lens's vignette
    hh, ww = cam.height, cam.width
    yy, xx = np.mgrid[0:hh:8, 0:ww:8].astype(np.float32)
    g = 1 + 0.25 * ((xx / ww - 0.5) * math.cos(cam.light_az) + (yy / hh - 0.5) * math.sin(cam.light_az))
    r2 = ((xx - ww / 2) ** 2 + (yy - hh / 2) ** 2) / ((ww / 2) ** 2 + (hh / 2) ** 2)
    g *= 1 - rng.uniform(0.15, 0.4) * r2
    g = cv2.resize(g, (ww, hh), interpolation=cv2.INTER_LINEAR) * cam.exposure
    img *= g[..., None]
    img *= np.array(cam.wb, np.float32)[None, None, :]  # RGB
    # radial lens distortion (the photo is what a lens with k1 makes of the ideal image)
    if abs(cam.k1) > 1e-3:
        mx, my = np.meshgrid(np.arange(ww, dtype=np.float32), np.arange(hh, dtype=np.float32))
        f = cam.f_px
        xn, yn = (mx - ww / 2) / f, (my - hh / 2) / f
        rr = xn * xn + yn * yn
        s = 1 + cam.k1 * rr
        img = cv2.remap(img, xn * s * f + ww / 2, yn * s * f + hh / 2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if cam.blur_px > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), cam.blur_px)
    img += rng.normal(0, cam.noise, (hh // 2, ww // 2, 1)).astype(np.float32).repeat(2, 0).repeat(2, 1)[:hh, :ww]
    img = np.clip(img, 0, 255).astype(np.uint8)
    return cv2.cvtColor(img, cv2.COLOR_RGB2BGR)


# --------------------------------------------------------------------------- the files


def _ranges(rects: list[tuple[int, int, int, int]]) -> list[str]:
    return [sq(c0, r0) if (c0, r0) == (c1, r1) else f"{sq(c0, r0)}:{sq(c1, r1)}" for c0, r0, c1, r1 in rects]


def position_yaml(spec: MapSpec, figs: list[Figure], name: str) -> str:
    """A tabletop-position/1 file (CONTRACT §2)."""
    doc: dict[str, object] = {
        "format": "tabletop-position/1",
        "rules": "swm2008",
        "map": {
            "name": name,
            "cols": spec.cols,
            "rows": spec.rows,
            "squares": {k: _ranges(v) for k, v in spec.squares.items() if v},
            "edges": {k: [f"{sq(c, r)}.{s}" for c, r, s in v] for k, v in spec.edges.items() if v},
        },
        "figures": [
            {"id": f.id, "side": f.side, "at": sq(f.col, f.row), "size": "large" if f.n == 2 else "medium",
             **({"marker": f.marker} if f.marker is not None else {})}
            for f in figs
        ],
    }
    return yaml.safe_dump(doc, sort_keys=False)


def write_scene(scene: Scene, out: Path, stem: str, *, empty_photo: bool = True) -> dict[str, Path]:
    """photo, empty-map photo, true position, the out-of-date record; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "photo": out / f"{stem}.jpg",
        "truth": out / f"{stem}.truth.yaml",
        "stale": out / f"{stem}.record.yaml",
    }
    cv2.imwrite(str(paths["photo"]), render(scene), [cv2.IMWRITE_JPEG_QUALITY, scene.cam.jpeg])
    if empty_photo:
        paths["empty"] = out / f"{stem}.empty.jpg"
        cv2.imwrite(str(paths["empty"]), render(scene, empty=True), [cv2.IMWRITE_JPEG_QUALITY, scene.cam_empty.jpeg])
    paths["truth"].write_text(position_yaml(scene.spec, scene.truth, f"{stem} (true)"), encoding="utf-8")
    paths["stale"].write_text(position_yaml(scene.spec, scene.stale, f"{stem} (record)"), encoding="utf-8")
    return paths


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="Render one independent scene.")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--width", type=int, default=1600)
    ap.add_argument("--floor", choices=FLOORS)
    ap.add_argument("-o", "--out", type=Path, default=Path("/tmp/indep_scene"))
    a = ap.parse_args()
    sc = make_scene(a.seed, a.width, a.floor)
    for k, p in write_scene(sc, a.out, f"scene{a.seed:03d}").items():
        print(k, p)
