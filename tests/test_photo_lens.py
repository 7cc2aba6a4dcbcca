"""The lens's bend read from the photo (issue 28, round 23; reading R242). The independent
renderer's lens bends its photos' corners up to about 10 % (k1 -0.12..0.04): the grid is one
homography, so two or three corner markers' grid drifts off the printed lines where it is
extrapolated, and diagnosis photos s0359, s0485, s0565 and s0572 were refused. Here the bend is
drawn on points and photos made in the test, and read back."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from assistant.photo import lens
from assistant.photo.board import find_grid, marker_board_corners
from assistant.photo.markers import Marker

COLS, ROWS = 16, 10
SHAPE = (3000, 4000)
#: the map's corners in a straight photo (NW, NE, SE, SW): a camera tilted towards the far side
CORNERS = [[700.0, 500.0], [3300.0, 500.0], [3800.0, 2700.0], [200.0, 2700.0]]
SIDE = 0.4


def _to_photo() -> np.ndarray:
    board4 = np.array([[0, 0], [COLS, 0], [COLS, ROWS], [0, ROWS]], np.float32)
    return cv2.getPerspectiveTransform(board4, np.array(CORNERS, np.float32)).astype(np.float64)


def _markers(k: float, ids: tuple[int, ...] = (0, 1, 2)) -> list[Marker]:
    """The corner markers ``ids`` as a lens bending by ``k`` shows them."""
    H = _to_photo()
    return [Marker(i, lens.bend_points(cv2.perspectiveTransform(marker_board_corners(i, COLS, ROWS, SIDE)[None], H)[0], SHAPE, k)) for i in ids]


def test_straightening_undoes_the_bend() -> None:
    p = np.array([[10.0, 20.0], [3990.0, 2990.0], [2000.0, 1500.0], [150.0, 2800.0]])
    for k in (-0.12, -0.05, 0.04):
        assert np.allclose(lens.straighten_points(lens.bend_points(p, SHAPE, k), SHAPE, k), p, atol=1e-6)
    assert np.array_equal(lens.straighten_points(p, SHAPE, 0.0), p)  # no bend: the points as they are


@pytest.mark.parametrize("k", [-0.09, -0.05, -0.03, 0.03])
def test_three_markers_corners_give_the_bend(k: float) -> None:
    """Three markers' 12 corners: one homography fits them closely only once straightened by
    the lens's own bend (they are read to a fraction of a pixel)."""
    found, at_k, at_0 = lens.bend_of_markers(_markers(k), SHAPE, COLS, ROWS)
    assert found == pytest.approx(k, abs=0.006)
    assert at_0 > 1.5 * at_k  # the photo shows it (R242: LENS_BETTER)


def test_unbent_markers_show_no_bend() -> None:
    """A straight lens: the bend read is far under the least one the grid search runs again for
    (:data:`assistant.photo.LENS_SHOWN`), so such a photo's answer stays as it was."""
    from assistant.photo import LENS_SHOWN

    found, _at_k, _at_0 = lens.bend_of_markers(_markers(0.0, (0, 1, 2, 3)), SHAPE, COLS, ROWS)
    assert abs(found) < LENS_SHOWN / 4


def test_the_crossings_give_the_bend_and_too_few_give_none() -> None:
    """Two markers' corners fit any homography: the printed lines' crossings found round their
    grid give the bend; a few of them (under 12) give none."""
    board = np.array([(c, r) for r in range(ROWS + 1) for c in range(COLS + 1)], np.float64)
    straight = cv2.perspectiveTransform(board[None], _to_photo())[0]
    rng = np.random.default_rng(3)
    seen = lens.bend_points(straight, SHAPE, -0.08) + rng.normal(0, 0.5, straight.shape)
    k, at_k, at_0 = lens.bend_of_crossings(board, seen, SHAPE)
    assert k == pytest.approx(-0.08, abs=0.006)
    assert at_0 > 3 * at_k
    assert lens.bend_of_crossings(board[:11], seen[:11], SHAPE) == (0.0, 0.0, 0.0)


def test_a_bend_beyond_any_lens_reads_as_none() -> None:
    """Least at the end of the bends tried: not a lens (diagnosis photo s0348's two markers'
    crossings once read -0.14 where -0.02 was drawn), so no bend is read."""
    board = np.array([(c, r) for r in range(ROWS + 1) for c in range(COLS + 1)], np.float64)
    straight = cv2.perspectiveTransform(board[None], _to_photo())[0]
    assert lens.bend_of_crossings(board, lens.bend_points(straight, SHAPE, -0.3), SHAPE) == (0.0, 0.0, 0.0)


def test_the_straightened_photo_shows_each_point_where_a_straight_lens_would() -> None:
    photo = np.zeros((300, 400), np.uint8)
    straight_at = np.array([[30.0, 40.0], [370.0, 260.0], [200.0, 150.0]])
    for x, y in lens.bend_points(straight_at, photo.shape, -0.1):
        cv2.circle(photo, (round(x), round(y)), 3, 255, -1)
    out = lens.straightened(photo, -0.1)
    for x, y in straight_at:
        win = out[int(y) - 6 : int(y) + 7, int(x) - 6 : int(x) + 7].astype(np.float64)
        ys, xs = np.mgrid[-6:7, -6:7]
        assert win.sum() > 0
        assert abs((win * xs).sum() / win.sum()) < 1.0 and abs((win * ys).sum() / win.sum()) < 1.0


