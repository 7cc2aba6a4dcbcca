"""detect()'s repeated work taken out, its answers the same (issue 28: CPU per photo).

Profiled on the independent renderer's diagnosis photos (seeds 371-406, both modes): the base
features filtered the whole top-down view with discs up to 67 px wide to read them at a few
hundred points (0.08 CPU-seconds a photo with the reference); a Large base's rim round each grid
corner was measured twice (the rim check, then the placement); and on a photo whose first
reading saw bases everywhere, the view was aligned onto the empty map's reference twice (the
fused reading, then the second look: 0.1 s each). Each is now done once; the answers on twenty
diagnosis readings (ten photos, both modes) are the same, byte for byte.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import assistant.photo.bases as bases
import assistant.photo.squares as squares
from assistant.coords import parse_square
from assistant.editions import Size
from assistant.model import Figure, Map, Position
from assistant.photo.bases import CORE, RING, _disc, _filtered_at, _sectors
from assistant.photo.reference import PX
from tests.test_photo_placement_second import COLS, ROWS, _detect, star_field_scene


def test_features_read_at_points_are_the_whole_view_filtered_there(monkeypatch: pytest.MonkeyPatch) -> None:
    # what filter2D gives (the view's edge replicated), at the squares' centres, at grid corners on
    # the view's very edge, and with the square's own even-sized box kernel
    rng = np.random.default_rng(7)
    m = rng.normal(size=(8 * PX, 11 * PX)).astype(np.float32)
    ys = np.concatenate([rng.integers(0, m.shape[0], 200), [0, 0, m.shape[0] - 1]])
    xs = np.concatenate([rng.integers(0, m.shape[1], 200), [0, m.shape[1] - 1, m.shape[1] - 1]])
    kernels = [_disc(CORE * PX), _disc(2 * CORE * PX), _disc(3 * CORE * PX), np.full((PX, PX), 1.0 / PX ** 2, np.float32),
               *_sectors(RING[0] * PX, RING[1] * PX)]
    for k in kernels:
        want = cv2.filter2D(m, cv2.CV_32F, k, borderType=cv2.BORDER_REPLICATE)[ys, xs]
        assert np.allclose(_filtered_at(m, k, ys, xs), want, atol=1e-5)
    # read in small batches (a big map's many squares): the same numbers
    monkeypatch.setattr(bases, "GATHER_PIXELS", 5000)
    k = _disc(3 * CORE * PX)
    assert np.allclose(_filtered_at(m, k, ys, xs), cv2.filter2D(m, cv2.CV_32F, k, borderType=cv2.BORDER_REPLICATE)[ys, xs], atol=1e-5)


def test_detect_aligns_once_and_measures_large_rims_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # a star field every square of which the first reading takes for a base (s0384's kind), with
    # the reference: the second look finds the three grey bases; a Large figure in the roster
    image, small, ref = star_field_scene()
    pos = Position(small.edition, Map(COLS, ROWS), small.figures + (Figure("big", "light", parse_square("A5"), Size.LARGE),))
    aligned: list[int] = []
    rims: list[int] = []
    real_align, real_rim = bases.align_view, bases.rim_strength

    def count_align(view: np.ndarray, ref_view: np.ndarray) -> np.ndarray:
        aligned.append(1)
        return real_align(view, ref_view)

    def count_rim(view: np.ndarray, cols: int, rows: int, n: int = 1) -> np.ndarray:
        rims.append(n)
        return real_rim(view, cols, rows, n)

    for mod in (squares, bases):
        monkeypatch.setattr(mod, "align_view", count_align)
        monkeypatch.setattr(mod, "rim_strength", count_rim)
    res = _detect(monkeypatch, image, pos, ref)
    assert any("read again" in n for n in res.notes)  # the second look was taken, against the reference
    assert len(aligned) == 1
    assert rims.count(2) == 1
