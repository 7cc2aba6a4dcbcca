"""The photo generator's texture families: training and held-out sets disjoint, each one renders."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.photo.scenery import (
    HELD_OUT_CAMERA,
    HELD_OUT_FAMILIES,
    LEGACY_FAMILIES,
    PAINTERS,
    TRAIN_CAMERA,
    TRAIN_FAMILIES,
    draw_look,
    paint_paper,
)
from assistant.photo.synth import random_position, render_photo


def test_the_held_out_families_and_camera_are_never_trained_on() -> None:
    assert not set(TRAIN_FAMILIES) & set(HELD_OUT_FAMILIES)
    assert set(TRAIN_FAMILIES) | set(HELD_OUT_FAMILIES) == set(PAINTERS)
    assert set(LEGACY_FAMILIES) <= set(TRAIN_FAMILIES)
    # no focal length the held-out camera draws is one training draws
    (t_lo, t_hi), = TRAIN_CAMERA.focal
    assert all(hi <= t_lo or lo >= t_hi for lo, hi in HELD_OUT_CAMERA.focal)
    assert HELD_OUT_CAMERA.noise[0] >= TRAIN_CAMERA.noise[1] and HELD_OUT_CAMERA.white_balance > TRAIN_CAMERA.white_balance
    for seed in range(40):
        look = draw_look(np.random.default_rng(seed), families=TRAIN_FAMILIES, camera=TRAIN_CAMERA)
        assert look.family in TRAIN_FAMILIES and 0.65 <= look.focal <= 1.3
        held = draw_look(np.random.default_rng(seed), families=HELD_OUT_FAMILIES, camera=HELD_OUT_CAMERA)
        assert held.family in HELD_OUT_FAMILIES and not 0.65 <= held.focal <= 1.3 and held.noise >= 8.0


def test_the_original_looks_are_drawn_as_before() -> None:
    """No families named: the two original looks, from the same draws (old seeds, same photos)."""
    for seed in range(20):
        a = draw_look(np.random.default_rng(seed))
        b = draw_look(np.random.default_rng(seed), pick=np.random.default_rng(99))
        assert a == b and a.family == ("blotch" if a.art else "plain")


@pytest.mark.parametrize("family", TRAIN_FAMILIES + HELD_OUT_FAMILIES)
def test_every_family_renders(family: str) -> None:
    rng = np.random.default_rng(5)
    look = draw_look(rng, families=(family,))
    assert look.family == family and look.art == (family != "plain")
    floor = paint_paper(rng, look, 180, 240, 30)
    assert floor.shape == (180, 240, 3) and np.isfinite(floor).all()
    if look.art:  # a texture, not a flat colour
        assert float(np.std(floor)) > 3.0
    pos = random_position(np.random.default_rng(6))
    img, truth = render_photo(pos, seed=6, width=480, height=360, varied=True, families=(family,), jpeg=False)
    assert img.shape == (360, 480, 3) and truth.conditions["family"] == family
