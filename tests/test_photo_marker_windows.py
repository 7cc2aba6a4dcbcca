"""Which squares are searched again for an unread base marker (reading R93).

Independent photo s0408 (a star field, with the empty-map reference): squares read as bases on
the art alone (0.96-1.0, no round rim) took every window of the search for the base markers the
board-wide pass missed, and a marked base read 0.91 with a clear rim went unsearched; its figure
was then named by the record onto the art. These scenes are drawn here as the square readings the
search ranks.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from assistant.coords import Square
from assistant.photo import NEAR_LEAST, NEAR_PER_SQUARE, NEAR_WINDOWS, marker_windows
from assistant.photo.bases import RIM_MIN


def _star_field(n: int) -> tuple[dict[str, float], dict[str, float]]:
    """``n`` squares read as bases on the art alone: odds 0.96-1.0, no base's rim."""
    squares = [Square(c, r).name for r in range(12) for c in range(13)][:n]
    return ({sq: 1.0 - 0.04 * k / max(1, n) for k, sq in enumerate(squares)}, dict.fromkeys(squares, 0.07))


def test_a_rimmed_base_read_091_is_searched_before_the_art_read_as_bases() -> None:
    # s0408: three markers unread (three Medium bases), 18 squares of art read 0.96-1.0
    art, rims = _star_field(18)
    windows = marker_windows(art | {"I3": 0.91}, rims | {"I3": 0.25}, set(), 3)
    assert len(windows) == 3 * NEAR_PER_SQUARE
    assert "I3" in windows  # by the odds alone it came 19th, past the 6 windows


def test_the_figures_already_found_and_unlikely_squares_are_not_searched() -> None:
    scores = {"A1": 0.99, "B1": 0.95, "C1": NEAR_LEAST - 0.01, "D1": 0.9}
    rims = {"A1": 0.3, "B1": 0.2, "C1": 0.4, "D1": 0.1}
    assert marker_windows(scores, rims, {"A1"}, 5) == ["B1", "D1"]


@given(st.integers(0, 60), st.integers(1, 30), st.floats(0.5, 0.95), st.floats(0.15, 0.5))
def test_a_rimmed_base_is_searched_whenever_windows_are_left_for_it(n_art: int, covered: int, odds: float, rim: float) -> None:
    art, rims = _star_field(n_art)
    windows = marker_windows(art | {"M12": odds}, rims | {"M12": rim}, set(), covered)
    assert len(windows) == min(NEAR_WINDOWS, NEAR_PER_SQUARE * covered, n_art + 1)
    # art with no rim (below RIM_MIN) never ranks above a base read half as likely with a clear rim
    assert max(rims.values(), default=0.0) < RIM_MIN
    assert "M12" in windows
