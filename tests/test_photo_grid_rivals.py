"""Issue 28, round 5: a grid from the printed lines is claimed only where no other lattice of lines
lies beside it nearly as clear; the work budget predicts the whole-photo marker search honestly;
the corner markers' fit costs fewer refits for the same answer.

The scenes are built from the description of each failure (never from the code's own output):
a map whose floor has stripes one square apart half a square beside its faint printed grid, and
the independent renderer's scene 359 (empty map, wood planks), where a grid half a square off
was taken."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.photo import budget, lines
from assistant.photo.board import Grid, find_grid, marker_board_corners
from assistant.photo.markers import Marker

from .test_photo_grid import _independent_lattice  # where the independent renderer puts the lattice

PX = 40  # pixels a square of the synthetic top views
COLS, ROWS = 12, 9


def _map(line_ink: float, stripes_ink: float, stripe_shift: float = 0.45, light_floor: float = 170.0,
         row_ink: float | None = None) -> np.ndarray:
    """A map seen from straight above, ``PX`` pixels a square, a margin of one square of table
    round it: printed grid lines ``line_ink`` darker than the floor, 2 px wide, along both axes
    (``row_ink``: the rows' lines this much darker instead, as a view that blurs one axis more shows them);
    the floor's seams (wood planks a square wide) ``stripes_ink`` darker, 2 px wide, running along
    the rows only, ``stripe_shift`` squares below each printed row line; the lens's blur (a
    Gaussian of 1 px) and a little noise."""
    h, w = (ROWS + 2) * PX, (COLS + 2) * PX
    img = np.full((h, w), 90.0, np.float32)  # the table
    img[PX:PX + ROWS * PX + 1, PX:PX + COLS * PX + 1] = light_floor
    for r in range(ROWS):
        y = PX + int(round((r + stripe_shift) * PX))
        img[y:y + 2, PX:PX + COLS * PX] -= stripes_ink
    for k in range(COLS + 1):
        img[PX:PX + ROWS * PX + 1, PX + k * PX - 1:PX + k * PX + 1] -= line_ink
    for k in range(ROWS + 1):
        img[PX + k * PX - 1:PX + k * PX + 1, PX:PX + COLS * PX + 1] -= line_ink if row_ink is None else row_ink
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    img += np.random.default_rng(0).normal(0, 2.0, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _grid_H(shift_rows: float = 0.0) -> np.ndarray:
    """Image (of :func:`_map`) -> board, the lattice moved ``shift_rows`` squares down the rows."""
    return np.array([[1 / PX, 0, -1.0], [0, 1 / PX, -1.0 - shift_rows], [0, 0, 1]])


def test_a_clear_printed_grid_stands_alone() -> None:
    """Clear lines both ways, no stripes: the grid stands; so it does over stripes a fifth as dark
    as its lines (they are no lattice nearly as clear)."""
    assert lines.stands_alone(_map(60.0, 0.0), _grid_H(), COLS, ROWS)
    assert lines.stands_alone(_map(60.0, 12.0), _grid_H(), COLS, ROWS)


def test_stripes_a_square_apart_beside_faint_lines_leave_the_grid_doubtful() -> None:
    """Wood planks a square wide, their seams twice as dark as the faint printed lines and 0.45
    squares below them: the lattice laid on the seams one way (and on the printed lines the
    other) is no grid to claim, and neither is the true one -- nothing tells which of the two
    lattices along the rows is the printed grid's."""
    img = _map(15.0, 30.0)
    assert not lines.stands_alone(img, _grid_H(0.45), COLS, ROWS)  # the seams' lattice
    assert not lines.stands_alone(img, _grid_H(0.0), COLS, ROWS)  # the printed grid's, as doubtful


