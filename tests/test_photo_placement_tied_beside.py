"""One base read on two squares side by side: the square the record's nearest square passed over is listed (reading R397).

R397, built from the diagnosis photo s0687 without the reference: f13 moved O6 -> K5; K5 read
0.555, L5 beside it 0.559. The naming took L5 (nearer O6), the roster's count read K5 away as
settled (said 0.9, unlisted): the record chose between two squares the photo reads alike, and the
judge, told to confirm L5 alone, was never pointed at K5.
"""

from __future__ import annotations

from assistant.photo.placement import place
from tests.test_photo_placement import at, record, scores

# a recorded at O6; K5 and L5 read alike (one base between them); five figures stood still on
# squares read doubtful, filling the list
FIGURES = (("a", "O6"), ("c", "B9"), ("d", "E9"), ("e", "H9"), ("f", "J2"), ("g", "A2"))
READ = {"K5": 0.555, "L5": 0.559, "B9": 0.6, "E9": 0.6, "H9": 0.6, "J2": 0.6, "A2": 0.6}


def test_a_square_beside_read_alike_and_passed_over_is_listed() -> None:
    placed = place(record(*FIGURES), scores(READ), [], set())
    assert at(placed)["a"] == "L5" and "K5" not in placed.occupied  # the naming and the count as before
    listed = dict(placed.uncertain)
    assert "L5" in listed and "K5" in listed  # both sides of the coin toss put to the judge
    assert any("a read at L5" in n and "K5 beside it reads as likely a base" in n for n in placed.notes)  # and said why
    # read clearly less likely than the square named (0.1 below), the square passed over stays the count's
    apart = place(record(*FIGURES), scores(READ | {"K5": 0.51, "L5": 0.61}), [], set())
    assert at(apart)["a"] == "L5" and "K5" not in dict(apart.uncertain)
