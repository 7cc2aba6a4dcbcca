"""A square read as a base that no figure explains, with every figure of the roster found, is no base.

Issue 28 (item 3, goals: squares wrong <= 0.1 %): such squares ("strangers") were kept occupied as
"a figure the record lacks", and proved wrong every time on the independent renderer's diagnosis
photos (0 of 20, placement.MEASURED_RIGHT; on 341-550 again every one, reading R175 in
docs/readings.md): art, a figure's body or its shadow read as a base. They are read as empty and
listed, so a figure the record lacks is still put to the judge. While a figure of the roster is not
seen, the square may be its base, and stays occupied.
"""

from __future__ import annotations

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.figures import Seen
from assistant.photo.placement import COUNT_READ, LISTED_BELOW, MEASURED_RIGHT, STRANGER_READ, UNEXPLAINED, place

COLS, ROWS = 10, 8


def board(read: dict[str, float]) -> dict[str, float]:
    return {Square(c, r).name: 0.02 for c in range(COLS) for r in range(ROWS)} | read


def two() -> Position:
    return Position(Edition.SWM2008, Map(COLS, ROWS),
                    (Figure("a", "light", parse_square("B2")), Figure("b", "dark", parse_square("G5"), Size.MEDIUM)))


def test_a_square_no_figure_explains_with_every_figure_found_is_read_as_empty_and_listed() -> None:
    # s0343 (B2), s0351 (A12), s0357 (H2) without the reference: both figures read by their base
    # markers, one square far from both read surely as a base, with a base's round rim
    marked = [Seen("a", "B2", 1.0, "marker"), Seen("b", "G5", 1.0, "marker")]
    placed = place(two(), board({"B2": 0.99, "G5": 0.99, "J8": 0.97}), marked, set())
    assert set(placed.occupied) == {"B2", "G5"}
    listed = dict(placed.uncertain)
    # listed (a figure the record lacks is put to the judge), said as such readings proved right
    assert listed["J8"] == STRANGER_READ < LISTED_BELOW and STRANGER_READ > MEASURED_RIGHT[UNEXPLAINED]
    assert any("J8" in n and "R175" in n and "read as empty" in n for n in placed.notes)
    assert not any("no figure of the record was matched" in n for n in placed.notes)


def test_with_a_figure_not_seen_a_square_no_figure_explains_stays_occupied() -> None:
    # a Large figure found nowhere (no 2 x 2 block reads as a base): the single square read as a
    # base may be part of its base, its body hiding the rest -- it stays occupied, listed first
    pos = Position(Edition.SWM2008, Map(COLS, ROWS),
                   (Figure("a", "light", parse_square("B2")), Figure("big", "dark", parse_square("F4"), Size.LARGE)))
    placed = place(pos, board({"B2": 0.99, "J8": 0.97}), [Seen("a", "B2", 1.0, "marker")], set())
    assert placed.not_seen == ("big",)
    assert "J8" in placed.occupied
    assert placed.uncertain[0] == ("J8", MEASURED_RIGHT[UNEXPLAINED])
    assert any("J8" in n and "no figure of the record was matched" in n for n in placed.notes)


def test_a_rimless_square_no_figure_explains_is_read_as_art_and_a_rimmed_one_as_empty() -> None:
    # both read as empty with every figure found; the rimless one is art read on its texture (R60,
    # a coin toss as the count's readings are), the rimmed one a stranger (R175)
    marked = [Seen("a", "B2", 1.0, "marker"), Seen("b", "G5", 1.0, "marker")]
    placed = place(two(), board({"B2": 0.99, "G5": 0.99, "J8": 0.97, "A7": 0.97}), marked, set(), no_rim={"A7"})
    assert set(placed.occupied) == {"B2", "G5"}
    listed = dict(placed.uncertain)
    assert listed["A7"] == MEASURED_RIGHT[COUNT_READ] and listed["J8"] == STRANGER_READ
    assert any("A7" in n and "rim" in n for n in placed.notes) and any("J8" in n and "R175" in n for n in placed.notes)
