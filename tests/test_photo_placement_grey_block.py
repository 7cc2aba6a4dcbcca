"""A Large figure whose block reads as empty under its body is where its cores show the plastic's grey (reading R210).

Built from the failures on the independent renderer's diagnosis photos without the reference
s0424, s0479, s0494, s0530 and s0482: a Large figure not seen (or one named on another's block),
its block read as a base on one or two squares, its rim round the centre fainter than the rims of
R86/R111 ask, while three or four of its squares' base cores read as grey as the found bases'
plastic (s0424: 0.108, 0.121, 0.154 against the marked bases' 0.10, the map's floor 0.5).
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


def s0424_like(floor: float = 0.5) -> tuple[Position, dict[str, float], dict[str, float], dict[str, float], list[Seen]]:
    """Two Medium figures read by their markers on A1 and H8 (plastic 0.10); the Large figure
    recorded on C3:D4, read on C3 only, its block's cores grey but D3's (under the body); the map's
    floor ``floor`` colourful."""
    scores = dict.fromkeys(SQUARES, 0.02) | {"A1": 0.99, "H8": 0.99, "C3": 1.0, "D3": 0.03, "C4": 0.16, "D4": 0.09}
    large = dict.fromkeys(CORNERS, 0.04) | {"C3": 0.05}
    plastic = dict.fromkeys(SQUARES, floor) | {"A1": 0.10, "H8": 0.10, "C3": 0.108, "D3": 0.438, "C4": 0.121, "D4": 0.154}
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("a", "light", parse_square("A1")), Figure("b", "dark", parse_square("H8")),
        Figure("big", "light", parse_square("C3"), Size.LARGE)))
    return pos, scores, large, plastic, [Seen("a", "A1", 1.0, "marker"), Seen("b", "H8", 1.0, "marker")]


def test_the_large_figure_is_named_where_its_cores_show_grey_plastic() -> None:
    pos, scores, large, plastic, marked = s0424_like()
    placed = place(pos, scores, marked, set(), large_rims=large, plastic=plastic)
    big = next(s for s in placed.figures if s.id == "big")
    assert big.at == "C3" and big.confidence <= COUNT_READ
    assert any("big" in n and "grey or black plastic" in n for n in placed.notes)


def test_on_a_grey_floor_the_cores_decide_nothing() -> None:
    # the floor as grey as the plastic: grey cores everywhere, no more a base's than the art's
    pos, scores, large, plastic, marked = s0424_like(floor=0.12)
    placed = place(pos, scores, marked, set(), large_rims=large, plastic=plastic)
    assert "big" not in {s.id for s in placed.figures}


def test_without_the_plastic_measured_the_figure_is_not_seen_as_before() -> None:
    pos, scores, large, _plastic, marked = s0424_like()
    assert "big" not in {s.id for s in place(pos, scores, marked, set(), large_rims=large).figures}


def test_the_grey_cores_read_as_empty_outweigh_a_medium_base_beside() -> None:
    # s0530: the block one column west holds a Medium base read 0.97 on B4, grey with C3, C4: as
    # many grey cores, but the Large block's grey cores read as empty (its body) decide
    pos, scores, large, plastic, marked = s0424_like()
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (*pos.figures, Figure("m", "dark", parse_square("B4"))))
    scores |= {"B4": 0.97}
    plastic |= {"B4": 0.10, "D4": 0.5, "D3": 0.12}
    placed = place(pos, scores, marked, set(), large_rims=large, plastic=plastic)
    assert {s.id: s.at for s in placed.figures}["big"] == "C3"
