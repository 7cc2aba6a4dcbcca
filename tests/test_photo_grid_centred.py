"""Issue 28, round 17: photos without corner markers of maps whose floor art has its own lattice
of the grid's period -- sci-fi floor panels a square wide, wood planks -- whose joints lie a
fraction of a square beside the faint printed lines and stand out more than they do. Every grid
the lines gave had that rival lattice beside it, and the photo was refused (independent scenes
361 and 471, sci-fi, game photo and empty map; 432, wood). A printed map's grid is centred on its
sheet: the lattice the sheet's outline frames evenly is the printed one, the joints' lattice lies
unevenly in it (reading R135).

The scenes are drawn from that description (never from the code's output): a sheet on a dark
table seen at a tilt, a floor of panels whose dark joints run a fraction of a square beside the
printed lines both ways, the grid printed with an even margin."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.photo import lines

from .test_photo_grid import _independent_lattice  # where the independent renderer puts the lattice

PX = 28  # pixels a square of the top view the scene is drawn in
COLS, ROWS = 14, 9
TABLE = 1.5  # squares of table round the sheet in the top view
#: where the top view's corners land in the photo: a camera tilted towards the map's far side
PHOTO_CORNERS = np.array([[120, 80], [680, 93], [740, 507], [60, 493]], np.float32)


def _scene(margins: tuple[float, float, float, float] = (0.4, 0.4, 0.4, 0.4), joints: tuple[float, float] = (0.4, 0.35),
           line_ink: float = 28.0, joint_ink: float = 70.0) -> tuple[np.ndarray, np.ndarray]:
    """The photo (BGR) and its homography board -> photo. The sheet's margins (squares: west,
    north, east, south) round the printed grid; the floor's panels a square wide, their joints
    3 px wide, ``joint_ink`` darker, ``joints`` squares east and south of the printed column and
    row lines (the panels run on under the margin, as printed art does); the grid's lines 2 px
    wide, ``line_ink`` darker; a dark table; a little noise, the lens's blur."""
    west, north, east, south = margins
    w, h = int((COLS + west + east + 2 * TABLE) * PX), int((ROWS + north + south + 2 * TABLE) * PX)
    x0, y0 = (TABLE + west) * PX, (TABLE + north) * PX  # the grid's north-west corner in the top view
    rng = np.random.default_rng(3)
    top = np.full((h, w), 55.0, np.float32) + rng.normal(0, 4, (h, w)).astype(np.float32)
    sx0, sy0 = int(TABLE * PX), int(TABLE * PX)
    sx1, sy1 = int(x0 + (COLS + east) * PX), int(y0 + (ROWS + south) * PX)
    top[sy0:sy1, sx0:sx1] = 165.0
    for k in range(-2, COLS + 3):
        x = int(round(x0 + (k + joints[0]) * PX))
        if sx0 <= x < sx1 - 3:
            top[sy0:sy1, x:x + 3] -= joint_ink
    for k in range(-2, ROWS + 3):
        y = int(round(y0 + (k + joints[1]) * PX))
        if sy0 <= y < sy1 - 3:
            top[y:y + 3, sx0:sx1] -= joint_ink
    for k in range(COLS + 1):
        x = int(round(x0 + k * PX))
        top[int(y0):int(y0 + ROWS * PX) + 1, x - 1:x + 1] -= line_ink
    for k in range(ROWS + 1):
        y = int(round(y0 + k * PX))
        top[y - 1:y + 1, int(x0):int(x0 + COLS * PX) + 1] -= line_ink
    top = cv2.GaussianBlur(top, (0, 0), 0.8)
    view = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    to_photo = cv2.getPerspectiveTransform(view, PHOTO_CORNERS)
    photo = cv2.warpPerspective(np.clip(top, 0, 255).astype(np.uint8), to_photo, (800, 600), flags=cv2.INTER_LINEAR, borderValue=55)
    board_to_top = np.array([[PX, 0, x0], [0, PX, y0], [0, 0, 1]], np.float64)
    return cv2.cvtColor(photo, cv2.COLOR_GRAY2BGR), to_photo @ board_to_top


