"""A figure named off its recorded square that the photo doubts is empty: both squares one doubt (reading R364).

R364, built from the diagnosis photo s0694 without the reference (water, one corner marker): f6
stood still on Q6, its base read 0.25 (said 0.75 right as empty); it was named on H6, read 0.55,
said 0.5. Both squares are wrong if the figure did not move, yet H6 ranked sixth, behind four other
doubts, and was not listed: a wrong square the judge was never told of.
"""

from __future__ import annotations

from assistant.photo.placement import place
from tests.test_photo_placement import at, record, scores

# b's recorded square H8 read 0.25; the square it is named on, D3, read 0.55
READ = {"B2": 0.98, "H8": 0.25, "D3": 0.55}


def test_a_naming_off_a_doubtful_recorded_square_is_ranked_with_that_square() -> None:
    pos = record(("a", "B2"), ("b", "H8"))
    placed = place(pos, scores(READ), [], set())
    assert at(placed) == {"a": "B2", "b": "D3"} and "H8" not in placed.occupied  # the naming is as before
    listed = dict(placed.uncertain)
    assert "D3" in listed and "H8" in listed and listed["H8"] == listed["D3"]  # one doubt, both listed
    # a recorded square the photo reads surely empty keeps its own reading, unlisted
    sure = place(pos, scores(READ | {"H8": 0.05}), [], set())
    assert at(sure)["b"] == "D3" and "H8" not in dict(sure.uncertain)
