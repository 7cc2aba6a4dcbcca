"""One corner marker, and a sheet outline whose corners a second, unread corner marker (its pattern
hidden by a figure) or the read one pulled off the sheet's own: the outline read again from its
straight edges (issue 28, round 25; reading R261). Diagnosis photos s0561 (wood, marker 0) and s0573
(stone, marker 2) were refused without the reference: their printed lines show on no start, and
one outline each gave a start (R239 asks two that agree)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from assistant.editions import Edition
from assistant.model import Map, Position
from assistant.photo import LENS_SHOWN, lens, locate_grid, onemarker
from assistant.photo.gridsearch import _Search, _straightened_grid
from assistant.photo.markers import Marker

from .test_photo_grid_one_marker import COLS, ROWS, SQUARES, _lattice_off, _on_photo, _photo, _to_photo, _unlined_photo


def _covered(photo: np.ndarray) -> np.ndarray:
    """``photo`` with corner marker 2 on the map's SE corner, its pattern hidden (read as no marker):
    its white quiet zone joins the sheet's outline there."""
    square = np.array([[COLS, ROWS], [COLS + 1.2, ROWS], [COLS + 1.2, ROWS + 1.2], [COLS, ROWS + 1.2]], np.float64)
    centre = square.mean(axis=0)
    cv2.fillPoly(photo, [np.round(_on_photo((square - centre) * 1.35 + centre)).astype(np.int32)], (245, 245, 245))
    cv2.fillPoly(photo, [np.round(_on_photo(square)).astype(np.int32)], (20, 20, 20))
    return photo


def test_an_outline_pulled_onto_an_unread_marker_is_read_from_its_straight_edges(monkeypatch: pytest.MonkeyPatch) -> None:
    """R261: no printed lines (wood's planks), the sheet's edge and a border round the map, marker 0
    read and marker 2's pattern hidden: the outlines' starts disagree (one 0.78 squares off, pulled
    onto marker 2's quiet zone), so R239 gives nothing; the sheet read from its straight edges
    gives the grid within a twentieth of a square (measured 0.008)."""
    photo, marker = _unlined_photo((0.15,))
    photo = _covered(photo)
    grid = onemarker.one_marker_grid(photo, [marker], COLS, ROWS)
    assert grid is not None and grid.corner_markers == 1 and grid.uncertainty == onemarker.ONE_MARKER_UNCERTAINTY
    assert _lattice_off(grid.H) < 0.05
    # without R261 (before it): refused
    monkeypatch.setattr(onemarker, "straight_sheet_grid", lambda *_a, **_k: None)
    assert onemarker.one_marker_grid(photo, [marker], COLS, ROWS) is None


def test_printed_lines_a_third_of_a_square_off_still_refuse_a_straight_edged_start() -> None:
    """R261 keeps R133's and R239's checks: lines printed a third of a square off the marker's
    corner show clearly elsewhere, and nothing stands, the outline pulled onto marker 2 or not."""
    photo, marker = _photo(lines_off=0.35)
    assert onemarker.one_marker_grid(_covered(photo), [marker], COLS, ROWS) is None


#: the grid search's copy of a photo and a sheet on it, straight (as tests/test_photo_lens.py)
WORK_SHAPE = (1200, 1600)
SHEET = np.array([[380.0, 260.0], [1240.0, 300.0], [1330.0, 930.0], [300.0, 960.0]])


def _sheet(k: float = 0.0) -> np.ndarray:
    """A light sheet on a dark table as a lens bending by ``k`` shows it, a dark base over its top edge."""
    grey = np.full(WORK_SHAPE, 60, np.uint8)
    t = np.linspace(0, 1, 400, endpoint=False)[:, None]
    straight = np.concatenate([a + t * (b - a) for a, b in zip(SHEET, np.roll(SHEET, -1, axis=0), strict=True)])
    cv2.fillPoly(grey, [np.round(lens.bend_points(straight, WORK_SHAPE, k) * 16).astype(np.int32)], 200, cv2.LINE_AA, shift=4)
    cv2.circle(grey, (810, 280), 22, 30, -1, cv2.LINE_AA)
    return grey


def test_the_sheets_corners_where_its_straight_edges_meet() -> None:
    """An outline's corner pulled 15 px out (onto a marker's quiet zone) or 10 px in (cut by one):
    the sides fitted to the sheet's edge meet at its corners again, within a pixel and a half (the
    filled sheet's edge lies half a pixel out of its drawn outline; a square is about 60 px here)."""
    quad = SHEET.copy()
    quad[2] += [15.0, 12.0]
    quad[0] += [8.0, 6.0]
    found = onemarker.straight_quad(_sheet(), quad)
    assert found is not None
    assert np.max(np.linalg.norm(found - SHEET, axis=1)) < 1.5


