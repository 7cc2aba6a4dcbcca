"""The map-size check of a corner markers' grid (issue 28, round 10; reading R81): a floor's tiled
art with a period of its own (independent diagnosis photos s0395 and s0429: a carpet's pattern
0.74-0.79 of a square) is not a map of another size; a map of another size prints a whole number
of squares between the markers, a line on each of the map's edges."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from assistant.photo import lines
from assistant.photo.board import Grid

#: squares -> photo pixels: 60 px a square, seen from straight above (s0429: tilt 1 degree)
PX_PER_SQUARE = 60
MARGIN = 80
TO_IMG = np.array([[PX_PER_SQUARE, 0, MARGIN], [0, PX_PER_SQUARE, MARGIN], [0, 0, 1.0]])


def _carpet_map(cols: int, rows: int, period: float, phase: float, printed: tuple[int, int] | None = None,
                lines_grey: int = 150, stripes_grey: int = 230) -> np.ndarray:
    """A photo of a printed map ``cols`` x ``rows`` seen from above: a dark floor under bold light
    stripes both ways (a carpet's weave) ``period`` squares apart, the first ``phase`` of a period
    from the map's edge, and the map's own faint light grid lines one square apart -- or,
    ``printed`` given, the lines of a map of that many squares framed by the same corners
    (``lines_grey``, the stripes ``stripes_grey``)."""
    h, w = rows * PX_PER_SQUARE + 2 * MARGIN, cols * PX_PER_SQUARE + 2 * MARGIN
    gray = np.clip(np.random.default_rng(3).normal(110, 8, (h, w)), 0, 255).astype(np.uint8)

    def line(a: tuple[float, float], b: tuple[float, float], grey: int, thick: int) -> None:
        p = cv2.perspectiveTransform(np.array([[a, b]], np.float64), TO_IMG)[0]
        cv2.line(gray, tuple(int(v) for v in p[0]), tuple(int(v) for v in p[1]), grey, thick, cv2.LINE_AA)

    for k in range(int((max(cols, rows) - phase * period) / period) + 1):
        t = (phase + k) * period
        if t <= cols:
            line((t, 0), (t, rows), stripes_grey, 3)
        if t <= rows:
            line((0, t), (cols, t), stripes_grey, 3)
    across, down = printed or (cols, rows)
    for i in range(across + 1):
        line((i * cols / across, 0), (i * cols / across, rows), lines_grey, 2 if printed else 1)
    for j in range(down + 1):
        line((0, j * rows / down), (cols, j * rows / down), lines_grey, 2 if printed else 1)
    return cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)


def _markers_grid() -> Grid:
    """The grid four corner markers give, exactly where the map lies."""
    return Grid(np.linalg.inv(TO_IMG), 0.5, 4, None, uncertainty=0.02)


@pytest.mark.parametrize("period, phase", [(0.74, 0.3), (0.79, 0.35)])
def test_a_carpets_own_period_is_not_a_map_of_another_size(period: float, phase: float) -> None:
    """R81: s0429 (carpet, 10 x 11, all four corner markers read, tilt 1 degree) and s0395's empty
    map were refused: "the printed squares are not the grid's squares along the rows: the photo
    shows a map of another size than 10 x 11". The carpet's stripes, 0.74 (0.79) of a square apart
    and clearer than the faint printed lines, make that period's comb; they do not fall a whole
    number of squares between the map's edges, so the grid stands (before: refused)."""
    grid = _markers_grid()
    checked = lines.check_with_lines(_carpet_map(10, 11, period, phase), grid, 10, 11)
    assert np.allclose(checked.H / checked.H[2, 2], grid.H / grid.H[2, 2], atol=0.02)


@pytest.mark.parametrize("across, down", [(13, 11), (10, 14), (12, 13)])
def test_a_map_of_another_size_over_the_carpet_is_still_refused(across: int, down: int) -> None:
    """A fainter carpet of the same weave under the clear printed lines of a map of another whole
    number of squares, framed by the same markers: refused, saying so."""
    photo = _carpet_map(10, 11, 0.74, 0.3, printed=(across, down), lines_grey=235, stripes_grey=150)
    with pytest.raises(lines.GridMismatchError, match="another size|map of about"):
        lines.check_with_lines(photo, _markers_grid(), 10, 11)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(8, 20), squares=st.integers(6, 30), shift=st.floats(0.0, 1.0))
@example(n=11, squares=8, shift=0.453125)  # 8 squares' lines slid half a period: a 16-square comb's every other tooth
def test_the_whole_squares_comb_is_in_step_only_with_lines_on_both_edges(n: int, squares: int, shift: float) -> None:
    """The comb a map of ``squares`` squares along an axis of ``n`` prints: lines at its whole
    squares keep step with it (near 1) at that size; the same lines slid ``shift`` of a period off
    the map's edges do not (a quarter of a period or more: below :data:`.lines.IN_STEP`). Axes of 8
    squares or more, 6 printed squares or more: fewer leave one line or none to a third of the axis."""
    x = np.arange(n * 32) / 32
    period = n / squares
    ink = np.zeros_like(x)
    for k in range(squares + 2):
        at = (k + shift) * period
        if round(at * 32) < len(x):
            ink[round(at * 32)] = 1.0
    in_step, size = lines._whole_squares_comb(ink, x, n)
    if not (lines.WHOLE_PERIODS[0] <= period <= lines.WHOLE_PERIODS[1] and abs(period - 1) > lines.PERIOD_TOLERANCE):
        return  # not a size searched
    off = min(shift, 1 - shift)
    if off < 0.02:
        assert size == squares and in_step > 0.9
    if off >= 0.25:
        assert in_step < lines.IN_STEP


#: independent diagnosis photo s0598's combs through its two corner markers' grid (carpet, 10 x 14, markers 0
#: and 1, the grid 0.08 squares off): its motifs 1.5 squares apart make the rows' comb at 0.75 (their
#: half), clear and by chance in step; the columns show no printed lines of either period
S0598_COMBS = [lines.LineComb(0.75, 0.533, 0.105, 0.043, 0.376, 7), lines.LineComb(0.75, 0.703, 0.129, -0.043, 0.818, 19)]


def test_one_axis_of_art_with_no_printed_lines_the_other_way_is_not_a_map_of_another_size() -> None:
    """R243: s0598 was refused "the photo shows a map of another size than 10 x 14, by more than a
    quarter", which is not true (its markers' grid is right): a map of another size prints lines both
    ways, and its columns show none. The check lets the grid on to the printed lines' own checks."""
    lines._check_map_size(S0598_COMBS, 10, 14)  # no refusal
    assert not lines._printed_both_ways(S0598_COMBS[0])


def test_the_same_rows_with_the_maps_own_lines_the_other_way_are_still_refused() -> None:
    """The same rows' comb where the columns show the map's own lines (0.54 at one square, as the
    drawn maps of another size above): a map of another size, refused as before."""
    own = lines.LineComb(1.002, 0.535, 0.535, -0.004, -0.98, 10)
    assert lines._printed_both_ways(own)
    with pytest.raises(lines.GridMismatchError, match="another size"):
        lines._check_map_size([own, S0598_COMBS[1]], 10, 14)
