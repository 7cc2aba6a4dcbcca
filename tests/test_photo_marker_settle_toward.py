"""A Large figure's marker between two blocks is never settled by the squares on the block farther
from the camera than the one it names: that block is the figure's body's (reading R195).

Built from the failure on the independent renderer's diagnosis photo s0468 (without the empty-map
reference): a Large base on I10:J11, its marker read between I10:J11 and I11:J12 (said 0.08 sure),
its squares read 0.03, 0.20, 0.05, 0.99 under the figure's body, and the body, leaning away from
the camera (down the map), read J12 0.99: the squares settled the figure on I11:J12, 4 squares
wrong. Exact board points stand in for the photo (the grid is the identity).
"""

from __future__ import annotations

from assistant.coords import parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.figures import BETWEEN, figures_by_marker, settle_by_squares
from tests.test_photo_marker_space import COLS, IDENTITY, ROWS, marker_at, scores

DOWN = (0.64, 0.77)  # s0468's direction away from the camera at the base


def s0468_like() -> tuple[Position, list, list, dict[str, float]]:
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (Figure("f7", "dark", parse_square("I10"), Size.LARGE, marker=32),))
    sticker = marker_at(32, 9.0, 10.45)  # about as near I10:J11's middle (9, 10) as I11:J12's (9, 11)
    seen, _notes = figures_by_marker(pos, [sticker], IDENTITY)
    p = scores({"I10": 0.03, "I11": 0.20, "J10": 0.05, "J11": 0.99, "I12": 0.11, "J12": 0.99})
    return pos, [sticker], seen, p


def test_a_large_marker_between_blocks_is_not_settled_on_the_block_behind_it_where_its_body_reads() -> None:
    pos, markers, seen, p = s0468_like()
    assert seen[0].at == "I10" and seen[0].confidence < BETWEEN
    away = {f"{c}{r}": DOWN for c in "ABCDEFGHIJK" for r in range(1, ROWS + 1)}
    assert [s.at for s in settle_by_squares(pos, markers, IDENTITY, seen, p, away)] == ["I10"]


def test_the_squares_still_settle_it_toward_the_camera_and_without_a_direction() -> None:
    pos, markers, seen, p = s0468_like()
    # the camera on the other side: I11:J12 is toward it, the squares settle the figure there (R141)
    up = {f"{c}{r}": (-DOWN[0], -DOWN[1]) for c in "ABCDEFGHIJK" for r in range(1, ROWS + 1)}
    assert [s.at for s in settle_by_squares(pos, markers, IDENTITY, seen, p, up)] == ["I11"]
    assert [s.at for s in settle_by_squares(pos, markers, IDENTITY, seen, p)] == ["I11"]
