"""A Large figure's body read as half a block beyond its base leaves the figure to the block toward
the camera whose centre shows a clear Large rim (reading R194).

Built from the failure on the independent renderer's diagnosis photo s0527 (without the empty-map
reference): a Large base at J2:K3, its squares read 0.22, 0.08, 0.20, 0.39 under the figure's body
and its centre's rim 0.28; the body, leaning away from the camera (up and left on the map), read
H2 and I2 as a base (0.90, 0.91), and the block H1:I2, its rim 0.13, took the figure: 10 squares
wrong. Here the same reading, drawn on a small map two squares over: the base at E3:F4, the body
over C3 and D3.
"""

from __future__ import annotations

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.placement import CLEAR_LARGE_RIM, PARTLY_READ_LEAD, place

COLS, ROWS = 8, 6
#: the camera below and right of the map: bodies lean up and left on the top-down view (s0527)
UP_LEFT = (-0.73, -0.68)


def s0527_like(away: tuple[float, float] = UP_LEFT, base_rim: float = 0.28) -> tuple[Position, dict[str, float], dict[str, float],
                                                                                    dict[str, tuple[float, float]]]:
    scores = {Square(c, r).name: 0.02 for c in range(COLS) for r in range(ROWS)}
    scores |= {"E3": 0.22, "E4": 0.08, "F3": 0.20, "F4": 0.39, "C3": 0.90, "D3": 0.91}
    large = {Square(c, r).name: 0.05 for c in range(COLS - 1) for r in range(ROWS - 1)} | {"E3": base_rim, "C2": 0.13}
    ways = {Square(c, r).name: away for c in range(COLS) for r in range(ROWS)}
    # recorded far from both blocks (s0527's figure moved from M4): the record plays no part
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (Figure("big", "dark", parse_square("A5"), Size.LARGE),))
    return pos, scores, large, ways


def test_the_half_read_block_behind_a_clear_rim_toward_the_camera_is_the_body_and_the_base_is_at_the_rim() -> None:
    pos, scores, large, ways = s0527_like()
    placed = place(pos, scores, [], set(), large_rims=large, away=ways)
    (big,) = placed.figures
    assert big.at == "E3"
    assert {"E3", "F3", "E4", "F4"} <= set(placed.occupied)
    assert not {"C2", "D2"} & set(placed.occupied)
    assert big.confidence <= 0.5  # its squares read as empty: doubtful, and said so
    assert any("big's base read at E3 by a Large base's round rim" in n for n in placed.notes)


def test_a_clear_rim_away_from_the_camera_takes_no_base_off_the_half_read_block() -> None:
    # the camera above and left: the rim lies beyond the half-read block, where a body would lean
    pos, scores, large, ways = s0527_like(away=(0.73, 0.68))
    (big,) = place(pos, scores, [], set(), large_rims=large, away=ways).figures
    assert big.at == "C2"


def test_a_rim_less_than_twice_the_half_read_blocks_takes_no_base_off_it() -> None:
    rim = PARTLY_READ_LEAD * 0.13 - 0.01
    assert rim >= CLEAR_LARGE_RIM
    pos, scores, large, ways = s0527_like(base_rim=rim)
    (big,) = place(pos, scores, [], set(), large_rims=large, away=ways).figures
    assert big.at == "C2"
