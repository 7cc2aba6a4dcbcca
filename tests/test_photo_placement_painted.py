"""A base is grey or black plastic: a disc of dark colour printed on the map is no figure the record lacks.

Built from the false occupied squares on the independent renderer's diagnosis photos (issue 28,
item 3), without the reference: every figure of the roster found, a square or two more read as
bases with a clear round rim -- kept occupied and listed as "a figure the record lacks". They
were discs printed on the map's art (craters, barrels, holes): round and dark like a base, each
of one dark colour all over (teal and navy on water, s0492; olive with a lighter ring on stone,
s0497; maroon on water, s0498). The figures' own bases on the same photos are grey plastic,
a painted body and a marker's sticker over part of their top.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import assistant.photo as photo
from assistant.coords import Square, parse_square
from assistant.editions import Edition
from assistant.model import Figure, Map, Position
from assistant.photo import squares
from assistant.photo.bases import plastic_colourfulness, rim_strength
from assistant.photo.board import Grid
from assistant.photo.figures import Seen
from assistant.photo.placement import PAINTED_BY, place
from assistant.photo.reference import PAD, PX

COLS, ROWS = 10, 8
H, W = (ROWS + 2 * PAD) * PX, (COLS + 2 * PAD) * PX
#: a photo's white balance: a little blue and less red, as a grey base reads under it
TINT = (1.12, 1.0, 0.86)


def water(seed: int = 4) -> np.ndarray:
    """A top-down view (PX a square, PAD round it) of printed water: blue in lighter and darker
    patches, as the renderer's water art (BGR)."""
    rng = np.random.default_rng(seed)
    t = cv2.GaussianBlur(rng.random((H, W)).astype(np.float32), (0, 0), 9)
    t = (t - t.min()) / (t.max() - t.min())
    deep, shallow = np.array((120, 60, 20), np.float32), np.array((200, 140, 70), np.float32)
    img = deep + (shallow - deep) * t[..., None]
    img *= (0.92 + 0.16 * rng.random((H, W)))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def centre(name: str) -> tuple[int, int]:
    s = parse_square(name)
    return int((PAD + s.col + 0.5) * PX), int((PAD + s.row + 0.5) * PX)


def base(img: np.ndarray, name: str, body: tuple[int, int, int]) -> None:
    """A 1-inch base of grey plastic (0.44 squares in radius, a lighter ring on its top) under the
    photo's white balance, a painted figure's body over the half of it away from the camera."""
    x, y = centre(name)
    grey = tuple(int(45 * g) for g in TINT)
    cv2.circle(img, (x, y), int(0.44 * PX), grey, -1, cv2.LINE_AA)
    cv2.circle(img, (x, y), int(0.44 * PX) - 2, tuple(int(1.5 * v) for v in grey), 1, cv2.LINE_AA)
    cv2.ellipse(img, (x, y - 7), (7, 11), 0, 0, 360, body, -1, cv2.LINE_AA)


def printed_disc(img: np.ndarray, name: str, colour: tuple[int, int, int], ring: bool) -> None:
    """A dark disc printed on the map, of a base's size, one colour all over (a crater, a barrel
    seen from above), a lighter ring inside it where ``ring``."""
    x, y = centre(name)
    cv2.circle(img, (x, y), int(0.45 * PX), colour, -1, cv2.LINE_AA)
    if ring:
        cv2.circle(img, (x, y), int(0.45 * PX * 0.7), tuple(int(1.8 * v) for v in colour), 1, cv2.LINE_AA)


BASES = {"C3": (40, 160, 60), "G2": (60, 60, 200), "E6": (200, 200, 220), "H7": (30, 140, 220)}
DISCS = {"B6": ((70, 60, 15), False), "I4": ((30, 45, 70), True)}  # teal on water; maroon with a lighter ring


def scene() -> tuple[np.ndarray, Position]:
    """Four grey bases with painted bodies, where the roster's four figures stand (two moved since
    the record), and two dark discs printed on the water."""
    img = water()
    for sq, body in BASES.items():
        base(img, sq, body)
    for sq, (colour, ring) in DISCS.items():
        printed_disc(img, sq, colour, ring)
    recorded = {"a": "C3", "b": "G3", "c": "E6", "d": "H5"}
    return img, Position(Edition.SWM2008, Map(COLS, ROWS), tuple(Figure(i, "light", parse_square(at)) for i, at in recorded.items()))


