"""Issue 28, round 25: two corner markers on one side, a barrel lens bending their grid's far side
(reading R259).

The independent renderer's scene 1370 (an own render: neither a diagnosis nor a held-out seed;
rock art, 18 x 9, corner markers 0 and 3 on the short side, its camera's lens k1 -0.10): the
printed lines confirmed the two markers' grid, its far side 0.43 squares off where the lens bent
it, and the crossings round the markers were too few to read the bend. The expectation is the
renderer's own lattice (``render.grid_error``, straightened by the grid's bend as the bench
scores it), never the code's output.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from assistant.editions import Edition
from assistant.model import Map, Position
from assistant.photo import FAR_SIDE_DRIFT, SIDE_PAIRS, lens, locate_grid
from assistant.photo.board import Grid
from assistant.photo.gridsearch import _bent_far_side, _far_side_drift
from assistant.photo.markers import Marker


def _scene(monkeypatch: pytest.MonkeyPatch, seed: int) -> tuple[Any, np.ndarray, Position]:
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "bench" / "independent"))
    import render  # bench/independent is not a package: on the path only for this test

    scene = render.make_scene(seed, width=4000)
    ok, jpeg = cv2.imencode(".jpg", render.render(scene), [cv2.IMWRITE_JPEG_QUALITY, scene.cam.jpeg])
    assert ok
    pos = Position(Edition.SWM2008, Map(scene.spec.cols, scene.spec.rows), ())
    return scene, cv2.imdecode(jpeg, cv2.IMREAD_COLOR), pos


def _lattice_error(scene: Any, grid: Grid, shape: tuple[int, ...]) -> float:
    """The grid's worst lattice point (squares) against where the renderer drew it; a grid found
    on the straightened photo is scored on the renderer's lattice straightened by the same bend."""
    import render

    drawn = render.lattice_px(scene)
    if grid.lens:
        drawn = lens.straighten_points(drawn, shape, grid.lens)
    cols, rows = scene.spec.cols, scene.spec.rows
    seen = cv2.perspectiveTransform(drawn[None], np.asarray(grid.H, np.float64))[0]
    lattice = np.array([(c, r) for r in range(rows + 1) for c in range(cols + 1)], np.float64)
    return float(np.max(np.linalg.norm(seen - lattice, axis=1)))


def test_scene_1370_the_far_side_is_read_straightened(monkeypatch: pytest.MonkeyPatch) -> None:
    scene, photo, pos = _scene(monkeypatch, 1370)
    assert scene.look.corner_ids == (0, 3) and scene.cam.k1 < -0.08
    grid, markers, by_lines = locate_grid(photo, pos, straighten=True)  # as `photo detect` asks
    assert sorted(m.id for m in markers if m.id < 4) == [0, 3] and not by_lines
    assert grid.lens < -0.03 and grid.lens_reading == "R259"  # a barrel lens read from the sheet's edges, cited so
    assert _lattice_error(scene, grid, photo.shape) < 0.15  # 0.43 before R259; measured 0.03
    # a caller that does not read the grid's bend (`photo reference`, `map from-photo`) gets the
    # photo's own grid, as before
    plain, _markers, _lines = locate_grid(photo, pos)
    assert plain.lens == 0.0


def _marker(mid: int) -> Marker:
    return Marker(mid, np.array([[0, 0], [10, 0], [10, 10], [0, 10]], np.float64) + 50 * mid)


@pytest.mark.parametrize(
    ("ids", "by_lines", "bend"),
    [((0, 2), False, 0.0), ((1, 3), False, 0.0), ((0, 1, 2), False, 0.0), ((0, 3), True, 0.0), ((1, 2), False, -0.05)],
)
def test_only_two_markers_on_one_side_found_by_them_are_looked_at_again(ids: tuple[int, ...], by_lines: bool, bend: float) -> None:
    """Two diagonal markers pin both sides, three or more read the bend themselves (R242), a grid
    from the printed lines is not the markers' extrapolation, and a grid found straightened already
    has its bend: each is kept without a look at the photo (an empty image would fail any look)."""
    grid = Grid(np.eye(3), 0.1, len([i for i in ids if i < 4]), lens=bend)
    found = (grid, [_marker(i) for i in ids], by_lines)
    empty = np.zeros((0, 0, 3), np.uint8)
    assert _bent_far_side(empty, Position(Edition.SWM2008, Map(10, 10), ()), "photo", None, found) is None


def test_the_side_pairs_are_the_four_sides() -> None:
    # corners 0 1 2 3 run round the map (CONTRACT §4): each side joins two neighbours in that order
    assert sorted(sorted(p) for p in SIDE_PAIRS) == [[0, 1], [0, 3], [1, 2], [2, 3]]


def _seen_from_aside(cols: int, rows: int) -> Grid:
    """A grid as a photo 1200 x 1600 px shows a map ``cols`` x ``rows`` from a little aside."""
    board = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float64)
    photo = np.array([[300, 250], [1350, 280], [1420, 980], [220, 940]], np.float64)
    return Grid(cv2.getPerspectiveTransform(photo.astype(np.float32), board.astype(np.float32)).astype(np.float64), 0.1, 2)


def test_no_bend_carries_no_far_side() -> None:
    grid = _seen_from_aside(18, 9)
    assert _far_side_drift(grid, {0, 3}, 18, 9, (1200, 1600), 0.0) < 1e-6  # a homography is its own near side's


def test_the_far_side_drifts_more_with_a_stronger_bend_and_a_longer_reach() -> None:
    grid = _seen_from_aside(18, 9)
    weak, strong = (_far_side_drift(grid, {0, 3}, 18, 9, (1200, 1600), k) for k in (-0.03, -0.08))
    assert 0 < weak < strong
    # markers 0 and 1 on the long side reach 9 squares across, not 18
    assert _far_side_drift(grid, {0, 1}, 18, 9, (1200, 1600), -0.08) < strong


def test_a_far_side_the_bend_hardly_moves_is_left_to_the_lines() -> None:
    # a bend too weak to carry the far side past FAR_SIDE_DRIFT: the photo's own grid stands even
    # where the sheet's edges read it (diagnosis scene 501, plain paper: straightened, 0.12 -> 0.25)
    grid = _seen_from_aside(6, 5)
    assert _far_side_drift(grid, {0, 3}, 6, 5, (1200, 1600), -0.02) < FAR_SIDE_DRIFT
