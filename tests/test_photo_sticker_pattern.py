"""A sticker whose cells, read at the one outline the sticker finder took, name no marker is named
by its whole printed pattern among the markers the roster left unread (reading R178).

Built from the misnamed squares of the diagnosis photos (issue 28, round 20): with the reference
they were the largest kind of wrong square (38 of 95 on seeds 341-538), nearly all two figures
named by the record's nearest squares, swapped, one of them carrying a marker whose sticker the
photo showed unread. On s0406 f10 (marker 40) and f14 (13) swapped both ways: the sticker finder
took, at J8, an outline merged with f14's light body, a cell off and too large, and read 3 cells
against 13 and 3 against 40; at H3 an outline beside the sticker. Matched at each outline round
the sticker's middle, 13's pattern fit J8's sticker 0.09 better than any other unread marker's.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.markers import PATTERN_LEAD, Sticker, _pattern, find_markers_and_stickers_near, name_among, name_by_pattern, pattern_fits
from assistant.photo.placement import place
from assistant.photo.windows import named_stickers, pattern_named_stickers
from tests.test_photo_markers_cut import PX, H, board

UNREAD = {13, 40, 48, 30, 16}  # s0406's unread markers but one


def with_light_body(mid: int, turn: float, dx: float, tone: int, radius: float, angle: float) -> np.ndarray:
    """A base at B2 with marker ``mid``'s sticker turned ``turn`` degrees, and a light body (a tan
    robe, ``tone``) leaning over its west side: its light merges with the sticker's margin."""
    img = board([(1, 1, mid, turn, "")])
    cx, cy = 1.5 * PX, 1.5 * PX
    cv2.ellipse(img, (int(cx + dx * PX), int(cy + 0.1 * PX)), (int(radius * PX), int(0.3 * PX)), angle, 0, 360,
                (tone, tone - 10, tone - 30), -1, cv2.LINE_AA)
    return img


def shown(img: np.ndarray) -> Sticker:
    markers, stickers = find_markers_and_stickers_near(img, H, [(1, 1)])
    assert markers == []  # ArUco and the cut reader read nothing
    assert [s.square for s in stickers] == [(1, 1)]
    return stickers[0]


def test_a_sticker_a_light_body_merges_with_is_named_by_its_pattern() -> None:
    for mid, turn, dx, tone, angle in ((13, 20.0, -0.1, 150, 0.0), (40, 20.0, -0.1, 190, 0.0), (13, -10.0, -0.15, 150, 60.0)):
        st = shown(with_light_body(mid, turn, dx, tone, 0.06, angle))
        assert name_among(st.cells, UNREAD) is None  # the cells of the outline taken tell nothing
        assert name_by_pattern(st, UNREAD) == mid
        fits = pattern_fits(st.view, st.outlines, UNREAD) if st.view is not None else {}
        assert max(fits, key=lambda m: fits[m]) == mid
        assert fits[mid] - max(v for m, v in fits.items() if m != mid) >= PATTERN_LEAD


def test_the_pattern_never_names_another_marker() -> None:
    # bodies of two tones, widths and slants over two markers in two turns: where the pattern
    # names one, it is the sticker's own; where it cannot tell, it names none
    named = 0
    for mid, turn, dx, tone, radius, angle in itertools.product((13, 40), (20.0, -10.0), (-0.2, -0.15, -0.1), (150, 190), (0.06, 0.09), (0.0, 60.0)):
        markers, stickers = find_markers_and_stickers_near(with_light_body(mid, turn, dx, tone, radius, angle), H, [(1, 1)])
        if markers or not stickers:
            continue
        got = name_by_pattern(stickers[0], UNREAD)
        assert got in (None, mid)
        named += got == mid
    assert named >= 8


def test_one_candidate_or_no_view_names_none() -> None:
    st = shown(with_light_body(13, 20.0, -0.1, 150, 0.06, 0.0))
    assert name_by_pattern(st, {13}) is None  # nothing to tell it from: R102's sticker says a marked figure stands there
    assert name_by_pattern(Sticker(st.square, st.middle, st.cells), UNREAD) is None
    assert name_by_pattern(st, set()) is None


def test_a_whole_pattern_on_plain_plastic_fits_its_own_marker_best() -> None:
    view = np.full((320, 320), 40, np.uint8)
    view[112:208, 112:208] = cv2.resize(_pattern(30, 2, 1.0), (96, 96), interpolation=cv2.INTER_NEAREST).astype(np.uint8)
    fits = pattern_fits(view, [((160.0, 160.0), 96.0, 0.0)], UNREAD)
    assert max(fits, key=lambda m: fits[m]) == 30 and fits[30] > 0.95


