"""The photo work budget (issue 28): hostile images are refused with a message naming the image
and what was not found; each search runs only within the budget. Timing is the bench's
(bench/photo_budget.py); these check the answers."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from assistant.photo import NoGridError, detect, locate_grid
from assistant.photo.budget import MAX_SCAN_PIXELS, Budget
from assistant.photo.synth import render_photo
from assistant.position import load_position
from assistant.resources import example_path

POS = load_position(example_path("clone-wars-corridor"))


def text_page(w: int, h: int) -> np.ndarray:
    img = np.full((h, w, 3), 238, np.uint8)
    for k, y in enumerate(range(40, h - 10, 36)):
        cv2.putText(img, f"line {k}: the judge photographs the table to check the figures", (30, y), cv2.FONT_HERSHEY_SIMPLEX, 0.9,
                    (25, 25, 25), 2, cv2.LINE_AA)
    return img


def pebbles(w: int, h: int) -> np.ndarray:
    from assistant.photo.scenery import PAINTERS, draw_look

    rng = np.random.default_rng(3)
    return np.clip(PAINTERS["cells"](rng, draw_look(rng, families=("cells",)), h, w, 50), 0, 255).astype(np.uint8)


def chessboard(w: int, h: int) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w]
    t = (((xx // (h // 10)) + (yy // (h // 10))) % 2).astype(np.uint8) * 200 + 30
    return cv2.merge([t, t, t])


@pytest.mark.parametrize("make", [text_page, pebbles, chessboard, lambda w, h: np.full((h, w, 3), (40, 120, 200), np.uint8)],
                         ids=["text", "pebbles", "chessboard", "solid"])
def test_an_image_of_no_board_is_refused_naming_it(make: Any) -> None:
    img = make(1600, 1200)
    with pytest.raises(NoGridError) as exc:
        detect(img, POS, "hostile.jpg")
    msg = str(exc.value)
    assert "hostile.jpg" in msg and "0 of the 4 map-corner markers" in msg and "printed grid could not be matched" in msg


def test_a_spent_budget_skips_the_searches_and_says_so() -> None:
    """A photo of a real board without corner markers: a budget with nothing left refuses it,
    naming the searches it skipped; the default budget answers it."""
    img, truth = render_photo(POS, seed=4, width=1600, height=1200, tilt_max=20.0, corner_markers=False)
    with pytest.raises(NoGridError) as exc:
        locate_grid(img, POS, "board.jpg", budget=Budget(seconds=0.0))
    msg = str(exc.value)
    assert "board.jpg" in msg and "work budget" in msg and "printed-lines search" in msg and "harder corner-marker search" in msg
    grid, _, by_lines = locate_grid(img, POS, "board.jpg")
    assert by_lines
    pts = np.array([[0, 0], [POS.map.cols, POS.map.rows]], np.float64)
    back = cv2.perspectiveTransform(cv2.perspectiveTransform(pts[None], truth.homography), grid.H)[0]
    assert np.abs(back - pts).max() < 0.25


def test_the_enlarged_marker_search_scans_at_most_its_pixels(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 12 MP image was enlarged to 48 MP (1.2-1.6 CPU-seconds on any image); now at most MAX_SCAN_PIXELS."""
    import assistant.photo as photo
    import assistant.photo.lines as lines

    scans: list[float] = []

    def counted(image: np.ndarray, small_markers: bool = False, full_resolution: bool = False, upscale: float = 1.0) -> tuple[list[Any], int]:
        if full_resolution:
            scans.append(image.shape[0] * image.shape[1] * upscale ** 2)
        return [], 10

    monkeypatch.setattr(photo, "find_markers_counted", counted)
    monkeypatch.setattr(lines, "find_grid_from_lines", lambda *a, **k: None)
    with pytest.raises(NoGridError):
        locate_grid(chessboard(4000, 3000), POS, "big.jpg", budget=Budget(seconds=1e9))
    assert len(scans) == 2 and max(scans) <= MAX_SCAN_PIXELS * 1.001  # full resolution, then enlarged
    scans.clear()
    with pytest.raises(NoGridError):
        locate_grid(chessboard(1600, 1200), POS, "small.jpg", budget=Budget(seconds=1e9))
    # a small photo is still enlarged twice; its full-resolution pass, the same pixels the harder
    # search scanned (no larger than the 2400-px copy), is skipped
    assert scans == [1600 * 1200 * 4]
