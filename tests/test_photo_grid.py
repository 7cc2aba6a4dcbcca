"""Finding the grid from the corner markers (issue 28, "wrong grid 0"): each corner marker read
by several searches keeps the reading that fits one grid with the others; a photo no larger
than the marker search's copy is not searched twice over; a grate floor's printed texture
(lines everywhere) does not hide the grid the corner markers give."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

import assistant.photo as photo
from assistant.photo import locate_grid
from assistant.photo.board import find_grid, marker_board_corners
from assistant.photo.markers import Marker
from assistant.photo.synth import random_position, render_photo

COLS, ROWS, SIDE = 11, 8, 0.8
#: board squares -> image pixels: a map seen at a slant (the far side narrower)
H_TRUE = np.array([[80.0, 25.0, 400.0], [2.0, 70.0, 300.0], [0.0, 0.02, 1.0]])


def _marker(mid: int, shift: tuple[float, float] = (0.0, 0.0)) -> Marker:
    """Corner marker ``mid`` where H_TRUE puts it; ``shift`` pulls its corner on the map's corner (pixels)."""
    pts = cv2.perspectiveTransform(marker_board_corners(mid, COLS, ROWS, SIDE)[None], H_TRUE)[0]
    pts[0] += shift
    return Marker(mid, pts)


def _grid_error(markers: list[Marker]) -> float:
    """The largest distance (squares) of a lattice point from where H_TRUE puts it."""
    grid = find_grid(markers, COLS, ROWS)
    assert grid is not None
    pts = np.array([[x, y] for x in range(COLS + 1) for y in range(ROWS + 1)], np.float64)
    back = cv2.perspectiveTransform(cv2.perspectiveTransform(pts[None], H_TRUE), grid.H)[0]
    return float(np.max(np.linalg.norm(back - pts, axis=1)))


def test_a_corner_pulled_onto_the_art_gives_way_to_the_reading_that_fits() -> None:
    pulled = _marker(3, (-9.0, 8.0))
    first = [_marker(0), pulled, _marker(1)]
    assert _grid_error(first) > 0.25  # the pulled corner alone puts the grid wrong
    readings = {0: [_marker(0)], 1: [_marker(1)], 3: [pulled, _marker(3)]}
    chosen = photo._best_readings(first, readings, COLS, ROWS)
    assert [m.id for m in chosen] == [0, 3, 1]
    assert np.allclose(next(m for m in chosen if m.id == 3).corners, _marker(3).corners)
    assert _grid_error(chosen) < 0.05


def test_two_markers_keep_the_first_reading() -> None:
    """Two diagonal markers fit any readings exactly: nothing to choose by, the first stands."""
    pulled = _marker(2, (5.0, 5.0))
    first = [_marker(0), pulled]
    chosen = photo._best_readings(first, {0: [_marker(0)], 2: [pulled, _marker(2)]}, COLS, ROWS)
    assert chosen[1] is pulled


def test_a_photo_no_larger_than_the_search_copy_is_not_searched_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(11)
    pos = random_position(rng, busy=False)
    img, _truth = render_photo(pos, seed=11, width=1600, height=1200, tilt_max=20.0, corner_markers=False)
    calls: list[tuple[bool, float]] = []
    real = photo.find_markers_counted

    def counted(image: Any, small_markers: bool = False, full_resolution: bool = False, upscale: float = 1.0) -> Any:
        calls.append((full_resolution, upscale))
        return real(image, small_markers, full_resolution, upscale)

    monkeypatch.setattr(photo, "find_markers_counted", counted)
    try:  # no corner markers: found and oriented by the printed terrain, or refused; either way searched once
        locate_grid(img, pos)
    except photo.NoGridError:
        pass
    assert (True, 1.0) not in calls  # the full-resolution pass would scan the same 1600 x 1200 pixels again
    assert (False, 1.0) in calls


@pytest.mark.parametrize("seed", [4, 19])
def test_a_grate_floor_with_corner_markers_gives_the_grid(seed: int) -> None:
    """The grate's bars are lines everywhere; the printed grid and the corner markers still give
    the grid (the held-out bench refused most grate floors under load before issue 28's fix)."""
    rng = np.random.default_rng(seed)
    pos = random_position(rng, busy=False)
    img, truth = render_photo(pos, seed=seed, width=1600, height=1200, tilt_max=25.0, varied=True, families=("grate",),
                              corner_side=1.0, stickers=True)
    grid, markers, by_lines = locate_grid(img, pos)
    assert not by_lines and grid.corner_markers >= 3
    cols, rows = pos.map.cols, pos.map.rows
    pts = np.array([[x, y] for x in range(cols + 1) for y in range(rows + 1)], np.float64)
    back = cv2.perspectiveTransform(truth.photo_points(pts)[None], grid.H)[0]
    assert float(np.max(np.linalg.norm(back - pts, axis=1))) < 0.25
