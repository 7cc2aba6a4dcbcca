"""A Large block whose cores show no plastic gives way to a grey-cored, rimmed block within the body's reach (reading R256).

Built from the failures on the independent renderer's diagnosis photos without the reference:
s0356 (a Large figure named on difficult-terrain art, F6:G7 read 0.99, 0.81, 0.47, 0.99, its cores
0.28-0.29 against the found bases' plastic 0.12; the true block D6:E7, two squares over, read as
empty under the body, its four cores 0.08-0.12 and a Large rim of 0.15) and s0581 (a block of art
read on three squares, no core grey; the true block two squares off diagonally, two cores grey,
rim 0.14).
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
MARKED = [Seen("a", "A8", 1.0, "marker"), Seen("b", "H8", 1.0, "marker")]
ART = ("F2", "G2", "F3", "G3")
TRUE = ("D2", "E2", "D3", "E3")


def s0356_like(true_cores: float = 0.10, art_cores: float = 0.28) -> tuple[Position, dict[str, float], dict[str, float], dict[str, float]]:
    """Markers on A8 and H8 (plastic 0.12); the art's block F2:G3 read 0.99, 0.81, 0.47, 0.99, its
    Large rim 0.17, its cores ``art_cores``; the Large figure's block D2:E3 read 0.03-0.00, its rim
    0.15, its cores ``true_cores``; the floor 0.5 colourful."""
    scores = dict.fromkeys(SQUARES, 0.01) | {"A8": 1.0, "H8": 1.0, "F2": 0.99, "G2": 0.81, "F3": 0.47, "G3": 0.99, "D2": 0.03, "E2": 0.02}
    large = dict.fromkeys(CORNERS, 0.05) | {"F2": 0.17, "D2": 0.15}
    plastic = dict.fromkeys(SQUARES, 0.5) | {"A8": 0.12, "H8": 0.12} | dict.fromkeys(ART, art_cores) | dict.fromkeys(TRUE, true_cores)
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("a", "light", parse_square("A8")), Figure("b", "dark", parse_square("H8")),
        Figure("big", "dark", parse_square("G4"), Size.LARGE)))
    return pos, scores, large, plastic


def test_a_large_block_without_plastic_moves_onto_the_grey_rimmed_block_within_reach() -> None:
    pos, scores, large, plastic = s0356_like()
    placed = place(pos, scores, MARKED, set(), large_rims=large, plastic=plastic)
    big = next(s for s in placed.figures if s.id == "big")
    assert big.at == "D2" and big.confidence <= COUNT_READ
    assert any("big" in n and "grey or black plastic" in n for n in placed.notes)


def test_two_grey_cores_are_enough() -> None:
    # s0581: the body over the far half of the true block
    pos, scores, large, plastic = s0356_like()
    plastic |= {"E2": 0.5, "E3": 0.5}
    assert {s.id: s.at for s in place(pos, scores, MARKED, set(), large_rims=large, plastic=plastic).figures}["big"] == "D2"


def test_a_block_showing_the_plastic_or_a_neighbour_without_it_stays() -> None:
    # one grey core on the block taken: a base's, the cores do not tell
    pos, scores, large, plastic = s0356_like()
    plastic["G3"] = 0.12
    assert {s.id: s.at for s in place(pos, scores, MARKED, set(), large_rims=large, plastic=plastic).figures}["big"] == "F2"
    # the neighbour's cores the floor's colour, or one grey
    for cores in ({"D2": 0.5, "E2": 0.5, "D3": 0.5, "E3": 0.5}, {"E2": 0.5, "D3": 0.5, "E3": 0.5}):
        pos, scores, large, plastic = s0356_like()
        plastic |= cores
        assert {s.id: s.at for s in place(pos, scores, MARKED, set(), large_rims=large, plastic=plastic).figures}["big"] == "F2"
    # no Large rim round the neighbour's centre
    pos, scores, large, plastic = s0356_like()
    large["D2"] = 0.05
    assert {s.id: s.at for s in place(pos, scores, MARKED, set(), large_rims=large, plastic=plastic).figures}["big"] == "F2"
