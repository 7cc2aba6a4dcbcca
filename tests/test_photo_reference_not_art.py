"""A square the empty-map reference shows changed, and the classifier reads surely as a base, is no
printed art: the rim check does not cap it (reading R87).

Built from the failure on the independent renderer's diagnosis photo s0420 (sci-fi floor, four
corner markers, with the empty-map reference): a Medium figure's base at I11, read 1.00 by the
classifier and 0.90 by the comparison with the reference, showed no base's round rim (0.055: its
body over it), so the rim check -- there to tell printed art read as a base on its texture --
capped it to 0.57; one square more looked occupied than the roster's bases cover, and the count
read it as empty before D6 (0.66, a body's square): the figure named on D6, 2 squares wrong.
"""

from __future__ import annotations

import numpy as np

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.bases import RIM_MIN, rim_check, rim_strength
from assistant.photo.placement import SURE, place
from assistant.photo.reference import PAD, PX

COLS, ROWS = 8, 6


def plain_view() -> np.ndarray:
    """A top-down view of an even grey floor: no square shows a base's rim (a body hides it)."""
    rng = np.random.default_rng(7)
    return np.clip(rng.normal(128, 2, ((ROWS + 2 * PAD) * PX, (COLS + 2 * PAD) * PX, 3)), 0, 255).astype(np.uint8)


def s0420_like() -> tuple[Position, dict[str, float]]:
    scores = {Square(c, r).name: 0.01 for c in range(COLS) for r in range(ROWS)} | {"F5": 1.0, "B2": 0.66}
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (Figure("f9", "light", parse_square("D3"), Size.MEDIUM),))
    return pos, scores


def test_a_base_both_readings_are_sure_of_keeps_its_reading_without_a_rim() -> None:
    view = plain_view()
    assert rim_strength(view, COLS, ROWS).max() < RIM_MIN
    pos, scores = s0420_like()
    capped, no_rim = rim_check(scores, view, COLS, ROWS, large=False, not_art={"F5"})
    assert capped["F5"] == 1.0 and "F5" not in no_rim
    assert capped["B2"] < SURE and "B2" in no_rim  # the rest as before: no rim, doubtful
    placed = place(pos, capped, [], set(), no_rim)
    (f9,) = placed.figures
    assert f9.at == "F5" and set(placed.occupied) == {"F5"}


def test_without_the_reference_a_rimless_base_is_doubtful_as_before() -> None:
    pos, scores = s0420_like()
    capped, no_rim = rim_check(scores, plain_view(), COLS, ROWS, large=False)
    assert capped["F5"] < SURE and {"F5", "B2"} <= no_rim
