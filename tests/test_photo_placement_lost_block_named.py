"""A Large figure found nowhere whose recorded block holds a doubtful naming: the block still one doubt (reading R398).

R398, built from the diagnosis photo s0724 without the reference: the Large f5 stood still on
L1-M2, its base read on M1 alone (0.98); f1, a Medium figure that moved F2 -> C1, was named on M1
(said 0.5) and f5 reported not seen. R362 lists a lost Large figure's recorded block as one doubt,
but not where a figure is named on one of its squares: three of the block's squares, wrong, were
left off a list of three.
"""

from __future__ import annotations

from assistant.editions import Size
from assistant.photo.placement import place
from tests.test_photo_placement import at, record, scores

# the Large g recorded on G1-H2, a base read on H1 only; a (recorded B2) named there for want of another base
POS = record(("g", "G1", Size.LARGE), ("a", "B2"), ("c", "B9"))


def test_a_lost_large_block_holding_a_doubtful_naming_is_listed_as_one_doubt() -> None:
    placed = place(POS, scores({"H1": 0.7, "B9": 0.99}), [], set())
    assert at(placed) == {"a": "H1", "c": "B9"} and placed.not_seen == ("g",)  # the naming is as before
    listed = dict(placed.uncertain)
    assert {"G1", "H1", "G2", "H2"} <= set(listed) and len({listed[sq] for sq in ("G1", "H1", "G2", "H2")}) == 1
    assert any("g not seen: the squares of its recorded block G1, H1, G2, H2 are listed" in n for n in placed.notes)
    # a figure named there surely: the block is not listed (the photo shows that base there)
    sure = place(POS, scores({"H1": 0.99, "B9": 0.99}), [], set())
    assert at(sure)["a"] == "H1" and not {"G1", "G2", "H2"} & set(dict(sure.uncertain))
