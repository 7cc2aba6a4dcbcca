"""A figure found nowhere has its recorded square listed (reading R235).

R235, built from the diagnosis photos s0400, s0406 and s0555 (no reference photo): a figure
without a readable base marker stood still, its base under its own body read as empty, and no
figure was named anywhere for it -- "not seen", with nothing listed, so a board wrong on one
square was not right after confirming its list. Its recorded square, read as empty and taken by no
other figure, is listed with the doubt such squares proved (NOT_FOUND_READ).
"""

from __future__ import annotations

from assistant.photo.figures import Seen
from assistant.photo.placement import COUNT_READ, NOT_FOUND_READ, place
from tests.test_photo_placement import at, record, scores


def test_a_figure_found_nowhere_has_its_recorded_square_listed() -> None:
    pos = record(("a", "B2"), ("b", "H8"))
    placed = place(pos, scores({"B2": 0.98}), [], set())
    assert at(placed) == {"a": "B2"} and placed.not_seen == ("b",)
    assert "H8" not in placed.occupied  # still not assumed: read as empty, only listed
    assert dict(placed.uncertain)["H8"] == NOT_FOUND_READ == COUNT_READ  # a coin toss, listed
    assert any("b not seen: its recorded square H8" in n and "R235" in n for n in placed.notes)


def test_a_recorded_square_another_figure_is_named_on_is_not_listed_for_the_lost_one() -> None:
    # b is found nowhere; c, read by its base marker, moved onto b's recorded square
    pos = record(("b", "H8"), ("c", "J1"))
    placed = place(pos, scores({"H8": 0.98}), [Seen("c", "H8", 0.99, "marker")], set())
    assert at(placed) == {"c": "H8"} and placed.not_seen == ("b",)
    assert dict(placed.uncertain).get("H8") != NOT_FOUND_READ
    assert not any("R235" in n for n in placed.notes)
