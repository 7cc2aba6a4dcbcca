"""A Large figure whose block reads as empty under its body, by a faint rim, a glimpse and grey cores (reading R255).

Built from the failures on the independent renderer's diagnosis photos without the reference:
s0553 (the Large base at M7:N8 read 0.26, 0.07, 0.02, 0.17, its centre's Large rim 0.14 against
R111's clear 0.18, every core as grey as the found bases' plastic on a floor 0.12 more colourful),
s0597, s0606 and s0565 alike (rims 0.12-0.17, the likeliest square 0.18-0.48, three or four grey
cores): the figure was reported not seen.
"""

from __future__ import annotations

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.figures import Seen
from assistant.photo.placement import COUNT_READ, place

COLS, ROWS = 8, 8
SQUARES = [Square(c, r).name for r in range(ROWS) for c in range(COLS)]
CORNERS = [Square(c, r).name for r in range(ROWS - 1) for c in range(COLS - 1)]
MARKED = [Seen("a", "A1", 1.0, "marker"), Seen("b", "H8", 1.0, "marker")]
BLOCK = ("E4", "F4", "E5", "F5")


def s0553_like(rim: float = 0.14, glimpse: float = 0.26, cores: float = 0.0,
               floor: float = 0.12) -> tuple[Position, dict[str, float], dict[str, float], dict[str, float], dict[str, float]]:
    """Markers on A1 and H8 (plastic 0.0); the Large figure, recorded on B6, its block E4:F5 read
    ``glimpse``, 0.07, 0.02, 0.07 under its body, its centre's Large rim ``rim`` (the map's own
    0.05-0.07), its cores ``cores`` colourful; the floor ``floor``."""
    scores = dict.fromkeys(SQUARES, 0.01) | {"A1": 1.0, "H8": 1.0, "E4": glimpse, "F4": 0.07, "E5": 0.02, "F5": 0.07}
    rims = dict.fromkeys(SQUARES, 0.06) | {"A1": 0.2, "H8": 0.2}
    large = {c: 0.05 + 0.02 * (i % 2) for i, c in enumerate(CORNERS)} | {"E4": rim}
    plastic = dict.fromkeys(SQUARES, floor) | {"A1": 0.0, "H8": 0.0} | dict.fromkeys(BLOCK, cores)
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("a", "light", parse_square("A1")), Figure("b", "dark", parse_square("H8")),
        Figure("big", "dark", parse_square("B6"), Size.LARGE)))
    return pos, scores, rims, large, plastic


def _placed(**kw: float) -> tuple[dict[str, Seen], list[str]]:
    pos, scores, rims, large, plastic = s0553_like(**kw)
    placed = place(pos, scores, MARKED, set(), large_rims=large, rims=rims, plastic=plastic)
    return {s.id: s for s in placed.figures}, list(placed.notes)


def test_a_large_block_read_empty_with_a_faint_rim_a_glimpse_and_grey_cores_is_its_base() -> None:
    figs, notes = _placed()
    assert figs["big"].at == "E4" and figs["big"].confidence <= COUNT_READ
    assert any("big" in n and "every one of its squares reads as empty" in n for n in notes)


def test_a_rim_as_faint_as_a_half_hidden_one_is_enough() -> None:
    # s0565's D10:E11: 0.115 round its centre, four grey cores, 0.48 on its likeliest square
    figs, _notes = _placed(rim=0.115)
    assert figs["big"].at == "E4"


def test_three_grey_cores_are_enough() -> None:
    # s0597: one core under the body's colour
    pos, scores, rims, large, plastic = s0553_like()
    plastic["F5"] = 0.28
    placed = place(pos, scores, MARKED, set(), large_rims=large, rims=rims, plastic=plastic)
    assert {s.id: s.at for s in placed.figures}["big"] == "E4"


def test_without_one_of_the_three_signs_the_figure_stays_unseen() -> None:
    # no glimpse of a base (printed circles on bare floor read surely empty all round)
    assert "big" not in _placed(glimpse=0.10)[0]
    # a rim fainter than a half-hidden one shows (R86), or no clearer than the map's own rims
    assert "big" not in _placed(rim=0.07)[0]
    pos, scores, rims, large, plastic = s0553_like()
    large = dict.fromkeys(large, 0.14)
    assert "big" not in {s.id for s in place(pos, scores, MARKED, set(), large_rims=large, rims=rims, plastic=plastic).figures}
    # cores the floor's colour
    assert "big" not in _placed(cores=0.12)[0]


def test_where_the_floor_is_as_grey_as_the_plastic_the_cores_decide_nothing() -> None:
    # R210: grey everywhere on the map is no sign of a base
    assert "big" not in _placed(floor=0.03, cores=0.03)[0]
