"""Large figures by their base's rim and plastic (readings R236, R237, R238).

Built from the failures on the independent renderer's diagnosis photos without the reference:
s0474 (a Large figure's block read as empty on every square under its body, the clearest Large rim
on the map round its centre and all four cores grey as the plastic; the figure named instead on a
block read on two squares, a Medium base by its own rim and that base's body beside it) and s0562
(a Large base at I8:J9, I8 read as empty under the body, every core grey; the block one over read
on three squares, one core grey, taken).
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
MARKED = [Seen("a", "A1", 1.0, "marker"), Seen("b", "H8", 1.0, "marker")]


def s0474_like() -> tuple[Position, dict[str, float], dict[str, float], dict[str, float], dict[str, float]]:
    """Markers on A1 and H8 (plastic 0.10); a Medium figure on C3 (read 1.00, its own rim 0.26),
    its body beside it on D3 (0.91, rim 0.20), the block C2:D3's Large rim 0.15; the Large figure,
    recorded on F5, its block F5:G6 read 0.00-0.08 under its body, its Large rim 0.29, its cores
    0.13-0.14; the floor 0.5 colourful."""
    scores = dict.fromkeys(SQUARES, 0.01) | {"A1": 0.99, "H8": 0.99, "C3": 1.0, "D3": 0.91, "F5": 0.01, "G5": 0.0, "F6": 0.08, "G6": 0.02}
    rims = dict.fromkeys(SQUARES, 0.08) | {"C3": 0.26, "D3": 0.20}
    large = dict.fromkeys(CORNERS, 0.05) | {"C2": 0.15, "F5": 0.29}
    plastic = dict.fromkeys(SQUARES, 0.5) | {"A1": 0.10, "H8": 0.10, "C3": 0.10, "F5": 0.137, "G5": 0.143, "F6": 0.133, "G6": 0.138}
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("a", "light", parse_square("A1")), Figure("b", "dark", parse_square("H8")),
        Figure("m", "light", parse_square("C3")), Figure("big", "dark", parse_square("F5"), Size.LARGE)))
    return pos, scores, rims, large, plastic


def test_a_block_holding_a_medium_base_by_its_rim_is_no_large_base_by_the_rim_steps() -> None:
    # R236: without the plastic measured the Large figure is not seen, but never named on C2:D3
    pos, scores, rims, large, _plastic = s0474_like()
    placed = place(pos, scores, MARKED, set(), large_rims=large, rims=rims)
    at = {s.id: s.at for s in placed.figures}
    assert at.get("big") != "C2" and at["m"] == "C3"


def test_a_block_read_on_two_squares_one_with_a_smaller_rim_is_taken_as_before() -> None:
    # R236, s0426/s0484/s0582: one rim as clear as the block's (the Large base's near edge) is not two round things
    pos, scores, rims, large, _plastic = s0474_like()
    pos = Position(pos.edition, pos.map, (*pos.figures[:2], Figure("big", "dark", parse_square("C2"), Size.LARGE)))
    rims |= {"D3": 0.05}
    assert {s.id: s.at for s in place(pos, scores, MARKED, set(), large_rims=large, rims=rims).figures}["big"] == "C2"


def test_a_large_block_read_empty_under_its_body_is_found_by_its_rim_and_grey_cores() -> None:
    # R237: the clear rim round the block's centre and the plastic's grey on its cores
    pos, scores, rims, large, plastic = s0474_like()
    placed = place(pos, scores, MARKED, set(), large_rims=large, rims=rims, plastic=plastic)
    figs = {s.id: s for s in placed.figures}
    assert figs["big"].at == "F5" and figs["big"].confidence <= COUNT_READ and figs["m"].at == "C3"
    assert any("big" in n and "every one of its squares reads as empty" in n for n in placed.notes)


def test_a_clear_rim_on_squares_read_empty_with_coloured_cores_stays_unseen() -> None:
    # R111 as before: no square glimpses a base and the cores show the floor's colour (printed circle)
    pos, scores, rims, large, plastic = s0474_like()
    plastic |= dict.fromkeys(("F5", "G5", "F6", "G6"), 0.5)
    placed = place(pos, scores, MARKED, set(), large_rims=large, rims=rims, plastic=plastic)
    assert {s.id: s.at for s in placed.figures}.get("big") != "F5"


def s0562_like(floor: float = 0.5) -> tuple[Position, dict[str, float], dict[str, float], dict[str, float]]:
    """Markers on A1 and H8 (plastic 0.14); the Large base on D4:E5, read 0.02, 0.96, 0.43, 0.96,
    every core grey (0.08-0.13); the block E3:F4 one over, read 0.90, 0.37, 0.96, 0.96, its cores
    0.21, 0.23, 0.08, 0.32; no Large rim anywhere."""
    scores = dict.fromkeys(SQUARES, 0.01) | {"A1": 0.99, "H8": 0.99, "D4": 0.02, "E4": 0.96, "D5": 0.43, "E5": 0.96,
                                               "E3": 0.90, "F3": 0.37, "F4": 0.96}
    large = dict.fromkeys(CORNERS, 0.05)
    plastic = dict.fromkeys(SQUARES, floor) | {"A1": 0.14, "H8": 0.14, "D4": 0.128, "E4": 0.08, "D5": 0.128, "E5": 0.132,
                                                "E3": 0.21, "F3": 0.23, "F4": 0.32}
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("a", "light", parse_square("A1")), Figure("b", "dark", parse_square("H8")),
        Figure("big", "dark", parse_square("B2"), Size.LARGE)))
    return pos, scores, large, plastic


def test_a_large_block_moves_onto_the_block_one_over_whose_cores_show_the_plastic() -> None:
    # R238: E3:F4 read on three squares, one grey core; D4:E5 every core grey
    pos, scores, large, plastic = s0562_like()
    placed = place(pos, scores, MARKED, set(), large_rims=large, plastic=plastic)
    big = next(s for s in placed.figures if s.id == "big")
    assert big.at == "D4" and big.confidence <= COUNT_READ
    assert any("big" in n and "grey or black plastic" in n for n in placed.notes)


def test_on_a_grey_floor_or_without_the_plastic_the_squares_choose_as_before() -> None:
    pos, scores, large, plastic = s0562_like(floor=0.12)
    assert {s.id: s.at for s in place(pos, scores, MARKED, set(), large_rims=large, plastic=plastic).figures}["big"] == "E3"
    pos, scores, large, _plastic = s0562_like()
    assert {s.id: s.at for s in place(pos, scores, MARKED, set(), large_rims=large).figures}["big"] == "E3"
