"""A square that shows no base's round rim is named for a Medium figure only where no other way remains.

Reading R339 (issue 28, item 3: a base is round plastic of a known size -- use its shape, not only
texture). On the diagnosis photos 551-720 (274 scene-modes, both modes), of the squares read as
bases (0.5 or more) that no base marker explained, none with a rim under 0.06 held a Medium base
(114 were empty, 93 a Large base's corner, whose quarter of a big disc shows no small rim): under
`NO_RIM` (0.04) a square shows not a trace of a base's rim. Diagnosis photo s0581 without the
reference: f4 (recorded B3, no marker) stood on F1, read 1.00 with a rim of 0.21; F3, printed art
read 0.99 with a rim of 0.03, lay a hair nearer its record and took it: two squares wrong. Hand-made
score maps stand for the classifier.
"""

from __future__ import annotations

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.figures import Seen
from assistant.photo.placement import COUNT_READ, place

COLS, ROWS = 12, 10


def scores(on: dict[str, float]) -> dict[str, float]:
    return {Square(c, r).name: on.get(Square(c, r).name, 0.01) for c in range(COLS) for r in range(ROWS)}


def rims(shown: dict[str, float]) -> dict[str, float]:
    return {Square(c, r).name: shown.get(Square(c, r).name, 0.12) for c in range(COLS) for r in range(ROWS)}


def position() -> Position:
    # "a" (marker 5) read on J9; "m", no marker, recorded on B3
    return Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("a", "light", parse_square("J9"), Size.MEDIUM, marker=5),
        Figure("m", "dark", parse_square("B3"), Size.MEDIUM)))


MARKED = [Seen("a", "J9", 1.0, "marker")]


def test_a_moved_figure_is_named_on_the_base_with_a_rim_not_on_rimless_art_nearer_its_record() -> None:
    # s0581's squares: F1 a base (1.00, rim 0.21), F3 art (0.99, rim 0.03), F3 the nearer B3
    placed = place(position(), scores({"J9": 1.0, "F1": 1.0, "F3": 0.99}), MARKED, set(), rims=rims({"F1": 0.21, "F3": 0.03}))
    assert {s.id: s.at for s in placed.figures} == {"a": "J9", "m": "F1"}
    assert "F3" not in placed.occupied  # every figure found: the rimless art no figure explains is read as empty
    # a sticker of an unread marker on F3 shows a base whatever its rim (R102): a marked figure is named there
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("a", "light", parse_square("J9"), Size.MEDIUM, marker=5), Figure("m", "dark", parse_square("B3"), Size.MEDIUM, marker=9)))
    placed = place(pos, scores({"J9": 1.0, "F1": 1.0, "F3": 0.99}), MARKED, set(), rims=rims({"F1": 0.21, "F3": 0.03}), stickers={"F3"})
    assert {s.id: s.at for s in placed.figures}["m"] == "F3"


def test_a_rimless_square_is_still_named_where_no_other_way_remains_and_said_doubtful() -> None:
    # no other square reads as a base, nor doubtfully: the figure is named on the rimless square, a coin toss
    placed = place(position(), scores({"J9": 1.0, "F3": 0.99}), MARKED, set(), rims=rims({"F3": 0.03}))
    m = next(s for s in placed.figures if s.id == "m")
    assert (m.at, m.confidence <= COUNT_READ) == ("F3", True)
    assert "F3" in dict(placed.uncertain)

