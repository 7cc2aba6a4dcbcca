"""A dark grey base on a black sky is read by its even top, not only by being much lighter (R143).

Built from the failures on the independent renderer's diagnosis photos (issue 28, without the
reference): on star fields (s0408, s0465, s0495) the learned classifier read bases nearly
everywhere, and the second look by colour (R73) read a base where its core is neutral and 20
(of 255) lighter than the sky's darkest quarter. A base of dark grey plastic, 28-35 on a sky whose
darkest quarter is 10-19, was only 10-18 lighter: read surely empty (0.00), the figure named on
art or reported not seen -- a base missed on each photo, though its moulded top is even where the
sky is speckled with stars.
"""

from __future__ import annotations

import cv2
import numpy as np

from assistant.photo.bases import NEUTRAL_HALF, neutral_reading, neutral_shares
from assistant.photo.reference import PAD, PX

from .test_photo_placement_colour import COLS, ROWS, base, centre, night_sky

#: bases of grey plastic well lighter than the sky: read by R73 already
GREY = ("B2", "E3", "H2", "C6", "I5", "A8")
#: a base of dark grey plastic, only 14 lighter than the sky's darkest quarter
DARK = "F7"
#: a patch of the sky as light as the dark base, neutral, but speckled (stars, grain): no base
SPECKLED = "C3"


def _dark_base(img: np.ndarray, name: str, grey: int = 26) -> None:
    """A base of dark grey plastic as the renderer draws it on a star field (s0408's K12, s0495's
    F7): an even disc, its bevel a little lighter at the very edge, the figure's body over the half
    away from the camera."""
    x, y = centre(name)
    cv2.circle(img, (x, y), int(0.44 * PX), (grey + 8,) * 3, -1, cv2.LINE_AA)
    cv2.circle(img, (x, y), int(0.44 * PX) - 1, (grey,) * 3, -1, cv2.LINE_AA)
    cv2.ellipse(img, (x, y - 9), (5, 8), 0, 0, 360, (40, 120, 60), -1, cv2.LINE_AA)


def _scene() -> np.ndarray:
    view = night_sky(5)
    for sq in GREY:
        base(view, sq, 55)
    _dark_base(view, DARK)
    x, y = centre(SPECKLED)
    r = int(0.44 * PX)
    patch = np.random.default_rng(7).normal(26, 9, (2 * r, 2 * r, 1)).clip(0, 255)
    disc = np.zeros((2 * r, 2 * r), np.uint8)
    cv2.circle(disc, (r, r), r, 1, -1)
    region = view[y - r:y + r, x - r:x + r]
    region[disc > 0] = np.repeat(patch, 3, axis=2)[disc > 0].astype(np.uint8)
    return view


def _index(name: str) -> int:
    x, y = centre(name)
    return (y // PX - PAD) * COLS + (x // PX - PAD)


def test_a_dark_grey_base_on_a_black_sky_reads_neutral() -> None:
    # fails before R143: the dark base's core read 0.00 neutral at every threshold (not 20 lighter)
    shares, dim, even = neutral_shares(_scene(), COLS, ROWS)
    assert shares and not dim
    assert max(s[_index(DARK)] for s in even.values()) >= NEUTRAL_HALF


def test_a_speckled_patch_as_light_stays_art() -> None:
    _shares, _dim, even = neutral_shares(_scene(), COLS, ROWS)
    assert max(s[_index(SPECKLED)] for s in even.values()) < NEUTRAL_HALF


def test_the_colour_reading_finds_the_dark_base_with_the_others() -> None:
    # fails before R143: the dark base read surely empty, the roster's seventh figure not seen
    p = neutral_reading(_scene(), COLS, ROWS, len(GREY) + 1)
    assert p is not None
    assert {sq for sq, v in p.items() if v >= 0.5} == {*GREY, DARK}
