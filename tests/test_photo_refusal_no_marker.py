"""Issue 28, round 29 (reading R308): a refusal with no corner marker read does not blame the
enlarged corner-marker search the work budget left out.

The failure's description: diagnosis photo s0642 (a carpet, no corner markers, 12 MP) and its empty
map were refused "(the printed-lines search was run and matched no grid; the work budget of 1.6
CPU-seconds left out: the enlarged corner-marker search)": the harder and full-resolution searches
had read no corner marker, so an enlarged search had none to read more of; the clause sent the
judge after the budget instead of the markers the photo lacks. Here the lava-like sheet of
``test_photo_artgrid`` (no markers, faint lines) at 12 MP, the enlarged search priced beyond the
budget."""

from __future__ import annotations

import cv2
import pytest

from assistant.photo import NoGridError, locate_grid
from assistant.photo.budget import Budget

from .test_photo_artgrid import DISCS, POSITION, _art, _photograph, _pose


def test_no_marker_read_the_enlarged_search_is_not_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """No corner marker read by the searches that ran, the enlarged one left out: the refusal says
    the printed-lines search matched no grid, and does not name the marker search as left out."""
    photo = cv2.resize(_photograph(_art(11), _pose(0.3, -7.0, (25.0, -15.0)), 0.8, DISCS), (4000, 3000), interpolation=cv2.INTER_CUBIC)
    predict = Budget.predict
    # the enlarged search (more pixels than the photo's) priced beyond any budget: left out, as on s0642
    monkeypatch.setattr(Budget, "predict", lambda self, photo_mp, scanned_mp: 100.0 if scanned_mp > photo_mp else predict(self, photo_mp, scanned_mp))
    with pytest.raises(NoGridError) as refused:
        locate_grid(photo, POSITION)
    said = str(refused.value)
    assert "0 of the 4 map-corner markers" in said
    assert "the printed-lines search was run and matched no grid" in said
    assert "enlarged corner-marker search" not in said
