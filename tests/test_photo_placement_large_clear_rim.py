"""A Large block holding a smaller base's own clear rim gives way to a block read on all four
squares before the roster's count, whose centre shows a clear Large rim (reading R278).

Built from diagnosis photo s0589 with the reference: A8:B9 read 0.95, 0.57, 1.00, 0.97, its
centre's Large rim 0.15, B8 a Medium base's own rim 0.45, taken for the Large figure; its base on
C10:D11 read 0.65, 0.74, 0.83, 0.97 -- three of them read away as doubtful by the roster's count
before any block was sought -- the map's clearest Large rim 0.39, its squares' own rims 0.09-0.20.
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


def s0589_like(medium_rim: float = 0.45, true_rim: float = 0.39) -> tuple[Position, dict[str, float], dict[str, float], dict[str, float]]:
    """Markers on A8 and H8; a Medium figure's base on C2 (its rim ``medium_rim``) in the block B2:C3
    read on four squares (Large rim 0.15); the Large base F5:G6 read 0.65, 0.74, 0.83, 0.97, its
    rim ``true_rim``; the rest of the floor read surely empty."""
    scores = dict.fromkeys(SQUARES, 0.01) | {"A8": 1.0, "H8": 1.0, "B2": 0.95, "B3": 0.97, "C2": 1.0, "C3": 0.9,
                                             "F5": 0.65, "G5": 0.74, "F6": 0.83, "G6": 0.97}
    large = dict.fromkeys(CORNERS, 0.05) | {"B2": 0.15, "F5": true_rim}
    rims = dict.fromkeys(SQUARES, 0.08) | {"C2": medium_rim, "F5": 0.09, "G5": 0.2, "F6": 0.16, "G6": 0.15}
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("a", "light", parse_square("A8")), Figure("b", "dark", parse_square("H8")),
        Figure("m", "light", parse_square("C2")), Figure("big", "dark", parse_square("B2"), Size.LARGE)))
    return pos, scores, large, rims


def _at(pos: Position, scores: dict[str, float], large: dict[str, float], rims: dict[str, float]) -> dict[str, str]:
    return {s.id: s.at for s in place(pos, scores, MARKED, set(), large_rims=large, rims=rims).figures}


def test_a_block_holding_a_medium_rim_gives_way_to_the_clear_rimmed_block_the_count_read_away() -> None:
    # fails before R278: the Large figure named on the Medium base's block, on its recorded square
    pos, scores, large, rims = s0589_like()
    placed = place(pos, scores, MARKED, set(), large_rims=large, rims=rims)
    at = {s.id: (s.at, s.confidence) for s in placed.figures}
    assert at["big"][0] == "F5" and at["big"][1] <= COUNT_READ
    assert at["m"][0] == "C2"
    assert any("big" in n and "round rim" in n for n in placed.notes)


def test_without_the_smaller_rim_or_a_clear_large_rim_the_block_stays() -> None:
    pos, scores, large, rims = s0589_like(medium_rim=0.12)
    assert _at(pos, scores, large, rims)["big"] == "B2"
    pos, scores, large, rims = s0589_like(true_rim=0.17)
    assert _at(pos, scores, large, rims)["big"] == "B2"
    # a square of the other block the classifier reads as empty
    pos, scores, large, rims = s0589_like()
    scores["F5"] = 0.3
    assert _at(pos, scores, large, rims)["big"] == "B2"
    # a square of the other block showing a smaller base's rim as clear as its Large one
    pos, scores, large, rims = s0589_like()
    rims["G5"] = 0.4
    assert _at(pos, scores, large, rims)["big"] == "B2"
