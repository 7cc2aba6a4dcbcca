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
from assistant.photo.bases import RIM_MIN
from assistant.photo.windows import NEAR_LEAST, NEAR_PER_SQUARE, NEAR_WINDOWS, marker_windows


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


# --------------------------------------------------------------------------- one base, one window (reading R134)
#
# Diagnosis photo s0509 (plain paper, four corner markers, tilt 30) with the empty-map reference:
# the squares of two Large figures without a marker read surer than without it (A4 0.54 -> 0.90), and
# each Large base's rim round its block's middle ranked all four of its squares; they took the last
# windows, and f8's Medium base at E2 (its own rim 0.27), whose marker the photo without a reference
# read, went unsearched -- the placement then read E2 and its neighbour D2 as a Large figure's block.
# s0391 lost f7's marker at J4 the same way. The readings the search ranks are drawn here.


def _large_block(nw: tuple[int, int], odds: float = 0.95) -> dict[str, float]:
    c, r = nw
    return {Square(c + dc, r + dr).name: odds for dr in (0, 1) for dc in (0, 1)}


def _scene(blocks: list[tuple[int, int]], block_rim: float) -> tuple[dict[str, float], dict[str, float], dict[str, float], dict[str, float]]:
    """Five Medium bases with clear rims (row 9), the Large bases ``blocks`` (north-west corners)
    with ``block_rim`` round their middles and faint own rims, and E2's Medium base (rim 0.27)."""
    scores = {Square(c, 8).name: 1.0 for c in range(0, 10, 2)} | {"E2": 1.0}
    own = dict.fromkeys(scores, 0.45) | {"E2": 0.27}
    large: dict[str, float] = {}
    for nw in blocks:
        block = _large_block(nw)
        scores |= block
        own |= dict.fromkeys(block, 0.1)
        large[Square(*nw).name] = block_rim
    # what bases.square_rims hands the search: the clearest of a square's own and any Large rim round it
    rims = {sq: max([own[sq]] + [v for nw, v in large.items() if sq in _large_block(_col_row(nw))]) for sq in scores}
    return scores, rims, own, large


def _col_row(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("A"), int(name[1:]) - 1


def test_a_large_base_takes_one_window_and_the_marked_medium_base_is_searched() -> None:
    scores, rims, own, large = _scene([(0, 3), (10, 1)], 0.36)  # A4:B5 and K2:L3, as s0509's f11 and f2
    assert "E2" not in marker_windows(scores, rims, set(), 5)  # by each square's clearest rim: eight Large squares first
    windows = marker_windows(scores, rims, set(), 5, own, large)
    assert len(windows) == 2 * 5 and "E2" in windows
    # each Large base is searched from one of its squares before E2, the rest after it
    assert windows.index("E2") == 7 and len({"A4", "B4", "A5", "B5"} & set(windows[:7])) == 1


@given(st.lists(st.tuples(st.integers(0, 8), st.integers(0, 1)), max_size=6, unique=True), st.floats(0.3, 0.6), st.integers(4, 20))
def test_a_medium_base_waits_for_one_window_a_large_base_at_most(nws: list[tuple[int, int]], block_rim: float, covered: int) -> None:
    blocks = [(2 * c, 2 + 3 * r) for c, r in nws]  # rows 3-4 and 6-7: no two blocks share a square
    scores, rims, own, large = _scene(blocks, block_rim)
    windows = marker_windows(scores, rims, set(), covered, own, large)
    assert len(windows) == min(NEAR_WINDOWS, NEAR_PER_SQUARE * covered, len(scores))
    # ahead of E2 (odds 1.0, rim 0.27): the five clearer Medium bases and one square of each Large base
    # (0.95 x 0.3 or more); the others rank by their own faint rims
    if 5 + len(blocks) < len(windows):
        assert windows.index("E2") == 5 + len(blocks)