def test_three_markers_grid_found_on_the_straightened_markers() -> None:
    """The markers straightened by the bend read give the straight photo's grid (the search
    runs again on that photo, R242): every map corner within a hundredth of a square."""
    k, _at_k, _at_0 = lens.bend_of_markers(_markers(-0.07), SHAPE, COLS, ROWS)
    moved = [Marker(m.id, lens.straighten_points(m.corners, SHAPE, k)) for m in _markers(-0.07)]
    grid = find_grid(moved, COLS, ROWS)
    assert grid is not None
    at = cv2.perspectiveTransform(np.array(CORNERS, np.float64)[None], grid.H)[0]
    assert np.max(np.abs(at - [[0, 0], [COLS, 0], [COLS, ROWS], [0, ROWS]])) < 0.05


#: the grid search's copy of a 4000 x 3000 photo (lines.WORK wide) and a sheet on it, straight
WORK_SHAPE = (1200, 1600)
SHEET = np.array([[380.0, 260.0], [1240.0, 300.0], [1330.0, 930.0], [300.0, 960.0]])


def _sheet_photo(k: float, figure: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """A light sheet on a dark table as a lens bending by ``k`` shows it (its edges drawn through 400
    points a side, to 1/16 px), and the quad of its bent corners; ``figure``: a dark base standing
    over the middle of its top edge."""
    grey = np.full(WORK_SHAPE, 60, np.uint8)
    t = np.linspace(0, 1, 400, endpoint=False)[:, None]
    straight = np.concatenate([a + t * (b - a) for a, b in zip(SHEET, np.roll(SHEET, -1, axis=0), strict=True)])
    bent = lens.bend_points(straight, WORK_SHAPE, k)
    cv2.fillPoly(grey, [np.round(bent * 16).astype(np.int32)], 200, cv2.LINE_AA, shift=4)
    if figure:
        cv2.circle(grey, (810, 280), 22, 30, -1, cv2.LINE_AA)
    return grey, lens.bend_points(SHEET, WORK_SHAPE, k)


@pytest.mark.parametrize("k", [-0.1, -0.06, -0.03, 0.04])
def test_the_sheets_edges_give_the_bend(k: float) -> None:
    """R244: the sheet's four edges, straight on the table, bow under the lens away from its
    outline's straight quad; straightened by the lens's own bend they are straight again (a figure
    over an edge left out with the worst fifth of its points)."""
    grey, quad = _sheet_photo(k, figure=True)
    found, at_k, at_0 = lens.bend_of_edges(lens.edges_of_outline(grey, quad), grey.shape)
    assert found == pytest.approx(k, abs=0.01)
    assert at_k <= lens.EDGE_FIT and at_0 > 1.5 * at_k  # read (R242's LENS_BETTER)


def test_straight_edges_show_no_bend() -> None:
    """A straight lens: no bend the straightened search would run for (:data:`assistant.photo.LENS_SHOWN`)."""
    from assistant.photo import LENS_SHOWN

    grey, quad = _sheet_photo(0.0)
    found, _at_k, _at_0 = lens.bend_of_edges(lens.edges_of_outline(grey, quad), grey.shape)
    assert abs(found) < LENS_SHOWN / 2


def _one_side_found(monkeypatch: pytest.MonkeyPatch, crossings: tuple[float, float, float],
                    outline: tuple[float, float, float]) -> tuple[object, list[float]]:
    """:func:`assistant.photo._bent_far_side` on two markers on one side (0 and 1) whose grid the
    lines confirmed, the crossings and the sheet's edges reading what is given; the search again is
    recorded (the bend the photo was straightened by), not run."""
    import assistant.photo as photo
    from assistant.photo.board import Grid
    from assistant.position import load_position
    from assistant.resources import example_path

    straightened_by: list[float] = []
    monkeypatch.setattr(lens, "crossings_of_markers", lambda *a: ((), ()))
    monkeypatch.setattr(lens, "bend_of_crossings", lambda *a: crossings)
    monkeypatch.setattr(lens, "bend_of_outline", lambda *a: outline)
    monkeypatch.setattr(lens, "straightened", lambda image, k: straightened_by.append(k) or image)
    again = Grid(np.eye(3), 0.5, 2)
    monkeypatch.setattr(photo, "_locate_grid", lambda *a, **kw: (again, kw["known"], False))
    pos = load_position(example_path("clone-wars-example-combat"))
    image = np.zeros((300, 400, 3), np.uint8)
    found = (Grid(np.eye(3), 0.5, 2), _markers(0.0, (0, 1)), False)
    return photo._bent_far_side(image, pos, "p", None, found), straightened_by


def test_a_bend_the_crossings_read_straightens_one_sides_grid(monkeypatch: pytest.MonkeyPatch) -> None:
    # R275: the crossings read -0.076 clearly (0.006 px against 0.011 straight, seed 4345): before,
    # only a bend read from the sheet's edges was acted on, and the far side stood 0.33 squares off
    result, straightened_by = _one_side_found(monkeypatch, (-0.076, 0.0064, 0.0113), (0.0, 0.0, 0.0))
    assert straightened_by == [-0.076]
    assert result is not None and result[0].lens == -0.076


def test_a_bend_the_crossings_read_unclearly_or_none_leaves_the_grid(monkeypatch: pytest.MonkeyPatch) -> None:
    # seed 4231: -0.068 read, but 0.0129 against 0.0189 straight (under LENS_BETTER): the lens is -0.026
    for crossings in ((-0.068, 0.0129, 0.0189), (0.01, 0.005, 0.006)):
        result, straightened_by = _one_side_found(monkeypatch, crossings, (-0.09, 0.01, 0.1))
        assert result is None and straightened_by == []


def test_no_crossings_read_the_sheets_edges_give_the_bend(monkeypatch: pytest.MonkeyPatch) -> None:
    result, straightened_by = _one_side_found(monkeypatch, (0.0, 0.0, 0.0), (-0.08, 0.02, 0.2))
    assert straightened_by == [-0.08] and result is not None