def test_the_square_is_named_by_the_pattern_where_the_cells_do_not() -> None:
    # fails before R178: the cells alone named nobody, and the two marked figures stayed swapped
    pos = Position(Edition.SWM2008, Map(8, 6), (Figure("a", "light", parse_square("E4"), Size.MEDIUM, marker=13),
                                                Figure("b", "dark", parse_square("A1"), Size.MEDIUM, marker=40)))
    st = shown(with_light_body(13, 20.0, -0.1, 150, 0.06, 0.0))
    assert named_stickers([st], {"B2"}, pos, []) == {}
    assert pattern_named_stickers([st], {"B2"}, pos, [], {}) == {"B2": 13}
    assert pattern_named_stickers([Sticker(st.square, st.middle, st.cells)], {"B2"}, pos, [], {}) == {}
    assert pattern_named_stickers([st], set(), pos, [], {}) == {}  # a square a read marker explains is not named again
    assert pattern_named_stickers([st], {"B2"}, pos, [], {"B2": 40}) == {}  # the cells named it: they stand
    # a marker the pattern names on two squares is named on neither
    twin = Sticker((4, 3), (4.5, 3.5), st.cells, st.view, st.outlines)
    assert pattern_named_stickers([st, twin], {"B2", "E4"}, pos, [], {}) == {}


def scores(**on: float) -> dict[str, float]:
    return {Square(c, r).name: 0.01 for c in range(8) for r in range(6)} | on


def test_the_pattern_decides_between_two_moved_figures_not_against_one_that_stood_still() -> None:
    # s0406: two marked figures that both moved, their nearest recorded squares swapping them; the
    # sticker at H3 whose pattern names 40 names them each where they stand
    pos = Position(Edition.SWM2008, Map(8, 6), (Figure("f10", "light", parse_square("F5"), Size.MEDIUM, marker=40),
                                                Figure("f14", "dark", parse_square("D4"), Size.MEDIUM, marker=13)))
    read = scores(C2=0.99, E5=0.99)
    assert {s.id: s.at for s in place(pos, read, [], set(), stickers={"C2"}).figures} == {"f10": "E5", "f14": "C2"}
    assert {s.id: s.at for s in place(pos, read, [], set(), stickers={"C2"}, sticker_patterns={"C2": 40}).figures} == {"f10": "C2", "f14": "E5"}
    # s0416: the figure carrying 16 stood still on D5; a pattern naming 16 on another square does
    # not move it there (one figure moved more is what the pattern weighs)
    pos = Position(Edition.SWM2008, Map(8, 6), (Figure("f9", "light", parse_square("D5"), Size.MEDIUM, marker=16),
                                                Figure("f3", "dark", parse_square("B2"), Size.MEDIUM, marker=20)))
    read = scores(D5=0.99, G3=0.99)
    assert {s.id: s.at for s in place(pos, read, [], set(), stickers={"G3"}, sticker_patterns={"G3": 16}).figures} == {"f9": "D5", "f3": "G3"}


def test_a_figure_its_own_sticker_names_on_its_recorded_square_is_no_swap_to_confirm() -> None:
    # diagnosis photo s0539 (reading R189): f5 and f7 read on their recorded squares, f5's by its
    # sticker's pattern, were doubted as swaps with moved figures (SWAP_READ) and ranked with a
    # moved figure's old square by name, that square left off the five listed. The sticker there
    # is the figure's own marker's: a figure that took its place would show another or none
    pos = Position(Edition.SWM2008, Map(8, 6), (
        Figure("stay", "light", parse_square("C3"), Size.MEDIUM, marker=39),
        Figure("mover", "dark", parse_square("E3"), Size.MEDIUM)))
    scores = {Square(c, r).name: 0.01 for c in range(8) for r in range(6)} | {"C3": 0.99, "F5": 0.99}
    placed = place(pos, scores, [], set(), stickers={"C3"})
    assert dict(placed.uncertain) == {"C3": 0.75}  # the sticker says a marked figure, not which: a swap to confirm
    for named in ({"sticker_patterns": {"C3": 39}}, {"sticker_names": {"C3": 39}}):
        placed = place(pos, scores, [], set(), stickers={"C3"}, **named)  # type: ignore[arg-type]
        assert {s.id: s.at for s in placed.figures} == {"stay": "C3", "mover": "F5"}
        assert min(s.confidence for s in placed.figures) > 0.9 and placed.uncertain == ()


def test_the_pattern_names_a_ring_of_three_marked_figures_that_all_moved() -> None:
    # diagnosis photo s0602 (reading R293): three marked figures, none read, all moved; E3's
    # sticker's pattern names 21. The nearest recorded squares named them round a ring, 1.1 of
    # moves shorter than the truth: weighed as one figure moved (R178) the pattern lost
    pos = Position(Edition.SWM2008, Map(12, 6), (Figure("f3", "light", parse_square("K1"), Size.MEDIUM, marker=21),
                                                 Figure("f4", "dark", parse_square("D1"), Size.MEDIUM, marker=24),
                                                 Figure("f8", "dark", parse_square("L1"), Size.MEDIUM, marker=4)))
    read = {Square(c, r).name: 0.01 for c in range(12) for r in range(6)} | {"E3": 0.99, "I2": 0.99, "I4": 0.99}
    kw = {"stickers": {"E3", "I2"}, "bare": {"I4"}}
    assert {s.id: s.at for s in place(pos, read, [], set(), **kw).figures} == {"f3": "I2", "f4": "E3", "f8": "I4"}  # type: ignore[arg-type]
    placed = place(pos, read, [], set(), sticker_patterns={"E3": 21}, **kw)  # type: ignore[arg-type]
    assert {s.id: s.at for s in placed.figures} == {"f3": "E3", "f4": "I4", "f8": "I2"}
    # still listed: the pattern is evidence, not a read marker
    assert {"I2", "I4"} <= {sq for sq, _c in placed.uncertain}
