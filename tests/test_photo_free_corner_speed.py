"""The free-corner search's cost (issue 28, round 16: <= 1 s a photo on two cores): each of the
~300 lattices it tries is seen through only at the printed-line samples it scores -- those near
the free corners -- and its means and medians are numpy's numbers without numpy's generic path.
Before, every sample of the whole map was warped for each lattice and most were thrown away.
A base's rim is read dark inside and light inside from one running sum of the edges."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from assistant.photo import lines
from assistant.photo.bases import RIM_ANGLES, RIM_RADII, RIM_SHIFTS, rim_strength
from assistant.photo.reference import PAD, PX

from .test_photo_grid_sides import TO_IMG, _off, _printed, north_markers_far_side_off


def test_the_far_side_search_sees_each_lattice_only_where_it_scores_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two markers on the north side of a 10 x 8 map, its far side 0.3 squares off: the far side
    is found on the printed lines as before (within a tenth of a square), and every lattice tried
    is seen through at the samples of the map's south half only (the last check, of the whole
    map, excepted): at most 60 % of the map's samples, not all of them. The lattices are scored
    together (:func:`.lines._supports`, round 21) or one by one (:func:`.lines._support`): both counted.
    No lattice is scored on the map's border lines, only on the lines inside it (R281)."""
    cols, rows = 10, 8
    grid, truth = north_markers_far_side_off(cols, rows, TO_IMG)
    samples, along = lines._line_samples(cols, rows, 0.0), lines._along_columns(cols, rows, 0.0)
    everywhere = int(np.sum(np.where(along, (samples[:, 0] > 0) & (samples[:, 0] < cols), (samples[:, 1] > 0) & (samples[:, 1] < rows))))
    seen: list[int] = []
    border: list[bool] = []

    def on_the_border(on: np.ndarray) -> bool:  # a sample on a border line: on x = 0 or cols off the crossings, or y = 0 or rows
        return bool(np.any((np.isin(on[:, 0], (0, cols)) & (on[:, 1] % 1 != 0)) | (np.isin(on[:, 1], (0, rows)) & (on[:, 0] % 1 != 0))))
    support, supports = lines._support, lines._supports

    def counted(ink: np.ndarray, H_img: np.ndarray, on: np.ndarray, off_samples: np.ndarray) -> Any:
        seen.append(len(on))
        border.append(on_the_border(on))
        return support(ink, H_img, on, off_samples)

    def counted_together(ink: np.ndarray, lattices: list[np.ndarray], on: np.ndarray, *rest: Any) -> list[float]:
        seen.extend([len(on)] * len(lattices))
        border.append(on_the_border(on))
        return supports(ink, lattices, on, *rest)

    monkeypatch.setattr(lines, "_support", counted)
    monkeypatch.setattr(lines, "_supports", counted_together)
    refined = lines._refine_free_corner(_printed(cols, rows, TO_IMG), False, grid, 1.0, cols, rows)
    assert refined is not None
    assert _off(refined.H, truth.tolist(), cols, rows) < 0.1
    assert len(seen) > 300  # the coarse and the fine search, and the last check
    assert sum(n == everywhere for n in seen) <= 2  # the whole map only for each search's last check
    assert max(n for n in seen if n != everywhere) <= 0.6 * everywhere
    assert border and not any(border)


@pytest.mark.parametrize("support", [lines._mean_ratio, lines._median_ratio])
def test_the_lattices_scored_together_score_as_one_by_one_to_the_bit(support: Any) -> None:
    """:func:`.lines._supports` (every lattice's samples read in one remap, their means and medians
    row by row) gives each lattice the very number :func:`.lines._support` and ``support`` give it
    alone: the search's best shift and its rivals are the same (round 21 of issue 28). On a printed
    map's ink, lattices shifted by up to 0.7 squares either way (samples off the photo read as 0),
    the samples an odd and an even number (the medians' two cases), and a mask that keeps none."""
    cols, rows = 10, 8
    grid, _truth = north_markers_far_side_off(cols, rows, TO_IMG)
    gray = _printed(cols, rows, TO_IMG)
    ink = lines._line_ink(gray, False, 40.0)
    H0 = np.linalg.inv(grid.H)  # board -> image, as the search's lattices
    rng = np.random.default_rng(7)
    lattices = [np.array([[1.0, 0, dx], [0, 1.0, dy], [0, 0, 1]]) @ H0 @ np.array([[1.0, 0, sx], [0, 1.0, sy], [0, 0, 1]])
                for dx, dy, sx, sy in rng.uniform(-0.7, 0.7, (40, 4)) * [40, 40, 1, 1]]
    on_all, off_all = lines._line_samples(cols, rows, 0.0), lines._line_samples(cols, rows, 0.5)
    on_cols_all, off_cols_all = lines._along_columns(cols, rows, 0.0), lines._along_columns(cols, rows, 0.5)
    for keep_on, keep_off in ((slice(None), slice(None)), (slice(1, None), slice(None)), (slice(0, 301), slice(0, 300))):
        on, off, on_cols, off_cols = on_all[keep_on], off_all[keep_off], on_cols_all[keep_on], off_cols_all[keep_off]
        alone = [support(*lines._support(ink, H, on, off), on_cols, off_cols) for H in lattices]
        assert len(set(alone)) > 10  # the lattices see the lines differently: many numbers are compared
        assert lines._supports(ink, lattices, on, off, on_cols, off_cols, support) == alone
    # every sample along the columns: the rows' medians are of no samples, as one by one
    on, off = on_all[on_cols_all], off_all[off_cols_all]
    on_cols, off_cols = on_cols_all[on_cols_all], off_cols_all[off_cols_all]
    alone = [support(*lines._support(ink, H, on, off), on_cols, off_cols) for H in lattices]
    assert lines._supports(ink, lattices, on, off, on_cols, off_cols, support) == alone


