"""``photo detect`` keeps the second core busy (round 13 of issue 28: a photo in at most 1 s on
two cores). Profiled on the diagnosis photos, three parts of the call ran one after the other
though none reads another's result, while the second core stood idle: the base markers' search on
the top-down view beside the learned classifier and the views, the windows searched again for
unread base markers (0.05-0.07 CPU-seconds each, four a chunk), and the photo's decoding beside the
position's loading (and the map's top-down view, made beside the classifier too). Each now runs on a thread of its own; the answers are the same, which these
tests check against the one-after-the-other reading, and the threads are checked to be others
than the caller's (the old code ran everything on the caller's thread: these tests failed there).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

import assistant.photo as photo
from assistant.cli.app import app
from assistant.photo import markers, squares
from assistant.photo.markers import find_markers_near
from assistant.photo.printed import DICT

#: pixels a square of the synthetic board below; the board's pixels onto its squares
PX = 60
TO_SQUARES = np.array([[1 / PX, 0, 0], [0, 1 / PX, 0], [0, 0, 1.0]])
#: the squares (col, row) a base sticker is printed on, and its id (base markers are 4 and up)
STICKERS = {(1, 1): 7, (3, 1): 9, (1, 3): 12, (3, 3): 15}


def _board() -> np.ndarray:
    """A grey 6 x 6 board with a white sticker and its base marker in each of STICKERS' squares."""
    board = np.full((6 * PX, 6 * PX, 3), 120, np.uint8)
    d = cv2.aruco.getPredefinedDictionary(DICT)
    side, margin = int(0.5 * PX), int(0.12 * PX)
    for (col, row), mid in STICKERS.items():
        x, y = col * PX + (PX - side) // 2, row * PX + (PX - side) // 2
        board[y - margin: y + side + margin, x - margin: x + side + margin] = 255
        board[y: y + side, x: x + side] = cv2.aruco.generateImageMarker(d, mid, side)[:, :, None]
    return board


def test_the_windows_searched_together_read_what_each_window_reads_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    board = _board()
    squares = [*STICKERS, (5, 5)]  # and a window of bare board
    alone = [m for sq in squares for m in find_markers_near(board, TO_SQUARES, [sq])]
    threads: set[int] = set()
    made = markers._detector

    def detector(*args: Any, **kwargs: Any) -> Any:  # which thread searches a window
        threads.add(threading.get_ident())
        return made(*args, **kwargs)

    monkeypatch.setattr(markers, "_detector", detector)
    together = find_markers_near(board, TO_SQUARES, squares)
    assert sorted(m.id for m in alone) == sorted(STICKERS.values())
    assert [m.id for m in together] == [m.id for m in alone]
    for a, b in zip(together, alone, strict=True):
        np.testing.assert_array_equal(a.corners, b.corners)
    # on the pool's threads, at most two (the second is started while the first still searches;
    # which windows each takes is the scheduler's): before, the caller's thread alone
    assert threading.get_ident() not in threads and 1 <= len(threads) <= markers.NEAR_THREADS


def _marked_example() -> tuple[np.ndarray, Any]:
    """The bundled combat example with a base marker on every figure, photographed (synthetic)."""
    from dataclasses import replace

    from assistant.photo.synth import render_photo
    from assistant.position import load_position
    from assistant.resources import example_path

    example = example_path("clone-wars-example-combat")
    assert example is not None
    pos = load_position(example)
    marked = replace(pos, figures=tuple(replace(f, marker=10 + i) for i, f in enumerate(pos.figures)))
    image, _truth = render_photo(marked, seed=3, width=1600, height=1200)
    return image, marked


def test_detect_makes_the_view_and_reads_the_base_markers_beside_the_classifier(monkeypatch: pytest.MonkeyPatch) -> None:
    image, marked = _marked_example()
    before = photo.detect(image, marked, "synthetic").as_json()
    where: dict[str, int] = {}
    base_search, classifier, view = photo.find_base_markers, squares.square_probabilities, photo.top_down

    def base_markers(*args: Any) -> Any:
        where["base markers"] = threading.get_ident()
        return base_search(*args)

    def top_down(*args: Any) -> Any:
        where["view"] = threading.get_ident()
        return view(*args)

    def classified(*args: Any) -> Any:
        where["classifier"] = threading.get_ident()
        return classifier(*args)

    monkeypatch.setattr(photo, "find_base_markers", base_markers)
    monkeypatch.setattr(squares, "square_probabilities", classified)
    monkeypatch.setattr(photo, "top_down", top_down)
    after = photo.detect(image, marked, "synthetic").as_json()
    before.pop("seconds"), after.pop("seconds")
    assert after == before
    assert where["classifier"] == threading.get_ident() != where["base markers"]  # before: all on the caller's
    assert where["view"] == where["base markers"]  # the second core's, the view first


def test_photo_detect_decodes_the_photo_beside_the_positions_loading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The decoding runs on another thread, and its refusal still comes after the position's."""
    threads: list[int] = []
    load = photo.load_image

    def load_image(path: Any) -> Any:
        threads.append(threading.get_ident())
        return load(path)

    monkeypatch.setattr(photo, "load_image", load_image)
    runner = CliRunner()
    missing = tmp_path / "missing.jpg"
    r = runner.invoke(app, ["photo", "detect", str(missing), "-p", str(tmp_path / "no-such-position.yaml"), "--json"])
    assert r.exit_code == 2 and "no-such-position.yaml" in r.stdout and "missing.jpg" not in r.stdout, r.stdout
    r = runner.invoke(app, ["photo", "detect", str(missing), "-p", "clone-wars-corridor", "--json"])
    assert r.exit_code == 2 and "no such image" in r.stdout, r.stdout
    assert threads and threading.get_ident() not in threads  # before: decoded on the caller's thread


def test_the_second_cores_work_sees_the_players_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """The view, the base markers and the marker windows run on other threads in a copy of the
    caller's context: the language a context variable holds (``--lang``) is theirs too, so a
    refusal one of them says is in the player's language (a new thread starts from the default)."""
    from assistant import i18n

    image, marked = _marked_example()
    seen: dict[str, str] = {}
    base_search, view = photo.find_base_markers, photo.top_down

    def base_markers(*args: Any) -> Any:
        seen["base markers"] = i18n.current()
        return base_search(*args)

    def top_down(*args: Any) -> Any:
        seen["view"] = i18n.current()
        return view(*args)

    monkeypatch.setattr(photo, "find_base_markers", base_markers)
    monkeypatch.setattr(photo, "top_down", top_down)
    with i18n.language("cs"):
        photo.detect(image, marked, "synthetic")
    assert seen == {"base markers": "cs", "view": "cs"}  # before: "en" on the second core

    windows: list[str] = []
    near = markers._near_window

    def near_window(*args: Any) -> Any:
        windows.append(i18n.current())
        return near(*args)

    monkeypatch.setattr(markers, "_near_window", near_window)
    with i18n.language("pl"):
        markers.find_markers_near(image, np.eye(3), [(0, 0), (1, 1), (2, 2)])
    assert windows == ["pl"] * 3