@pytest.mark.slow  # the renderer draws a 2,400-px scene: 4 CPU-s
def test_an_independent_wood_map_gives_no_grid_half_a_square_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """The independent renderer's scene 359, the empty map, 2400 px: wood planks about a square
    wide whose seams run along the rows, faint brown printed lines, a white rim, two corner
    markers on one side (no grid from them alone). A grid on the seams one way and on the printed
    lines the other was found 0.43 squares off (0.49 on the bench's JPEG) and oriented by the
    terrain read through it. Every grid the printed lines now give lies within a quarter of a
    square of the renderer's lattice (either way round), or none is given. Round 15's renderer
    (the art printed once, at the game photo's scale) gave a grid 0.36 squares off again: the
    printed row lines beside the seams' lattice stood under half the columns' lines, however much
    clearer than those the seams stood (reading R114)."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "bench" / "independent"))
    import render  # bench/independent is not a package: on the path only for this test

    scene = render.make_scene(359, width=2400)
    assert scene.look.floor == "wood" and scene.look.corner_ids == (0, 1)
    img = render.render(scene, empty=True)
    cols, rows = scene.spec.cols, scene.spec.rows
    truth = _independent_lattice(scene, empty=True)
    board = np.array([(c, r) for r in range(rows + 1) for c in range(cols + 1)], np.float64)
    for grid in lines.grid_candidates(img, cols, rows):
        seen = cv2.perspectiveTransform(truth[None], grid.H)[0]
        assert min(np.max(np.linalg.norm(seen - b, axis=1)) for b in (board, np.array([cols, rows]) - board)) < 0.25


def test_seams_clearer_than_the_printed_lines_make_a_lattice_laid_on_them_doubtful() -> None:
    """Reading R114, from independent scene 359's empty map as round 15's renderer draws it: wood
    planks a square wide whose dark seams run along the rows 0.35 squares below the printed row
    lines, the printed lines fainter along the rows than along the columns (as a view blurring one
    axis more shows them). A lattice laid on the seams along the rows and on the printed lines
    along the columns has the printed row lines beside it under half as clear as its column lines
    (6.1 against 13, its seams 21.7 over the art): it stood, a grid 0.35 squares off. Its rows
    standing out so much more than its columns say they are laid on more than the printed ink, so
    the lattice beside them is weighed against that much less: doubtful. The printed lattice is
    doubtful too (nothing tells which of the two is the grid's), and seams on the printed row lines
    themselves, no lattice beside them, leave the grid standing."""
    img = _map(24.0, 40.0, stripe_shift=0.35, row_ink=11.0)
    assert not lines.stands_alone(img, _grid_H(0.35), COLS, ROWS)  # the seams' lattice along the rows: stood before
    assert not lines.stands_alone(img, _grid_H(0.0), COLS, ROWS)
    assert lines.stands_alone(_map(24.0, 40.0, stripe_shift=0.0, row_ink=11.0), _grid_H(0.0), COLS, ROWS)


def test_the_whole_photo_search_is_predicted_from_its_pixels() -> None:
    """Independent scene 355 (12 MP, wood): the harder search of the 2,400-px copy (4.3 MP) was
    handed 640 candidates, the same search of the whole photo 1,712; predicted at 640 it was run,
    spent the printed-lines search's reserve, and the photo was refused without that search. The
    candidates now grow with the pixels (the prediction is within a fifth of what it cost), and the
    search is skipped where it would leave the printed-lines search less than its reserve."""
    b = budget.Budget()
    b.charge(budget.COST_PER_PHOTO_MP * 12.0)
    b.searched(12.0, 4.32, 107, first=True)
    b.searched(12.0, 4.32, 640)
    cost = budget.marker_search_cost(12.0, 12.0, 1712)
    assert abs(b.predict(12.0, 12.0) - cost) < 0.2 * cost
    assert not b.afford("the full-resolution corner-marker search", b.predict(12.0, 12.0), reserve=budget.LINES_RESERVE)
    assert b.afford("the printed-lines search", budget.LINES_RESERVE)


H_TRUE = np.array([[80.0, 25.0, 400.0], [2.0, 70.0, 300.0], [0.0, 0.02, 1.0]])


@pytest.mark.parametrize("side", [0.12, 0.8, 4.5])
def test_the_marker_side_is_found_to_a_ten_thousandth(side: float) -> None:
    """Four exact corner markers of side 0.12, 0.8 and 4.5 squares: the fit puts every lattice
    point within a thousandth of a square of the truth; the fit without its uncertainty (the
    readings' comparison) is the same homography, its uncertainty left 0."""
    markers = [Marker(i, cv2.perspectiveTransform(marker_board_corners(i, COLS, ROWS, side)[None], H_TRUE)[0]) for i in range(4)]
    grid = find_grid(markers, COLS, ROWS)
    quick = find_grid(markers, COLS, ROWS, uncertainty=False)
    assert grid is not None and quick is not None
    pts = np.array([[x, y] for x in range(COLS + 1) for y in range(ROWS + 1)], np.float64)
    back = cv2.perspectiveTransform(cv2.perspectiveTransform(pts[None], H_TRUE), grid.H)[0]
    assert float(np.max(np.linalg.norm(back - pts, axis=1))) < 1e-3
    assert np.allclose(quick.H, grid.H) and quick.uncertainty == 0.0 and grid.uncertainty > 0.0


def test_base_markers_from_a_quarter_square_are_read_on_busy_art() -> None:
    """The top-down view searched for base markers no longer hands ArUco every grain of the art
    (markers under a fifth of a square are not looked for): stickers of a quarter and of half a
    square (CONTRACT §4's bases carry 0.3-0.6), turned, on a floor of speckled art, are read."""
    from assistant.photo.markers import RECTIFIED_PX, find_base_markers
    from assistant.photo.synth import DICT

    px, cols, rows = RECTIFIED_PX, 6, 4
    rng = np.random.default_rng(3)
    art = cv2.GaussianBlur(rng.uniform(40, 220, (rows * px, cols * px)).astype(np.float32), (0, 0), 1.5)
    img = cv2.cvtColor(np.clip(art, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    dictionary = cv2.aruco.getPredefinedDictionary(DICT)
    for mid, side, (col, row), turn in ((7, 0.25, (1, 1), 20.0), (12, 0.5, (4, 2), -35.0)):
        s = int(side * px)
        sticker = np.full((s * 2, s * 2), 255, np.uint8)  # the marker with a white margin of half its side
        sticker[s // 2:s // 2 + s, s // 2:s // 2 + s] = cv2.aruco.generateImageMarker(dictionary, mid, s)
        R = cv2.getRotationMatrix2D((s, s), turn, 1.0)
        R[:, 2] += ((col + 0.5) * px - s, (row + 0.5) * px - s)
        mask = cv2.warpAffine(np.full_like(sticker, 255), R, (cols * px, rows * px)) > 0
        warped = cv2.warpAffine(sticker, R, (cols * px, rows * px), flags=cv2.INTER_LINEAR)
        img[mask] = warped[mask][:, None]
    H = np.diag([1.0 / px, 1.0 / px, 1.0])  # the image is the top-down view itself
    assert sorted(m.id for m in find_base_markers(img, H, cols, rows)) == [7, 12]


def _corner_marker(mid: int, shift_rows: float = 0.0) -> Marker:
    """Corner marker ``mid`` (CONTRACT §4: outside the grid, its corner nearest the map on the map
    corner it names) laid on :func:`_map`'s map, the map's lattice moved ``shift_rows`` squares."""
    board = marker_board_corners(mid, COLS, ROWS, 1.0)
    return Marker(mid, cv2.perspectiveTransform(board[None], np.linalg.inv(_grid_H(shift_rows)))[0])


def test_a_corner_marker_settles_which_of_two_lattices_is_the_grid() -> None:
    """Reading R59: where a floor's lattice beside the faint printed one leaves the grid doubtful,
    "a corner marker settles it". Wood planks twice as dark as the printed lines, 0.45 squares
    below them (independent scene 392: a wood map on a wood table, one corner marker, refused):
    with the NE marker on the map's corner the printed lattice is claimed; the seams' lattice,
    which puts that corner 0.45 squares from the marker's, is not; without a corner marker (a
    base marker does not name a map corner) neither is, as before."""
    img = _map(15.0, 30.0)
    one = np.eye(3)
    printed, seams = Grid(_grid_H(0.0), 0.0, 0), Grid(_grid_H(0.45), 0.0, 0)
    marker = _corner_marker(1)
    assert lines.settled(img, printed, one, COLS, ROWS, [marker])
    assert not lines.settled(img, seams, one, COLS, ROWS, [marker])
    assert not lines.settled(img, printed, one, COLS, ROWS, [])
    base = Marker(7, marker.corners)
    assert not lines.settled(img, printed, one, COLS, ROWS, [base])
    # a marker on the seams' corner (the map laid elsewhere) does not make the printed lattice the grid
    assert not lines.settled(img, printed, one, COLS, ROWS, [_corner_marker(1, 0.45)])


@pytest.mark.slow
def test_an_independent_wood_map_with_one_corner_marker_gives_its_grid(monkeypatch: pytest.MonkeyPatch) -> None:
    """The independent renderer's scene 392, the game photo (12 MP): a wood-plank map on a wood
    table, tilted 14.5 degrees, one corner marker (id 1, NE). The planks made the printed grid
    doubtful and the photo was refused; the marker on the map's NE corner settles it, so the grid
    is given, within a quarter of a square of the renderer's lattice and the right way round."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "bench" / "independent"))
    import render  # bench/independent is not a package: on the path only for this test

    from assistant.editions import Edition
    from assistant.model import Map, Position
    from assistant.photo import locate_grid

    scene = render.make_scene(392, width=4000)
    assert scene.look.floor == "wood" and scene.look.corner_ids == (1,)
    img = render.render(scene)
    cols, rows = scene.spec.cols, scene.spec.rows
    grid, _markers, by_lines = locate_grid(img, Position(Edition.SWM2008, Map(cols, rows), ()))
    truth = _independent_lattice(scene, empty=False)
    board = np.array([(c, r) for r in range(rows + 1) for c in range(cols + 1)], np.float64)
    seen = cv2.perspectiveTransform(truth[None], grid.H)[0]
    assert by_lines and float(np.max(np.linalg.norm(seen - board, axis=1))) < 0.25
