"""A second window on the Medium bases the roster named that no window searched (R294).

Built from round 25's held-out photo s0535 (now a diagnosis photo; both modes): f6 carries marker
21 (never read), recorded on H13, stands on K12; f1 carries none, recorded on G13, stands on C12
(read 0.69, a faint rim: no window searched it). K12's window showed no sticker, so R282 weighed f6
there `BARE_COST` more, and f6 was named on C12 -- the one base that said nothing -- and f1 on K12.
A window on C12 shows no sticker either (an unmarked figure's base never does: 671 of 671 on the
diagnosis photos), and the nearest recorded squares name them right again.
"""

from __future__ import annotations

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.figures import Seen
from assistant.photo.placement import place
from assistant.photo.windows import RECORDED_WINDOWS, named_windows

COLS, ROWS = 12, 14


def _s0535() -> tuple[Position, dict[str, float]]:
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (Figure("f1", "light", parse_square("G13"), Size.MEDIUM),
                                                     Figure("f6", "dark", parse_square("H13"), Size.MEDIUM, marker=21)))
    scores = {Square(c, r).name: 0.01 for c in range(COLS) for r in range(ROWS)} | {"C12": 0.69, "K12": 0.99}
    return pos, scores


def test_one_bare_window_names_the_marked_figure_on_the_base_no_window_searched() -> None:
    pos, scores = _s0535()
    placed = place(pos, scores, [], set(), bare={"K12"})
    assert {s.id: s.at for s in placed.figures} == {"f1": "K12", "f6": "C12"}
    # the base no window searched is the one the second look asks for
    assert named_windows(pos, placed.figures, [], {"K12", "H13"}) == ["C12"]


def test_both_windows_bare_name_them_by_their_nearest_recorded_squares() -> None:
    pos, scores = _s0535()
    placed = place(pos, scores, [], set(), bare={"K12", "C12"})
    assert {s.id: s.at for s in placed.figures} == {"f1": "C12", "f6": "K12"}
    assert {"C12", "K12"} <= {sq for sq, _c in placed.uncertain}  # still a naming to confirm


def test_no_second_window_where_a_bare_one_cannot_tell_the_figures_apart() -> None:
    pos, scores = _s0535()
    named = [Seen("f1", "C12", 0.5, "roster"), Seen("f6", "K12", 0.5, "roster")]
    # every base searched already; only unmarked figures; the marked figure read by its marker
    assert named_windows(pos, named, [], {"C12", "K12"}) == []
    assert named_windows(pos, named[:1], [], set()) == []
    assert named_windows(pos, [named[0], Seen("f6", "K12", 1.0, "marker")], [Seen("f6", "K12", 1.0, "marker")], set()) == []


def test_at_most_a_chunk_of_windows_and_never_a_large_base() -> None:
    figs = [Figure(f"u{k}", "light", Square(k, 0), Size.MEDIUM) for k in range(6)]
    figs += [Figure("m", "dark", Square(0, 5), Size.MEDIUM, marker=30), Figure("big", "dark", Square(8, 8), Size.LARGE)]
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), tuple(figs))
    named = [Seen(f.id, Square(f.at.col, f.at.row + 2).name, 0.5, "roster") for f in figs]
    got = named_windows(pos, named, [], set())
    assert len(got) == RECORDED_WINDOWS and "I11" not in got
    assert got == [s.at for s in named[:RECORDED_WINDOWS]]
