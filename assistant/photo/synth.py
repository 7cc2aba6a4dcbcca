"""Synthetic table photos with ground truth, for tests and benchmarks.

The board is printed the way the rules colour it (CONTRACT §4): a grid, red walls, green
low objects, yellow difficult terrain, orange pits, blue door rectangles; map-corner ArUco
markers 0-3 outside the grid with one corner on the map's corner point; figure bases as
dark discs with their ArUco marker. A pinhole camera looks at it from up to 45 degrees off
vertical, with lens distortion, uneven light, glare, a shadow, blur, noise and JPEG. Figures
are tall: their bodies rise toward the top of the photo and cover the squares behind them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from ..coords import Square
from ..editions import Edition, Size, SquareTerrain
from ..model import Figure, Map, Position
from .printed import DICT as DICT  # what the table prints (re-exported): the detector reads it without the generator
from .printed import MARKER_SQUARES as MARKER_SQUARES
from .scenery import (
    Camera,
    Look,
    draw_base,
    draw_look,
    figure_body,
    paint_paper,
    project_solid,
    table_texture,
)

BASE_RADIUS = 0.42  # of a figure base, in squares (times its footprint)
BASE_MARKER = 0.48  # side of a base marker, in squares

BGR = {
    "paper": (200, 222, 232),
    "grid": (70, 70, 70),
    "wall": (40, 40, 200),
    "low": (60, 170, 60),
    "difficult": (40, 200, 230),
    "pit": (30, 130, 240),
    "door": (200, 110, 30),
    "base": (45, 45, 45),
}
TERRAIN_COLOUR = {SquareTerrain.WALL: "wall", SquareTerrain.LOW: "low", SquareTerrain.DIFFICULT: "difficult", SquareTerrain.PIT: "pit"}


@dataclass
class Truth:
    """What the photo shows, for scoring a detector."""

    figures: dict[str, str] = field(default_factory=dict)  # id -> NW square name
    markers: dict[int, str] = field(default_factory=dict)  # marker id -> figure id
    visible_markers: set[int] = field(default_factory=set)  # base markers no figure's body hides (varied look)
    occupied: set[str] = field(default_factory=set)
    squares: dict[str, str] = field(default_factory=dict)  # square -> terrain kind
    edges: dict[str, str] = field(default_factory=dict)  # edge -> wall | door
    homography: Any = None  # board units -> image pixels (before distortion)
    conditions: dict[str, Any] = field(default_factory=dict)  # how the photo was taken, for the bench by condition
    lens: Any = None  # (camera matrix, distortion coefficients) the photo was bent with

    def photo_points(self, board_pts: Any) -> Any:
        """Where board points (N x 2, in squares) truly lie in the photo: the homography, then
        the lens's bend (which the homography alone leaves out)."""
        pts = cv2.perspectiveTransform(np.asarray(board_pts, np.float64).reshape(1, -1, 2), self.homography)
        if self.lens is None:
            return pts[0]
        K, dist = self.lens
        return cv2.undistortPoints(pts.astype(np.float64), K, dist, P=K).reshape(-1, 2)


#: floor art washes (BGR multipliers out of 255): sand, lava, metal, grass, night
FLOORS = {"sand": (150, 205, 235), "lava": (60, 90, 210), "metal": (175, 170, 160), "moss": (90, 150, 110), "night": (120, 90, 80)}
#: fills under a terrain border, as maps print the thing the border marks (a brown crate, a dark wall)
FILLS = {"brown": (45, 85, 130), "dark": (55, 55, 70), "rust": (40, 95, 170)}


@dataclass(frozen=True)
class TerrainStyle:
    """How one map prints its terrain borders (printed maps differ): ``place`` "inset" draws the
    border just inside the squares, "line" right on the grid lines; ``area`` draws one outline
    around each connected area of one kind (PL p.26: every square inside counts) instead of one
    per square; ``fill`` paints wall and low-object squares under their border; ``floor``
    washes the whole map in one art colour; ``width`` and ``inset`` in squares."""

    place: str = "inset"
    area: bool = False
    fill: str | None = None
    floor: str | None = None
    width: float = 1 / 12
    inset: float = 0.1


