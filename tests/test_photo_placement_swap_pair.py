"""Two figures whose names the photo cannot settle: both squares of the likeliest swap one doubt (reading R396).

R396, built from the diagnosis photo s0647 with the reference: f4 and f9 (their base markers
unread) both moved, and "who is who is not sure for f4, f9" was said. f9's square D11 was listed
(said 0.4); f4's J10, said 0.79, ranked sixth and was left off the list of five -- the two had
swapped, and the one square of the two the judge was told of could not show the other was wrong.
"""

from __future__ import annotations

from assistant.photo.placement import MAX_LISTED, place
from tests.test_photo_placement import at, record, scores

# a (recorded B2) and b (recorded G2) both moved, onto D5 and E5, nearly as far either way round;
# D5 read doubtful, E5 sure; five other figures stood still on squares read doubtful
FIGURES = (("a", "B2"), ("b", "G2"), ("c", "B9"), ("d", "E9"), ("e", "H9"), ("f", "J6"), ("g", "A6"))
READ = {"D5": 0.62, "E5": 0.99, "B9": 0.52, "E9": 0.53, "H9": 0.54, "J6": 0.55, "A6": 0.56}


def test_the_squares_of_a_doubtful_swap_are_listed_together() -> None:
    placed = place(record(*FIGURES), scores(READ), [], set())
    assert at(placed)["a"] == "D5" and at(placed)["b"] == "E5"  # the naming is as before
    assert any("who is who is not sure for" in n and "a" in n and "b" in n for n in placed.notes)
    listed = dict(placed.uncertain)
    assert len(listed) == MAX_LISTED
    # the swap's two squares: both listed, as one doubt (the less sure of the two)
    assert "D5" in listed and "E5" in listed and listed["D5"] == listed["E5"]
    # b recorded far from a's base: no swap is likely, and its square, read sure, is not listed
    apart = place(record(("a", "B2"), ("b", "J9")), scores({"C3": 0.62, "I9": 0.99}), [], set())
    assert at(apart) == {"a": "C3", "b": "I9"} and "I9" not in dict(apart.uncertain)
