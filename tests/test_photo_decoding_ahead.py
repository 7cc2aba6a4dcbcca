"""The photo's decoding thread makes the grid search's first steps ahead (round 17 of issue 28):
within a :func:`assistant.photo.views.shared` scope (``photo detect``'s, ``photo check``'s),
:func:`assistant.photo.decoding` also measures the photo's structure and makes its first
corner-marker search while the command's modules load; the grid search then makes neither again,
and the answer is the one made without it."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.photo import budget, decoding, detect, has_structure, load_image, markers, views
from assistant.photo.markers import find_markers_counted
from assistant.photo.synth import render_photo
from assistant.position import load_position
from assistant.resources import example_path

POSITION = "clone-wars-example-combat"


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A synthetic table photo with its corner markers."""
    example = example_path(POSITION)
    assert example is not None
    image, _truth = render_photo(load_position(example), seed=5, width=1200, height=900)
    path = tmp_path_factory.mktemp("photos") / "table.jpg"
    cv2.imwrite(str(path), image)
    return path


def _made_again(*args: object, **kwargs: object) -> object:
    raise AssertionError("made again")


def test_the_decoding_thread_makes_the_grid_searchs_first_steps(table: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with views.shared(), decoding(table) as photo:
        image = photo.result()
        monkeypatch.setattr(markers, "_search", _made_again)  # before: the grid search made them on the main thread
        monkeypatch.setattr(budget, "_structure", _made_again, raising=False)
        assert has_structure(image)
        found, candidates = find_markers_counted(image)
    assert len({m.id for m in found if m.id < 4}) >= 3 and candidates >= len(found)  # the corner markers the search reads


def test_no_marker_search_ahead_on_an_image_without_structure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    noise = tmp_path / "noise.png"
    cv2.imwrite(str(noise), (np.random.default_rng(0).random((300, 400, 3)) * 255).astype(np.uint8))
    monkeypatch.setattr(markers, "_search", _made_again)  # the work budget's rule: no marker search on noise
    with views.shared(), decoding(noise) as photo:
        assert not has_structure(photo.result())


def test_outside_a_scope_the_decoding_thread_only_decodes(table: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(markers, "_search", _made_again)  # nothing to keep it in: it would be made twice
    monkeypatch.setattr(budget, "_structure", _made_again, raising=False)
    with decoding(table) as photo:
        assert photo.result().shape[:2] == (900, 1200)


def test_a_refusal_of_the_photo_is_raised_where_it_is_asked_for(tmp_path: Path) -> None:
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    with views.shared(), decoding(text) as photo, pytest.raises(Exception, match="not an image"):
        photo.result()


@pytest.mark.slow
def test_the_answer_is_the_one_made_without_it(table: Path) -> None:
    example = example_path(POSITION)
    assert example is not None
    pos = load_position(example)

    def answer(image: np.ndarray) -> str:
        data = detect(image, pos, str(table)).as_json()
        data.pop("seconds")
        return json.dumps(data, sort_keys=True)

    with views.shared(), decoding(table) as photo:
        ahead = answer(photo.result())
    assert ahead == answer(load_image(table))
