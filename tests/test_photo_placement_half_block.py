"""A block read on two squares, one of them a Medium base showing its own rim, is no Large base (reading R94).

Built from the failure on the independent renderer's diagnosis photo s0439 (rock art, four
corner markers, with the empty-map reference): a Large figure's base on A4:B5 read A4 0.85, B4
0.58, A5 0.80, B5 0.99 (its body hiding the rim, each square's own rim 0.07-0.12, the Large rim
round the block's centre 0.15); a Medium base at B6 beside it read 1.0 with its own round rim
0.21. The roster's count, more squares read as bases than its bases cover, read the doubtful B4,
A5 and A6 as empty, so both A4:B5 and A5:B6 read as a base on two squares, and A5:B6 scored the
higher: the Large figure named one square south, the Medium figure of B6 pushed onto A4, 5
squares wrong. B6's own rim is clearer than the Large rim round A5:B6's centre (0.12): a Medium
base's square beside the Large base, not a quarter of one.
"""

from __future__ import annotations

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.placement import place

COLS, ROWS = 6, 9


def _scene(b6_rim: float) -> tuple[Position, dict[str, float], dict[str, float], dict[str, float]]:
    scores = {Square(c, r).name: 0.01 for c in range(COLS) for r in range(ROWS)}
    # s0439's readings round the two bases, and five squares of art read as bases elsewhere, so the
    # roster's count (8 squares) reads the doubtful ones as empty
    scores |= {"A4": 0.86, "B4": 0.58, "A5": 0.80, "B5": 0.99, "A6": 0.70, "B6": 1.0, "E1": 0.99, "E3": 0.99, "E5": 0.99, "E7": 0.99, "E9": 0.99}
    rims = dict.fromkeys(scores, 0.07) | {"A6": 0.18, "B6": b6_rim, "E1": 0.2, "E3": 0.2, "E5": 0.2, "E7": 0.2, "E9": 0.2}
    large = {Square(c, r).name: 0.05 for c in range(COLS - 1) for r in range(ROWS - 1)} | {"A4": 0.154, "A5": 0.123}
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("big", "light", parse_square("C4"), Size.LARGE),
        Figure("m1", "dark", parse_square("A9"), Size.MEDIUM),
        Figure("m2", "dark", parse_square("F2"), Size.MEDIUM),
        Figure("m3", "light", parse_square("E1"), Size.MEDIUM),
        Figure("m4", "light", parse_square("E3"), Size.MEDIUM),
    ))
    return pos, scores, rims, large


def test_the_block_half_read_with_a_medium_rim_clearer_than_its_large_rim_gives_way() -> None:
    pos, scores, rims, large = _scene(0.206)
    placed = place(pos, scores, [], set(), large_rims=large, rims=rims)
    at = {s.id: s.at for s in placed.figures}
    assert at["big"] == "A4"  # before: A5, the block with B6 in it
    assert at["m1"] == "B6"


def test_a_half_read_block_whose_squares_show_no_medium_rim_is_still_the_large_base() -> None:
    pos, scores, rims, large = _scene(0.09)
    at = {s.id: s.at for s in place(pos, scores, [], set(), large_rims=large, rims=rims).figures}
    assert at["big"] == "A5"  # the squares' reading decides, as before
