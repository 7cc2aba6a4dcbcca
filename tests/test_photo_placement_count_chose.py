"""A figure named off its recorded square that the roster's count alone read away is a coin toss (reading R363).

R363, built from the diagnosis photo s0688 without the reference (scifi, one corner marker): f8
stood still on E6, whose base read 0.59; eleven squares read as bases against the roster's eight,
so the count read the doubtful E6 and J4 away before any figure was named, and f8 was named on D4,
read 0.95 (f1's body beside f1's base on D5), said sure and unlisted: two squares wrong, one of them
never listed.
"""

from __future__ import annotations

from assistant.photo.figures import Seen
from assistant.photo.placement import COUNT_READ, place
from tests.test_photo_placement import at, record, scores

READ = {"D5": 1.0, "H1": 1.0, "D4": 0.95, "E6": 0.59, "J4": 0.71, "J3": 0.97}


def test_a_naming_off_a_recorded_square_the_count_read_away_is_listed_with_that_square() -> None:
    pos = record(("m", "A1"), ("a", "H1"), ("b", "E6"))
    placed = place(pos, scores(READ), [Seen("m", "D5", 0.99, "marker")], set())
    assert at(placed) == {"m": "D5", "a": "H1", "b": "D4"}  # the naming is as before: the photo's likelier base
    assert "E6" not in placed.occupied
    listed = dict(placed.uncertain)
    assert listed["D4"] <= COUNT_READ and listed["E6"] <= COUNT_READ  # both sides of the coin toss, listed
    assert next(s for s in placed.figures if s.id == "b").confidence <= COUNT_READ
    assert any("b read at D4, but its recorded square E6" in n and "R363" in n for n in placed.notes)
    # a figure that moved off a recorded square the photo reads surely empty is no coin toss
    clear = place(pos, scores(READ | {"E6": 0.1}), [Seen("m", "D5", 0.99, "marker")], set())
    assert at(clear)["b"] == "D4" and not any("R363" in n for n in clear.notes)
