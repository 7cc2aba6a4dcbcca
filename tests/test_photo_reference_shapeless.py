"""With the empty-map reference, a change that shows no base's shape does not outweigh the learned
classifier (reading R127).

Built from the failures on the independent renderer's diagnosis photos where the reference made the
answer worse: s0489 (rock, a Large figure on E2:F3) read D3 as a base with the reference (the
classifier 0.40, the comparison 0.99, fused 0.92), s0456 read A11 (0.74, 0.91, 0.91): squares beside
a figure under its soft shadow, the art there darker and a few pixels off the reference, with no
step across a base's circle (the comparison's ``edge_half`` 0.11 and 0.09) and the art under the
core hardly hidden (``hidden_art`` 0.126 and 0.051). A base is a disc with an edge that hides the
art under it; the comparison read the change as one, the classifier saw no base.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.coords import Square
from assistant.photo.bases import LITTLE_HIDDEN, NO_BASE_EDGE, Fused, fused_and_compared, shapeless_change
from assistant.photo.board import Grid
from assistant.photo.reference import PX, Reference
from tests.test_photo_reference import COLS, ROWS, art, centre
from tests.test_photo_reference_intact import ROSTER_COLS, ROSTER_ROWS, answer_with_readings

BASE = (4, 2)  # E3: a Medium base
BESIDE = (3, 2)  # D3: the square beside it under the figure's shadow
CLASSIFIER_BESIDE = 0.35  # the learned classifier sees no base there (s0489's D3: 0.40)


def shadowed_beside(empty: np.ndarray, size: float, shift: float) -> np.ndarray:
    """The game's view: a grey base on E3 and, over D3, a soft shadow darkening the art by 0.22 with
    the art under it ``shift`` pixels off the reference (a soft blob ``size`` squares across)."""
    h, w = empty.shape[:2]
    mask = np.zeros((h, w), np.float32)
    cv2.ellipse(mask, centre(*BESIDE), (int(size * PX), int(size * 0.7 * PX)), 0, 0, 360, 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), 4)[..., None]
    moved = cv2.warpAffine(empty, np.float32([[1, 0, shift], [0, 1, shift / 2]]), (w, h), borderMode=cv2.BORDER_REPLICATE)
    game = empty.astype(np.float32) * (1 - mask) + moved.astype(np.float32) * 0.78 * mask
    out = np.clip(game, 0, 255).astype(np.uint8)
    cv2.circle(out, centre(*BASE), int(0.42 * PX), (42, 42, 45), -1, lineType=cv2.LINE_AA)
    return out


@pytest.mark.parametrize("size, shift", [(0.5, 4.0), (0.5, 5.0), (0.6, 4.0)])
def test_a_shadow_beside_a_figure_is_not_read_as_a_base_the_classifier_does_not_see(size: float, shift: float) -> None:
    # fails before R127: D3 fused 0.66-0.77, read as a base
    empty = art(1)
    game = shadowed_beside(empty, size, shift)
    reference = Reference(empty, COLS, ROWS, "empty.jpg", "2026-01-01T00:00:00+00:00")
    classifier = {Square(c, r).name: 0.02 for r in range(ROWS) for c in range(COLS)}
    classifier[Square(*BASE).name], classifier[Square(*BESIDE).name] = 0.99, CLASSIFIER_BESIDE
    fused = fused_and_compared(np.zeros((8, 8, 3), np.uint8), Grid(np.eye(3), 0.0, 0), reference, classifier, game, aligned=True)
    assert fused.compared["D3"] >= 0.5  # the comparison alone reads the shadow as a change like a base's
    assert fused.scores["D3"] <= CLASSIFIER_BESIDE
    assert "D3" in fused.shapeless
    assert fused.scores["E3"] > 0.9 and "E3" not in fused.shapeless


@given(st.floats(0.0, 3.0), st.floats(0.0, 1.0))
def test_a_change_with_a_base_edge_or_the_art_hidden_keeps_its_shape(edge: float, hidden: float) -> None:
    flagged = bool(shapeless_change(np.array([edge]), np.array([hidden]))[0])
    assert flagged == (edge < NO_BASE_EDGE and hidden < LITTLE_HIDDEN)


def test_the_answer_names_the_squares_whose_change_shows_no_base(monkeypatch: pytest.MonkeyPatch) -> None:
    # the comparison cannot tell a shadow from a base there: the answer says so and names them
    squares = [Square(c, r).name for r in range(ROSTER_ROWS) for c in range(ROSTER_COLS)]
    classifier = {sq: (0.97 if sq == "C3" else 0.3 if sq in ("D3", "C4") else 0.02) for sq in squares}
    compared = classifier | {"D3": 0.99, "C4": 0.95}
    res = answer_with_readings(monkeypatch, classifier, Fused(dict(classifier), compared, frozenset(), frozenset({"D3", "C4", "H6"})))
    assert res.notes[0].startswith("reference mode:"), res.notes
    assert any("2 squares changed since the empty-map reference photo show neither a base's edge" in n and "(D3, C4)" in n and "R127" in n
               for n in res.notes), res.notes
    assert res.occupied == ["C3"]
