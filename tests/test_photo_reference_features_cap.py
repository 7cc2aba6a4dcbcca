"""A reference the program made is read back by it: never more SIFT keypoints than it keeps.

Found on an independent photo's empty map: `photo reference` saved 1,002 keypoints, asked for the
strongest 1,000 (OpenCV's ``nfeatures`` keeps every keypoint as strong as the last one kept, and
a keypoint with two orientations twice), and `photo detect --reference` then refused the file as
"damaged or of another kind": its reader allows at most 1,000.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import assistant.photo.reference as reference
from assistant.photo.reference import PAD, PX, Features, Reference, load_reference, save_reference, sift_features

COLS, ROWS = 8, 6


def speckle(seed: int = 3) -> np.ndarray:
    """Blurred noise, the map's view size: many keypoints of near-equal strength."""
    rng = np.random.default_rng(seed)
    grey = cv2.GaussianBlur((rng.random(((ROWS + 2 * PAD) * PX, (COLS + 2 * PAD) * PX)) * 255).astype(np.uint8), (0, 0), 2.0)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)


def test_never_more_keypoints_than_kept_and_the_strongest(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reference, "MAX_FEATURES", 50)
    grey = cv2.cvtColor(speckle(), cv2.COLOR_BGR2GRAY)
    asked = cv2.SIFT.create(nfeatures=50).detectAndCompute(grey, None)[0]
    assert len(asked) > 50  # OpenCV's own count: one or more past the cut
    kept = sift_features(grey)
    assert len(kept.points) == 50 and kept.descriptors.shape == (50, 128)
    weakest_kept = min(k.response for k in asked if any(np.allclose(k.pt, p) for p in kept.points))
    assert all(k.response <= weakest_kept + 1e-9 for k in asked if not any(np.allclose(k.pt, p) for p in kept.points))


def test_a_reference_made_from_such_a_view_is_read_back(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(reference, "MAX_FEATURES", 50)
    view = speckle()
    ref = Reference(view, COLS, ROWS, "empty.jpg", "2026-11-27T00:00:00Z", sift_features(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)))
    save_reference(ref, tmp_path / "r.npz")
    back = load_reference(tmp_path / "r.npz")
    assert back.features is not None and len(back.features.points) == 50


def test_a_reference_saved_with_a_few_more_is_still_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # saved before the keypoints were kept to the limit: a few more than it, read as they are
    monkeypatch.setattr(reference, "MAX_FEATURES", 50)
    monkeypatch.setattr(reference, "MAX_STORED_FEATURES", 100)
    view = speckle()
    points = np.zeros((52, 2), np.float32)
    ref = Reference(view, COLS, ROWS, "empty.jpg", "2026-11-27T00:00:00Z", Features(points, np.zeros((52, 128), np.float32)))
    save_reference(ref, tmp_path / "r.npz")
    assert load_reference(tmp_path / "r.npz").features is not None
