"""Issue 28, round 11 (reading R95): a photo the printed-lines search finds a grid in, which the
rival-lattice test then refuses (R59), is refused naming that test, not only "the printed-lines
search was run and matched no grid".

The failure's description: independent diagnosis scene 432 (wood planks, no corner markers): the
empty map's outline held a lattice of printed lines, and the floor's plank seams made a rival
lattice a fraction of a square beside it; the refusal said the search "matched no grid", which a
judge cannot act on. The scenes here are drawn: a map seen from above whose floor's seams run a
square apart 0.45 squares beside faint printed lines (as in ``test_photo_grid_rivals``)."""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np
import pytest

from assistant import i18n
from assistant.photo import NoGridError, lines, locate_grid
from assistant.photo.board import Grid
from assistant.photo.markers import Marker
from assistant.position import load_position
from assistant.resources import example_path

from .test_photo_grid_rivals import COLS, ROWS, _grid_H, _map

RIVAL_EN = "rival lattice a fraction of a square beside them"
RIVAL_IN = {"en": RIVAL_EN, "pl": "innej siatki przesuniętej o ułamek pola", "cs": "jiné mřížce posunuté o zlomek pole"}


@pytest.fixture
def english() -> Iterator[None]:
    with i18n.language("en"):
        yield


def _grid(shift_rows: float = 0.0) -> Grid:
    return Grid(_grid_H(shift_rows), 0.0, 0)


def test_a_grid_with_a_rival_lattice_beside_it_is_refused_for_that_rival() -> None:
    """Seams twice as dark as the faint printed lines, 0.45 squares below them: the grid is not
    claimed, and why names the rival lattice; with a corner marker seen off the map's corner
    through it, why names the marker too. A clear printed grid alone: nothing to say."""
    stripes = _map(15.0, 30.0)
    same = np.eye(3)
    assert lines.why_unsettled(stripes, _grid(), same, COLS, ROWS, []) == lines.RIVAL_UNSETTLED
    # corner marker 0 (the map's corner 0, 0) drawn a third of a square inside the map: off its corner
    off = Marker(0, np.array([[1.33, 1.33], [1.83, 1.33], [1.83, 1.83], [1.33, 1.83]]) * 40)  # board (0.33-0.83) + one square of table, 40 px a square
    assert lines.why_unsettled(stripes, _grid(), same, COLS, ROWS, [off]) == lines.RIVAL_MARKER_OFF
    assert lines.why_unsettled(_map(60.0, 0.0), _grid(), same, COLS, ROWS, []) == ""


@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
def test_the_refusal_names_the_rival_lattice(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """A photo whose outline holds the printed lines (two grids found, the map each way round),
    each of which the rival-lattice test finds a lattice beside (as the planks' seams of scene
    432), and no centred lattice the sheet's outline settles (R135: as on scene 432's photo; the
    drawn map's grid fills its sheet evenly, which R190 and R240 now settle, so the sheet is told
    it frames nothing evenly): the refusal says so in the judge's language, as well as that the
    search ran."""
    monkeypatch.setattr(lines, "stands_alone", lambda *a, **k: False)
    monkeypatch.setattr(lines, "_centred_grid", lambda *a, **k: None)
    monkeypatch.setattr(lines, "_framed_evenly", lambda *a, **k: False)
    img = cv2.cvtColor(_map(60.0, 0.0), cv2.COLOR_GRAY2BGR)
    pos = load_position(example_path("clone-wars-corridor"))
    pos = type(pos)(pos.edition, type(pos.map)(COLS, ROWS), (), pos.cards)
    with i18n.language(lang), pytest.raises(NoGridError) as refused:
        locate_grid(img, pos, "drawn.jpg")
    assert RIVAL_IN[lang] in str(refused.value)


def test_a_photo_without_a_grid_from_its_lines_names_no_rival(english: None) -> None:
    """Table only, no map: nothing was found to refuse, so no rival lattice is named."""
    img = np.full((440, 560, 3), 90, np.uint8)
    img += np.random.default_rng(1).integers(0, 20, img.shape, dtype=np.uint8)
    pos = load_position(example_path("clone-wars-corridor"))
    pos = type(pos)(pos.edition, type(pos.map)(COLS, ROWS), (), pos.cards)
    with pytest.raises(NoGridError) as refused:
        locate_grid(img, pos, "table.jpg")
    assert RIVAL_EN not in str(refused.value)
