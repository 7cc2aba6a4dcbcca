"""A Large block showing no plastic and no Large rim gives way to a block anywhere on the map that
the classifier reads on a square, its cores grey and its centre rimmed (reading R279).

Built from diagnosis photo s0359 without the reference: G1:H2 read 0.97, 0.68, 0.99, 0.69 on dark
art, its cores 0.29-0.54 against the found bases' plastic 0.08, its centre's Large rim 0.11, taken
for the Large figure; its base on N3:O4, six columns over, read 0.21, 0.55, 0.14, 0.26 under its
body, three cores 0.09, the map's clearest Large rim 0.17.
"""

from __future__ import annotations

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.figures import Seen
from assistant.photo.placement import COUNT_READ, place

COLS, ROWS = 10, 10
SQUARES = [Square(c, r).name for r in range(ROWS) for c in range(COLS)]
CORNERS = [Square(c, r).name for r in range(ROWS - 1) for c in range(COLS - 1)]
MARKED = [Seen("a", "A10", 1.0, "marker"), Seen("b", "J10", 1.0, "marker")]
ART = ("B2", "C2", "B3", "C3")
TRUE = ("H6", "I6", "H7", "I7")


def s0359_like(art_cores: float = 0.30, art_rim: float = 0.11) -> tuple[Position, dict[str, float], dict[str, float], dict[str, float]]:
    """Markers on A10 and J10 (plastic 0.08); dark art B2:C3 read on four squares, its cores
    ``art_cores``, its Large rim ``art_rim``; the Large base H6:I7 read on H7 only (0.55), three of
    its cores 0.09, its rim 0.17; the floor 0.5 colourful, its block rims 0.05."""
    scores = dict.fromkeys(SQUARES, 0.02) | {"A10": 1.0, "J10": 1.0, "B2": 0.97, "C2": 0.99, "B3": 0.68, "C3": 0.69,
                                             "H6": 0.21, "I6": 0.14, "H7": 0.55, "I7": 0.26}
    large = dict.fromkeys(CORNERS, 0.05) | {"B2": art_rim, "H6": 0.17}
    plastic = dict.fromkeys(SQUARES, 0.5) | {"A10": 0.08, "J10": 0.08} | dict.fromkeys(ART, art_cores) | {
        "H6": 0.09, "H7": 0.09, "I7": 0.09, "I6": 0.37}
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("a", "light", parse_square("A10")), Figure("b", "dark", parse_square("J10")),
        Figure("big", "dark", parse_square("H6"), Size.LARGE)))
    return pos, scores, large, plastic


def _big(pos: Position, scores: dict[str, float], large: dict[str, float], plastic: dict[str, float]) -> str | None:
    return {s.id: s.at for s in place(pos, scores, MARKED, set(), large_rims=large, plastic=plastic).figures}.get("big")


def test_a_block_without_plastic_or_rim_gives_way_to_a_far_grey_rimmed_block() -> None:
    # fails before R279: named on the art's block, six columns from its base (its recorded square
    # is the base's own: the record plays no part, the rim and the cores moved it)
    pos, scores, large, plastic = s0359_like()
    placed = place(pos, scores, MARKED, set(), large_rims=large, plastic=plastic)
    big = next(s for s in placed.figures if s.id == "big")
    assert big.at == "H6" and big.confidence <= COUNT_READ
    assert any("big" in n and "grey or black plastic" in n for n in placed.notes)


def test_the_far_block_moves_it_wherever_the_record_puts_it() -> None:
    pos, scores, large, plastic = s0359_like()
    pos = Position(pos.edition, pos.map, (*pos.figures[:2], Figure("big", "dark", parse_square("B2"), Size.LARGE)))
    assert _big(pos, scores, large, plastic) == "H6"


def test_a_block_showing_plastic_or_its_own_rim_stays() -> None:
    pos, scores, large, plastic = s0359_like()
    plastic["C3"] = 0.09  # one grey core: the cores do not tell (R238, R256)
    assert _big(pos, scores, large, plastic) == "B2"
    pos, scores, large, plastic = s0359_like(art_rim=0.13)  # a Large rim of its own
    assert _big(pos, scores, large, plastic) == "B2"


def test_the_far_block_needs_every_sign() -> None:
    for change in ({"scores": {"H7": 0.45}}, {"plastic": {"H7": 0.5}}, {"large": {"H6": 0.11}}):
        pos, scores, large, plastic = s0359_like()
        scores |= change.get("scores", {})
        plastic |= change.get("plastic", {})
        large |= change.get("large", {})
        assert _big(pos, scores, large, plastic) == "B2", change
