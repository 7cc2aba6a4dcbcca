"""A doubtful naming lists the square read as empty that shows a base's round rim (R98).

Built from the failure on the independent renderer's diagnosis photo s0446 (grass art, no
reference photo): figure f1, without a readable base marker, stood at H5. The classifier read H5
as empty (0.29: the base's top under the figure's body, its colour near the art's), and read J1,
a square of printed art, at 0.56 -- doubtful, and showing no base's rim. The roster's count named
f1 on J1 (said 0.53) and H5, read as empty and said sure, was not listed: the one square a judge
had to look at to see the error was not shown. H5's round rim was clear (0.22); J1's was not
(0.05). A square read empty with such a rim held a base about one time in twelve on the diagnosis
photos, so it is not read as a base -- but it shares the doubt of the naming it may undo: where
such a naming was wrong, the base stood on that square 32 times in 46.
"""

from __future__ import annotations

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.placement import RIVAL_LEAST, RIVAL_RIM, RIVAL_SHARE, SURE, Placement, place
from tests.test_photo_placement_where_by_rim import medium_base, paper, rims_of, shadow

COLS, ROWS = 10, 11


def listed(placed: Placement) -> list[str]:
    return [sq for sq, v in placed.uncertain if v < SURE]


def s0446_like() -> Position:
    return Position(Edition.SWM2008, Map(COLS, ROWS), (Figure("f1", "light", parse_square("J5"), Size.MEDIUM),))


def scores_of(h5: float = 0.29) -> dict[str, float]:
    # J1: printed art read as doubtful base; H5: the true base read as empty
    return {Square(c, r).name: 0.01 for c in range(COLS) for r in range(ROWS)} | {"J1": 0.56, "H5": h5}


def test_the_square_read_empty_with_a_base_s_rim_is_listed_with_the_doubtful_naming() -> None:
    view = paper()
    medium_base(view, "H5")  # the base, its rim clear round H5; J1 is art: hardly any rim
    # (J1's as s0446's read it, 0.05: drawn art on paper shows none, and a square under `NO_RIM` is
    # named for a figure only where no other way remains, R339)
    rims = rims_of(view) | {"J1": 0.05}
    assert rims["H5"] >= RIVAL_RIM > rims["J1"]
    placed = place(s0446_like(), scores_of(), [], set(), rims=rims)
    (f1,) = placed.figures
    assert (f1.at, f1.by) == ("J1", "roster") and f1.confidence < SURE  # the count named it there, doubtful
    assert "H5" not in placed.occupied  # the rim does not read H5 as a base: only lists it
    assert {"J1", "H5"} <= set(listed(placed))
    said = dict(placed.uncertain)
    # said wrong the measured share of the naming's doubt: less doubtful than the naming itself
    assert said["J1"] < said["H5"] < SURE
    assert abs((1 - said["H5"]) - RIVAL_SHARE * (1 - f1.confidence)) < 0.01
    assert any("H5" in n and "f1" in n for n in placed.notes)


def test_no_rival_is_listed_where_the_square_shows_no_base_s_rim() -> None:
    view = paper()
    shadow(view, "H5")  # a soft shadow: darker, no round edge
    rims = rims_of(view)
    assert rims["H5"] < RIVAL_RIM
    placed = place(s0446_like(), scores_of(), [], set(), rims=rims)
    assert "H5" not in listed(placed)


def test_no_rival_where_the_classifier_is_sure_the_square_is_empty() -> None:
    view = paper()
    medium_base(view, "H5")
    rims = rims_of(view)
    placed = place(s0446_like(), scores_of(h5=RIVAL_LEAST / 2), [], set(), rims=rims)
    assert "H5" not in listed(placed)


def test_a_sure_naming_has_no_rival() -> None:
    view = paper()
    medium_base(view, "H5")
    rims = rims_of(view) | {"J1": 0.05}  # s0446's art's faint rim (R339)
    scores = scores_of() | {"J1": 0.99}
    placed = place(s0446_like(), scores, [], set(), rims=rims)
    (f1,) = placed.figures
    assert f1.at == "J1" and f1.confidence >= SURE
    assert "H5" not in listed(placed)