def _off(H_image_to_board: np.ndarray, board_to_photo: np.ndarray) -> float:
    """How far (squares, at the worst lattice point) a grid lies from the drawn one, either way round."""
    board = np.array([(c, r) for r in range(ROWS + 1) for c in range(COLS + 1)], np.float64)
    seen = cv2.perspectiveTransform(cv2.perspectiveTransform(board[None], board_to_photo), H_image_to_board)[0]
    return min(float(np.max(np.linalg.norm(seen - b, axis=1))) for b in (board, np.array([COLS, ROWS]) - board))


def test_the_grid_centred_on_its_sheet_is_found_beside_the_panels_joints() -> None:
    """The panels' joints 0.4 and 0.35 squares beside the printed lines, twice as dark: no grid was
    claimed (every lattice the lines gave had the joints' lattice beside it). The lattice the
    sheet frames evenly is the printed grid's: found within a tenth of a square (fails before)."""
    photo, truth = _scene()
    found = lines.grid_candidates(photo, COLS, ROWS)
    assert found, "no grid from the printed lines"
    assert all(_off(g.H, truth) < 0.1 for g in found)


def test_the_joints_lattice_beside_the_centred_grid_is_not_claimed() -> None:
    """Margins of 0.6 squares, the joints 0.4 squares beside the printed lines: the joints' lattice
    lies inside the sheet too (its first line on the sheet's edge), and stood alone -- the printed
    lines too faint beside it to be its rival -- a grid 0.82 squares off (fails before). The
    printed grid the sheet frames evenly is found, and the lattice beside it is no longer claimed."""
    photo, truth = _scene(margins=(0.6, 0.6, 0.6, 0.6))
    found = lines.grid_candidates(photo, COLS, ROWS)
    assert found, "no grid from the printed lines"
    assert all(_off(g.H, truth) < 0.1 for g in found)


def _joints_profile(margin: float, shift: float, n: int, joint: float) -> np.ndarray:
    """A line profile through a sheet's outline (n squares and two margins, shown as n outline
    units): printed lines at the margin and every square after it, a floor's joints ``joint``
    times as dark ``shift`` squares beside each, running on under the margins."""
    unit = n / (n + 2 * margin)  # outline units a square
    x = np.arange(n * lines.TOP) / lines.TOP
    squares = x / unit  # squares from the sheet's edge
    printed = np.abs(squares - margin - np.clip(np.round(squares - margin), 0, n)) < 0.03
    joints = np.abs((squares - margin - shift) - np.round(squares - margin - shift)) < 0.04
    return 1.0 * printed + joint * joints


class _Profiles:
    def __init__(self, profile: np.ndarray) -> None:
        self.profile = profile

    def along(self, axis: int) -> np.ndarray:
        return self.profile


@settings(max_examples=40, deadline=None)
@given(margin=st.floats(0.0, 0.75), shift=st.floats(0.25, 0.75), n=st.integers(8, 20), joint=st.floats(1.0, 3.0))
def test_the_centred_margin_is_the_printed_lines_not_the_joints(margin: float, shift: float, n: int, joint: float) -> None:
    """Whatever margin the centred search reads is the printed lines' (within a sixteenth of a
    square), never the joints' a quarter square or more beside them; it may read none (a
    refusal, on small maps whose centred lattices drift apart too little, is no wrong grid)."""
    found = lines._centred_margin(_Profiles(_joints_profile(margin, shift, n, joint)), n, n)  # type: ignore[arg-type]
    assert found is None or abs(found[0] - margin) <= 1 / 16


