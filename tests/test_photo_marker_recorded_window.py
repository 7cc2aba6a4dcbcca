"""A marked figure whose base no square reads as one: its recorded square is looked at once more
for its marker or sticker (reading R211).

Built from the independent renderer's diagnosis photo s0574 without the reference (a carpet read
by the second look's colours): f7 stood still on K10, its sticker plain in the photo, but the
square read 0.07 and no marker window looked there; f8 (recorded K8) moved to F10, whose sticker
showed. By the recorded squares f7 was the nearer to F10 and was named there, f8 not seen: K10
missed and F10 misnamed. A window on K10 shows f7's sticker; f7 is then named on its square, f8
on F10. The record says where to look, never where a figure is: a recorded square that shows no
sticker or marker changes nothing.
"""

from __future__ import annotations

import numpy as np
import pytest

import assistant.photo as photo
from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo import squares
from assistant.photo.board import Grid
from assistant.photo.markers import Sticker
from assistant.photo.reference import PAD, PX
from assistant.photo.windows import RECORDED_WINDOWS, recorded_windows

COLS, ROWS = 9, 7
H, W = (ROWS + 2 * PAD) * PX, (COLS + 2 * PAD) * PX


def _pos() -> Position:
    # "still" stood on D2 all along (its base read as empty); "moved" went from A4 to D4, the nearer
    # recorded square to D4 being still's
    return Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("still", "light", parse_square("D2"), Size.MEDIUM, marker=20),
        Figure("moved", "dark", parse_square("A4"), Size.MEDIUM, marker=21)))


def _detect(monkeypatch: pytest.MonkeyPatch, shown: set[tuple[int, int]]) -> tuple[photo.PhotoResult, list[tuple[int, int]]]:
    """detect on a photo whose squares read empty but D4 (0.97), the windows showing an unread
    sticker on the squares ``shown``; and every square a window was searched on."""
    grid = Grid(np.array([[1 / PX, 0, -PAD], [0, 1 / PX, -PAD], [0, 0, 1]], np.float64), 0.2, 4)
    asked: list[tuple[int, int]] = []

    def windows(image: np.ndarray, H: np.ndarray, squares: list[tuple[int, int]], *a: object, **k: object) -> tuple[list[object], list[Sticker]]:
        asked.extend(squares)
        return [], [Sticker(sq, (sq[0] + 0.5, sq[1] + 0.5), np.full((4, 4), -1, np.int8)) for sq in squares if sq in shown]

    monkeypatch.setattr(photo, "locate_grid", lambda *a, **k: (grid, [], False))
    monkeypatch.setattr(photo, "find_base_markers", lambda *a, **k: [])
    monkeypatch.setattr(squares, "find_markers_and_stickers_near", windows)
    monkeypatch.setattr(squares, "square_probabilities", lambda *a, **k: {Square(c, r).name: 0.97 if (c, r) == (3, 3) else 0.02
                                                                        for c in range(COLS) for r in range(ROWS)})
    return photo.detect(np.full((H, W, 3), 200, np.uint8), _pos(), "scene"), asked


def test_the_recorded_square_of_a_figure_whose_base_reads_empty_is_searched_and_its_sticker_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    res, asked = _detect(monkeypatch, {(3, 1), (3, 3)})
    assert (3, 1) in asked  # D2 read 0.02: only the record says to look there (fails before R211)
    assert {s.id: s.at for s in res.figures} == {"still": "D2", "moved": "D4"}
    assert res.not_seen == []


def test_a_recorded_square_that_shows_no_sticker_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # the figure's square looked at shows nothing: the record is not taken for where it stands --
    # the nearer recorded square names D4, the other figure is not seen (as before R211)
    res, asked = _detect(monkeypatch, {(3, 3)})
    assert (3, 1) in asked
    assert {s.id: s.at for s in res.figures} == {"still": "D4"}
    assert res.not_seen == ["moved"]
    assert "D2" not in res.occupied


def test_the_recorded_windows_are_the_unread_markers_squares_not_searched_yet_at_most_a_chunk() -> None:
    figs = tuple(Figure(f"f{k}", "light", Square(k, 1), Size.MEDIUM, marker=10 + k) for k in range(RECORDED_WINDOWS + 2))
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (*figs, Figure("plain", "dark", Square(0, 5), Size.MEDIUM),
                                                      Figure("big", "dark", Square(6, 4), Size.LARGE, marker=40)))
    unread = {10 + k for k in range(RECORDED_WINDOWS + 2)} | {40}
    got = recorded_windows(pos, unread, {"A2"})
    assert got == [f.at.name for f in figs[1:RECORDED_WINDOWS + 1]]  # A2 searched already; roster order; capped
    assert recorded_windows(pos, {40}, set()) == ["G5"]  # a Large base: its north-west square's window shows its middle
    assert recorded_windows(pos, set(), set()) == []  # every marker read: nothing more
