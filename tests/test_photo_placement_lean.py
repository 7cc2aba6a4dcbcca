"""A figure's body leans away from the camera over the squares behind its base (issue 28 item 3).

The base lies on the map; the body stands above it and, on the top-down view, is seen leaning
away from the point under the camera, over the squares behind. Of a run of squares read as
occupied, the base is at the end nearest the camera. Hand-made score maps stand for the
classifier; the direction away from the camera is the one measured on the held-out independent
photo s0384 (-0.66 columns, +0.75 rows: down and to the left on the map).
"""

from __future__ import annotations

import numpy as np

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.bases import away_from_camera
from assistant.photo.placement import STRANGER_READ, SURE, place

COLS = ROWS = 10
S0384 = (-0.66, 0.75)


def record(*figs: tuple[str, str, Size]) -> Position:
    """A position: figures (id, square, size) on an open map."""
    return Position(Edition.SWM2008, Map(COLS, ROWS), tuple(Figure(i, "light", parse_square(at), size) for i, at, size in figs))


def scores(on: dict[str, float], empty: float = 0.02) -> dict[str, float]:
    return {Square(c, r).name: empty for c in range(COLS) for r in range(ROWS)} | on


def everywhere(d: tuple[float, float]) -> dict[str, tuple[float, float]]:
    return {Square(c, r).name: d for c in range(COLS) for r in range(ROWS)}


def test_a_large_base_is_the_block_nearest_the_camera_not_its_body_behind_it() -> None:
    # held-out s0384 with the reference: a Large base on D1:E2 read 0.97, 0.96, 1.0, 1.0; the
    # figure's body, leaning away from the camera (down and left), read C2, C3 and D3 as bases
    # too, so the block C2:D3 read a hair surer (1.0, 1.0, 0.99, 0.99) and took the figure: two
    # squares missed, two false. The base is the block at the camera's end of what reads occupied
    pos = record(("big", "E1", Size.LARGE))
    p = scores({"D1": 0.97, "E1": 0.96, "D2": 1.0, "E2": 1.0, "C2": 1.0, "C3": 0.99, "D3": 0.99})
    placed = place(pos, p, [], set(), away=everywhere(S0384))
    assert {s.id: s.at for s in placed.figures} == {"big": "D1"}
    assert not {"C2", "C3", "D3"} & set(placed.occupied)


def test_a_medium_base_is_not_named_on_its_own_body_nearer_the_record() -> None:
    # a Medium figure moved from B7 to C5; its body leans over B6, the square behind its base away
    # from the camera, read surer (0.97) than the base (0.9). B6 lies nearer the recorded square,
    # yet it is the body: the base is the square next to it toward the camera
    pos = record(("m", "B7", Size.MEDIUM))
    placed = place(pos, scores({"C5": 0.9, "B6": 0.97}), [], set(), away=everywhere(S0384))
    assert {s.id: s.at for s in placed.figures} == {"m": "C5"}
    assert "B6" not in placed.occupied


def test_a_figure_standing_right_behind_another_is_still_a_figure() -> None:
    # two figures, one right behind the other away from the camera, neither moved: two bases for
    # two figures; a square with a base before it toward the camera is only less likely a base
    pos = record(("a", "C5", Size.MEDIUM), ("b", "B6", Size.MEDIUM))
    placed = place(pos, scores({"C5": 0.95, "B6": 0.97}), [], set(), away=everywhere(S0384))
    assert {s.id: s.at for s in placed.figures} == {"a": "C5", "b": "B6"}


def test_the_direction_away_from_the_camera_comes_from_the_grid() -> None:
    # a phone (focal length 0.75 of the width) 12 squares up, standing off the map's south-east
    # corner, looking at the map's centre: on every square a body leans away from the point under
    # the camera, whatever the photo's size
    w, h, f = 1200, 900, 0.75 * 1200
    K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    C = np.array([14.0, 16.0, 12.0])
    z = np.array([5.0, 5.0, 0.0]) - C
    z /= np.linalg.norm(z)
    x = np.cross(z, [0, 0, 1.0])
    x /= np.linalg.norm(x)
    R = np.stack([x, np.cross(z, x), z])
    G = K @ np.column_stack([R[:, 0], R[:, 1], -R @ C])  # board squares -> photo pixels
    away = away_from_camera(np.linalg.inv(G), w, h, COLS, ROWS)
    for name, (c, r) in {"A1": (0, 0), "J1": (9, 0), "E5": (4, 4), "A10": (0, 9)}.items():
        d = np.array([c + 0.5 - 14.0, r + 0.5 - 16.0])
        assert np.allclose(away[name], d / np.linalg.norm(d), atol=0.02)


def test_a_medium_base_in_front_of_a_large_one_leaves_the_large_block_where_it_is() -> None:
    # held-out s0386 with the reference (the camera to the left: bodies lean right, (0.86, -0.5)):
    # a Large base read by its marker on C2:D3, its body leaning over E1 (0.82); a Large base on
    # F1:G2 and a Medium base on E2, in front of it toward the camera, all read 1.0. The block
    # E1:F2 is as full as F1:G2, but its squares lie right behind the marked base (that figure's
    # body); F1:G2's squares in front are E1 and E2, the Medium base and the body. A rule that
    # took every square read occupied in front of a block as a body put the Large figure on E1
    # and the Medium one on G1: 5 squares wrong
    from assistant.photo.figures import Seen

    pos = record(("marked", "C2", Size.LARGE), ("big", "F1", Size.LARGE), ("m", "E2", Size.MEDIUM))
    p = scores({"C2": 1.0, "D2": 1.0, "C3": 1.0, "D3": 1.0, "E1": 0.82, "F1": 1.0, "G1": 1.0, "E2": 1.0, "F2": 1.0, "G2": 1.0})
    placed = place(pos, p, [Seen("marked", "C2", 1.0, "marker")], set(), away=everywhere((0.86, -0.5)))
    assert {s.id: s.at for s in placed.figures} == {"marked": "C2", "big": "F1", "m": "E2"}


def test_a_body_beside_its_figure_is_listed_after_a_base_no_figure_explains() -> None:
    # issue 28 item 5 (a short list, calibrated on held-out photos): on the independent diagnosis
    # photos 371-394 a square read as a base beside a figure found, every base of the roster
    # accounted for, was rightly read as its body or shadow 71 of 77 times, yet was said 0.5 and
    # listed ahead of the squares truly in doubt; a base no figure explains was right 0 of 5 times
    # at 0.5. Here a's body reads over C4 beside its base C3; A10, far from both figures, reads as a
    # base no figure explains (read as empty, every figure found: R175, and listed first)
    pos = record(("a", "C3", Size.MEDIUM), ("b", "H8", Size.MEDIUM))
    placed = place(pos, scores({"C3": 0.99, "H8": 0.99, "C4": 0.9, "A10": 0.95}), [], set())
    assert {s.id: s.at for s in placed.figures} == {"a": "C3", "b": "H8"}
    assert "C4" not in placed.occupied and "A10" not in placed.occupied
    listed = dict(placed.uncertain)
    # a body beside its figure: read right about nine times in ten -- after the squares truly in
    # doubt, yet listed while the list has room (right 162 of 171 times on 341-454, under 96 %: R99)
    assert [sq for sq, _v in placed.uncertain] == ["A10", "C4"] and listed["A10"] == STRANGER_READ < SURE < listed["C4"]
