"""A game photo whose map's art is not the empty-map reference's over most of the map: the
reference is set aside, and the answer is the one without it (reading R109).

Built from the failure on the independent renderer's diagnosis scene s0470 (lava on a green
cloth, no corner markers): the reference made from its empty-map photo showed other lava cracks
than the game photo (the art's noise drawn at each camera's scale), so compared with it 111 of
the map's 197 squares read occupied, the roster's figures were placed by their markers alone and
190 squares were listed doubtful; without the reference the answer was 6 squares wrong. A map is
not mostly covered by figures: where most of it disagrees with the reference, the reference is
not this map as the photo shows it.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from assistant.photo import detect
from assistant.photo.reference import ART_DISAGREES_MOST, PAD, PX, Reference, art_disagreement
from tests.test_photo_reference import COLS, ROWS, art, centre, relit


def lava(seed: int, cols: int = COLS, rows: int = ROWS) -> np.ndarray:
    """Lava art as s0470's: glowing orange cracks (where a smooth noise crosses its middle) on dark
    rock, the grid's lines faint; each seed other cracks (BGR uint8)."""
    rng = np.random.default_rng(seed)
    h, w = (rows + 2 * PAD) * PX, (cols + 2 * PAD) * PX
    noise = cv2.GaussianBlur(rng.random((h, w)).astype(np.float32), (0, 0), PX / 4)
    noise = (noise - noise.min()) / (noise.max() - noise.min())
    glow = np.clip(1 - np.abs(noise - 0.5) / 0.04, 0, 1)[..., None]
    img = (1 - glow) * np.array((25, 30, 45), np.float32) + glow * np.array((20, 120, 250), np.float32)
    img[:, ::PX] *= 0.8  # the grid's faint lines
    img[::PX] *= 0.8
    return np.clip(img, 0, 255).astype(np.uint8)


def test_the_same_art_under_other_light_with_figures_agrees() -> None:
    assert art_disagreement(relit(lava(1), (1.1, 0.95, 0.85), 4.0), lava(1), COLS, ROWS) == 0.0
    empty = art(1)
    game = relit(empty, (1.1, 0.95, 0.85), 6.0)
    for col, row in ((1, 1), (3, 2), (6, 4), (2, 5)):  # bases and bodies hide a few squares
        cv2.circle(game, centre(col, row), int(0.45 * PX), (40, 42, 45), -1, lineType=cv2.LINE_AA)
    assert art_disagreement(game, empty, COLS, ROWS) <= 4 / (COLS * ROWS)


def test_other_art_disagrees_on_most_of_the_map() -> None:
    # the same grid's faint lines, cracks of the same size: only where they run differs
    assert art_disagreement(relit(lava(2), (0.9, 1.0, 1.1)), lava(1), COLS, ROWS) > ART_DISAGREES_MOST


def test_a_plain_reference_has_nothing_to_disagree_on() -> None:
    plain = np.full(((ROWS + 2 * PAD) * PX, (COLS + 2 * PAD) * PX, 3), 200, np.uint8)
    assert art_disagreement(art(1), plain, COLS, ROWS) == 0.0


@pytest.mark.slow
def test_a_reference_of_other_art_is_set_aside_and_the_photo_read_without_it() -> None:
    from assistant.photo.synth import render_photo  # the generator: only this test draws photos
    from assistant.position import load_position
    from assistant.resources import example_path

    example = example_path("clone-wars-corridor")
    assert example is not None
    pos = load_position(example)
    pos = replace(pos, figures=tuple(replace(f, marker=None) for f in pos.figures))  # no base markers: the squares alone tell
    kw = dict(width=2400, height=1800, varied=True, tilt_max=30.0)
    game, _truth = render_photo(pos, seed=1_000_005, look_seed=5, **kw)  # type: ignore[arg-type]
    without = detect(game, pos, "game.jpg")
    # the reference is of another map: lava, as s0470's empty map showed other lava than its game photo
    cols, rows = pos.map.cols, pos.map.rows
    reference = Reference(lava(3, cols, rows), cols, rows, "empty.jpg", "2026-01-01T00:00:00+00:00")
    with_other = detect(game, pos, "game.jpg", reference=reference)
    assert any("reference photo was set aside" in n for n in with_other.notes), with_other.notes
    assert set(with_other.occupied) == set(without.occupied)
    assert [(f.id, f.at) for f in with_other.figures] == [(f.id, f.at) for f in without.figures]
