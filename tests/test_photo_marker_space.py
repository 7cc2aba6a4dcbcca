"""A base marker names its figure; the space it names is as sure as the sticker's place on the base allows (reading R141).

Issue 28 (diagnosis photo s0515, sand, four corner markers, without the reference): a Large base on
H10:I11 carries its sticker near its rim, the marker read at board point (8.33, 9.69), 0.45 of a
square from the block's middle. The marker's naming was said 0.14 sure ("between spaces"), the
squares then moved it onto I9:J10, which read likelier bases because another Large figure, its
marker unread, stands on I8:J9 -- and the placement counted every marker-named square as read
surely, so the figure was named 'by marker' on a square not its own, unlisted: the bench's one
confident wrong naming. Exact board points stand in for the photo (the grid is the identity).
"""

from __future__ import annotations

import numpy as np

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.board import Grid
from assistant.photo.figures import BETWEEN, Seen, figures_by_marker, settle_by_squares
from assistant.photo.markers import Marker
from assistant.photo.placement import place

COLS, ROWS = 11, 12
IDENTITY = Grid(np.eye(3), 0.2, 4)  # the photo's pixels are board points


def marker_at(marker_id: int, x: float, y: float, half: float = 0.2) -> Marker:
    return Marker(marker_id, np.array([[x - half, y - half], [x + half, y - half], [x + half, y + half], [x - half, y + half]], np.float64))


def scores(on: dict[str, float], empty: float = 0.02) -> dict[str, float]:
    return {Square(c, r).name: empty for c in range(COLS) for r in range(ROWS)} | on


def two_large_figures() -> Position:
    # f3 (marker 14) recorded and standing on H10:I11; f4 (marker 20, unread) on I8:J9
    return Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("f3", "light", parse_square("H10"), Size.LARGE, marker=14),
        Figure("f4", "dark", parse_square("I8"), Size.LARGE, marker=20)))


def test_a_large_base_sticker_near_its_rim_names_its_block_surely_and_is_not_moved_onto_another_base() -> None:
    pos = two_large_figures()
    sticker = marker_at(14, 8.33, 9.69)  # 0.45 from H10:I11's middle (8, 10); 0.74 or more from every other block's
    seen, _notes = figures_by_marker(pos, [sticker], IDENTITY)
    assert [(s.id, s.at) for s in seen] == [("f3", "H10")] and seen[0].confidence >= BETWEEN
    # the photo reads f4's base on I8:J9 and f3's own: I9:J10 holds three bases' worth of squares
    p = scores({"H10": 0.9, "I10": 0.95, "H11": 0.6, "I11": 0.7, "I8": 1.0, "J8": 1.0, "I9": 1.0, "J9": 1.0, "J10": 0.8})
    assert [(s.id, s.at) for s in settle_by_squares(pos, [sticker], IDENTITY, seen, p)] == [("f3", "H10")]


def test_a_large_marker_between_blocks_is_settled_only_on_a_block_its_sticker_can_lie_on() -> None:
    pos = two_large_figures()
    sticker = marker_at(14, 8.5, 9.7)  # as near H10:I11's middle (8, 10) as I10:J11's (9, 10): between
    seen, _notes = figures_by_marker(pos, [sticker], IDENTITY)
    assert seen[0].confidence < BETWEEN
    # I9:J10 (middle (9, 9), 0.86 of a square off) reads likeliest a base, but no sticker on a base there lies so far out
    p = scores({"I9": 1.0, "J9": 1.0, "I10": 1.0, "J10": 1.0, "H10": 0.8, "H11": 0.7, "I11": 0.6, "J11": 0.1})
    settled = settle_by_squares(pos, [sticker], IDENTITY, seen, p)
    assert settled[0].at in {"H10", "I10"}


def test_a_figure_the_squares_settled_off_its_markers_nearest_space_is_listed_never_counted_sure() -> None:
    pos = two_large_figures()
    doubtful = Seen("f3", "I9", 0.0, "marker")  # a marker half a square or more from every block's middle
    p = scores({"I9": 1.0, "J9": 1.0, "I10": 1.0, "J10": 0.9, "H10": 0.9, "H11": 0.6, "I11": 0.7, "I8": 1.0, "J8": 1.0})
    placed = place(pos, p, [doubtful], set(), settled_markers={"f3"})  # the squares settled it there, off H10
    assert "I9" in [square for square, _v in placed.uncertain]
    assert dict(placed.uncertain)["I9"] < BETWEEN
    # a marker read surely on its space is not listed
    sure = place(pos, p, [Seen("f3", "H10", 1.0, "marker")], set())
    assert "H10" not in [square for square, _v in sure.uncertain]
