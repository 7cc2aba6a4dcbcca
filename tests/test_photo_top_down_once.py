"""The top-down view through one homography is made once a photo (round 23 of issue 28).

With an empty-map reference, the orientation by the reference (``reference.orient_by_reference``)
looked at the map through each way round of one printed grid, and ``photo detect`` then made the
view through the grid it chose again: one resize and one warp made twice (independent photos
s0432 and s0449). Within ``views.shared()`` (one photo's search) the view and the shrunk part of
the photo it samples are now made once; outside it, afresh as before. The arrays handed out must
be those made afresh, each caller's its own copy.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from assistant.photo import reference, views
from assistant.photo.board import Grid

from .test_photo_top_down_window import COLS, ROWS, _scene


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many resizes and warps the reference's code makes (cv2's own, counted wherever called:
    each test draws its scene first, then sets the counts to nothing)."""
    made = {"resize": 0, "warpPerspective": 0}
    for name in made:
        real = getattr(cv2, name)

        def counting(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            made[_name] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(reference.cv2, name, counting)
    return made


def test_the_view_through_one_grid_is_made_once(counted: dict[str, int]) -> None:
    photo, H = _scene(np.random.default_rng(3))
    counted.update(resize=0, warpPerspective=0)
    afresh = reference.top_down(photo, Grid(H, 0.0, 4), COLS, ROWS)
    assert counted == {"resize": 1, "warpPerspective": 1}
    with views.shared():
        first = reference.top_down(photo, Grid(H, 0.0, 4), COLS, ROWS)
        first[:] = 0  # a caller's own copy: the next one does not see it
        second = reference.top_down(photo, Grid(H.copy(), 0.0, 4), COLS, ROWS)
    assert counted == {"resize": 2, "warpPerspective": 2}  # made once inside the scope
    assert np.array_equal(second, afresh)
    assert second is not first and not np.shares_memory(second, first)


def test_the_grid_turned_round_shrinks_the_same_window_once(counted: dict[str, int]) -> None:
    photo, H = _scene(np.random.default_rng(5))
    counted.update(resize=0, warpPerspective=0)
    turned = np.array([[-1.0, 0, COLS], [0, -1.0, ROWS], [0, 0, 1]]) @ H  # the same printed grid the other way round
    afresh = [reference.top_down(photo, Grid(h, 0.0, 4), COLS, ROWS) for h in (H, turned)]
    assert counted == {"resize": 2, "warpPerspective": 2}
    with views.shared():
        shared = [reference.top_down(photo, Grid(h, 0.0, 4), COLS, ROWS) for h in (H, turned)]
    assert counted == {"resize": 3, "warpPerspective": 4}  # one window shrunk for both views
    assert all(np.array_equal(a, b) for a, b in zip(afresh, shared, strict=True))
    assert not np.array_equal(shared[0], shared[1])  # the views are each way round's own