def test_a_sheet_the_lens_bends_has_no_straight_edges() -> None:
    """A barrel lens (k -0.1) bows the sheet's edges several pixels off any line: no corners are
    read from them (R261 answers no such photo; not modelled)."""
    assert onemarker.straight_quad(_sheet(-0.1), lens.bend_points(SHEET, WORK_SHAPE, -0.1)) is None


def test_the_marker_looks_square_only_on_a_start_that_scales_both_axes_alike() -> None:
    """R261's marker test: through the map's own homography marker 0 is a square; through a start
    that stretches one axis by 1.44 (a quad round half the map, s0563's empty map) it is not."""
    marker = Marker(0, _on_photo(SQUARES[0]))
    H = np.linalg.inv(_to_photo())
    assert onemarker.marker_square(H, marker)
    assert not onemarker.marker_square(np.diag([1.44, 1.0, 1.0]) @ H, marker)
    assert not onemarker.marker_square(np.array([[1.0, 0.08, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]) @ H, marker)  # skewed 4.6 degrees


def _rendered(monkeypatch: pytest.MonkeyPatch, seed: int) -> tuple[Any, np.ndarray, Position]:
    """The independent renderer's scene ``seed`` (a diagnosis seed), its game photo as the renderer
    writes it (its JPEG quality), and the position's map."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "bench" / "independent"))
    import render  # bench/independent is not a package: on the path only for these tests

    scene = render.make_scene(seed, width=4000)
    ok, jpeg = cv2.imencode(".jpg", render.render(scene), [cv2.IMWRITE_JPEG_QUALITY, scene.cam.jpeg])
    assert ok
    return scene, cv2.imdecode(jpeg, cv2.IMREAD_COLOR), Position(Edition.SWM2008, Map(scene.spec.cols, scene.spec.rows), ())


@pytest.mark.slow
def test_scene_573_one_marker_on_stone_is_answered_from_the_sheets_straight_edges(monkeypatch: pytest.MonkeyPatch) -> None:
    """R261 end to end on the independent renderer's scene 573's game photo (12 MP, stone, 18 x 9,
    marker 2, the camera 42 degrees off vertical): refused before (its printed lines show on no
    start; one outline's start 0.36 squares off, the other's corner on the marker); the outline read
    from its straight edges gives the grid within a tenth of a square (measured 0.036), the work
    budget as `photo detect` has it."""
    scene, photo, pos = _rendered(monkeypatch, 573)
    import render  # on the path once _rendered has run

    assert scene.look.corner_ids == (2,)
    grid, markers, by_lines = locate_grid(photo, pos)
    assert not by_lines and sorted(m.id for m in markers if m.id < 4) == [2]
    assert render.grid_error(grid.H, scene) < 0.1


def test_one_marker_on_a_straight_photo_reads_no_bend_and_is_not_searched_again() -> None:
    """R262 acts only where the sheet's edges show a bend (R242's tests): a photo drawn straight, one
    corner marker read, gives no bend, so nothing is searched again."""
    photo, marker = _unlined_photo((0.15,))
    search = _Search(markers=[marker], structured=True)
    assert _straightened_grid(photo, Position(Edition.SWM2008, Map(COLS, ROWS), ()), "drawn", None, search) is None
    assert abs(lens.bend_of_outline(photo, [marker])[0]) < LENS_SHOWN


@pytest.mark.slow
def test_scene_563_one_marker_on_wood_under_a_strong_lens_is_answered_on_the_photo_straightened(monkeypatch: pytest.MonkeyPatch) -> None:
    """R262 end to end on the independent renderer's scene 563's game photo (12 MP, wood, 12 x 9,
    marker 1, the renderer's k1 -0.118: a strong barrel lens): refused before (its one outline's
    start 0.23 squares off, its edges 1 px off straight); the sheet's edges give the bend (-0.083),
    and on the photo straightened by it the grid lies within a tenth of a square of the renderer's
    lattice (measured 0.005)."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "bench"))
    scene, photo, pos = _rendered(monkeypatch, 563)
    import independent as ind  # bench/ is not a package: on the path only for this test

    assert scene.look.corner_ids == (1,)
    grid, markers, _by_lines = locate_grid(photo, pos, straighten=True)
    assert sorted(m.id for m in markers if m.id < 4) == [1]
    assert grid.lens == pytest.approx(-0.083, abs=0.01)
    assert ind.lens_grid_error(grid.H, grid.lens, scene) < 0.1
