"""A sticker whose code the open search cannot read still tells apart the few markers the roster
left unread, and names who stands there (reading R115); a sticker on a Large base's block says a
marked figure stands there, as it does on a Medium base's square (R102).

Built from the failures on the independent renderer's diagnosis photos (issue 28): "wrong figure
named" was the largest error with the reference on the last round's final photos (17 of 37 wrong
squares). On s0380 two marked figures that both moved (f8 and f14, markers 41 and 48) were named
by the record's nearest squares, swapped, with and without the reference, though the photo showed
both stickers (G5, I6) -- half under their bodies, too few cells for the whole dictionary, all 16
for two candidates; on s0488 f2 (26) and f13 (29) swapped so, the sticker at G5 showing. On s0482
three Large figures that all moved were named round in a circle (12 squares misnamed with the
reference): the sticker at J11 showed the block I10 to be a marked figure's, yet the one without
a marker (f12) was named there -- R102 counted stickers only on Medium bases.
"""

from __future__ import annotations

import numpy as np

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.markers import Sticker, _codes, find_markers_and_stickers_near, name_among
from assistant.photo.placement import place
from assistant.photo.windows import named_stickers
from tests.test_photo_markers_cut import H, board
from tests.test_photo_placement_sticker import with_body_over_sticker

COLS, ROWS = 8, 6


def empty_scores(**on: float) -> dict[str, float]:
    return {Square(c, r).name: 0.01 for c in range(COLS) for r in range(ROWS)} | on


def test_a_sticker_under_its_figure_is_named_among_the_roster_s_unread_markers() -> None:
    # marker 23 with the body over its north-east corner: ArUco and the cut reader read nothing
    # (a cell darkened by the body, other markers of the dictionary two cells further), but of
    # the markers the roster left unread (23, 41, 12) only 23 agrees with the cells shown
    img = with_body_over_sticker(board([(1, 1, 23, 20.0, ""), (3, 2, None, 0.0, "ne"), (4, 3, 33, -35.0, "")]), 1, 1, 0.16)
    markers, stickers = find_markers_and_stickers_near(img, H, [(1, 1), (3, 2), (4, 3), (0, 0)])
    assert [m.id for m in markers] == [33]
    assert [s.square for s in stickers] == [(1, 1)]
    assert name_among(stickers[0].cells, {23, 41, 12}) == 23
    # where another candidate comes near (28: two cells more against it), the cells cannot tell
    assert name_among(stickers[0].cells, {23, 28}) is None


def test_cells_too_few_name_none() -> None:
    whole = np.where(_codes()[23, 0], 1, 0).astype(np.int8)
    assert name_among(whole, {23, 41}) == 23
    few = whole.copy()
    few[:2] = -1  # a body over half the sticker: 8 cells show
    few[2, 0] = -1  # 7: too few to tell markers apart
    assert name_among(few, {23, 41}) is None
    assert name_among(whole, set()) is None


def test_a_marker_two_windows_name_on_different_squares_is_named_on_neither() -> None:
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (Figure("a", "light", parse_square("B2"), Size.MEDIUM, marker=23),
                                                     Figure("b", "dark", parse_square("E5"), Size.MEDIUM, marker=41)))
    cells = np.where(_codes()[23, 0], 1, 0).astype(np.int8)
    shown = [Sticker((2, 2), (2.5, 2.5), cells), Sticker((5, 2), (5.5, 2.5), cells)]
    assert named_stickers(shown, {"C3", "F3"}, pos, []) == {}
    assert named_stickers(shown[:1], {"C3"}, pos, []) == {"C3": 23}


def test_the_sticker_s_marker_names_who_of_two_marked_figures_that_moved_stands_there() -> None:
    # s0380: both moved; by the record's nearest squares "near" (recorded C3) takes C4 and "far"
    # (recorded F2) takes E3 -- the sticker at C4 shows far's marker 41: each named where it stands
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("near", "light", parse_square("C3"), Size.MEDIUM, marker=23),
        Figure("far", "dark", parse_square("F2"), Size.MEDIUM, marker=41)))
    scores = empty_scores(C4=0.99, E3=0.99)
    assert {s.id: s.at for s in place(pos, scores, [], set(), stickers={"C4"}).figures} == {"near": "C4", "far": "E3"}
    placed = place(pos, scores, [], set(), stickers={"C4"}, sticker_names={"C4": 41})
    assert {s.id: s.at for s in placed.figures} == {"near": "E3", "far": "C4"}
    # the name a sticker's cells gave is the photo's: the swap the record would make is no rival
    assert all(s.confidence > 0.5 for s in placed.figures)


def test_a_sticker_on_a_large_base_s_block_is_a_marked_figure_s() -> None:
    # s0482: two Large figures that moved, one with a marker, one without; by the record's nearest
    # squares the one without takes the block B2 (its sticker at C3), the marked one E4
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("plain", "light", parse_square("C1"), Size.LARGE),
        Figure("marked", "dark", parse_square("G5"), Size.LARGE, marker=24)))
    block = {sq: 0.99 for sq in ("B2", "C2", "B3", "C3", "E4", "F4", "E5", "F5")}
    scores = empty_scores(**block)
    assert {s.id: s.at for s in place(pos, scores, [], set()).figures} == {"plain": "B2", "marked": "E4"}
    placed = place(pos, scores, [], set(), stickers={"C3"})
    assert {s.id: s.at for s in placed.figures} == {"plain": "E4", "marked": "B2"}
