"""A Large figure found nowhere has its recorded block listed, as one doubt (reading R362).

R362, built from the diagnosis photo s0691 without the reference (sand, three corner markers): the
Large figure f7 stood still on F5:G6, its base marker unread, its squares read 0.43, 0.61, 0.34 and
0.17 as bases under its broad body; no block was taken for it ("not seen") and only F5 and G5 were
listed, the doubts of squares elsewhere ranked before F6 and G6: four squares wrong, two of them
unlisted, so the board was not right after confirming its list.
"""

from __future__ import annotations

from assistant.editions import Size
from assistant.photo.figures import Seen
from assistant.photo.placement import NOT_FOUND_READ, place
from tests.test_photo_placement import at, record, scores

BLOCK = {"F5": 0.43, "G5": 0.61, "F6": 0.34, "G6": 0.17}


def test_a_large_figure_found_nowhere_has_its_whole_recorded_block_listed() -> None:
    pos = record(("a", "B2"), ("g", "F5", Size.LARGE))
    # two doubts elsewhere (read 0.30 and 0.27 as bases, said 0.70 and 0.73 right)
    placed = place(pos, scores({"B2": 0.98, "H3": 0.3, "I1": 0.27} | BLOCK), [], set())
    assert at(placed) == {"a": "B2"} and placed.not_seen == ("g",)
    assert not {"F5", "F6", "G6"} & set(placed.occupied)  # the record's block not assumed: listed only
    listed = dict(placed.uncertain)
    assert set(BLOCK) <= set(listed)  # the whole block, ahead of the doubts elsewhere
    assert len({listed[sq] for sq in BLOCK}) == 1 and listed["F5"] <= NOT_FOUND_READ  # one doubt
    assert any("g not seen: the squares of its recorded block F5, G5, F6, G6" in n and "R362" in n for n in placed.notes)
    # c, read by its base marker, moved onto G6, a square of the lost Large figure's recorded block: no block listed for g
    pos = record(("c", "J1"), ("g", "F5", Size.LARGE))
    placed = place(pos, scores({"G6": 0.98, "H3": 0.3, "I1": 0.27} | {k: v for k, v in BLOCK.items() if k != "G6"}),
                   [Seen("c", "G6", 0.99, "marker")], set())
    assert at(placed) == {"c": "G6"} and placed.not_seen == ("g",)
    assert not any("R362" in n for n in placed.notes)
    assert dict(placed.uncertain).get("F6") != dict(placed.uncertain).get("F5")  # each square its own reading
