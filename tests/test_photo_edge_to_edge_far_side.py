"""Two corner markers on one side, and a sheet printed to its very edge (issue 28, round 31; reading
R349): round 30's held-out game photo s0678 (a stone map, markers 0 and 3, a strong barrel lens) was
refused. On the photo straightened by the lens's bend its sheet's margin, measured at the markers'
corners, read -0.012 squares (median of 0.012, -0.012, -0.031, -0.012): a map printed to the edge,
found a hair inside it, and R100 took no margin below none. The sheet's edges did not give the bend
either: a wood table's grain beside the sheet outshone its edge at half the places sampled."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from assistant.photo import lens, lines
from assistant.photo.board import find_grid

from .test_photo_grid_outline_side import COLS, ROWS
from .test_photo_grid_sides import S401_MARKERS, _markers
from .test_photo_lens import SHEET, WORK_SHAPE, _sheet_photo


def _outline_at(margin: float, monkeypatch: pytest.MonkeyPatch) -> tuple[lines.Grid, list[Any]]:
    """Scene 401's two markers' grid, and the one outline the photo shows put ``margin`` squares
    outside the grid all round through it (as :func:`.lines._outlines_at_map_corners` gives it)."""
    markers = _markers(S401_MARKERS)
    grid = find_grid(markers, COLS, ROWS)
    assert grid is not None
    sheet = np.array([[-margin, -margin], [COLS + margin, -margin], [COLS + margin, ROWS + margin], [-margin, ROWS + margin]])
    to_photo = np.linalg.inv(grid.H)
    monkeypatch.setattr(lines, "_outlines_at_map_corners", lambda *_a: [(cv2.perspectiveTransform(sheet[None], to_photo)[0], sheet)])
    return grid, markers


@pytest.mark.parametrize("margin", [-0.03, -0.012])
def test_a_sheet_printed_to_its_edge_gives_the_far_side(margin: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """R100 with R349: the outline a few hundredths inside the grid all round (as found on a map
    printed to the edge; s0678 read -0.012): the far side is the outline's, within a tenth of a
    square of the markers' grid here (before: a margin below none was no margin; refused)."""
    grid, markers = _outline_at(margin, monkeypatch)
    found = lines.outline_far_side(np.zeros((3000, 4000, 3), np.uint8), grid, markers, COLS, ROWS)
    assert found is not None
    assert lines.lattice_apart(found.H, grid.H, COLS, ROWS) < 0.1
    # an outline a tenth of a square inside the grid (beyond EDGE_SLACK) is no sheet's edge, as before
    grid, markers = _outline_at(-0.1, monkeypatch)
    assert lines.outline_far_side(np.zeros((3000, 4000, 3), np.uint8), grid, markers, COLS, ROWS) is None


def _grained(k: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`tests.test_photo_lens._sheet_photo`'s sheet under the bend ``k``, on a table whose
    grain runs beside each edge, 9 px out: black and white strokes, stronger steps than the sheet's
    own edge, over every other stretch of it."""
    grey, quad = _sheet_photo(k)
    centre = SHEET.mean(axis=0)
    for a, b in zip(SHEET, np.roll(SHEET, -1, axis=0), strict=True):
        out = a + b - 2 * centre
        normal = np.array([-(b - a)[1], (b - a)[0]]) / np.linalg.norm(b - a)
        normal *= np.sign(normal @ out)
        for j in range(0, 20, 2):  # every other twentieth of the side
            p, q = a + (b - a) * j / 20, a + (b - a) * (j + 1) / 20
            stroke = lens.bend_points(np.array([p + 9 * normal, q + 9 * normal]), WORK_SHAPE, k)
            cv2.line(grey, tuple(int(v) for v in stroke[0]), tuple(int(v) for v in stroke[1]), 0, 3)
            light = lens.bend_points(np.array([p + 12 * normal, q + 12 * normal]), WORK_SHAPE, k)
            cv2.line(grey, tuple(int(v) for v in light[0]), tuple(int(v) for v in light[1]), 255, 3)
    return grey, quad


@pytest.mark.parametrize("k", [-0.08, -0.05])
def test_the_sheets_edges_give_the_bend_beside_a_grained_table(k: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """R244 with R349: the sheet's edge is the step on one curve along each side, not the strongest
    step at each place: the grain beside it leaves the bend read (before: the strongest steps
    jumped between the edge and the grain, and no bend was read)."""
    grey, quad = _grained(k)
    monkeypatch.setattr(lines, "_sheet_outlines", lambda *_a: (1.0, [quad]))
    found, at_k, at_0 = lens.bend_of_outline(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), [])
    assert found == pytest.approx(k, abs=0.01)
    assert at_k <= lens.EDGE_FIT and at_0 > 1.5 * at_k
    # no lens, the same grain: no bend the straightened search would run for
    from assistant.photo import LENS_SHOWN

    grey, quad = _grained(0.0)
    monkeypatch.setattr(lines, "_sheet_outlines", lambda *_a: (1.0, [quad]))
    assert abs(lens.bend_of_outline(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), [])[0]) < LENS_SHOWN / 2
