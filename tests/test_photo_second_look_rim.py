"""The second look's squares that show no base's round rim are doubtful too (reading R159).

Built from diagnosis photo s0360 (a star field, no corner markers, both modes): the first reading
saw bases nearly everywhere, and the squares were read again by colour. That reading took C13 --
bare art, its base rim 0.057 (below `bases.RIM_MIN`) -- as surely a base (0.98), and the roster's
count, one square too many, read away the doubtful H11 (0.67, rim 0.173): figure f3's true base.
f3 was named on the bare art: 2 squares wrong in each mode. On the first reading such a square is
capped doubtful by the rim check; the second look skipped it.
"""

from __future__ import annotations

import numpy as np
import pytest

from assistant import photo
from assistant.coords import Square, parse_square
from assistant.editions import Edition
from assistant.model import Figure, Map, Position
from assistant.photo import squares
from assistant.photo.bases import RIM_MIN, rim_strength
from assistant.photo.board import Grid
from assistant.photo.reference import PAD, PX

from .test_photo_overread import BASES, art_read_as_bases
from .test_photo_placement_colour import COLS, ROWS, base
from .test_photo_placement_large_rim import paper

BARE = "F5"  # bare floor with no base on it, read by the second look as surely a base


def scene() -> tuple[np.ndarray, Position]:
    """Four grey bases on a plain floor (its bare squares show no base's rim, and no colour a printed
    disc would: R123 leaves them alone); the record a turn old, b and c moved since."""
    image = paper(7, COLS, ROWS)
    for sq in BASES:
        base(image, sq)
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), tuple(
        Figure(i, "light", parse_square(at)) for i, at in (("a", "B2"), ("b", "E4"), ("c", "H5"), ("d", "C7"))))
    return image, pos


def second_look() -> dict[str, float]:
    """The second look of s0360's kind: three bases sure, the fourth (H6) doubtful, and a bare
    square sure."""
    return {Square(c, r).name: 0.02 for c in range(COLS) for r in range(ROWS)} | {"B2": 0.99, "E3": 0.99, "C7": 0.99, "H6": 0.67, BARE: 0.98}


def test_a_rimless_square_the_second_look_reads_as_a_base_gives_way_to_a_rimmed_doubtful_one(monkeypatch: pytest.MonkeyPatch) -> None:
    image, pos = scene()
    rims = {Square(c, r).name: float(v) for (r, c), v in np.ndenumerate(rim_strength(image, COLS, ROWS, 1).reshape(ROWS, COLS))}
    assert rims[BARE] < RIM_MIN <= rims["H6"] and BARE not in BASES  # bare lava shows no base's rim; the base does
    grid = Grid(np.array([[1 / PX, 0, -PAD], [0, 1 / PX, -PAD], [0, 0, 1]], np.float64), 0.2, 4)
    monkeypatch.setattr(photo, "locate_grid", lambda *a, **k: (grid, [], False))
    monkeypatch.setattr(squares, "square_probabilities", lambda *a, **k: art_read_as_bases())
    monkeypatch.setattr(squares, "second_reading", lambda *a, **k: None)
    monkeypatch.setattr(squares, "neutral_reading", lambda *a, **k: second_look())
    res = photo.detect(image, pos, "scene")
    assert any("by colour" in n for n in res.notes)  # the second look answered
    # before R159: c named on the bare F5, its base at H6 read away by the count
    assert set(res.occupied) == set(BASES)
    assert {s.id: s.at for s in res.figures}["c"] == "H6"
    assert BARE in {u["square"] for u in res.uncertain}  # read away against the second look: listed


def test_the_second_look_s_rimless_squares_are_told_to_the_placement(monkeypatch: pytest.MonkeyPatch) -> None:
    # reading R176: the first reading's rim check tells the placement which squares show no base's
    # rim (printed art, with every figure found elsewhere); the second look's told it none
    image, pos = scene()
    grid = Grid(np.array([[1 / PX, 0, -PAD], [0, 1 / PX, -PAD], [0, 0, 1]], np.float64), 0.2, 4)
    monkeypatch.setattr(photo, "locate_grid", lambda *a, **k: (grid, [], False))
    monkeypatch.setattr(squares, "square_probabilities", lambda *a, **k: art_read_as_bases())
    monkeypatch.setattr(squares, "second_reading", lambda *a, **k: None)
    monkeypatch.setattr(squares, "neutral_reading", lambda *a, **k: second_look())
    told: list[frozenset[str]] = []
    real_place = squares.place
    monkeypatch.setattr(squares, "place", lambda pos, scores, seen, nowhere, no_rim, *a, **k: (
        told.append(frozenset(no_rim)), real_place(pos, scores, seen, nowhere, no_rim, *a, **k))[1])
    res = photo.detect(image, pos, "scene")
    assert any("by colour" in n for n in res.notes)  # the second look answered
    assert BARE in told[0] and not set(BASES) & told[0]