def draw_terrain_style(rng: np.random.Generator) -> TerrainStyle:
    """One random terrain style, drawn from a generator seeded by ``rng``'s state without drawing
    from ``rng`` itself (every other random choice of the photo stays as it was)."""
    state = rng.bit_generator.state.get("state", {})
    seed = int(state.get("state", 0)) if isinstance(state, dict) else 0
    r = np.random.default_rng(seed % (2**63) + 17)
    return TerrainStyle(
        place="line" if r.random() < 0.4 else "inset", area=bool(r.random() < 0.5),
        fill=[None, "brown", "dark", "rust"][int(r.integers(0, 4))],
        floor=[None, "sand", "lava", "metal", "moss", "night"][int(r.integers(0, 6))],
        width=float(r.uniform(0.05, 0.11)), inset=float(r.uniform(0.07, 0.14)),
    )


def _styled_terrain(img: np.ndarray, pos: Position, px: int, margin: float, style: TerrainStyle) -> None:
    """Paint the terrain borders (and fills) of ``pos``'s map in ``style`` onto the board canvas."""
    m = pos.map
    width = max(2, int(round(style.width * px)))
    off = int(round(margin * px))
    for kind, squares in m.squares.items():
        colour = TERRAIN_COLOUR.get(kind)
        if colour is None or not squares:
            continue
        groups = [[sq] for sq in squares] if not style.area else _areas(set(squares))
        for group in groups:
            mask = np.zeros(img.shape[:2], np.uint8)
            for sq in group:
                x0, y0 = off + sq.col * px, off + sq.row * px
                mask[y0:y0 + px, x0:x0 + px] = 255
            if style.fill is not None and kind in (SquareTerrain.WALL, SquareTerrain.LOW):
                img[mask > 0] = FILLS[style.fill]
            if style.place == "inset":
                d = max(1, int(round(style.inset * px)))
                ring = cv2.erode(mask, np.ones((2 * d + 1, 2 * d + 1), np.uint8))
            else:
                ring = mask
            contours, _h = cv2.findContours(ring, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            if style.place == "line":  # the contour runs on the squares' last pixels: put it on the grid line
                contours = tuple(_on_lines(c, off, px) for c in contours)
            cv2.drawContours(img, contours, -1, BGR[colour], width)


def _on_lines(contour: np.ndarray, off: int, px: int) -> np.ndarray:
    """A mask contour (on the squares' border pixels) moved onto the nearest grid line."""
    q = contour.astype(np.float64)
    q = np.round((q - off) / px) * px + off
    return q.astype(np.int32)


def _areas(squares: set[Any]) -> list[list[Any]]:
    """The 4-connected areas of a set of squares."""
    left, out = set(squares), []
    while left:
        stack, area = [left.pop()], []
        while stack:
            sq = stack.pop()
            area.append(sq)
            for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nb = next((s for s in left if s.col == sq.col + dc and s.row == sq.row + dr), None)
                if nb is not None:
                    left.discard(nb)
                    stack.append(nb)
        out.append(area)
    return out


def board_canvas(pos: Position, px: int, with_figures: bool = True, corner_markers: bool = True,
                 corner_side: float = MARKER_SQUARES, base_side: float = BASE_MARKER,
                 rng: np.random.Generator | None = None, look: Look | None = None,
                 stances: dict[str, float] | None = None, placed: dict[int, tuple[float, float, float, float]] | None = None,
                 terrain_style: TerrainStyle | None = None) -> tuple[np.ndarray, float]:
    """The printed board (and bases) seen from straight above; returns (image, margin in squares).

    ``corner_side``: the corner markers' side in squares (CONTRACT §4 fixes none);
    ``base_side``: the base markers' side; with ``rng`` each base marker is a white-bordered
    sticker turned at a random angle, as players stick them on. With a ``look`` (and ``rng``)
    the map is printed in that look: art, faint lines, grey bases, figure shadows. ``stances``:
    per figure, the direction (radians) in which its sticker sits off the base's centre, the
    figure's feet standing on the other side. ``placed`` is filled with each base marker's
    centre (board units), side (squares) and angle (degrees). ``terrain_style``: how the terrain
    borders are printed (:class:`TerrainStyle`); by default one drawn for the ``look`` (the
    first style on plain maps without a look)."""
    m = pos.map
    if terrain_style is None and look is not None and rng is not None:
        terrain_style = draw_terrain_style(rng)
    margin = max(corner_side, 0.3) + 0.6
    w, h = int((m.cols + 2 * margin) * px), int((m.rows + 2 * margin) * px)
    img: np.ndarray = np.full((h, w, 3), 255, np.uint8)

    def p(x: float, y: float) -> tuple[int, int]:
        return int(round((x + margin) * px)), int(round((y + margin) * px))

    if look is None:
        cv2.rectangle(img, p(0, 0), p(m.cols, m.rows), BGR["paper"], -1)
    else:
        assert rng is not None
        (x0, y0), (x1, y1) = p(0, 0), p(m.cols, m.rows)
        img[y0:y1, x0:x1] = np.clip(paint_paper(rng, look, y1 - y0, x1 - x0, px), 0, 255).astype(np.uint8)
    if terrain_style is not None and terrain_style.floor is not None:
        (x0, y0), (x1, y1) = p(0, 0), p(m.cols, m.rows)
        img[y0:y1, x0:x1] = (img[y0:y1, x0:x1].astype(np.float32) * np.array(FLOORS[terrain_style.floor], np.float32) / 255).astype(np.uint8)
    terrain = img.copy()
    if terrain_style is None:
        inset = max(2, px // 10)
        for kind, squares in m.squares.items():
            colour = TERRAIN_COLOUR.get(kind)
            if colour is None:
                continue
            for sq in squares:
                a, b = p(sq.col, sq.row), p(sq.col + 1, sq.row + 1)
                if kind is SquareTerrain.WALL:
                    cv2.rectangle(terrain, a, b, (60, 60, 110), -1)
                cv2.rectangle(terrain, (a[0] + inset, a[1] + inset), (b[0] - inset, b[1] - inset), BGR[colour], max(2, px // 12))
    else:
        _styled_terrain(terrain, pos, px, margin, terrain_style)
    if look is None:
        img = terrain
        for x in range(m.cols + 1):
            cv2.line(img, p(x, 0), p(x, m.rows), BGR["grid"], max(1, px // 40))
        for y in range(m.rows + 1):
            cv2.line(img, p(0, y), p(m.cols, y), BGR["grid"], max(1, px // 40))
    else:
        img = cv2.addWeighted(terrain, look.terrain_alpha, img, 1 - look.terrain_alpha, 0)
        lines = img.copy()
        width = max(1, int(round(look.grid_width * px)))
        for x in range(m.cols + 1):
            cv2.line(lines, p(x, 0), p(x, m.rows), look.grid_colour, width)
        for y in range(m.rows + 1):
            cv2.line(lines, p(0, y), p(m.cols, y), look.grid_colour, width)
        img = cv2.addWeighted(lines, look.grid_alpha, img, 1 - look.grid_alpha, 0)
    for e in m.walls:
        e0, e1 = e.endpoints
        cv2.line(img, p(e0.x, e0.y), p(e1.x, e1.y), BGR["wall"], max(3, px // 8))
    for e in m.doors:
        e0, e1 = e.endpoints
        for i in range(3):
            t0, t1 = 0.08 + i * 0.3, 0.08 + i * 0.3 + 0.22
            q0 = (e0.x + (e1.x - e0.x) * t0, e0.y + (e1.y - e0.y) * t0)
            q1 = (e0.x + (e1.x - e0.x) * t1, e0.y + (e1.y - e0.y) * t1)
            nrm = (0.07 if e.axis == "H" else 0, 0.07 if e.axis == "V" else 0)
            cv2.rectangle(img, p(q0[0] - nrm[1], q0[1] - nrm[0]), p(q1[0] + nrm[1], q1[1] + nrm[0]), BGR["door"], -1)

    dictionary = cv2.aruco.getPredefinedDictionary(DICT)

    def put_marker(mid: int, x0: float, y0: float, side: float) -> None:
        n = int(round(side * px))
        mk = cv2.aruco.generateImageMarker(dictionary, mid, n)
        a = p(x0, y0)
        img[a[1]: a[1] + n, a[0]: a[0] + n] = cv2.cvtColor(mk, cv2.COLOR_GRAY2BGR)

    s = corner_side
    for mid, (mx, my) in enumerate([(-s, -s), (m.cols, -s), (m.cols, m.rows), (-s, m.rows)] if corner_markers else []):
        put_marker(mid, mx, my, s)

    if with_figures and look is not None and look.shadows:
        # the figures' shadows on the map, all cast one way by the room's main light
        assert rng is not None
        shade: np.ndarray = np.ones(img.shape[:2], np.float32)
        dx, dy = rng.normal(0, 0.35, size=2)
        for f in pos.figures:
            n = f.size.footprint
            cx, cy = f.at.col + n / 2 + dx * n, f.at.row + n / 2 + dy * n
            cv2.ellipse(shade, p(cx, cy), (int(0.5 * n * px), int(0.35 * n * px)), float(rng.uniform(0, 180)), 0, 360,
                        float(rng.uniform(0.55, 0.85)), -1)
        shade = cv2.GaussianBlur(shade, (0, 0), px * 0.15)
        img = (img.astype(np.float32) * shade[..., None]).astype(np.uint8)
    if with_figures:
        for f in pos.figures:
            n = f.size.footprint
            cx, cy = f.at.col + n / 2, f.at.row + n / 2
            if look is None:
                cv2.circle(img, p(cx, cy), int(BASE_RADIUS * n * px), BGR["base"], -1)
            else:
                draw_base(img, p(cx, cy), int(look.base_radius * n * px), look)
            if f.marker is not None:
                side = base_side * (1 if n == 1 else 1.3)
                if rng is None:
                    quiet = side * 0.18
                    a, b = p(cx - side / 2 - quiet, cy - side / 2 - quiet), p(cx + side / 2 + quiet, cy + side / 2 + quiet)
                    cv2.rectangle(img, a, b, (255, 255, 255), -1)
                    put_marker(f.marker, cx - side / 2, cy - side / 2, side)
                else:
                    ox, oy = sticker_offset(stances, f.id, n)
                    angle = float(rng.uniform(0, 360))
                    ox, oy = ox + float(rng.uniform(-0.06, 0.06)), oy + float(rng.uniform(-0.06, 0.06))
                    _sticker(img, dictionary, f.marker, p(cx, cy), side * px, angle, (ox * px, oy * px))
                    if placed is not None:
                        placed[f.marker] = (cx + ox, cy + oy, side, angle)
    return img, margin


STICKER_OFF = 0.12  # squares from the base's centre to its sticker's, where the figure's feet leave room
FEET_OFF = 0.2  # squares from the base's centre to the figure's feet, the other way


def sticker_offset(stances: dict[str, float] | None, figure: str, n: int) -> tuple[float, float]:
    if not stances or figure not in stances:
        return 0.0, 0.0
    a = stances[figure]
    return STICKER_OFF * n * float(np.cos(a)), STICKER_OFF * n * float(np.sin(a))


def _sticker(img: np.ndarray, dictionary: Any, mid: int, centre: tuple[int, int], side_px: float, angle: float,
             shift: tuple[float, float]) -> None:
    """A marker printed on a white sticker (a quiet zone of a fifth of its side), stuck on at an angle."""
    n = max(8, int(round(side_px)))
    quiet = max(2, int(round(n * 0.2)))
    patch = np.full((n + 2 * quiet, n + 2 * quiet), 255, np.uint8)
    patch[quiet:quiet + n, quiet:quiet + n] = cv2.aruco.generateImageMarker(dictionary, mid, n)
    size = patch.shape[0]
    diag = int(np.ceil(size * 1.5))
    M = np.asarray(cv2.getRotationMatrix2D((size / 2, size / 2), angle, 1.0), np.float64)  # float64 already: no copy
    M[:, 2] += (diag - size) / 2
    rot = cv2.warpAffine(patch, M, (diag, diag), flags=cv2.INTER_LINEAR, borderValue=0)
    mask = cv2.warpAffine(np.full_like(patch, 255), M, (diag, diag), flags=cv2.INTER_NEAREST, borderValue=0)
    x0, y0 = int(centre[0] + shift[0] - diag / 2), int(centre[1] + shift[1] - diag / 2)
    h, w = img.shape[:2]
    xs, ys = max(0, x0), max(0, y0)
    xe, ye = min(w, x0 + diag), min(h, y0 + diag)
    if xs >= xe or ys >= ye:
        return
    sub = img[ys:ye, xs:xe]
    r = rot[ys - y0:ye - y0, xs - x0:xe - x0]
    k = mask[ys - y0:ye - y0, xs - x0:xe - x0] > 0
    sub[k] = np.repeat(r[k][:, None], 3, axis=1)


def _camera(rng: np.random.Generator, cols: int, rows: int, width: int, height: int, tilt_max: float,
            focal: float = 0.9) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """For a random camera pose: the homography from board units to image pixels, the camera
    matrix, the projection of board points (u, v, height) in squares, and the tilt in degrees."""
    size = max(cols, rows) + 2 * (MARKER_SQUARES + 0.6)
    f = focal * width
    K = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1]])
    tilt = np.radians(rng.uniform(0, tilt_max))
    yaw = rng.uniform(0, 2 * np.pi)
    roll = rng.uniform(-0.15, 0.15)
    # board plane z=0, centre at origin; the camera looks at it from direction (tilt, yaw)
    d = size * rng.uniform(1.05, 1.25) * f / min(width, height) * 1.15
    cam = np.array([np.sin(tilt) * np.cos(yaw), np.sin(tilt) * np.sin(yaw), -np.cos(tilt)]) * -d
    cam[2] = abs(cam[2])
    forward = -cam / np.linalg.norm(cam)
    up = np.array([np.cos(yaw + roll), np.sin(yaw + roll), 0.0])
    right = np.cross(up, forward)  # (forward, up) would make a mirror image, which no camera takes
    right /= np.linalg.norm(right)
    up = np.cross(forward, right)
    R = np.stack([right, -up, forward])
    t = -R @ cam
    # board point (u, v) in squares -> world (u - cols/2, v - rows/2, 0)
    Hb = np.array([[1, 0, -cols / 2], [0, 1, -rows / 2], [0, 0, 1.0]])
    H = K @ np.column_stack([R[:, 0], R[:, 1], t]) @ Hb
    T = np.array([[1, 0, 0, -cols / 2], [0, 1, 0, -rows / 2], [0, 0, 1, 0], [0, 0, 0, 1.0]])
    P = K @ np.column_stack([R, t]) @ T
    return H / H[2, 2], K, P / H[2, 2], float(np.degrees(tilt))


def render_photo(pos: Position, seed: int = 0, width: int = 4000, height: int = 3000, tilt_max: float = 45.0,
                 px: int = 60, jpeg: bool = True, figures_tall: bool = True, corner_markers: bool = True,
                 corner_side: float = MARKER_SQUARES, base_side: float = BASE_MARKER, stickers: bool = False,
                 varied: bool = False, families: tuple[str, ...] | None = None,
                 camera: Camera | None = None, look_seed: int | None = None, dark_patches: int = 0) -> tuple[np.ndarray, Truth]:
    """A photo of the table and what it truly shows. ``stickers``: base markers are stuck on at
    random angles with a white border, as players do. ``varied``: one random look of a real
    table (:mod:`.scenery`): printed art, faint lines, black or grey bases, painted figures of
    any colour standing in 3D, shadows, table texture, phone focal lengths, white balance;
    ``families`` and ``camera`` (varied only) pick the floor families and camera ranges
    (:data:`.scenery.TRAIN_FAMILIES`, :data:`.scenery.HELD_OUT_FAMILIES`; default the original
    two looks and the training camera).
    ``look_seed`` (with ``varied``): the map's look -- its printed art, lines, bases -- drawn from
    this seed instead of ``seed``, while the camera, the phone's white balance, focal length,
    noise, blur and the light still come from ``seed``: the same map photographed again (the
    empty-map reference photo and a later game photo, :mod:`.reference`). ``dark_patches``: that
    many round dark patches the size of a base printed on the map (the art's lava, holes, drawn
    shadows), the same for the same map, none under a base: art that looks like a base."""
    rng = np.random.default_rng(seed)
    m = pos.map
    art_seed = seed if look_seed is None else look_seed
    look_rng = np.random.default_rng(art_seed + 7)
    # the family and a held-out camera come from their own generator: the original looks' photos stay the same
    look = draw_look(look_rng, families, camera, pick=np.random.default_rng(art_seed + 13)) if varied else None
    if look is not None and look_seed is not None:
        # another phone and another hour: only what the camera and the room change (the art
        # stays, since paint_paper draws it next from look_rng)
        cam_rng = np.random.default_rng(seed + 17)
        look = replace(look, white_balance=tuple(float(x) for x in cam_rng.uniform(0.82, 1.18, size=3)),  # type: ignore[arg-type]
                       focal=float(cam_rng.uniform(0.65, 1.3)), noise=float(cam_rng.uniform(1.5, 8.0)),
                       blur=float(cam_rng.uniform(0.3, 1.6)))
    stance_rng = np.random.default_rng(seed + 11)
    stances = {f.id: float(stance_rng.uniform(0, 2 * np.pi)) for f in pos.figures} if varied else None
    placed: dict[int, tuple[float, float, float, float]] = {}
    board, margin = board_canvas(pos, px, corner_markers=corner_markers, corner_side=corner_side, base_side=base_side,
                                 rng=look_rng if (stickers or varied) else None, look=look, stances=stances, placed=placed)
    if dark_patches:
        patch_rng = np.random.default_rng((seed if look_seed is None else look_seed) + 17)
        bases = {(s.col, s.row) for f in pos.figures for s in f.space}
        for _ in range(dark_patches):
            x, y = float(patch_rng.uniform(0.3, m.cols - 0.3)), float(patch_rng.uniform(0.3, m.rows - 0.3))
            radius = float(patch_rng.uniform(0.3, 0.5))
            colour = tuple(int(c) for c in patch_rng.integers(10, 90, size=3))
            if any((int(x + dx), int(y + dy)) in bases for dx in (-radius, 0, radius) for dy in (-radius, 0, radius)):
                continue  # a base stands there: drawn over it, the patch would hide the base, not mimic one
            cv2.circle(board, (int((x + margin) * px), int((y + margin) * px)), int(radius * px), colour, -1, lineType=cv2.LINE_AA)
    for _ in range(20):
        H, K, P, tilt = _camera(rng, m.cols, m.rows, width, height, tilt_max, look.focal if look else 0.9)
        corners = np.array([[-margin, -margin], [m.cols + margin, -margin], [m.cols + margin, m.rows + margin], [-margin, m.rows + margin]], np.float64)
        proj = cv2.perspectiveTransform(corners[None], H)[0]
        if proj[:, 0].min() > 10 and proj[:, 1].min() > 10 and proj[:, 0].max() < width - 10 and proj[:, 1].max() < height - 10:
            break
    # board canvas pixel -> board units -> image
    S = np.array([[1 / px, 0, -margin], [0, 1 / px, -margin], [0, 0, 1]])
    background = rng.integers(60, 140, size=3).tolist()
    img = cv2.warpPerspective(board, H @ S, (width, height), flags=cv2.INTER_LINEAR, borderValue=background)
    if look is not None:
        inside = cv2.warpPerspective(np.full(board.shape[:2], 255, np.uint8), H @ S, (width, height), flags=cv2.INTER_NEAREST)
        table = table_texture(look_rng, height, width)
        img[inside == 0] = table[inside == 0]
        # figures stand in 3D: the farthest drawn first, each a stack of painted solids
        cam_far = sorted(pos.figures, key=lambda f: -float((P @ np.array([f.at.col + 0.5, f.at.row + 0.5, 0, 1]))[2]))
        bodies = np.zeros((height, width), np.uint8)
        for f in cam_far if figures_tall else ():
            n = f.size.footprint
            ox, oy = sticker_offset(stances, f.id, n)
            fx, fy = f.at.col + n / 2 - ox * FEET_OFF / STICKER_OFF, f.at.row + n / 2 - oy * FEET_OFF / STICKER_OFF
            for z0, z1, r0, r1, colour in figure_body(look_rng, look, n):
                hull = project_solid(P, fx, fy, z0, z1, r0, r1)
                cv2.fillConvexPoly(img, hull, colour, lineType=cv2.LINE_AA)
                cv2.fillConvexPoly(bodies, hull, 255)
        visible = _unhidden_markers(placed, H, bodies)
    # tall figures: bodies rise toward the top of the photo from the back of the base
    elif figures_tall:
        for f in pos.figures:
            n = f.size.footprint
            cx, cy = f.at.col + n / 2, f.at.row + n / 2
            base = cv2.perspectiveTransform(np.array([[[cx, cy]]], np.float64), H)[0, 0]
            edge_pts = cv2.perspectiveTransform(np.array([[[cx + BASE_RADIUS * n, cy]]], np.float64), H)[0, 0]
            r = np.linalg.norm(edge_pts - base)
            paint = tuple(int(c) for c in rng.integers(60, 230, size=3))
            height_px = r * rng.uniform(2.2, 3.2)
            top = (int(base[0]), int(base[1] - r * 0.55 - height_px))
            cv2.ellipse(img, (top[0], int(base[1] - r * 0.55 - height_px / 2)), (int(r * 0.55), int(height_px / 2)), 0, 0, 360, paint, -1)
    # light: a gradient, a glare spot, a shadow
    # smooth fields are computed small and scaled up (cheap at 12 MP)
    sw, sh = width // 16, height // 16
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2)
    light = 0.85 + 0.25 * ((xx / sw - 0.5) * gx + (yy / sh - 0.5) * gy)
    gxc, gyc = rng.uniform(0, sw), rng.uniform(0, sh)
    glare = 60 * np.exp(-(((xx - gxc) ** 2 + (yy - gyc) ** 2) / (2 * (0.06 * sw) ** 2)))
    shadow = np.ones((sh, sw), np.float32)
    cv2.ellipse(shadow, (int(rng.uniform(0.2, 0.8) * sw), int(rng.uniform(0.2, 0.8) * sh)), (int(0.15 * sw), int(0.07 * sh)),
                rng.uniform(0, 180), 0, 360, 0.72, -1)
    gain = cv2.resize((light * shadow).astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)
    add = cv2.resize(glare.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)
    out = cv2.multiply(img.astype(np.float32), cv2.merge([gain, gain, gain]))
    out = cv2.add(out, cv2.merge([add, add, add]))
    if look is not None:
        out = out * np.array(look.white_balance, np.float32)
    noise = np.empty(out.shape, np.float32)
    # OpenCV's generator is global: seeded here, a photo is the same whatever was drawn before it
    cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))
    cv2.randn(noise, 0, look.noise if look else 4)  # type: ignore[call-overload]  # OpenCV's stubs type the scalars as arrays
    out = np.clip(out + noise, 0, 255).astype(np.uint8)
    # lens: barrel distortion
    k1 = rng.uniform(-0.08, 0.02)
    dist = np.array([k1, 0, 0, 0, 0])
    newK = K.copy()
    mapx, mapy = cv2.initUndistortRectifyMap(K, dist, None, newK, (width, height), cv2.CV_32FC1)
    out = cv2.remap(out, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    sigma = look.blur if look else rng.uniform(0.3, 1.2)
    out = cv2.GaussianBlur(out, (0, 0), sigma)
    if jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 95))])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        assert decoded is not None  # a JPEG OpenCV itself just encoded
        out = decoded
    truth = Truth(homography=H, lens=(K, dist))
    truth.visible_markers = visible if look is not None else {f.marker for f in pos.figures if f.marker is not None}
    truth.conditions = {"tilt": tilt, "corner_markers": corner_markers, "corner_side": corner_side, "base_side": base_side,
                        "varied": varied, "art": bool(look and look.art), "dark_bodies": bool(look and look.body_dark >= 0.3),
                        "grid_alpha": look.grid_alpha if look else 1.0, "paper": look.paper if look else BGR["paper"],
                        "family": look.family if look else "plain"}
    for f in pos.figures:
        truth.figures[f.id] = f.at.name
        if f.marker is not None:
            truth.markers[f.marker] = f.id
        truth.occupied |= {s.name for s in f.space}
    for kind, squares in m.squares.items():
        if kind in TERRAIN_COLOUR:
            for s in squares:
                truth.squares[s.name] = kind.value
    for e in m.walls:
        truth.edges[e.name] = "wall"
    for e in m.doors:
        truth.edges[e.name] = "door"
    return out, truth


def _unhidden_markers(placed: dict[int, tuple[float, float, float, float]], H: np.ndarray, bodies: np.ndarray) -> set[int]:
    """Base markers that no body covers in the photo: 9 x 9 points over each marker's square
    (its black border included, at the angle it was stuck on) must all show."""
    out = set()
    h, w = bodies.shape
    t = np.linspace(-0.5, 0.5, 9)
    for mid, (cx, cy, side, angle) in placed.items():
        a = np.radians(angle)
        c, s_ = np.cos(a), np.sin(a)  # as cv2.getRotationMatrix2D turns the sticker
        pts = np.array([[[cx + side * (c * u + s_ * v), cy + side * (-s_ * u + c * v)] for u in t for v in t]], np.float64)
        img_pts = cv2.perspectiveTransform(pts, H)[0].round().astype(int)
        inside = (img_pts[:, 0] >= 0) & (img_pts[:, 0] < w) & (img_pts[:, 1] >= 0) & (img_pts[:, 1] < h)
        if inside.all() and not bodies[img_pts[:, 1], img_pts[:, 0]].any():
            out.add(mid)
    return out


def random_position(rng: np.random.Generator, rules: Any = None, busy: bool = False) -> Position:
    """A random map and roster for training and testing the detector: 8-20 squares a side,
    walls, low objects, difficult terrain and pits, 2-16 figures (``busy``: 6-40, in clumps
    as they stand in a fight), some Large and Huge, half of them with a base marker."""

    cols, rows = int(rng.integers(8, 21)), int(rng.integers(8, 21))
    kinds = [SquareTerrain.WALL, SquareTerrain.LOW, SquareTerrain.DIFFICULT, SquareTerrain.PIT]
    terrain: dict[SquareTerrain, set[Square]] = {k: set() for k in kinds}
    for _ in range(int(rng.integers(0, 8))):
        kind = kinds[int(rng.choice(4, p=[0.4, 0.2, 0.3, 0.1]))]
        c, r = int(rng.integers(0, cols)), int(rng.integers(0, rows))
        w, h = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        for dc in range(w):
            for dr in range(h):
                if c + dc < cols and r + dr < rows and not any(Square(c + dc, r + dr) in v for v in terrain.values()):
                    terrain[kind].add(Square(c + dc, r + dr))
    blocked = terrain[SquareTerrain.WALL] | terrain[SquareTerrain.PIT]
    taken: set[Square] = set()
    figures: list[Figure] = []
    ids = [int(i) for i in rng.permutation(np.arange(4, 50))] * 2
    for i in range(int(rng.integers(6, 41)) if busy else int(rng.integers(2, 17))):
        u = rng.random()
        n = 3 if u < 0.05 else 2 if u < 0.17 else 1
        for _ in range(30):
            if busy and figures and rng.random() < 0.6:  # next to a figure already placed
                near = figures[int(rng.integers(0, len(figures)))].at
                at = Square(int(np.clip(near.col + rng.integers(-2, 3), 0, cols - n)), int(np.clip(near.row + rng.integers(-2, 3), 0, rows - n)))
            else:
                at = Square(int(rng.integers(0, cols - n + 1)), int(rng.integers(0, rows - n + 1)))
            space = {at.offset(dc, dr) for dc in range(n) for dr in range(n)}
            if not space & (taken | blocked):
                taken |= space
                figures.append(Figure(f"f{i}", "light" if i % 2 else "dark", at, {1: Size.MEDIUM, 2: Size.LARGE, 3: Size.HUGE}[n],
                                      marker=ids[i] if rng.random() < 0.5 else None))
                break
    m = Map(cols, rows, squares={k: frozenset(v) for k, v in terrain.items()})
    return Position(rules or Edition.SWM2008, m, tuple(figures))
