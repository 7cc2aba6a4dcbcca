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
    h, w = image.shape[:2]
    step = MESH
    # cv2.resize by a whole factor puts its source's node i at pixel step * i + (step - 1) / 2 of
    # what it makes: the mesh's nodes are placed there, one beyond each edge, the start cut off
    off = (step - 1) / 2 - step
    nx, ny = int(np.ceil((w - off) / step)) + 1, int(np.ceil((h - off) / step)) + 1
    yy, xx = np.mgrid[0:ny, 0:nx].astype(np.float64) * step + off
    pts = bend_points(np.column_stack([xx.ravel(), yy.ravel()]), image.shape, k).reshape(ny, nx, 2)
    mx = cv2.resize(pts[..., 0].astype(np.float32), (nx * step, ny * step), interpolation=cv2.INTER_LINEAR)[step : step + h, step : step + w]
    my = cv2.resize(pts[..., 1].astype(np.float32), (nx * step, ny * step), interpolation=cv2.INTER_LINEAR)[step : step + h, step : step + w]
    fixed, frac = cv2.convertMaps(mx, my, cv2.CV_16SC2)  # the fixed-point maps: remapped in half the time
    return cv2.remap(image, fixed, frac, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