def test_the_centred_margin_is_found_on_nearly_every_drawn_sheet() -> None:
    """Over a fixed sweep of drawn sheets (margins 0-0.75 squares a thirty-second apart, joints
    0.25-0.75 squares beside the lines and one to three times as dark, 8-20 squares), the margin
    read is the printed lines' within a thirty-second of a square on at least 98.5 % (round 18: 742
    of these 750; 733 before the rivals were measured from the run's middle, which fails)."""
    cases = [(m, s, n, j) for m in np.arange(0.0, 0.751, 1 / 32) for s in (0.25, 0.5, 0.75)
             for n in (8, 10, 13, 16, 20) for j in (1.0, 3.0)]
    right = 0
    for margin, shift, n, joint in cases:
        found = lines._centred_margin(_Profiles(_joints_profile(margin, shift, n, joint)), n, n)  # type: ignore[arg-type]
        right += found is not None and abs(found[0] - margin) <= 1 / 32
    assert right >= 0.985 * len(cases), (right, len(cases))


def test_a_small_maps_run_of_margins_is_no_rival_of_itself() -> None:
    """On a map of eight squares the run of margins as good as the best is a fifth of a square
    wide; measured from its first margin, its own far end was the rival that refused the grid
    (margin 17/32 of a square: no grid found before). Rivals are measured from the run's middle."""
    found = lines._centred_margin(_Profiles(_joints_profile(0.53125, 0.5, 8, 1.0)), 8, 8)  # type: ignore[arg-type]
    assert found is not None and abs(found[0] - 0.53125) <= 1 / 32


def _independent_scifi_grids_off(monkeypatch: pytest.MonkeyPatch, seed: int, empty: bool, width: int) -> list[float]:
    """How far (squares, the worst lattice point, either way round) each grid the printed lines give
    lies from the lattice of the independent renderer's markerless sci-fi scene ``seed``, drawn
    at ``width`` px (the empty map where ``empty``)."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "bench" / "independent"))
    import render  # bench/independent is not a package: on the path only for this test

    scene = render.make_scene(seed, width=width)
    assert scene.look.floor == "scifi" and scene.look.corner_ids == ()
    img = render.render(scene, empty=empty)
    cols, rows = scene.spec.cols, scene.spec.rows
    truth = _independent_lattice(scene, empty=empty)
    board = np.array([(c, r) for r in range(rows + 1) for c in range(cols + 1)], np.float64)
    off = []
    for grid in lines.grid_candidates(img, cols, rows):
        seen = cv2.perspectiveTransform(truth[None], grid.H)[0]
        off.append(min(float(np.max(np.linalg.norm(seen - b, axis=1))) for b in (board, np.array([cols, rows]) - board)))
    return off


@pytest.mark.slow  # the renderer draws two 2,400-px scenes: 4-6 CPU-s
@pytest.mark.parametrize(("seed", "empty"), [(471, False), (361, True)])
def test_independent_scifi_maps_without_markers_give_their_grid(monkeypatch: pytest.MonkeyPatch, seed: int, empty: bool) -> None:
    """The independent renderer's sci-fi scenes 471 (the game photo) and 361 (the empty map), drawn
    at 2,400 px: no corner marker, panels a square wide whose joints lie 0.2-0.4 squares beside the
    printed lines. No grid was given (fails before); every grid the printed lines now give lies
    within a quarter of a square of the renderer's lattice, either way round."""
    off = _independent_scifi_grids_off(monkeypatch, seed, empty, 2400)
    assert off, "no grid from the printed lines"
    assert max(off) < 0.25


@pytest.mark.slow  # the renderer draws one 3,200-px scene: 4-5 CPU-s
def test_the_grid_found_before_the_centred_one_is_settled_by_the_sheet_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The independent renderer's sci-fi scene 553 (the game photo, drawn at 3,200 px; drawn at
    2,400 px it was answered before too): no corner marker, clear printed lines with the panels'
    joints beside them. The inset search found the printed grid first; the centred search (R135)
    found the same lattice, dropped as a copy of it, and only the copy was marked settled by the
    sheet's outline: the grid kept went to the rival test the joints refuse, and no grid was given
    (fails before). The grid the outline frames as evenly as the centred one is settled too
    (reading R190): every grid given lies within a tenth of a square of the renderer's lattice,
    either way round."""
    off = _independent_scifi_grids_off(monkeypatch, 553, False, 3200)
    assert off, "no grid from the printed lines"
    assert max(off) < 0.1