finite32 = hnp.arrays(np.float32, st.integers(1, 60), elements=st.floats(-1e4, 1e4, width=32))


@settings(max_examples=200, deadline=None)
@given(finite32)
def test_the_search_median_is_numpys_to_the_bit(values: np.ndarray) -> None:
    assert lines._median(values) == float(np.median(values))


@settings(max_examples=200, deadline=None)
@given(finite32)
def test_the_search_mean_is_numpys_to_the_bit(values: np.ndarray) -> None:
    assert lines._mean(values) == float(np.mean(values))


def _rims_by_definition(view: np.ndarray, cols: int, rows: int) -> np.ndarray:
    """:func:`.bases.rim_strength` (n = 1) as its definition reads: the clearest half circle's step
    with the edges taken dark inside, then taken light inside (the edges negated), each summed apart."""
    g = cv2.GaussianBlur(np.log(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY).astype(np.float32) + 8.0), (0, 0), 1.0)
    gx, gy = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3) / 8, cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3) / 8
    mag = np.hypot(gx, gy)
    t = np.linspace(0, 2 * np.pi, RIM_ANGLES, endpoint=False)
    ux, uy = np.cos(t)[None], np.sin(t)[None]
    rr, cc = np.mgrid[0:rows, 0:cols]
    ys, xs = ((PAD + rr + 0.5) * PX).ravel(), ((PAD + cc + 0.5) * PX).ravel()
    h, w = g.shape
    half, best, row = RIM_ANGLES // 2, np.zeros(len(xs)), np.arange(len(xs))
    for dx in RIM_SHIFTS:
        for dy in RIM_SHIFTS:
            for r in RIM_RADII:
                px_ = np.clip(np.round(xs[:, None] + (dx + r * ux) * PX).astype(int), 0, w - 1)
                py_ = np.clip(np.round(ys[:, None] + (dy + r * uy) * PX).astype(int), 0, h - 1)
                radial = gx[py_, px_] * ux + gy[py_, px_] * uy
                cm = np.cumsum(np.tile(mag[py_, px_], 2), axis=1)
                energy = cm[:, half:half + RIM_ANGLES] - cm[:, :RIM_ANGLES] + 1e-3 * half
                for signed in (radial, -radial):
                    cs = np.cumsum(np.tile(signed, 2), axis=1)
                    step = cs[:, half:half + RIM_ANGLES] - cs[:, :RIM_ANGLES]
                    k = step.argmax(axis=1)
                    best = np.maximum(best, step[row, k] / half * np.clip(step[row, k] / energy[row, k], 0.0, 1.0))
    return best


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 7), st.integers(2, 6), st.floats(0.5, 3.0))
def test_the_rims_one_running_sum_reads_both_ways_to_the_bit(seed: int, cols: int, rows: int, blur: float) -> None:
    """A base's rim read dark inside and light inside from one running sum of the edges (the
    light-inside steps are the dark-inside ones negated, without rounding): the same numbers,
    bit for bit, as summing the negated edges apart, on views of random art with discs on it."""
    rng = np.random.default_rng(seed)
    view = cv2.GaussianBlur(rng.integers(0, 256, (PX * (rows + 2 * PAD), PX * (cols + 2 * PAD), 3), dtype=np.uint8), (0, 0), blur)
    for _disc in range(3):
        centre = (int(rng.integers(PX, PX * (cols + 1))), int(rng.integers(PX, PX * (rows + 1))))
        cv2.circle(view, centre, int(0.42 * PX), tuple(int(v) for v in rng.integers(0, 256, 3)), -1, cv2.LINE_AA)
    assert rim_strength(view, cols, rows).tobytes() == _rims_by_definition(view, cols, rows).tobytes()
