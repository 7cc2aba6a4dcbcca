"""A Large block none of whose squares shows a base's grey plastic is a printed disc (reading R209).

Built from the failure on the independent renderer's diagnosis photo s0566 without the reference
(blue tiles, a printed navy disc of a Large base's size with a ring round it): the disc's block
B8:C9 read as a base on three squares (0.57-0.78), every square's base core 0.43-0.49 colourful
against the found Medium bases' 0.08; the Large figure's own block L7:M8 read on L7 only, its
body over the rest, with the photo's clearest Large rim (0.29). The disc's block was taken first:
8 squares wrong (4 false occupied, 4 missed).
"""

from __future__ import annotations

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.figures import Seen
from assistant.photo.placement import COUNT_READ, place

COLS, ROWS = 8, 8
SQUARES = [Square(c, r).name for r in range(ROWS) for c in range(COLS)]
CORNERS = [Square(c, r).name for r in range(ROWS - 1) for c in range(COLS - 1)]


def s0566_like(painted: bool = True) -> tuple[Position, dict[str, float], dict[str, float], dict[str, float], list[Seen]]:
    """Two Medium figures read by their markers on A1 and H8; the Large figure recorded (and
    standing) on F3:G4, read on F3 only, the clearest rim round its centre; a printed disc on
    B5:C6, read on three squares, its rim fainter but clear (``painted``: its cores colourful)."""
    scores = dict.fromkeys(SQUARES, 0.02) | {"A1": 0.99, "H8": 0.99, "F3": 0.69, "G4": 0.33, "C5": 0.57, "B6": 0.78, "C6": 0.77, "B5": 0.27}
    large = dict.fromkeys(CORNERS, 0.04) | {"F3": 0.29, "B5": 0.18}
    plastic = dict.fromkeys(SQUARES, 0.3) | {"A1": 0.08, "H8": 0.08, "F3": 0.05, "G3": 0.07, "F4": 0.12, "G4": 0.12}
    if painted:
        plastic |= {"B5": 0.48, "C5": 0.48, "B6": 0.49, "C6": 0.43}
    else:  # a Large base's plastic shows grey on a square of its block, the rest under its body
        plastic |= {"B5": 0.06, "C5": 0.48, "B6": 0.49, "C6": 0.43}
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("a", "light", parse_square("A1")), Figure("b", "dark", parse_square("H8")),
        Figure("big", "light", parse_square("F3"), Size.LARGE)))
    return pos, scores, large, plastic, [Seen("a", "A1", 1.0, "marker"), Seen("b", "H8", 1.0, "marker")]


def _big(placed_figures: list[Seen]) -> Seen:
    return next(s for s in placed_figures if s.id == "big")


def test_a_printed_disc_block_gives_way_to_the_large_base_the_rim_shows() -> None:
    pos, scores, large, plastic, marked = s0566_like()
    placed = place(pos, scores, marked, set(), large_rims=large, plastic=plastic)
    assert _big(placed.figures).at == "F3"


def test_the_disc_block_is_taken_as_before_where_a_square_of_it_shows_grey_plastic() -> None:
    # a Large base's plastic shows on some square of its block: that block is a base as before
    pos, scores, large, plastic, marked = s0566_like(painted=False)
    assert _big(place(pos, scores, marked, set(), large_rims=large, plastic=plastic).figures).at == "B5"


def test_without_the_plastic_measured_the_reading_is_the_squares_as_before() -> None:
    # plain paper (no plastic asked, R132) or too few found bases: the disc block is read as before
    pos, scores, large, plastic, marked = s0566_like()
    assert _big(place(pos, scores, marked, set(), large_rims=large).figures).at == "B5"
    assert _big(place(pos, scores, [], set(), large_rims=large, plastic=plastic).figures).at in ("B5", "F3")


def test_the_disc_block_is_named_doubtful_where_no_other_way_remains() -> None:
    pos, scores, large, plastic, marked = s0566_like()
    scores |= {"F3": 0.02, "G4": 0.02}
    large |= {"F3": 0.04}
    placed = place(pos, scores, marked, set(), large_rims=large, plastic=plastic)
    big = _big(placed.figures)
    assert big.at == "B5" and big.confidence <= COUNT_READ
    assert any("big" in n and "printed on the map" in n for n in placed.notes)
