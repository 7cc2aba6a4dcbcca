"""A square read as a base right behind a Large base found is named last: it may be the body (reading R131).

Built from the failure on the independent renderer's diagnosis photo s0442 (star-field art, four
corner markers, 36 degrees of tilt, with the empty-map reference): a Large figure's base on G8:H9
read 1.0, 0.88, 1.0, 0.98, and its broad body, leaning away from the camera, read as a base on G10
(0.95, right behind H9 seen from the camera). The true Medium base at N9 read 0.80, doubtful; more
squares looked occupied than the roster's bases cover, so the count read N9 as empty, and the
Medium figure without a readable marker was named onto the sure G10: the body's square false
occupied, the base's square missed. Read so, G10 is named only after the doubtful squares the
count read as empty; a Medium base truly right behind a Large one, with no square the count read
as empty (diagnosis photos s0387, s0434), is still named there.
"""

from __future__ import annotations

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.placement import place

COLS, ROWS = 8, 8
#: the direction away from the camera on every square (s0442's, round G10): down and to the left
AWAY = (-0.64, 0.77)


def _scene(f6: float) -> tuple[Position, dict[str, float], dict[str, tuple[float, float]]]:
    scores = {Square(c, r).name: 0.01 for c in range(COLS) for r in range(ROWS)}
    # the Large base on C3:D4, its body read as a base on C5 (behind D4), the Medium base at F6
    scores |= {"C3": 1.0, "D3": 0.88, "C4": 1.0, "D4": 0.98, "C5": 0.95, "F6": f6}
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("big", "light", parse_square("C3"), Size.LARGE),
        Figure("m", "dark", parse_square("C6"), Size.MEDIUM),
    ))
    return pos, scores, dict.fromkeys(scores, AWAY)


def test_the_doubtful_square_the_count_read_as_empty_is_named_before_the_square_behind_a_large_base() -> None:
    pos, scores, away = _scene(0.80)
    placed = place(pos, scores, [], set(), away=away)
    at = {s.id: s.at for s in placed.figures}
    assert at["big"] == "C3"
    assert at["m"] == "F6"  # before: C5, the Large figure's body, nearer m's recorded square
    assert "C5" not in placed.occupied


def test_a_medium_base_right_behind_a_large_one_is_still_named_there() -> None:
    # diagnosis photo s0387: a Medium base right behind a Large one, no square the count read as
    # empty to give way to: named there as before
    pos, scores, away = _scene(0.02)
    placed = place(pos, scores, [], set(), away=away)
    assert {s.id: s.at for s in placed.figures}["m"] == "C5"


def test_the_square_behind_a_large_base_is_named_before_a_square_the_classifier_read_as_empty() -> None:
    # diagnosis photo s0434 with the reference: a Medium base right behind a Large one (read 1.0,
    # its rim 0.33), the only other choice a doubtful square the classifier read as empty (0.4),
    # no square trimmed by the count
    pos, scores, away = _scene(0.40)
    at = {s.id: s.at for s in place(pos, scores, [], set(), away=away).figures}
    assert at["m"] == "C5"


def test_without_the_camera_direction_the_sure_square_is_named_first_as_before() -> None:
    pos, scores, _away = _scene(0.80)
    at = {s.id: s.at for s in place(pos, scores, [], set()).figures}
    assert at["m"] == "C5"
