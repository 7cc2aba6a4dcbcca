"""The lens's bend as a model (reading R242): a photo's points, and the photo itself, as a straight
(pinhole) lens would show them, for a bend ``k``. :mod:`.lens` reads ``k`` from the photo; this
module only applies it, and imports nothing of the grid search, so that the reference and the
board (which the grid search imports) can straighten a photo without a circle through it.

>>> p = np.array([[100.0, 50.0], [10.0, 20.0]])
>>> bool(np.allclose(bend_points(straighten_points(p, (60, 80), -0.08), (60, 80), -0.08), p))
True
"""

from __future__ import annotations

import cv2
import numpy as np

from . import views

#: the straightened photo's mesh (px): each pixel's source is found at its nodes and interpolated between
MESH = 16
#: the mesh rows straightened at a time (:func:`_straightened`, reading R285): 128 photo rows, whose
#: maps (a few megabytes on a 12 MP photo) stay in the cache
BAND = 8


def _centred(shape: tuple[int, ...]) -> tuple[np.ndarray, float]:
    h, w = shape[:2]
    return np.array([w / 2.0, h / 2.0]), float(np.hypot(w / 2.0, h / 2.0))


def straighten_points(points: np.ndarray, shape: tuple[int, ...], k: float) -> np.ndarray:
    """``points`` (n x 2 pixels of a photo of ``shape``) where a straight photo shows them."""
    centre, s = _centred(shape)
    q = (np.asarray(points, np.float64).reshape(-1, 2) - centre) / s
    return np.asarray(q * (1 + k * (q**2).sum(axis=1))[:, None] * s + centre, np.float64)


def bend_points(points: np.ndarray, shape: tuple[int, ...], k: float) -> np.ndarray:
    """The inverse of :func:`straighten_points`: where the photo shows a straight photo's points."""
    centre, s = _centred(shape)
    q = (np.asarray(points, np.float64).reshape(-1, 2) - centre) / s
    m = q.copy()
    for _ in range(30):
        m = q / (1 + k * (m**2).sum(axis=1))[:, None]
    return np.asarray(m * s + centre, np.float64)


def straightened(image: np.ndarray, k: float) -> np.ndarray:
    """The photo as a straight (pinhole) lens would have taken it, the same size: each pixel's
    source found on a 16-px mesh and interpolated between (the bend is smooth). Made once within
    :func:`.views.shared` (the grid search's and the squares' reading's)."""
    return views.once(image, ("straightened", k), lambda: _straightened(image, k))


def _straightened(image: np.ndarray, k: float) -> np.ndarray:
    """The straightened photo made a band of :data:`BAND` mesh rows at a time (reading R285): each
    band's maps resized from its nodes (one node beyond it either side, so the interpolation near
    its edges is the whole mesh's), converted and remapped into the photo's rows it covers. The
    pixels are those :func:`_straightened_whole` makes, bit for bit (tests/test_photo_lens.py): a
    pixel's map is the same interpolation of the same nodes, and remap reads only its map and the
    photo. Its maps are a few megabytes that stay in the cache and are used again; the whole
    photo's maps were about 200 MB made afresh each time (two float maps of the mesh's size, the
    fixed-point ones, the photo): 0.27-0.31 CPU-seconds of page faults and memory traffic inside a
    grid search against 0.08 banded (independent diagnosis photos s0587, s0563)."""
    h, w = image.shape[:2]
    step = MESH
    nx, ny, pts = _mesh(image.shape, k)
    px, py = pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32)
    out = np.empty_like(image)
    for n0 in range(1, ny, BAND):  # mesh row n ends at row n * step of the whole mesh's resize, which starts a step before the photo
        n1 = min(ny, n0 + BAND)
        top, bottom = max(step, n0 * step), min(step + h, n1 * step)
        if top >= bottom:
            continue
        a, b = n0 - 1, min(ny, n1 + 1)  # the band's nodes and one beyond it either side
        rows = slice(top - a * step, bottom - a * step)
        mx = cv2.resize(px[a:b], (nx * step, (b - a) * step), interpolation=cv2.INTER_LINEAR)[rows, step : step + w]
        my = cv2.resize(py[a:b], (nx * step, (b - a) * step), interpolation=cv2.INTER_LINEAR)[rows, step : step + w]
        fixed, frac = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        out[top - step : bottom - step] = cv2.remap(image, fixed, frac, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out


def _mesh(shape: tuple[int, ...], k: float) -> tuple[int, int, np.ndarray]:
    """The mesh's columns and rows of nodes and where each node's pixel lies in the bent photo
    (rows x columns x 2). cv2.resize by a whole factor puts its source's node i at pixel
    step * i + (step - 1) / 2 of what it makes: the nodes are placed there, one beyond each edge,
    the start cut off."""
    h, w = shape[:2]
    step = MESH
    off = (step - 1) / 2 - step
    nx, ny = int(np.ceil((w - off) / step)) + 1, int(np.ceil((h - off) / step)) + 1
    yy, xx = np.mgrid[0:ny, 0:nx].astype(np.float64) * step + off
    return nx, ny, bend_points(np.column_stack([xx.ravel(), yy.ravel()]), shape, k).reshape(ny, nx, 2)


def _straightened_whole(image: np.ndarray, k: float) -> np.ndarray:
    """The straightened photo with the whole photo's maps at once, as it was made before R285:
    kept as what :func:`_straightened` is measured against (tests/test_photo_lens.py)."""
    h, w = image.shape[:2]
    step = MESH
    nx, ny, pts = _mesh(image.shape, k)
    mx = cv2.resize(pts[..., 0].astype(np.float32), (nx * step, ny * step), interpolation=cv2.INTER_LINEAR)[step : step + h, step : step + w]
    my = cv2.resize(pts[..., 1].astype(np.float32), (nx * step, ny * step), interpolation=cv2.INTER_LINEAR)[step : step + h, step : step + w]
    fixed, frac = cv2.convertMaps(mx, my, cv2.CV_16SC2)  # the fixed-point maps: remapped in half the time
    return cv2.remap(image, fixed, frac, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
