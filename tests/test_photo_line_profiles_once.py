"""The printed lines' profiles of one view made once per grid search (issue 28, round 12: every
photo within 1.0 s). The outline search measured an outline's combs (``lines.line_periods``)
after its inset search (``lines._inset_grid``) had made the very same profiles through the same
homography: on independent diagnosis photo s0449 (one corner marker, the grid from the printed
lines) 14 top-down views and their medians were made for 10 different ones. Within
``views.shared()`` (one grid search) a profile of the same photo, homography and polarity is now
made once and handed out again, the same numbers as made afresh."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from assistant.photo import lines, views

COLS, ROWS = 6, 5
#: board squares -> photo pixels, a slightly oblique view
TO_IMG = np.array([[40.0, 4.0, 60.0], [-3.0, 38.0, 50.0], [0.0, 0.0005, 1.0]])


def _grid_photo() -> np.ndarray:
    """A light floor with speckle and the printed grid's dark lines one square apart."""
    rng = np.random.default_rng(3)
    gray = np.clip(rng.normal(200, 12, (320, 380)), 0, 255).astype(np.uint8)
    for a, b in [((x, 0), (x, ROWS)) for x in range(COLS + 1)] + [((0, y), (COLS, y)) for y in range(ROWS + 1)]:
        p = cv2.perspectiveTransform(np.array([[a, b]], np.float64), TO_IMG)[0]
        cv2.line(gray, tuple(int(v) for v in p[0]), tuple(int(v) for v in p[1]), 60, 1, cv2.LINE_AA)
    return gray


@pytest.fixture
def counted_views(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many top-down ink views the lines' code makes."""
    made: list[int] = []
    ink_view = lines._ink_view

    def counting(*args: Any, **kwargs: Any) -> np.ndarray:
        made.append(1)
        return ink_view(*args, **kwargs)

    monkeypatch.setattr(lines, "_ink_view", counting)
    return made


def test_the_combs_after_the_inset_search_reuse_its_profiles(counted_views: list[int]) -> None:
    gray = _grid_photo()
    H_small = np.linalg.inv(TO_IMG)  # photo pixels -> board squares
    with views.shared():
        first = lines._LineProfiles(gray, H_small, False, COLS, ROWS)
        inset = [first.along(0), first.along(1)]
        combs = lines.line_periods(gray, H_small, COLS, ROWS)
        again = lines._thin_line_ink(gray, H_small, COLS, ROWS, False)
    assert len(counted_views) == 1  # before: one view for the inset search, one for each comb
    assert all(a is b for a, b in zip(inset, again, strict=True))
    assert all(abs(c.period - 1.0) < 0.05 for c in combs)  # the lines' comb at one square


def test_profiles_made_once_are_those_made_afresh(counted_views: list[int]) -> None:
    gray = _grid_photo()
    H_small = np.linalg.inv(TO_IMG)
    fresh = [lines._thin_line_ink(gray, H_small, COLS, ROWS, light) for light in (False, True)]
    with views.shared():
        kept = [lines._thin_line_ink(gray, H_small, COLS, ROWS, light) for light in (False, True) for _twice in (1, 2)]
    assert len(counted_views) == 2 + 2  # afresh outside the scope, once each polarity inside it
    for k, light_profiles in enumerate(fresh):
        for axis in (0, 1):
            np.testing.assert_array_equal(kept[2 * k][axis], light_profiles[axis])
            np.testing.assert_array_equal(kept[2 * k + 1][axis], light_profiles[axis])
    with pytest.raises(ValueError):
        kept[0][0][0] = 1.0  # handed out again: nobody may change it


def test_an_ink_view_is_made_once_per_grid_search_and_is_the_view_made_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 21: the outline search looked through the same lattice again (its profiles, its lines,
    its crossings). Within one grid search (``views.shared()``) the same view of the same photo
    is warped once and handed out again, the very array a fresh warp makes; outside it, and for a
    view larger than ``lines.INK_VIEW_KEPT_PIXELS``, each is warped afresh."""
    gray = _grid_photo()
    M = np.diag([32.0, 32.0, 1.0]) @ np.linalg.inv(TO_IMG)
    size = (COLS * 32, ROWS * 32)
    warps: list[tuple[int, int]] = []
    warp = cv2.warpPerspective

    def counted(*args: Any, **kwargs: Any) -> np.ndarray:
        warps.append(tuple(args[2]))
        return warp(*args, **kwargs)

    monkeypatch.setattr(lines.cv2, "warpPerspective", counted)
    fresh = [lines._ink_view(gray, M, size, light) for light in (False, True)]
    assert len(warps) == 2
    with views.shared():
        first = [lines._ink_view(gray, M, size, light) for light in (False, True)]
        again = [lines._ink_view(gray, M.copy(), size, light) for light in (False, True)]
        assert len(warps) == 4  # each polarity warped once in the search
        assert all(a is b for a, b in zip(first, again, strict=True))
        assert all(np.array_equal(a, f) for a, f in zip(first, fresh, strict=True))
        assert not np.array_equal(first[0], first[1])  # dark and light lines are two views
        monkeypatch.setattr(lines, "INK_VIEW_KEPT_PIXELS", size[0] * size[1] - 1)
        big = [lines._ink_view(gray, M, size, False) for _ in range(2)]
        assert len(warps) == 6 and big[0] is not big[1] and np.array_equal(big[0], fresh[0])
