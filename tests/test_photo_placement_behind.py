"""A square read surely as a base where a found figure's body is seen is named last (issue 28 items 1, 3).

On a photo taken at a slant a figure's body stands above its base and is seen leaning away from
the camera over the squares behind it; the classifier and the reference comparison read such a
square as surely occupied as a base. Named among the sure squares, a moved figure without a base
marker was put on it whenever it lay nearer the figure's recorded square than its own base did
(diagnosis photo s0489 with the reference: f10 named on E4, the square right behind a Large
figure's base, while its own base on E8 read 1.00). Such squares are named with the doubtful
ones, after the sure squares no found body is seen over (reading R187). Hand-made score maps
stand for the classifier; the camera to the south (bodies seen leaning north), a body seen 1.27
squares over the map for each square of height (s0459's camera).
"""

from __future__ import annotations

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.figures import Seen
from assistant.photo.placement import BODY_ACROSS, SURE, _under_body, place

COLS, ROWS = 10, 10
NORTH = (0.0, -1.0)
LEAN = 1.27


def record(*figs: tuple[str, str, Size]) -> Position:
    """A position: figures (id, square, size) on an open map."""
    return Position(Edition.SWM2008, Map(COLS, ROWS), tuple(Figure(i, "light", parse_square(at), size) for i, at, size in figs))


def everywhere(value: object) -> dict[str, object]:
    return {Square(c, r).name: value for c in range(COLS) for r in range(ROWS)}


def scores(on: dict[str, float], empty: float = 0.02) -> dict[str, float]:
    return {Square(c, r).name: empty for c in range(COLS) for r in range(ROWS)} | on


def test_a_moved_figure_is_named_on_its_own_base_not_on_a_found_figures_body() -> None:
    # "a" read by its marker on C6; its body reads 0.99 on C5, right behind it. "m" (recorded C4)
    # moved to G8, read 0.99: the body's square is nearer its record, its own base is where it stands
    pos = record(("a", "C6", Size.MEDIUM), ("m", "C4", Size.MEDIUM))
    placed = place(pos, scores({"C6": 0.99, "C5": 0.99, "G8": 0.99}), [Seen("a", "C6", 1.0, "marker")], set(),
                   away=everywhere(NORTH), lean=everywhere(LEAN))  # type: ignore[arg-type]
    named = {s.id: s.at for s in placed.figures}
    assert named == {"a": "C6", "m": "G8"}
    assert "C5" not in placed.occupied  # read as a's body, every base of the roster found
    assert "G8" in placed.occupied


def test_a_body_over_a_diagonal_square_behind_a_large_base_is_named_last() -> None:
    # a Large figure found on E5:F6 by its marker, the camera to the south-west: its body is seen
    # over G4, diagonally behind its block, read 0.99. "m" (recorded G3) stands on B8, read 0.97
    pos = record(("big", "E5", Size.LARGE), ("m", "G3", Size.MEDIUM))
    away = everywhere((0.6, -0.8))
    on = {"E5": 0.99, "F5": 0.99, "E6": 0.99, "F6": 0.99, "G4": 0.99, "B8": 0.97}
    placed = place(pos, scores(on), [Seen("big", "E5", 1.0, "marker")], set(), away=away, lean=everywhere(LEAN))  # type: ignore[arg-type]
    assert {s.id: s.at for s in placed.figures}["m"] == "B8"


def test_a_figure_that_stood_still_behind_another_is_still_named_there() -> None:
    # no other square reads as a base: the square behind is the figure's own, named as sure as it reads
    pos = record(("a", "C6", Size.MEDIUM), ("b", "C5", Size.MEDIUM))
    placed = place(pos, scores({"C6": 0.99, "C5": 0.99}), [Seen("a", "C6", 1.0, "marker")], set(),
                   away=everywhere(NORTH), lean=everywhere(LEAN))  # type: ignore[arg-type]
    named = {s.id: s for s in placed.figures}
    assert named["b"].at == "C5" and named["b"].confidence >= SURE


def test_the_body_is_seen_over_the_squares_it_overlaps_not_beside_its_base() -> None:
    found = [("a", "C6", 1)]
    north, lean = {"C6": NORTH}, {"C6": LEAN}
    assert _under_body("C5", found, north, lean, BODY_ACROSS) == "a"  # right behind
    assert _under_body("C4", found, north, lean, BODY_ACROSS) == "a"  # its shoulders, 1.6 squares tall
    assert _under_body("C3", found, north, lean, BODY_ACROSS) is None  # past its top (2.0 + 0.5)
    assert _under_body("D6", found, north, lean, BODY_ACROSS) is None  # beside the base, not behind it
    assert _under_body("C7", found, north, lean, BODY_ACROSS) is None  # in front of it
    assert _under_body("D5", found, north, lean, BODY_ACROSS) is None  # diagonal, a whole square off the line
    slant = {"C6": (0.45, -0.89)}  # the line passes 0.9 squares off C4's centre: the body overlaps C4
    assert _under_body("C4", found, slant, lean, BODY_ACROSS) == "a"
    assert _under_body("C4", found, slant, lean) is None  # R139's head: only the squares on the body's own line
    assert _under_body("C5", found, north, {"C6": 0.2}, BODY_ACROSS) is None  # seen from above: no lean