def test_a_base_reads_its_grey_plastic_and_a_printed_disc_its_colour() -> None:
    img, _pos = scene()
    plastic = plastic_colourfulness(img, COLS, ROWS).reshape(ROWS, COLS)
    at = {sq: float(plastic[parse_square(sq).row, parse_square(sq).col]) for sq in [*BASES, *DISCS]}
    grey = np.median([at[sq] for sq in BASES])
    # the body over half the base, painted any colour, does not make its plastic colourful
    assert max(at[sq] for sq in BASES) < grey + PAINTED_BY / 3
    assert all(at[sq] > grey + PAINTED_BY for sq in DISCS)
    # both discs are round and of a base's size: their rim is as clear as a base's, so the rim
    # check (R60) keeps them as bases
    rim = rim_strength(img, COLS, ROWS).reshape(ROWS, COLS)
    assert min(rim[parse_square(sq).row, parse_square(sq).col] for sq in DISCS) > 0.5 * min(rim[parse_square(sq).row, parse_square(sq).col] for sq in BASES)


def _detect(monkeypatch: pytest.MonkeyPatch, image: np.ndarray, pos: Position, read: set[str]) -> photo.PhotoResult:
    """:func:`assistant.photo.detect` on a top-down photo, its grid known, the learned classifier
    reading ``read`` as bases (0.97) and every other square as empty."""
    grid = Grid(np.array([[1 / PX, 0, -PAD], [0, 1 / PX, -PAD], [0, 0, 1]], np.float64), 0.2, 4)
    monkeypatch.setattr(photo, "locate_grid", lambda *a, **k: (grid, [], False))
    scores = {Square(c, r).name: (0.97 if Square(c, r).name in read else 0.03) for c in range(COLS) for r in range(ROWS)}
    monkeypatch.setattr(squares, "square_probabilities", lambda *a, **k: dict(scores))
    return photo.detect(image, pos, "scene")


def test_printed_discs_read_as_bases_are_not_figures_the_record_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    # s0492, s0497, s0498 without the reference: every figure found, the discs stayed occupied
    # ("a figure the record lacks"): false occupied squares, before this reading
    image, pos = scene()
    res = _detect(monkeypatch, image, pos, {*BASES, *DISCS})
    assert {s.id: s.at for s in res.figures} == {"a": "C3", "b": "G2", "c": "E6", "d": "H7"}
    assert set(res.occupied) == set(BASES)
    assert any("R123" in n and "B6" in n and "I4" in n for n in res.notes)


def test_a_grey_base_no_figure_explains_is_no_printed_disc(monkeypatch: pytest.MonkeyPatch) -> None:
    # the guard: a figure the record lacks shows a base's grey plastic like the roster's, its body
    # painted whatever colour: not read as a disc printed on the map (R123); with every figure of
    # the roster found it is read as empty and listed, as every such square (reading R175)
    image, pos = scene()
    base(image, "A8", (40, 40, 200))
    res = _detect(monkeypatch, image, pos, {*BASES, "A8"})
    assert "A8" not in res.occupied and "A8" in {u["square"] for u in res.uncertain}
    assert any("A8" in n and "R175" in n for n in res.notes) and not any("A8" in n and "R123" in n for n in res.notes)


def test_without_two_bases_found_the_photo_s_grey_is_unknown() -> None:
    # one base found cannot show how grey the photo's plastic reads: no square is read as a disc
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (Figure("a", "light", Square(2, 2)),))
    scores = {Square(c, r).name: 0.02 for c in range(COLS) for r in range(ROWS)} | {"C3": 0.97, "I4": 0.97}
    plastic = dict.fromkeys(scores, 0.1) | {"I4": 0.6}
    p = place(pos, scores, [Seen("a", "C3", 1.0, "marker")], set(), plastic=plastic)
    # (with every figure found it is read as empty all the same, a square no figure explains: R175)
    assert not any("R123" in n for n in p.notes) and any("I4" in n and "R175" in n for n in p.notes)
