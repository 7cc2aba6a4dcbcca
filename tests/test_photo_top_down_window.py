"""The top-down view shrinks only the part of the photo the map's view shows (round 11 of issue 28).

``reference.top_down`` shrank the whole 12 MP photo before warping the map's part of it: half the
resizing of a ``photo detect``. A synthetic photo is drawn here: a textured map warped into a
large frame with a known homography. The view must be what shrinking the whole photo and warping
gives (within rounding), while the resize is handed only the map's window.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from assistant.photo import reference
from assistant.photo.board import Grid

COLS, ROWS = 10, 8


def _scene(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A 3000 x 4000 photo of a textured 10 x 8 map seen in perspective in its middle, and the
    homography from the photo to the map's squares."""
    px = 120
    blotches = rng.integers(0, 256, (ROWS * px // 8, COLS * px // 8, 3), dtype=np.uint8)
    art = np.asarray(cv2.resize(blotches, (COLS * px, ROWS * px), interpolation=cv2.INTER_CUBIC), np.uint8)
    for k in range(COLS + 1):
        cv2.line(art, (k * px, 0), (k * px, ROWS * px), (0, 0, 0), 3)
    for k in range(ROWS + 1):
        cv2.line(art, (0, k * px), (COLS * px, k * px), (0, 0, 0), 3)
    map_px = np.array([[0, 0], [COLS * px, 0], [COLS * px, ROWS * px], [0, ROWS * px]], np.float32)
    photo_px = np.array([[1450, 1010], [2620, 1080], [2700, 1990], [1380, 1930]], np.float32)
    to_photo = cv2.getPerspectiveTransform(map_px, photo_px)
    photo = np.full((3000, 4000, 3), 90, np.uint8)
    cv2.warpPerspective(art, to_photo, (4000, 3000), dst=photo, borderMode=cv2.BORDER_TRANSPARENT)
    photo_to_squares = np.diag([1 / px, 1 / px, 1.0]) @ np.linalg.inv(to_photo)
    return photo, photo_to_squares


def _whole_photo_view(photo: np.ndarray, H: np.ndarray) -> np.ndarray:
    """The view as the whole photo shrunk and warped gives it (cv2 directly, as before the change)."""
    corners = np.array([[[0, 0], [COLS, 0], [COLS, ROWS], [0, ROWS]]], np.float64)
    quad = cv2.perspectiveTransform(corners, np.linalg.inv(H))[0]
    side = float(np.sqrt(cv2.contourArea(quad.astype(np.float32)) / (COLS * ROWS)))
    f = 2.0 * reference.PX / side
    assert f < 0.8  # the scene is drawn large enough to be shrunk
    small = cv2.resize(photo, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    px, pad = reference.PX, reference.PAD
    M = np.array([[px, 0, pad * px], [0, px, pad * px], [0, 0, 1]], np.float64) @ H @ np.diag([1 / f, 1 / f, 1.0])
    size = ((COLS + 2 * pad) * px, (ROWS + 2 * pad) * px)
    return cv2.warpPerspective(small, M, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def test_top_down_shrinks_only_the_maps_window(monkeypatch: pytest.MonkeyPatch) -> None:
    photo, H = _scene(np.random.default_rng(7))
    resized: list[tuple[int, ...]] = []
    real_resize = cv2.resize

    def recording_resize(src: np.ndarray, *args: Any, **kwargs: Any) -> np.ndarray:
        resized.append(src.shape)
        return real_resize(src, *args, **kwargs)

    monkeypatch.setattr(reference.cv2, "resize", recording_resize)
    view = reference.top_down(photo, Grid(H, 0.0, 4), COLS, ROWS)
    monkeypatch.undo()
    assert resized, "the photo is shrunk before the warp"
    assert all(h * w < 0.3 * photo.shape[0] * photo.shape[1] for h, w, *_ in resized)
    expected = _whole_photo_view(photo, H)
    assert view.shape == expected.shape
    diff = np.abs(view.astype(int) - expected.astype(int))
    assert diff.max() <= 3 and diff.mean() < 0.2


def test_top_down_of_a_map_partly_off_the_photo_is_the_whole_photos() -> None:
    """Where the map's padded view runs off the photo the window is clamped to it: the edge
    pixels replicated are the photo's own, as before."""
    photo, H = _scene(np.random.default_rng(8))
    shift = np.array([[1, 0, 1600], [0, 1, 0], [0, 0, 1]], np.float64)  # the map's left two squares off the photo
    H_off = H @ shift
    view = reference.top_down(photo, Grid(H_off, 0.0, 4), COLS, ROWS)
    expected = _whole_photo_view(photo, H_off)
    diff = np.abs(view.astype(int) - expected.astype(int))
    assert diff.max() <= 3 and diff.mean() < 0.2


def test_top_down_window_in_phase_near_a_simple_ratio() -> None:
    """A shrinking factor near 3/7 (a square 149.3 px wide in the photo): windows whose start
    lies a few hundredths of a shrunk pixel off the whole photo's grid made views up to 7 grey
    levels apart (independent diagnosis photo s0440); the window's start must be in phase."""
    side = 2 * reference.PX / (3 / 7 + 5e-5)
    rng = np.random.default_rng(9)
    cells = rng.integers(0, 256, (ROWS * 4, COLS * 4, 3), dtype=np.uint8)
    w, h = int(COLS * side), int(ROWS * side)
    art = cv2.resize(cells, (w, h), interpolation=cv2.INTER_NEAREST)  # sharp edges: the phase shows
    photo = np.full((3000, 4000, 3), 90, np.uint8)
    x, y = 1003, 1507
    photo[y:y + h, x:x + w] = art[: 3000 - y, : 4000 - x]
    H = np.array([[1 / side, 0, -x / side], [0, 1 / side, -y / side], [0, 0, 1]], np.float64)
    view = reference.top_down(photo, Grid(H, 0.0, 4), COLS, ROWS)
    diff = np.abs(view.astype(int) - _whole_photo_view(photo, H).astype(int))
    assert diff.max() <= 2 and diff.mean() < 0.05
