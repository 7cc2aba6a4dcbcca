"""A square showing a base marker's sticker is a base, even where a found figure's body is seen over it.

Reading R338 (issue 28, item 1: the record never places a figure the photo does not show). A found
figure's body, seen leaning over the squares behind its base, reads as a base there, so a square
read surely as a base under such a body is named after the sure squares no body is seen over
(R191). A sticker -- the printed base marker whose code the photo could not read -- is on a base,
never on a body, a head or shoulders (R102: on no base without a marker, on no printed art but one
of 151 squares read as bases). Diagnosis photo s0632 (both modes): f9, marker 16, stood still on G1,
read 1.00 with its sticker, behind f7's body; G1 went to the doubtful step and f9 was named on K2,
bare art four squares off, the sticker's square then read as f7's body: two squares wrong. Hand-made
score maps stand for the classifier; the camera to the south (bodies seen leaning north).
"""

from __future__ import annotations

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.figures import Seen
from assistant.photo.placement import place

COLS, ROWS = 13, 14
LEAN = 1.27  # squares seen over the map for each square of height (diagnosis photo s0459's camera)


def everywhere(value: object) -> dict[str, object]:
    return {Square(c, r).name: value for c in range(COLS) for r in range(ROWS)}


def scores(on: dict[str, float]) -> dict[str, float]:
    return {Square(c, r).name: on.get(Square(c, r).name, 0.01) for c in range(COLS) for r in range(ROWS)}


def position(marker: int | None) -> Position:
    # "a" (marker 5) read on C6; "m" recorded on C5, right behind it, carrying ``marker``
    return Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("a", "light", parse_square("C6"), Size.MEDIUM, marker=5),
        Figure("m", "dark", parse_square("C5"), Size.MEDIUM, marker=marker)))


def read(pos: Position, stickers: set[str]) -> dict[str, str]:
    # C5 (behind a's base, under its body) and G8 (art, four squares off) both read 0.99 as bases
    placed = place(pos, scores({"C6": 0.99, "C5": 0.99, "G8": 0.99}), [Seen("a", "C6", 1.0, "marker")], set(),
                   away=everywhere((0.0, -1.0)), lean=everywhere(LEAN), stickers=stickers)  # type: ignore[arg-type]
    return {s.id: s.at for s in placed.figures}


def test_a_figure_standing_still_on_its_sticker_behind_a_found_figure_is_named_there() -> None:
    assert read(position(16), {"C5"}) == {"a": "C6", "m": "C5"}
    # R191 unchanged where no sticker shows on C5: the figure is named on the sure square no body is seen over
    assert read(position(16), set())["m"] == "G8"


def test_a_sticker_square_under_a_body_is_no_body_the_art_far_off_is_read_as_empty() -> None:
    pos = position(16)
    placed = place(pos, scores({"C6": 0.99, "C5": 0.99, "G8": 0.99}), [Seen("a", "C6", 1.0, "marker")], set(),
                   away=everywhere((0.0, -1.0)), lean=everywhere(LEAN), stickers={"C5"})  # type: ignore[arg-type]
    assert "C5" in placed.occupied and "G8" not in placed.occupied
    assert not placed.not_seen

