"""A Large base's block holds no square whose art the empty-map reference shows intact (reading R144).

Built from the failure on the independent renderer's diagnosis photo s0520 with the empty-map
reference (carpet, two corner markers, tilt 32): a Large figure's base on J2:K3 (every square read
0.98-1.0 as a base) was first taken one block over, then moved by its round rim (R101) onto J3:K4
-- read on three squares, J3 and K3 the base's, K4 under the figure's leaning body -- though J4's
base core showed the carpet's art intact (R112: no base there). A Large base covers every square
of its block past its core, and hides the art there: 6 squares wrong (3 false occupied, 3 missed),
the Medium figure beside it named onto the body's head.
"""

from __future__ import annotations

import cv2
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.bases import INTACT_MOST, art_intact
from assistant.photo.figures import block_squares
from assistant.photo.placement import LARGE_RIM, place
from assistant.photo.reference import PAD, PX
from tests.test_photo_reference_intact import other_camera
from tests.test_photo_reference_set_aside import lava

COLS, ROWS = 6, 6
SQUARES = [Square(c, r).name for r in range(ROWS) for c in range(COLS)]


def s0520_like() -> tuple[Position, dict[str, float], dict[str, float]]:
    """The Large base on B2:C3, read on every square; the block one square south, B3:C4, read on
    three (C4 under the body), its centre's rim the clearer; B4 reads as the empty map's art."""
    scores = dict.fromkeys(SQUARES, 0.02) | {"B2": 1.0, "C2": 0.99, "B3": 1.0, "C3": 0.98, "C4": 0.85, "B4": INTACT_MOST}
    # the Large rim round each block's centre, by its north-west square: the base's own block's
    # faint (its far half under the body), the block one over's clear (the body's dark cone)
    large = dict.fromkeys((Square(c, r).name for c in range(COLS - 1) for r in range(ROWS - 1)), 0.03) | {"B2": LARGE_RIM - 0.02, "B3": 0.2}
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (Figure("big", "light", parse_square("B4"), Size.LARGE),))
    return pos, scores, large


def test_a_large_base_is_not_moved_onto_a_block_with_a_square_showing_the_art_intact() -> None:
    pos, scores, large = s0520_like()
    (big,) = place(pos, scores, [], set(), large_rims=large, intact={"B4"}).figures
    assert big.at == "B2"


def test_without_the_art_intact_the_clearer_rim_still_moves_the_block() -> None:
    # the reading asks the reference's art only: without a reference (nothing intact), R101 stands
    pos, scores, large = s0520_like()
    (big,) = place(pos, scores, [], set(), large_rims=large).figures
    assert big.at == "B3"


@settings(max_examples=60, deadline=None)
@given(
    read=st.lists(st.floats(0.0, 1.0), min_size=COLS * ROWS, max_size=COLS * ROWS),
    rims=st.lists(st.floats(0.0, 0.5), min_size=(COLS - 1) * (ROWS - 1), max_size=(COLS - 1) * (ROWS - 1)),
    intact=st.sets(st.sampled_from(SQUARES), max_size=8),
    at=st.sampled_from([Square(c, r).name for c in range(COLS - 1) for r in range(ROWS - 1)]),
)
def test_no_large_base_is_named_over_a_square_showing_the_art_intact(read: list[float], rims: list[float], intact: set[str], at: str) -> None:
    # whatever the squares and rims read: the squares intact are read as R112 leaves them
    scores = {sq: min(v, INTACT_MOST) if sq in intact else v for sq, v in zip(SQUARES, read, strict=True)}
    large = {Square(c, r).name: v for (c, r), v in zip(((c, r) for r in range(ROWS - 1) for c in range(COLS - 1)), rims, strict=True)}
    pos = Position(Edition.SWM2008, Map(COLS, ROWS),
                   (Figure("big", "light", parse_square(at), Size.LARGE), Figure("small", "dark", parse_square("F6"))))
    placed = place(pos, scores, [], set(), large_rims=large, intact=intact)
    for seen in placed.figures:
        if seen.id == "big":
            assert not set(block_squares(seen.at, 2)) & intact


def test_a_large_base_hides_the_art_under_each_of_its_four_squares_cores() -> None:
    # the premise of R144: a Large base (about 0.9 squares in radius round its block's centre, a
    # dark grey or a grey near the art's) leaves none of its squares' base cores intact, whatever
    # camera shows it (the grid's fit a pixel off, another white balance)
    cols, rows = 8, 6
    empty = lava(2, cols, rows)
    for shift in (0.7, 1.5):
        for grey in (40, 90):
            game = other_camera(empty, shift)
            x, y = (PAD + 3) * PX, (PAD + 3) * PX  # the block C3:D4's centre
            cv2.circle(game, (x, y), int(0.9 * PX), (grey, grey, grey + 3), -1, lineType=cv2.LINE_AA)
            assert art_intact(game, empty, cols, rows).isdisjoint({"C3", "D3", "C4", "D4"})
