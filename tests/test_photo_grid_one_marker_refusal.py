"""One corner marker read, and no grid: the refusal names why the sheet's outline gave the marker no
start (issue 28, round 26; reading R269). Diagnosis photos s0376 (wood on a wood table: no outline),
s0455, s0512 and s0610 (the outline's corner at the marker pulled off the sheet's, its edges not
straight: lava cracks, stone slabs' dark joints, figures and unread markers on them, a lens's bend)
were refused saying only that the printed-lines search matched no grid and what the work budget left
out -- though the enlarged corner-marker search, run, reads no other corner marker on any of them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from assistant import i18n
from assistant.editions import Edition
from assistant.model import Map, Position
from assistant.photo import NoGridError, gridsearch, lens, locate_grid, onemarker, views
from assistant.photo.markers import Marker

from .test_photo_grid_one_marker import COLS, HEIGHT, ROWS, SQUARES, WIDTH, _on_photo, _unlined_photo

NO_OUTLINE = {"en": "no outline of the sheet against the table was found round the one corner marker",
              "pl": "nie znaleziono obrysu arkusza na tle stołu wokół jedynego znacznika narożnego",
              "cs": "kolem jediné rohové značky nebyl nalezen obrys archu proti stolu"}


def _marker_on(photo: np.ndarray, quiet: float = 1.35) -> Marker:
    """Corner marker 0 drawn on the map's corner, its white quiet zone ``quiet`` times its side."""
    square = SQUARES[0]
    centre = square.mean(axis=0)
    cv2.fillPoly(photo, [np.round(_on_photo((square - centre) * quiet + centre)).astype(np.int32)], (245, 245, 245))
    cv2.fillPoly(photo, [np.round(_on_photo(square)).astype(np.int32)], (20, 20, 20))
    return Marker(0, _on_photo(square))


def _table_only() -> tuple[np.ndarray, Marker]:
    """The dark table and corner marker 0, no sheet to be told from the table (wood on wood)."""
    rng = np.random.default_rng(17)
    photo = np.clip(rng.normal(0, 5, (HEIGHT, WIDTH, 3)) + 40, 0, 255).astype(np.uint8)
    return photo, _marker_on(photo)


def _pulled() -> tuple[np.ndarray, Marker]:
    """R239's drawn sheet (no printed lines, a border 0.15 squares round the map), corner marker 0's
    quiet zone drawn 2.2 times its side: wider than the zone hidden from the outlines, it joins the
    sheet's outline and pulls the outline's corner there off the sheet's (as s0512's marker 3)."""
    photo, _marker = _unlined_photo((0.15,))
    return photo, _marker_on(photo, quiet=2.2)


def test_no_sheet_outline_round_the_one_marker_is_named() -> None:
    """Nothing on the table but the marker: no outline, and why says so."""
    photo, marker = _table_only()
    with views.shared():
        assert onemarker.why_no_frame(photo, [marker], COLS, ROWS) == onemarker.NO_OUTLINE
        assert onemarker.one_marker_grid(photo, [marker], COLS, ROWS) is None


def test_an_outline_pulled_at_the_marker_is_named_only_where_its_edges_are_not_straight() -> None:
    """The outline's corner pulled at the marker: read again from its straight edges (R261) it gives
    a start, so the outline is not the reason (the grid is found, within a tenth of a square); the
    same photo through a barrel lens (k -0.1) bows the edges, no start is read, the marker's grid is
    refused and why names the outline. Two corner markers or none: nothing to say."""
    photo, marker = _pulled()
    with views.shared():
        assert onemarker.why_no_frame(photo, [marker], COLS, ROWS) == ""
        assert onemarker.one_marker_grid(photo, [marker], COLS, ROWS) is not None
    bent = lens.straightened(photo, -0.1)
    seen = Marker(0, lens.straighten_points(marker.corners, photo.shape, -0.1))
    with views.shared():
        assert onemarker.why_no_frame(bent, [seen], COLS, ROWS) == onemarker.NOT_STRAIGHT
        assert onemarker.one_marker_grid(bent, [seen], COLS, ROWS) is None
        assert onemarker.why_no_frame(bent, [], COLS, ROWS) == ""
        assert onemarker.why_no_frame(bent, [seen, Marker(2, seen.corners + 900.0)], COLS, ROWS) == ""


@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
def test_the_refusal_names_the_missing_outline(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """`locate_grid` with the one marker read (a drawn square: handed over as read by every marker
    search; the bare table taken as a photo of something, as a table with figures is) and no
    outline: refused, naming the missing outline in the reader's language; before, the refusal said
    only that the printed-lines search matched no grid."""

    photo, marker = _table_only()
    monkeypatch.setattr(gridsearch, "has_structure", lambda _image: True)
    monkeypatch.setattr(gridsearch, "find_markers_counted", lambda *_a, **_k: ([marker], 10))
    with i18n.language(lang), pytest.raises(NoGridError) as refused:
        locate_grid(photo, Position(Edition.SWM2008, Map(COLS, ROWS), ()), "drawn.jpg")
    assert NO_OUTLINE[lang] in str(refused.value)
